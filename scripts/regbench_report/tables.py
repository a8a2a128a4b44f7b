"""The headline tables of a report, built from whatever benchmarks the runs hold.

A Table names, for every (row, column), which benchmark and counter fills
the cell; it holds no numbers.  The same Table renders for one run (rows x
columns) and for a comparison (one row per cell, one column per run, ratios
against the first), so both modes always show the same thing.  Tables are
built from the union of benchmarks (model.Key: what the file's metadata
says each is) in all runs: targets and machines that ran different sets
still line up, and an absent cell says so.  Which families get which
table, in which order, and how they are described comes from the
metadata too (model.Meta).
"""
import dataclasses
import math
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

from regbench_base import model, names
from regbench_base.model import Key
from regbench_base.state import Gap
from regbench_base.verdict import Verdict
from regbench_base.text import bound_text, number, ratio_text

from regbench_base import stats

PERCENTILES = ["min", "p50", "p90", "p99", "p999", "max", "outliers"]


@dataclass
class Table:
    """A headline table: what each cell holds, how to print it, which direction is better."""
    key: str
    family: str
    title: str
    what: str
    unit: str
    row_head: str
    col_head: str
    rows: List[object]
    cols: List[object]
    cells: Dict[Tuple[object, object], Tuple[Key, str]]   # (row, col) -> (benchmark, counter)
    main: Optional[str] = "cycles"   # the counter comparisons count and summarise; None: shown only
    scale: float = 1.0
    higher_is_better: bool = False
    row_text: Callable[[object], str] = str
    col_text: Callable[[object], str] = str
    notes: List[str] = field(default_factory=list)
    other: Optional["Table"] = None  # the same cells in the other clock, shown on demand (first_counter)

    def cell(self, row, col):
        return self.cells.get((row, col))


def union(runs):
    """Every benchmark some run holds, as the first run that holds it has it."""
    seen = {}
    for r in runs:
        for key, res in r.results.items():
            seen.setdefault(key, res)
    return seen


def _has(runs, key, counter):
    return any(r.measure(key, counter).state is not Gap.ABSENT for r in runs)


def _counter_present(runs, family, counter):
    return any(counter in res.counters for r in runs for res in r.results.values() if res.family == family)


def param_text(family):
    """How a column of the family's parameter reads: sizes in bytes, counts as ×N."""
    return names.size_text if family.param == "size" else (lambda n: f"×{n}")


def _grid(key, family, title, what, unit, row_head, col_head, cells, runs, **kw):
    """A Table from {(row, col): (Key, counter)}, keeping rows and columns some run has numbers or a bound for.

    Rows and columns that every run skipped are left out: the Not measured
    section lists them with the reason, once, instead of a wall of "skipped".
    """
    cells = {rc: kc for rc, kc in cells.items() if _has(runs, *kc)}
    shown = [rc for rc, (k, c) in cells.items()
             if any(r.measure(k, c).state.ran for r in runs)]
    if not shown:
        return None
    # in the order shown first, so that rows of equal keys (barriers below resolution) keep one order
    rows = sorted(dict.fromkeys(r for r, _ in shown), key=kw.pop("row_key", None))
    cols = sorted(dict.fromkeys(c for _, c in shown), key=kw.pop("col_key", None))
    cells = {rc: v for rc, v in cells.items() if rc[0] in rows and rc[1] in cols}
    return Table(key, family, title, what, unit, row_head, col_head, rows, cols, cells, **kw)


def access_families(runs, op):
    """Families of single accesses of op (a width, no count or size, accessor strategies), in display order."""
    m = model.meta(runs)
    fams = {k.family for k in union(runs) if k.op == op and k.width and k.param is None
            and m.kinds.get(k.strategy) == "accessor"}
    return sorted(fams, key=m.family_key)


CLOCKS = {"cycles": "TSC cycles", "core_cycles": "core cycles"}


