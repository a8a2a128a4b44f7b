"""Latency across runs: the lat/ histograms of every run of one machine and target, added up into one distribution.

regbench bins each lat/ sample on a grid that follows from the timer's step
alone (bench/estimate.h; the histogram's `grid`), so the runs of one machine
lie on the same bucket edges: the store adds them up bucket by bucket
(regbench_base.distribution.merge) and reads percentiles off the whole, as
if one run had taken every sample.  A group is one machine and target (host,
CPU, target as the reference table names them) and one grid (the timer's
step): a machine whose step differs between runs, or whose runs predate the
grid, is never mixed in.  A percentile is the bucket the sample lies in: one
timer step wide below 64 steps, at most 1/32 of its lower edge above.
"""
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from regbench_base import distribution, model, text
from regbench_base.model import Key

from . import reference, runfile
from .errors import ResultsError

PERCENTILES = (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("p99.9", 0.999), ("max", 1.0))


@dataclass
class Row:
    """One lat/ benchmark of a group: its runs' histograms added up, and the bucket of each percentile."""
    name: str
    key: Key
    runs: int
    histogram: model.Histogram
    percentiles: Dict[str, Tuple[float, float]]

    @property
    def samples(self):
        return int(distribution.total(self.histogram))


@dataclass
class Group:
    """One machine and target on one grid: the runs merged, a Row per benchmark."""
    host: str
    cpu: str
    target: str
    grid: Tuple[float, int]             # (timer step in TSC ticks, buckets per power of two)
    tsc_hz: Optional[float]
    runs: List[str] = field(default_factory=list)      # run ids
    rows: List[Row] = field(default_factory=list)

    @property
    def step(self):
        return self.grid[0]


@dataclass
class Latency:
    groups: List[Group]
    left_out: List[Tuple[dict, str]]    # (run row, why its histograms were not merged)


def _histograms(store, selection):
    """{run key: [(name, model.Histogram)]} of the runs chosen, from the store's histograms table."""
    from . import query
    fields = ("run_id", "name", "step", "sub_buckets", "buckets")
    out = {}
    for part in query.chunks(selection.keys):
        q = f"SELECT {', '.join(fields)} FROM histograms WHERE run_id IN ({', '.join('?' for _ in part)})"
        for r in store.rows(q, fields, tuple(part)) if part else []:
            if selection.wants(r["name"]):
                out.setdefault(r["run_id"], []).append((r["name"], runfile.histogram_of(r)))
    return out


def build(store, selection):
    """The Latency of a query.Selection of an open store: its runs' lat/ histograms of the benchmarks it names."""
    from . import query
    by_run = _histograms(store, selection)
    query.check_patterns(selection, {n for hs in by_run.values() for n, _ in hs})
    groups, members, left_out, orders = {}, {}, [], {}
    for row in selection.runs:
        hists = by_run.get(row["key"], [])
        if any(h.grid is None for _, h in hists):
            left_out.append((row, "its histograms have no grid (a regbench older than the fixed grid): they "
                                  "cannot be added to others"))
            continue
        for name, h in hists:
            gk = (row["host"], row["cpu"], reference.target_label(row), h.grid)
            g = groups.setdefault(gk, Group(*gk, tsc_hz=row["tsc_hz"]))
            if row["id"] not in g.runs:
                g.runs.append(row["id"])
                orders[gk] = row["meta"]         # the newest run's metadata orders the rows
            members.setdefault(gk, {}).setdefault(name, []).append(h)
    # what each benchmark is, from the results' columns; the display order from the newest run of each group
    keys = {r["name"]: Key(r["family"], r["op"], r["width"], r["strategy"], r["param"]) for r in store.rows(
        "SELECT DISTINCT name, family, op, width, strategy, param FROM results WHERE family = 'lat'",
        ("name", "family", "op", "width", "strategy", "param"))}
    for gk, g in groups.items():
        order = store.meta(orders[gk])[0].display_key
        for name, hists in sorted(members[gk].items(), key=lambda kv: order(keys[kv[0]])):
            try:
                merged = distribution.merge(hists)
            except distribution.MergeError as e:
                raise ResultsError(f"{g.host} {g.target} {name}", str(e), "the store holds runs whose histograms "
                                   "regbench did not write; re-run them") from None
            g.rows.append(Row(name, keys[name], len(hists), merged,
                              {p: distribution.percentile(merged, q) for p, q in PERCENTILES}))
    return Latency(sorted(groups.values(), key=lambda g: (g.host, g.cpu, g.target, g.grid)), left_out)


def bucket_text(bucket, step):
    """A percentile's bucket as text: '< 21' (under one step), '4788' (one step: the value), '4788–4872'; '—' for
    histograms without a sample (the contract allows counts of 0)."""
    if bucket is None:
        return "—"
    lo, hi = bucket
    if lo == 0 and hi <= step:
        return text.bound_text(hi)
    return text.number(lo) if hi - lo <= step else f"{text.number(lo)}–{text.number(hi)}"


def document(lat):
    """The merged distributions for programs: a list of groups, each with its benchmarks' edges, counts and the
    bucket [lo, hi) of each percentile, in TSC ticks."""
    return {"groups": [{"host": g.host, "cpu": g.cpu, "target": g.target,
                        "grid": {"step": g.grid[0], "sub_buckets": g.grid[1]}, "tsc_hz": g.tsc_hz, "runs": g.runs,
                        "benchmarks": {r.name: {"runs": r.runs, "samples": r.samples,
                                                "percentiles": {p: list(b) if b else None for p, b in r.percentiles.items()},
                                                "edges": r.histogram.edges,
                                                "counts": [int(c) for c in r.histogram.counts]}
                                       for r in g.rows}} for g in lat.groups],
            "left_out": [{"run": row["id"], "host": row["host"], "target": row["target"], "why": why}
                         for row, why in lat.left_out]}
