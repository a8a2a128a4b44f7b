"""The headline tables of a report, built from whatever benchmarks the runs hold.

A Table names, for every (row, column), which benchmark and counter fills
the cell; it holds no numbers.  The same Table renders for one run (rows x
columns) and for a comparison (one row per cell, one column per run, ratios
against the first), so both modes always show the same thing.  Tables are
built from the union of names in all runs: targets and machines that ran
different sets still line up, and an absent cell says so.
"""
import math
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Tuple

from . import names

# A difference is inside the noise when it is under this many standard
# deviations of the difference of the two medians (about 95% for normal spread).
NOISE_SIGMAS = 2.0

PERCENTILES = ["min", "p50", "p90", "p99", "p999", "max", "outliers"]


@dataclass
class Table:
    """A headline table: what each cell holds, how to print it, which direction is better."""
    key: str
    title: str
    what: str
    unit: str
    row_head: str
    col_head: str
    rows: List[str]
    cols: List[str]
    cells: Dict[Tuple[str, str], Tuple[str, str]]   # (row, col) -> (benchmark name, counter)
    scale: float = 1.0
    higher_is_better: bool = False
    col_text: Callable[[str], str] = str
    notes: List[str] = field(default_factory=list)

    def cell(self, row, col):
        return self.cells.get((row, col))


def _union(runs):
    seen = {}
    for r in runs:
        for key, res in r.results.items():
            seen.setdefault(key, res.name)
    return seen


def _has(runs, name, counter):
    return any(r.measure(name, counter).state != "absent" for r in runs)


def _counter_present(runs, family, counter):
    return any(counter in res.counters for r in runs for res in r.results.values() if res.name.family == family)


def _grid(key, title, what, unit, row_head, col_head, cells, runs, **kw):
    """A Table from {(row, col): (name, counter)}, keeping rows and columns some run has numbers or a bound for.

    Rows and columns that every run skipped are left out: the Not measured
    section lists them with the reason, once, instead of a wall of "skipped".
    """
    cells = {rc: nc for rc, nc in cells.items() if _has(runs, *nc)}
    shown = {rc for rc, (n, c) in cells.items() if any(r.measure(n, c).state not in ("skipped", "absent") for r in runs)}
    if not shown:
        return None
    rows = sorted({r for r, _ in shown}, key=kw.pop("row_key", None))
    cols = sorted({c for _, c in shown}, key=kw.pop("col_key", None))
    cells = {rc: v for rc, v in cells.items() if rc[0] in rows and rc[1] in cols}
    return Table(key, title, what, unit, row_head, col_head, rows, cols, cells, **kw)


def access_tables(runs, op):
    """Cycles per access by strategy x width, one table per family, for reads or writes."""
    fams = ("thrpt", "chain", "lat") if op == "read" else ("thrpt", "lat", "flush")
    counters = ["cycles"] + (["core_cycles"] if any(_counter_present(runs, f, "core_cycles") for f in fams) else [])
    out = []
    bench = _union(runs)
    for counter in counters:
        for fam in fams:
            cells = {(n.strategy, n.width): (key, counter) for key, n in bench.items()
                     if n.family == fam and n.op == op and n.width}
            what, per, _ = names.FAMILIES[fam]
            clock = "core cycles (core_cycles)" if counter == "core_cycles" else "TSC cycles"
            t = _grid(f"{op}-{fam}-{counter}", f"{op.capitalize()}s, {fam}/: {clock} {per}", what,
                      f"{clock} {per}" + (" (median of samples)" if fam in ("lat", "flush") else ""),
                      "strategy", "width (bits)", cells, runs,
                      row_key=names.strategy_key, col_text=lambda w: f"{w}-bit")
            if t:
                out.append(t)
    return out


def latency_table(runs):
    """lat/ percentiles for every lat/ benchmark some run measured (below-resolution ones are listed apart)."""
    bench = _union(runs)
    lat = [key for key, n in bench.items() if n.family == "lat"
           and any(r.measure(key, "p50").state == "ok" for r in runs)]
    cells = {(k, p): (k, p) for k in lat for p in PERCENTILES}
    order = lambda k: (bench[k].op, bench[k].width or 0, names.strategy_key(bench[k].strategy))
    return _grid("latency", "Latency percentiles, lat/: TSC cycles per access",
                 names.FAMILIES["lat"][0] + "; outliers is a count, not cycles", "TSC cycles",
                 "benchmark", "percentile", cells, runs, row_key=order, col_key=PERCENTILES.index)


def rep_table(runs):
    """_rep cycles per element by op x width x strategy (rows) and count (columns)."""
    cells = {(f"{n.opw} {n.strategy}", n.param): (key, "cycles") for key, n in _union(runs).items()
             if n.family == "rep" and n.param}
    def row_key(row):
        opw, strategy = row.split()
        n = names.parse(f"rep/{opw}/{strategy}")
        return (n.op, n.width or 0, names.strategy_key(strategy))
    return _grid("rep", "_rep: TSC cycles per element by count", names.FAMILIES["rep"][0],
                 "TSC cycles per element", "op, strategy", "count", cells, runs,
                 row_key=row_key, col_text=lambda n: f"×{n}")