def first_counter(runs, family):
    """The clock a family's table and charts show first; the other is on demand (the table's `other`).

    Core cycles, the core's own clock (what a CPU's manuals and instruction
    tables count, whatever the TSC's rate), for a family measured in bulk in
    a single run where every result of the family with a TSC figure has
    them.  TSC cycles for a family sampled between timer reads (its values
    and its resolution bound move in TSC steps) and in a comparison, whose
    verdicts are decided in TSC cycles with the core clock's change taken
    out (compare_in): the ratios then match the figures.
    """
    measured = [res for r in runs for res in r.results.values() if res.family == family and res.state.figure
                and math.isfinite(res.counters.get("cycles", math.nan))]
    if len(runs) > 1 or model.meta(runs).sampled(family) or not measured or \
            not all(math.isfinite(res.counters.get("core_cycles", math.nan)) for res in measured):
        return "cycles"
    return "core_cycles"


def _in_clocks(runs, family, make):
    """make(counter, clock words) for each clock the runs have, as one Table: the first clock's, the other its
    `other`; comparisons count TSC cycles (main), never core cycles.  None when neither has numbers."""
    made = {c: make(c, CLOCKS[c]) for c in CLOCKS if c == "cycles" or _counter_present(runs, family, c)}
    made = {c: t for c, t in made.items() if t}
    if not made:
        return None
    first = made.get(first_counter(runs, family)) or next(iter(made.values()))
    first.other = next((t for t in made.values() if t is not first), None)
    return first


def access_tables(runs, op):
    """Cycles per access by strategy x width, one table per family (other clock on demand), for reads or writes."""
    m = model.meta(runs)
    out = []
    bench = union(runs)
    for fam in access_families(runs, op):
        f = m.families[fam]
        cells = lambda counter: {(k.strategy, k.width): (k, counter) for k in bench
                                 if k.family == fam and k.op == op and k.width and k.param is None}
        t = _in_clocks(runs, fam, lambda counter, clock: _grid(
            f"{op}-{fam}-{counter}", fam, f"{op.capitalize()}s, {fam}/: {clock} per {f.unit}", f.what,
            f"{clock} per {f.unit}" + (" (median of samples)" if f.sampled else ""), "strategy", "width (bits)",
            cells(counter), runs, main="cycles" if counter == "cycles" else None, row_key=m.strategy_key,
            col_text=lambda w: f"{w}-bit"))
        if t:
            out.append(t)
    return out


def latency_table(runs):
    """lat/ percentiles for every lat/ benchmark some run measured (below-resolution ones are listed apart)."""
    m = model.meta(runs)
    lat = [k for k in union(runs) if k.family == "lat" and any(r.measure(k, "p50").state.figure for r in runs)]
    if not lat:
        return None
    cells = {(k, p): (k, p) for k in lat for p in PERCENTILES}
    order = lambda k: (k.op, k.width or 0, m.strategy_key(k.strategy))
    lat_family = m.families["lat"]
    # main=None: min and max are single samples, not results to compare
    return _grid("latency", "lat", f"Latency percentiles, lat/: TSC cycles per {lat_family.unit}",
                 lat_family.what + "; outliers is a count, not cycles", "TSC cycles",
                 "benchmark", "percentile", cells, runs, main=None, row_key=order, col_key=PERCENTILES.index,
                 row_text=names.label)


def rep_tables(runs):
    """Cycles per element by op x width x strategy (rows) and count (columns), for families that sweep a count."""
    m = model.meta(runs)
    out = []
    for fam in sorted({k.family for k in union(runs) if m.families[k.family].param == "count"}, key=m.family_key):
        f = m.families[fam]
        cells = lambda counter: {((k.op, k.width, k.strategy), k.param): (k, counter) for k in union(runs)
                                 if k.family == fam and k.param}
        t = _in_clocks(runs, fam, lambda counter, clock: _grid(
            f"{fam}-{counter}" if counter != "cycles" else fam, fam, f"{fam}/: {clock} per {f.unit} by count",
            f.what, f"{clock} per {f.unit}", "op, strategy", "count", cells(counter), runs,
            main="cycles" if counter == "cycles" else None,
            row_key=lambda r: (r[0], r[1] or 0, m.strategy_key(r[2])),
            row_text=lambda r: f"{names.opw(r[0], r[1])} {r[2]}", col_text=param_text(f)))
        if t:
            out.append(t)
    return out


COPY_TITLES = {"fromio": "memcpy_fromio (device to memory)", "toio": "memcpy_toio (memory to device)",
               "set": "memset_io"}


