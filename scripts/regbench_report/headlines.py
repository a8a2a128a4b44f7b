"""The headline of a run: the results a reader looks at first, chosen once for scripts/summary and the report.

What a driver author asks first is what the kernel's own accessors cost
(readl, memcpy_toio), what each ordering costs and which copy is fastest.
choose() picks those results by their fields, the file's
kernel_strategies and what each family's row says of it (its role, its
headline rows), never by a name; the summary prints them as its table
(Headline.rows) and the report's headline line quotes some of them.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from regbench_base.model import Key

from . import tables


# The kernel's name of each copy direction.
COPY_OPS = {"toio": "memcpy_toio", "fromio": "memcpy_fromio", "set": "memset_io"}


@dataclass
class Copy:
    """One copy direction's headline: at the largest size measured, the kernel's strategy, the reference, the
    fastest other strategy (by GB/s; None when none measured there)."""
    direction: str
    size: int
    kernel: Optional[Key]
    reference: Optional[Key]
    fastest: Optional[Key]


@dataclass
class Headline:
    readl: str                          # the strategy that is the kernel's readl (kernel_strategies.single)
    reference: Optional[str]            # the copies' reference strategy (glibc's, libc), or None
    latency: Key                        # read32 of readl alone between timer reads (the serialized family)
    chain: Key                          # read32 of readl, each read waiting for the last (the latency family)
    thrpt: Key                          # read32 of readl back to back (the issue family)
    barrier: Key                        # mfence alone (the ordering family)
    copy_only: bool                     # a run of copies only: the headline is which strategy wins at which size
    copies: Dict[str, Copy] = field(default_factory=dict)    # fromio, toio, set -> its headline
    rows: List[Key] = field(default_factory=list)            # every headline result, in display order


def copies(run):
    """The family whose benchmarks are the copies (its role: which copy is fastest at which size), or None."""
    return run.meta.family_of("copies")


def reference(run):
    """The copies' reference strategy (glibc's, libc) as the file declares it, or None."""
    fam = copies(run)
    refs = {res.strategy for res in run.results.values() if res.family == fam and run.meta.is_reference(res.strategy)}
    return min(refs, key=run.meta.strategy_key, default=None)


def _copy(run, direction, kernel, ref):
    fam = copies(run)
    mine = [res for res in run.results.values() if res.family == fam and res.op == direction and res.param]
    if not mine:
        return None
    measured = [res for res in mine if res.state.figure]
    size = max(res.param for res in measured or mine)
    gbs = lambda s: run.measure(Key(fam, direction, None, s, size), "bytes_per_second")
    others = [res.strategy for res in measured if res.param == size and not run.meta.is_reference(res.strategy)
              and gbs(res.strategy).state.figure]
    best = max(others, key=lambda s: gbs(s).value) if others else None
    at = lambda s: Key(fam, direction, None, s, size) if s and Key(fam, direction, None, s, size) in run.results \
        else None
    return Copy(direction, size, at(kernel), at(ref), at(best))


@dataclass
class Place:
    """One size of a copy direction: the fastest strategy there by GB/s (the reference aside), its GB/s, and the
    strategies the same as it as far as the repetitions show (stats), in display order."""
    size: int
    fastest: str
    gbs: float
    tied: List[str]


def copy_places(run, direction):
    """[Place] of every size some strategy measured, smallest first (tables.compare_results decides a tie)."""
    fam = copies(run)
    key = lambda s, n: Key(fam, direction, None, s, n)
    gbs = lambda s, n: run.measure(key(s, n), "bytes_per_second")
    mine = [res for res in run.results.values() if res.family == fam and res.op == direction and res.param
            and res.state.figure and not run.meta.is_reference(res.strategy)]
    out = []
    for n in sorted({res.param for res in mine}):
        ok = sorted((res.strategy for res in mine if res.param == n and gbs(res.strategy, n).state.figure),
                    key=run.meta.strategy_key)
        if not ok:
            continue
        best = max(ok, key=lambda s: gbs(s, n).value)
        tied = [s for s in ok if s != best and tables.compare_results(run, key(best, n), key(s, n), "bytes_per_second",
                                                                      higher_is_better=True).verdict.same]
        out.append(Place(n, best, gbs(best, n).value, tied))
    return out


def _in_table(run, key, readl):
    """Whether a result is a headline row, as its family's row says (model.Family.in_headline): readl's reads and
    writes at 32 and 64 bits in the bulk families, for instance, or every barrier."""
    f = run.meta.families.get(key.family)
    return bool(f) and f.in_headline(key, readl)


def choose(run):
    """The Headline of one run (model.Run)."""
    readl, kernel_copy, of = run.meta.kernel["single"], run.meta.kernel["copy"], run.meta.family_of
    ref = reference(run)
    made = {d: c for d in ("fromio", "toio", "set") if (c := _copy(run, d, kernel_copy, ref))}
    rows = {k for k in run.results if _in_table(run, k, readl)}
    rows |= {k for c in made.values() if c.direction in ("fromio", "toio")
             for k in (c.kernel, c.reference, c.fastest) if k}
    return Headline(readl, ref, Key(of("serialized"), "read", 32, readl), Key(of("latency"), "read", 32, readl),
                    Key(of("issue"), "read", 32, readl), Key(of("ordering"), "mfence"),
                    bool(run.results) and all(res.family == copies(run) for res in run.results.values()),
                    made, sorted(rows, key=run.meta.display_key))
