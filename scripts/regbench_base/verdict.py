"""A comparison's verdict as one enum, Verdict, with what each verdict means and how reports write it.

stats.compare decides a verdict (slower, faster, same, unclear, n/a: docs/METHOD.md, "Verdicts"); this is
what the verdict is.  As with a benchmark's State, code asks a verdict what it means (verdict.differs,
verdict.costlier, verdict.same) or how to write it (verdict.cell, verdict.counted, verdict.mark), and
never compares it with a word: the words are the members' values, written where they leave the program
(compare.json, history --json).
"""
import enum
from dataclasses import dataclass


@dataclass(frozen=True)
class Meaning:
    """What a verdict says about b against a, and how a report writes it."""
    differs: bool = False    # a difference the data shows: slower or faster
    costlier: bool = False   # b costs more than a (an alert, a red point)
    same: bool = False       # shown the same within the margin it names
    undecided: bool = False  # neither shown different nor shown the same, with a number on both sides
    figures: bool = True     # both sides had a number to compare
    cell: str = ""           # a table's ratio cell; {r} the ratio as text.ratio_text writes it
    counted: str = ""        # a count in a sentence; {n} the count
    mark: str = ""           # the glyph above a later run's bar ("" for none), its colour and its legend marker
    colour: str = ""
    marker: str = ""
    legend: str = ""         # the legend's words; {label} the run compared with


# One row per verdict, in the order reports count them.
_MEANINGS = {
    "slower": Meaning(differs=True, costlier=True, cell="**{r} slower**", counted="{n} slower", mark="▲",
                      colour="#c0392b", marker="^", legend="slower than {label}"),
    "faster": Meaning(differs=True, cell="**{r} faster**", counted="{n} faster", mark="▼", colour="#1e8449",
                      marker="v", legend="faster than {label}"),
    "same": Meaning(same=True, cell="≈{r}", counted="{n} the same", mark="≈", colour="0.35", marker=r"$\approx$",
                    legend="the same as {label}"),
    "unclear": Meaning(undecided=True, cell="{r} ?", counted="{n} unclear"),
    "n/a": Meaning(figures=False, cell="—", counted="{n} without a figure on a side"),
}


class Verdict(enum.Enum):
    """How side b of a comparison stands against side a; each member's value is its word in compare.json."""
    SLOWER = "slower"
    FASTER = "faster"
    SAME = "same"
    UNCLEAR = "unclear"
    NA = "n/a"

    def _meaning(self):
        return _MEANINGS[self.value]

    differs = property(lambda self: self._meaning().differs)
    costlier = property(lambda self: self._meaning().costlier)
    same = property(lambda self: self._meaning().same)
    undecided = property(lambda self: self._meaning().undecided)
    figures = property(lambda self: self._meaning().figures)
    counted = property(lambda self: self._meaning().counted)
    mark = property(lambda self: self._meaning().mark)
    colour = property(lambda self: self._meaning().colour)
    marker = property(lambda self: self._meaning().marker)
    legend = property(lambda self: self._meaning().legend)

    def cell(self, ratio_text):
        """A table's ratio cell of this verdict, the ratio written as ratio_text."""
        return self._meaning().cell.format(r=ratio_text)

    def __str__(self):
        return self.value


if [v.value for v in Verdict] != list(_MEANINGS):
    raise ImportError("regbench_base.verdict: each Verdict needs its row in _MEANINGS, in the same order")