def copy_tables(runs):
    """Bandwidth by strategy x size, one table per family sweeping a size and direction, the reference row last."""
    m = model.meta(runs)
    bench = union(runs)
    out = []
    ops = lambda d: list(COPY_TITLES).index(d) if d in COPY_TITLES else len(COPY_TITLES)
    for fam in sorted({k.family for k in bench if m.families[k.family].param == "size"}, key=m.family_key):
        f = m.families[fam]
        refs = sorted({k.strategy for k in bench if k.family == fam and m.is_reference(k.strategy)})
        for d in sorted({k.op for k in bench if k.family == fam}, key=lambda d: (ops(d), d)):
            cells = {(k.strategy, k.param): (k, "bytes_per_second") for k in bench
                     if k.family == fam and k.op == d and k.param}
            title = f"{fam.capitalize()}, {COPY_TITLES.get(d, d)}: GB/s by size"
            t = _grid(f"{fam}-{d}", fam, title, f.what, "GB/s (10^9 bytes per second; higher is better)",
                      "strategy", "size", cells, runs, main="bytes_per_second", row_key=m.strategy_key,
                      scale=1e-9, higher_is_better=True, col_text=param_text(f),
                      notes=[f"{s} is {m.help[s]}: the reference" for s in refs
                             if any(row == s for row, _ in cells)])
            if t:
                out.append(t)
    return out


def _per_counter(runs, family, key, title, row_head, row_key):
    """A table of one family's benchmarks (rows) by counter (columns): barriers, dispatch."""
    m = model.meta(runs)
    f = m.families[family]
    counters = [c for c in ("cycles", "core_cycles", "ns") if _counter_present(runs, family, c)] or ["cycles"]
    cells = {(k.strategy or k.op, c): (k, c) for k in union(runs) if k.family == family for c in counters}
    head = {"cycles": f"TSC cycles per {f.unit}", "core_cycles": f"core cycles per {f.unit}", "ns": f"ns per {f.unit}"}
    return _grid(key, family, title, f.what, "", row_head, "counter", cells, runs, row_key=row_key,
                 col_key=counters.index, col_text=lambda c: head[c])


def barrier_table(runs):
    """Barrier costs, cheapest first (by the first run that measured each)."""
    by_row = {k.strategy or k.op: k for k in union(runs) if k.family == "barrier"}
    if not by_row:
        return None

    def cost(row):
        for r in runs:
            m = r.measure(by_row[row])
            if m.state.timed:
                return m.value if m.state.figure else 0.0
        return math.inf
    return _per_counter(runs, "barrier", "barrier", "Barrier costs", "barrier", cost)


def dispatch_table(runs):
    if not any(k.family == "dispatch" for k in union(runs)):
        return None
    return _per_counter(runs, "dispatch", "dispatch", "Dispatch: ioread32 through a cookie versus readl",
                        "read32 through", model.meta(runs).strategy_key)


def headline_tables(runs):
    """Every headline table the runs have numbers for, in reading order."""
    out = access_tables(runs, "read") + access_tables(runs, "write")
    out += [t for t in [latency_table(runs)] + rep_tables(runs) if t]
    out += copy_tables(runs)
    out += [t for t in (barrier_table(runs), dispatch_table(runs)) if t]
    return out


# --- values, as cells print them ---------------------------------------------------------

def cell_text(m, scale=1.0):
    """What a single-run cell shows for a Measure."""
    if m.state.figure:
        return number(m.value * scale)
    if m.state.bound and m.bound is not None:
        return bound_text(m.bound)
    return m.state.cell


def compare(a, b, quantum=0.0, higher_is_better=False, floor=None, calm_family=None, negligible=0.0, spread=None,
            shaken_family=None):
    """stats.Comparison of Measure b against Measure a, over their repetitions or runs (n/a when either has no number).

    quantum is the step the values move in (the timer resolution for sampled
    families): a difference smaller than one step is no difference.
    """
    reps = lambda m: list(m.reps or (m.value,)) if m.state.figure else []
    return stats.compare(reps(a), reps(b), a_runs=a.runs, b_runs=b.runs, higher_is_better=higher_is_better,
                         quantum=quantum, floor=floor, calm_family=calm_family, negligible=negligible, spread=spread,
                         shaken_family=shaken_family)


