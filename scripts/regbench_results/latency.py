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

from . import merged, runfile
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
    machine: str = ""                   # runfile.machine: two machines sharing a host name are two groups
    runs: List = field(default_factory=list)           # run ids (their rows while build() groups them)
    rows: List[Row] = field(default_factory=list)

    @property
    def step(self):
        return self.grid[0]


@dataclass
class Latency:
    groups: List[Group]
    left_out: List[Tuple[dict, str]]    # (run row, why its histograms were not merged)


def _group(row):
    """A run's group: its machine (runfile.machine) and its merged group (host, CPU, target, grid), or None."""
    gk = merged.group(row)
    return None if gk is None else (runfile.machine(row),) + gk


def _per_run(store, runs):
    """{group: {name: (runs, model.Histogram)}} of runs, their histograms read and added up one by one."""
    from . import query
    fields = ("run_id", "name", "step", "sub_buckets", "buckets")
    by_key = {r["key"]: _group(r) for r in runs}
    hists = {}
    for part in query.chunks(list(by_key)) if runs else []:
        q = f"SELECT {', '.join(fields)} FROM histograms WHERE run_id IN ({', '.join('?' for _ in part)})"
        for r in store.rows(q, fields, tuple(part)):
            hists.setdefault(by_key[r["run_id"]], {}).setdefault(r["name"], []).append(r)
    out = {}
    for gk, names in hists.items():
        for name, rows in names.items():
            try:
                out.setdefault(gk, {})[name] = (len(rows), distribution.merge([runfile.histogram_of(r) for r in rows]))
            except distribution.MergeError as e:
                raise _merge_error(gk[1:], name, e) from None
    return out


def _stored(store, gk):
    """{name: (runs, model.Histogram)} of a group's rows of `merged`."""
    out = {}
    for r in store.rows(merged.READ, ("name", "runs", "buckets"), gk):
        try:
            out[r["name"]] = (r["runs"], merged.histogram(gk, merged.buckets_of(r["buckets"])))
        except distribution.MergeError as e:
            raise _merge_error(gk, r["name"], e) from None
    return out


def _merge_error(gk, name, e):
    return ResultsError(f"{gk[0]} {gk[2]} {name}", str(e), "the store holds runs whose histograms regbench did not "
                        "write; re-run them")


def build(store, selection):
    """The Latency of a query.Selection of an open store: its runs' lat/ histograms of the benchmarks it names.

    A group whose every run the selection holds is read from `merged` (one row per benchmark, whatever its runs);
    one that filters leave in part (--since, --until, --label, ...), or whose host name another machine shares
    (`merged` adds up by host), is added up from its runs' histograms."""
    from . import query
    groups, gridless = {}, []
    for row in selection.runs:
        gk = _group(row)
        if gk is None:
            if row["lat_histograms"]:
                gridless.append(row)
            continue
        g = groups.setdefault(gk, Group(*gk[1:4], grid=gk[4:], tsc_hz=row["tsc_hz"], machine=gk[0]))
        g.runs.append(row)
    # runs whose histograms have no grid are left out, and said so where the benchmarks asked for are among them
    names = {}
    for part in query.chunks([r["key"] for r in gridless]) if gridless else []:
        for r in store.rows(f"SELECT run_id, name FROM histograms WHERE run_id IN ({', '.join('?' for _ in part)})",
                            ("run_id", "name"), tuple(part)):
            names.setdefault(r["run_id"], set()).add(r["name"])
    left_out = [(row, "its histograms have no grid (a regbench older than the fixed grid): they cannot be added to "
                      "others") for row in gridless if any(selection.wants(n) for n in names.get(row["key"], ()))]
    whole = {}          # how many runs each merged group (host, CPU, target, grid) has in the store
    for row in selection.every:
        whole[merged.group(row)] = whole.get(merged.group(row), 0) + 1
    partial = [r for gk, g in groups.items() if whole.get(gk[1:]) != len(g.runs) for r in g.runs]
    found = _per_run(store, partial)
    for gk, g in groups.items():
        if whole.get(gk[1:]) == len(g.runs):
            found[gk] = _stored(store, gk[1:])
    query.check_patterns(selection, {n for group in found.values() for n in group} | {n for ns in names.values()
                                                                                    for n in ns})
    for gk, g in groups.items():
        wanted = {n: v for n, v in found.get(gk, {}).items() if selection.wants(n)}
        keys = _keys(store, g.runs, wanted)
        order = store.meta(g.runs[-1]["meta"])[0].display_key     # the newest run's metadata orders the rows
        for name, (runs, h) in sorted(wanted.items(), key=lambda kv: order(keys[kv[0]])):
            g.rows.append(Row(name, keys[name], runs, h, {p: distribution.percentile(h, q) for p, q in PERCENTILES}))
        g.runs = [r["id"] for r in g.runs]
    return Latency(sorted((g for g in groups.values() if g.rows), key=lambda g: (g.host, g.machine, g.cpu, g.target,
                                                                                 g.grid)), left_out)


def _keys(store, runs, names):
    """{name: Key} of benchmarks, from the results' columns of a group's runs, the newest first until all are known."""
    fields = ("name", "family", "op", "width", "strategy", "param")
    keys = {}
    # by the histograms' names, not by a family's name: what a family is called is the run's to say
    for run in reversed(runs):
        missing = sorted(set(names) - set(keys))
        if not missing:
            break
        for part in [missing[i:i + 500] for i in range(0, len(missing), 500)]:
            q = (f"SELECT {', '.join(fields)} FROM results WHERE run_id = ? AND name IN "
                 f"({', '.join('?' for _ in part)})")
            for r in store.rows(q, fields, (run["key"], *part)):
                keys[r["name"]] = Key(*(r[f] for f in fields[1:]))
    return keys


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
    return {"groups": [{"host": g.host, "machine": g.machine, "cpu": g.cpu, "target": g.target,
                        "grid": {"step": g.grid[0], "sub_buckets": g.grid[1]}, "tsc_hz": g.tsc_hz, "runs": g.runs,
                        "benchmarks": {r.name: {"runs": r.runs, "samples": r.samples,
                                                "percentiles": {p: list(b) if b else None for p, b in r.percentiles.items()},
                                                "edges": r.histogram.edges,
                                                "counts": [int(c) for c in r.histogram.counts]}
                                       for r in g.rows}} for g in lat.groups],
            "left_out": [{"run": row["id"], "host": row["host"], "target": row["target"], "why": why}
                         for row, why in lat.left_out]}
