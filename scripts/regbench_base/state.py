"""A benchmark's state as one enum, State, built from the contract's list, with what each state means.

The schema (bench/regbench.schema.json, $defs.state) is where the states are
listed; State is made from that list, so the Python side never spells it
again.  What a reader may do with a benchmark in each state (quote a figure,
quote only a bound, count it as failed) and how a report speaks of it is
declared here once per state, in _MEANINGS, and code asks a state what it
means (state.figure, state.bound) instead of comparing it with a word.  A
state the contract gains without a row here stops the import with a line
saying so, rather than being read as some other state.

A measured benchmark can still lack a figure for one counter: the counter is
not a number in the file, or the benchmark has no such counter.  Those are
Gap.NAN and Gap.ABSENT, which answer the same questions as a State, so a
table cell asks its Measure the same way whichever it holds.
"""
import enum
from dataclasses import dataclass

from . import contract


@dataclass(frozen=True)
class Meaning:
    """What a state says about a benchmark's figures, and how a report writes it."""
    figure: bool = False     # it has figures to quote
    bound: bool = False      # it has only an upper bound: most repetitions fell under one step of the timer
    ran: bool = False        # it ran to its end or failed in it (skipped and not-run benchmarks did not run)
    failed: bool = False     # a repetition failed
    cell: str = ""           # a table cell's text where there is no figure
    heading: str = ""        # the heading over a list of such benchmarks
    sentence: str = ""       # the words of a sentence; {reason}, {bound} (as text.bound_text writes it) and {ticks}
                             # (text.tick_words) filled in


# One row per contract state, and for a Measure's own gaps, in the order a report lists the benchmarks
# without a figure; a new state of the contract is a row here.
_MEANINGS = {
    "measured": Meaning(figure=True, ran=True),
    "error": Meaning(ran=True, failed=True, cell="error", heading="Failed", sentence="failed ({reason})"),
    "not_run": Meaning(cell="not run", heading="Not run (the run stopped before them)",
                       sentence="not run (the run stopped before it)"),
    "skipped": Meaning(cell="skipped", heading="Skipped", sentence="skipped ({reason})"),
    "below_resolution": Meaning(bound=True, ran=True, cell="below res.", heading="Below the timer's resolution",
                                sentence="below the timer's resolution ({bound} {ticks})"),
    "nan": Meaning(ran=True, cell="NaN"),
    "absent": Meaning(cell="—"),
}


class _Kind(enum.Enum):
    """The questions a State and a Gap answer; each member's value is its word in the file."""

    def _meaning(self):
        return _MEANINGS[self.value]

    figure = property(lambda self: self._meaning().figure)
    bound = property(lambda self: self._meaning().bound)
    ran = property(lambda self: self._meaning().ran)
    failed = property(lambda self: self._meaning().failed)
    cell = property(lambda self: self._meaning().cell)
    heading = property(lambda self: self._meaning().heading)
    sentence = property(lambda self: self._meaning().sentence)

    @property
    def timed(self):
        """It was timed to its end: a figure, or a bound under the timer's step."""
        return self.figure or self.bound

    @property
    def rank(self):
        """Its place in the order a report lists states (_MEANINGS')."""
        return list(_MEANINGS).index(self.value)

    def __str__(self):
        return self.value


_unknown = [s for s in contract.states() if s not in _MEANINGS]
if _unknown:
    raise ImportError(f"regbench_base.state: the contract's state {', '.join(_unknown)} has no row in _MEANINGS "
                      "(add what it means there)")

State = _Kind("State", [(s.upper(), s) for s in contract.states()])
State.__doc__ = "How a benchmark ended, as the contract lists the states (bench/regbench.schema.json)."

Gap = _Kind("Gap", [("NAN", "nan"), ("ABSENT", "absent")])
Gap.__doc__ = "Why a measured benchmark has no figure for one counter: not a number in the file, or no such counter."


def unmeasured():
    """The states of a benchmark without a figure, in the order a report lists them."""
    return sorted((s for s in State if not s.figure), key=lambda s: s.rank)