def compare_within(a, b, higher_is_better=False, disturbed=False):
    """compare() of two benchmarks of one run (strategies side by side): the run moves both, so the floor
    is the one a test over runs uses, not the run-to-run spread of one run against another; where either was
    measured on a disturbed machine only MIN_EFFECT["repetition"] counts, and a same must hold that much more:
    a host sharing the core moves one benchmark of a run and not the other, as it moves whole runs."""
    wide = stats.MIN_EFFECT["repetition"] if disturbed else 0.0
    return compare(a, b, higher_is_better=higher_is_better, spread=wide,
                   floor=stats.MIN_EFFECT["repetition" if disturbed else "run"])


def compare_results(run, a, b, counter="cycles", higher_is_better=False):
    """compare_within() of benchmark b against benchmark a (Keys) of one run, in counter."""
    disturbed = any(run.results[k].disturbed for k in (a, b) if k in run.results)
    return compare_within(run.measure(a, counter), run.measure(b, counter), higher_is_better, disturbed)


def sampled_families(runs):
    """The families whose values move in timer steps (the contract's `sampled`), as text: "lat/ and flush/"."""
    m = runs[0].meta
    fams = [f + "/" for f in m.family_order if m.sampled(f)]
    return " and ".join(fams) if len(fams) < 3 else ", ".join(fams[:-1]) + " and " + fams[-1]


def quantum(run, key, counter):
    """The step a counter of this benchmark moves in: the timer resolution for sampled families."""
    if run.meta.sampled(key.family) and counter != "outliers":
        return run.ctx_float("timer_resolution_cycles") or 0.0
    return 0.0


def _clock_free(run):
    """Whether run's core_cycles undo a change of the core clock: estimated beside each repetition, or counted
    where the count holds every cycle (a trap target's counted cycles leave out its handler in the kernel)."""
    source = run.ctx("core_cycles_source", "")
    return source.startswith("estimated") or (source.startswith("counted") and run.ctx("target_mapping") != "trap")


def compare_in(a, b, key, counter, higher_is_better=False):
    """compare() of one benchmark's counter in run b against run a, with the timer step either run has, and the
    floor of its family where neither run measured it on a disturbed machine (and where either did, for several
    runs a side).

    TSC figures (cycles, ns, bytes/s) move with the core clock, which a host changes between runs by several
    percent: a difference is called only when core cycles, with the clock's change taken out, say the same.
    A change of the clock alone moves one of the two (a CPU-bound cost in TSC ticks, a device-bound one in
    core cycles), a real change both.
    """
    results = [r.results.get(key) for r in (a, b)]
    calm = all(res is not None and not res.disturbed for res in results)
    family, shaken = (key.family, None) if calm else (None, key.family)
    v = compare(a.measure(key, counter), b.measure(key, counter), max(quantum(r, key, counter) for r in (a, b)),
                higher_is_better, calm_family=family, shaken_family=shaken,
                negligible=stats.NEGLIGIBLE_CYCLES if counter in ("cycles", "core_cycles") else 0.0)
    if not v.verdict.differs or counter == "core_cycles" or not all(_clock_free(r) for r in (a, b)):
        return v
    core = compare(a.measure(key, "core_cycles"), b.measure(key, "core_cycles"), calm_family=family,
                   shaken_family=shaken, negligible=stats.NEGLIGIBLE_CYCLES)
    if core.ratio is None or core.verdict == v.verdict:
        return v
    # The TSC figure moved and core cycles did not, or the other way: the clock's change, not the code's. What
    # core cycles show of the code decides: the same within their interval, or nothing to tell.
    return dataclasses.replace(v, verdict=Verdict.SAME if core.verdict.same else Verdict.UNCLEAR, interval=core.interval,
                               margin=core.margin, margin_needed=core.margin_needed, runs_needed=core.runs_needed,
                               why=f"in core cycles {core.verdict} ({core.ratio:.2f}×): the core clock moved between "
                                   "the runs" + (f"; {core.why}" if core.why else ""))


def verdict_text(v):
    """A ratio cell: **bold** and the verdict when faster or slower, ≈ when the same, ? when unclear."""
    if v.ratio is None:
        return "—"
    return v.verdict.cell(ratio_text(v.ratio))
