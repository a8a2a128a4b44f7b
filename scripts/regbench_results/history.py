"""A machine's memory: each machine × target's runs of a benchmark over time (history), and regressions (alerts).

A series is one benchmark on one machine and target (the machine by its
machine_id where the runs carry one, else its host; the target as the
reference table names it), its points the runs in time order: when, which
run, the kernel, firmware and labels it ran with, the median in ns with the
repetitions' range, and the verdict against the point before.  Verdicts are
the report's (regbench_base.stats.compare) on each run's repetitions in TSC
cycles, with the family's run-to-run floor where neither side was disturbed.
An alert is a costlier verdict (slower) of a machine's latest run against its own
baseline (its earlier runs labelled baseline=yes, else its last N runs): where
the baseline has stats.OWN_RUNS runs or more, their own spread from run to
run is the floor (stats.against_history), not the family's; a result that
cannot be told apart from its baseline is never an alert.
"""
from dataclasses import dataclass, field
from typing import List, Optional

from regbench_base import stats

from . import query, reference, runfile, sql

# The columns of `results` a point is made of: a reference table cell's (reference.cell makes one run's figure of
# a point), and the TSC cycles and repetitions its verdict is drawn from.
FIELDS = reference.FIELDS + ("cycles", "reps")
# How many earlier runs an alert compares with when none is labelled a baseline.
BASELINE_RUNS = 5
BASELINE_LABEL = ("baseline", "yes")


machine = runfile.machine

@dataclass
class Point:
    run: dict                        # the run's row (query.all_runs)
    result: dict                     # its result row (FIELDS)
    verdict: Optional[stats.Comparison] = None    # against the point before

    @property
    def reps(self):
        return runfile.reps_of(self.result["reps"])


@dataclass
class Series:
    """One benchmark on one machine and target, its points oldest first."""
    machine: str
    host: str
    cpu: str
    target: str
    name: str
    points: List[Point] = field(default_factory=list)


def compare(before, after, family, disturbed):
    """The report's Comparison of after's repetitions against before's (lists of TSC cycles)."""
    return stats.compare(before, after, calm_family=None if disturbed else family,
                         negligible=stats.NEGLIGIBLE_CYCLES)


def series(store, selection):
    """Every Series of a query.Selection of an open store: the function the site draws its history charts from."""
    runs = {r["key"]: r for r in selection.runs}
    out = {}
    for row in query.results(store, selection, FIELDS):
        run = runs[row["run_id"]]
        key = (machine(run), reference.target_label(run), row["name"])
        s = out.setdefault(key, Series(key[0], run["host"], run["cpu"], key[1], row["name"]))
        s.points.append(Point(run, row))
    order = {r["id"]: i for i, r in enumerate(selection.runs)}
    for s in out.values():
        s.points.sort(key=lambda p: order[p.run["id"]])
        for before, after in zip(s.points, s.points[1:]):
            if before.reps and after.reps:
                after.verdict = compare(before.reps, after.reps, after.result["family"],
                                        before.result["disturbed"] or after.result["disturbed"])
    return sorted(out.values(), key=lambda s: (s.machine, s.target, s.name))


def point_document(p):
    r, run = p.result, p.run
    return {"date": run["date"], "time": run["time"], "run": run["id"], "host": run["host"], "kernel": run["kernel"],
            "firmware": run["firmware"], "microcode": run["microcode"], "labels": run["labels"], "state": r["state"],
            "ns": r["ns"], "ns_lo": r["ns_lo"], "ns_hi": r["ns_hi"], "cycles": r["cycles"],
            "disturbed": r["disturbed"], "verdict": str(p.verdict.verdict) if p.verdict else None,
            "ratio": p.verdict.ratio if p.verdict else None, "why": p.verdict.why if p.verdict else None}


def document(all_series):
    """The history for programs (--json)."""
    return {"series": [{"machine": s.machine, "host": s.host, "cpu": s.cpu, "target": s.target, "benchmark": s.name,
                        "points": [point_document(p) for p in s.points]} for s in all_series]}


@dataclass
class Alert:
    machine: str
    host: str
    target: str
    name: str
    latest: dict                     # the latest run's row
    baseline: List[dict]             # the runs it was compared with
    verdict: stats.Comparison


def alerts(store, selection, baseline_runs=None):
    """(the Alerts, how many results were compared): each machine × target's latest run against its baseline.

    The filters choose which latest runs are checked (--since yesterday: last night's); the baseline is drawn
    from the machine × target's own earlier runs in the store, whatever the filters say of them (a date filter
    would otherwise leave a night's run with no baseline, and every night would pass)."""
    group = lambda run: (machine(run), reference.target_label(run))
    groups, every = {}, {}
    for run in selection.runs:
        groups.setdefault(group(run), []).append(run)
    for run in selection.every or selection.runs:
        every.setdefault(group(run), []).append(run)
    chosen, pairs = [], []
    for (m, target), runs in groups.items():
        latest = runs[-1]
        mine = every[(m, target)]
        earlier = mine[:next(i for i, r in enumerate(mine) if r["id"] == latest["id"])]
        labelled = [r for r in earlier if r["labels"].get(BASELINE_LABEL[0]) == BASELINE_LABEL[1]]
        base = labelled if baseline_runs is None and labelled else earlier[-(baseline_runs or BASELINE_RUNS):]
        if base:
            pairs.append(((m, target), latest, base))
            chosen += [latest, *base]
    if not pairs:
        return [], 0
    by_run = {}
    for row in query.results(store, query.Selection(chosen, selection.patterns), FIELDS, sql.FIGURED):
        by_run.setdefault(row["run_id"], {})[row["name"]] = row
    out, compared = [], 0
    for (m, target), latest, base in pairs:
        for name, row in sorted(by_run.get(latest["key"], {}).items()):
            before = [by_run.get(r["key"], {}).get(name) for r in base]
            before = [b for b in before if b and b["reps"]]
            if not before or not row["reps"]:
                continue
            compared += 1
            reps = [runfile.reps_of(b["reps"]) for b in before]
            v = stats.against_history(reps, runfile.reps_of(row["reps"]), family=row["family"],
                                      disturbed=bool(row["disturbed"]), shaken=any(b["disturbed"] for b in before),
                                      negligible=stats.NEGLIGIBLE_CYCLES)
            if v.verdict.costlier:
                out.append(Alert(m, latest["host"], target, name, latest, base, v))
    return out, compared
