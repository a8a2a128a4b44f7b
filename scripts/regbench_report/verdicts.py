"""The verdicts of a comparison, result by result, and compare.json: the same verdicts for programs.

A comparison's README counts and shows these verdicts; compare.json lists
them with what decided each (the medians' ratio, the test's p, the smallest
difference that could count, the margin a same names and the interval
held against it, what an unclear one would need, every repetition's
value), so a script can act on a comparison without reading Markdown.
"""
import json

from regbench_base import names
from regbench_base.state import Gap

from regbench_base import stats

from . import tables


def results(runs):
    """For each run after the first: [(Key, counter, name, stats.Comparison)] of every headline result, in label order.

    Over each benchmark's main counter (cycles, or GB/s for copies), in the
    union of the runs' benchmarks: a result one run lacks is n/a.
    """
    higher = {c: t.higher_is_better for t in tables.headline_tables(runs) for c in t.cells.values() if c[1] == t.main}
    cells = sorted(higher, key=lambda c: (names.label(c[0]), c[1]))
    every = tables.union(runs)
    out = []
    for r in runs[1:]:
        mine = []
        for key, counter in cells:
            v = tables.compare_in(runs[0], r, key, counter, higher[key, counter])
            mine.append((key, counter, every[key].name, v))
        out.append(mine)
    return out


def _values(run, key, counter, runs=False):
    m = run.measure(key, counter)
    return list(m.runs if runs else m.reps) if m.state.figure else []


def document(runs, labels, files):
    """compare.json as a dict: the runs, how verdicts are decided, and one entry per result and later side.

    files holds the report's copy of each side's files (a list per side).
    """
    doc = {"runs": [{"label": l, "file": f, "target": r.ctx("target"), "target_kind": r.ctx("target_kind"),
                     "accelerator": r.ctx("accelerator"), "date": r.ctx("date"), "repetitions": r.repetitions}
                    for r, l, fs in zip(runs, labels, files) for f in fs],
           "against": labels[0],
           "method": {"test": "Mann-Whitney U, exact two-sided p, over each side's runs (several runs a side) "
                              "or repetitions (one run a side)", "alpha": stats.ALPHA,
                      "equivalence": "same: the ratio's distribution-free 90% interval (two one-sided tests), "
                                     "widened by the calm_effect or min_effect.repetition spread where one run a "
                                     "side leaves the run-to-run spread out, lies within ±margin",
                      "margin": stats.MARGIN,
                      "min_effect": stats.MIN_EFFECT, "calm_effect": stats.CALM_EFFECT,
                      "negligible_cycles": stats.NEGLIGIBLE_CYCLES, "values_needed": stats.values_needed(),
                      "timer_step": f"a sampled result ({tables.sampled_families(runs)}) must also move by one "
                                    "timer step"},
           "results": []}
    for r, label, mine in zip(runs[1:], labels[1:], results(runs)):
        for key, counter, name, v in mine:
            res = [x.results.get(key) for x in (runs[0], r)]
            doc["results"].append({
                "name": name, "counter": counter, "run": label, "ratio": v.ratio, "verdict": str(v.verdict),
                "p": v.p, "unit": v.unit, "n": list(v.n), "min_effect": v.floor, "margin": v.margin,
                "interval": list(v.interval) if v.interval else None, "margin_needed": v.margin_needed,
                "runs_needed": v.runs_needed, "why": v.why,
                "family": key.family, "op": key.op, "width": key.width, "strategy": key.strategy, "param": key.param,
                "states": [str(x.state if x else Gap.ABSENT) for x in res],
                "disturbed": [x.disturbed if x else 0 for x in res],
                "values": [_values(runs[0], key, counter), _values(r, key, counter)],
                "run_medians": [_values(runs[0], key, counter, True), _values(r, key, counter, True)]})
    return doc


def write(path, runs, labels, files):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document(runs, labels, files), f, indent=1, allow_nan=False)
        f.write("\n")