def copy_tables(runs):
    """Copy bandwidth by strategy x size, one table per direction, libc as the reference row."""
    out = []
    bench = _union(runs)
    titles = {"fromio": "memcpy_fromio (device to memory)", "toio": "memcpy_toio (memory to device)",
              "set": "memset_io"}
    for d in sorted({n.op for n in bench.values() if n.family == "copy"}, key=lambda d: list(titles).index(d)
                    if d in titles else len(titles)):
        cells = {(n.strategy, n.param): (key, "bytes_per_second") for key, n in bench.items()
                 if n.family == "copy" and n.op == d and n.param}
        t = _grid(f"copy-{d}", f"Copy, {titles.get(d, d)}: GB/s by size", names.FAMILIES["copy"][0],
                  "GB/s (10^9 bytes per second; higher is better)", "strategy", "size", cells, runs, row_key=names.strategy_key, scale=1e-9, higher_is_better=True,
                  col_text=names.size_text, notes=["libc is glibc's memcpy/memset on the same window: the reference"])
        if t:
            out.append(t)
    return out


def _per_counter(runs, family, key, title, row_head, row_key):
    """A table of one family's benchmarks (rows) by counter (columns): barriers, dispatch."""
    counters = [c for c in ("cycles", "core_cycles", "ns") if _counter_present(runs, family, c)] or ["cycles"]
    cells = {((n.strategy or n.op), c): (k, c) for k, n in _union(runs).items() if n.family == family
             for c in counters}
    what, per, _ = names.FAMILIES[family]
    head = {"cycles": f"TSC cycles {per}", "core_cycles": f"core cycles {per}", "ns": f"ns {per}"}
    return _grid(key, title, what, "", row_head, "counter", cells, runs, row_key=row_key,
                 col_key=counters.index, col_text=lambda c: head[c])


def barrier_table(runs):
    """Barrier costs, cheapest first (by the first run that measured each)."""
    def cost(row):
        for r in runs:
            m = r.measure(f"barrier/{row}")
            if m.state in ("ok", "below"):
                return m.value if m.state == "ok" else 0.0
        return math.inf
    return _per_counter(runs, "barrier", "barrier", "Barrier costs", "barrier", cost)


def dispatch_table(runs):
    return _per_counter(runs, "dispatch", "dispatch", "Dispatch: ioread32 through a cookie versus readl",
                        "read32 through", names.strategy_key)


def headline_tables(runs):
    """Every headline table the runs have numbers for, in reading order."""
    out = access_tables(runs, "read") + access_tables(runs, "write")
    out += [t for t in (latency_table(runs), rep_table(runs)) if t]
    out += copy_tables(runs)
    out += [t for t in (barrier_table(runs), dispatch_table(runs)) if t]
    return out


# --- values, as cells print them ---------------------------------------------------------

def number(v):
    """A value with as many digits as a reader needs: 1234, 123, 12.3, 1.23, 0.123."""
    if v is None or not math.isfinite(v):
        return "NaN"
    a = abs(v)
    if a >= 100 or v == int(v) and a >= 1:
        return f"{v:.0f}"
    if a >= 10:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    if a == 0:
        return "0"
    return f"{v:.2g}" if a < 0.01 else f"{v:.3f}"


def cell_text(m, scale=1.0):
    """What a single-run cell shows for a Measure."""
    if m.state == "ok":
        return number(m.value * scale)
    if m.state == "below":
        return f"< {number(m.bound)}" if m.bound is not None else "below res."
    return {"skipped": "skipped", "error": "error", "nan": "NaN", "absent": "—"}[m.state]


@dataclass
class Verdict:
    """How run b's value compares with run a's: ratio, and whether it is outside the noise."""
    ratio: float
    beyond: object   # True (outside the noise), False (inside), None (noise unknown)


def compare(a, b, quantum=0.0):
    """Verdict of Measure b against Measure a, or None when either has no number.

    quantum is the step the values move in (the timer resolution for sampled
    families): a difference smaller than one step is inside the noise even
    when repetitions were not run.
    """
    if a.state != "ok" or b.state != "ok" or not a.value:
        return None
    diff = abs(b.value - a.value)
    ratio = b.value / a.value
    if quantum and diff < quantum:
        return Verdict(ratio, False)
    if a.noise is None or b.noise is None:
        return Verdict(ratio, None)
    sd = math.hypot(a.noise * a.value, b.noise * b.value)
    return Verdict(ratio, diff > NOISE_SIGMAS * sd)


def quantum(run, name, counter):
    """The step a counter of this benchmark moves in: the timer resolution for sampled families."""
    n = names.parse(name)
    if names.FAMILIES.get(n.family, ("", "", False))[2] and counter != "outliers":
        return run.ctx_float("timer_resolution_cycles") or 0.0
    return 0.0


def verdict_text(v):
    """A ratio cell: **bold** outside the noise, ≈ inside it, ? when the noise is unknown."""
    if v is None:
        return "—"
    r = f"{v.ratio:.2f}×" if 0.01 <= v.ratio < 100 else f"{v.ratio:.3g}×"
    return {True: f"**{r}**", False: f"≈{r}", None: f"{r} ?"}[v.beyond]
