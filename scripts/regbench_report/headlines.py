"""The headline of a run: the results a reader looks at first, chosen once for scripts/summary and the report.

What a driver author asks first is what the kernel's own accessors cost
(readl, memcpy_toio), what each ordering costs and which copy is fastest.
choose() picks those results by their fields and the file's
kernel_strategies, never by name; the summary prints them as its table
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
    latency: Key                        # lat/read32 of readl: one serialized readl
    chain: Key                          # chain/read32 of readl: dependent reads
    thrpt: Key                          # thrpt/read32 of readl: back to back
    barrier: Key                        # barrier/mfence
    copy_only: bool                     # a run of copies only: the headline is which strategy wins at which size
    copies: Dict[str, Copy] = field(default_factory=dict)    # fromio, toio, set -> its headline
    rows: List[Key] = field(default_factory=list)            # every headline result, in display order


def reference(run):
    """The copies' reference strategy (glibc's, libc) as the file declares it, or None."""
    refs = {res.strategy for res in run.results.values() if res.family == "copy" and run.meta.is_reference(res.strategy)}
    return min(refs, key=run.meta.strategy_key, default=None)


def _copy(run, direction, kernel, ref):
    mine = [res for res in run.results.values() if res.family == "copy" and res.op == direction and res.param]
    if not mine:
        return None
    measured = [res for res in mine if res.state.figure]
    size = max(res.param for res in measured or mine)
    gbs = lambda s: run.measure(Key("copy", direction, None, s, size), "bytes_per_second")
    others = [res.strategy for res in measured if res.param == size and not run.meta.is_reference(res.strategy)
              and gbs(res.strategy).state.figure]
    best = max(others, key=lambda s: gbs(s).value) if others else None
    at = lambda s: Key("copy", direction, None, s, size) if s and Key("copy", direction, None, s, size) in run.results \
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
    key = lambda s, n: Key("copy", direction, None, s, n)
    gbs = lambda s, n: run.measure(key(s, n), "bytes_per_second")
    mine = [res for res in run.results.values() if res.family == "copy" and res.op == direction and res.param
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


def _in_table(key, readl):
    """Whether a single access, _rep or barrier result is a headline row: readl's reads and writes at 32 and 64
    bits in each bulk family, its serialized read, its write with read-back, its _rep reads, every barrier and
    every dispatch row (the cookie against readl)."""
    if key.family in ("barrier", "dispatch"):
        return True
    if key.strategy != readl:
        return False
    wide = key.width in (32, 64)
    return ((key.family in ("lat", "chain", "thrpt") and key.op == "read" and wide)
            or (key.family == "thrpt" and key.op == "write" and wide)
            or (key.family == "flush" and key.op == "write" and key.width == 32)
            or (key.family == "rep" and key.op == "read" and key.width == 32))


def choose(run):
    """The Headline of one run (model.Run)."""
    readl, kernel_copy = run.meta.kernel["single"], run.meta.kernel["copy"]
    ref = reference(run)
    copies = {d: c for d in ("fromio", "toio", "set") if (c := _copy(run, d, kernel_copy, ref))}
    rows = {k for k in run.results if _in_table(k, readl)}
    rows |= {k for c in copies.values() if c.direction in ("fromio", "toio")
             for k in (c.kernel, c.reference, c.fastest) if k}
    return Headline(readl, ref, Key("lat", "read", 32, readl), Key("chain", "read", 32, readl),
                    Key("thrpt", "read", 32, readl), Key("barrier", "mfence"),
                    bool(run.results) and all(res.family == "copy" for res in run.results.values()),
                    copies, sorted(rows, key=run.meta.display_key))
