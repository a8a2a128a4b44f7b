#!/usr/bin/python3
"""alert_rates: how often scripts/results alerts cries wolf on one machine's history, and how often it misses a slowdown.

Given result files of one build on one machine, in time order, it walks
the history as a nightly job would: each run from the (--baseline + 1)th on
is the latest, the --baseline runs before it its baseline, and every result
with repetitions on both sides is compared as `alerts` compares it
(stats.against_history: the machine's own spread where the baseline has
stats.OWN_RUNS runs or more) and, for the record, as it did before (the
family's run-to-run floor, CALM_EFFECT).  It prints, by family and in all:
- false alerts: results called slower when nothing changed;
- missed: the latest made --slower times slower in every repetition and
  not called slower.
`--synthetic` walks histories made up instead, like the issue's: each run's
median within --spread of the machine's (uniform), repetitions 0.2% apart.
Debian's /usr/bin/python3, from anywhere.
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from regbench_base import model, stats  # noqa: E402


def results_of(path):
    """{name: (family, [cycles of each repetition], disturbed)} of a result file's measured benchmarks."""
    run = model.load(path)
    out = {}
    for key, res in run.results.items():
        m = run.measure(key, "cycles")
        if m.state.figure and m.reps:
            out[res.name] = (key.family, list(m.reps), bool(res.disturbed))
    return out


def old_rule(runs, b, family, disturbed):
    """alerts before its machines' own spread: the family's floor over the pooled repetitions."""
    pooled = [x for r in runs for x in r]
    medians = [sorted(r)[len(r) // 2] for r in runs]
    return stats.compare(pooled, b, a_runs=medians if len(medians) > 1 else (),
                         calm_family=None if disturbed else family, negligible=stats.NEGLIGIBLE_CYCLES)


def walk(history, baseline, slower):
    """{(rule, family): [compared, false alerts, missed]} over a history ([{name: (family, reps, disturbed)}])."""
    tally = {}
    for i in range(baseline, len(history)):
        latest, before = history[i], history[i - baseline:i]
        for name, (family, reps, disturbed) in latest.items():
            runs = [b[name][1] for b in before if name in b]
            if len(runs) < baseline:
                continue
            shaken = any(b[name][2] for b in before)
            scaled = [x * slower for x in reps]
            for rule, decide in (("own", lambda r: stats.against_history(runs, r, family=family, disturbed=disturbed,
                                                                          shaken=shaken,
                                                                          negligible=stats.NEGLIGIBLE_CYCLES)),
                                 ("family", lambda r: old_rule(runs, r, family, disturbed or shaken))):
                t = tally.setdefault((rule, family), [0, 0, 0])
                t[0] += 1
                t[1] += decide(reps).verdict.costlier
                t[2] += not decide(scaled).verdict.costlier
    return tally


def synthetic(runs, spread, seed, families=("chain", "thrpt", "copy", "barrier")):
    """A made-up history: each family's one result, its run medians within ±spread, 5 repetitions 0.2% apart."""
    rng = random.Random(seed)
    out = []
    for _ in range(runs):
        run = {}
        for f in families:
            m = 100 * (1 + rng.uniform(-spread, spread))
            run[f"{f}/x"] = (f, [m * (1 + rng.uniform(-0.002, 0.002)) for _ in range(5)], False)
        out.append(run)
    return out


def report(tally, what):
    print(what)
    for rule in ("own", "family"):
        fams = sorted({f for r, f in tally if r == rule})
        total = [sum(tally[rule, f][i] for f in fams) for i in range(3)]
        print(f"  {rule:6} in all: {total[0]} results, {total[1]} false alerts ({total[1] / max(total[0], 1):.2%}), "
              f"{total[2]} missed ({total[2] / max(total[0], 1):.1%})")
        for f in fams:
            n, fa, mi = tally[rule, f]
            print(f"    {f:9} {n:5}: false {fa:4} ({fa / n:6.2%}), missed {mi:4} ({mi / n:6.1%})")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="*", metavar="RESULT.json", help="runs of one build on one machine, oldest first")
    p.add_argument("--baseline", type=int, default=7, help="runs before the latest it is compared with (7)")
    p.add_argument("--slower", type=float, default=1.5, help="the factor of the missed count (1.5)")
    p.add_argument("--synthetic", type=int, metavar="RUNS", help="walk made-up histories of this many runs instead")
    p.add_argument("--spread", type=float, default=0.01, help="the made-up runs' spread (0.01: within 1%%)")
    p.add_argument("--seeds", type=int, default=50, help="how many made-up histories (50)")
    args = p.parse_args()
    if args.synthetic:
        tally = {}
        for seed in range(args.seeds):
            for k, v in walk(synthetic(args.synthetic, args.spread, seed), args.baseline, args.slower).items():
                t = tally.setdefault(k, [0, 0, 0])
                for i in range(3):
                    t[i] += v[i]
        report(tally, f"{args.seeds} made-up histories of {args.synthetic} runs within ±{args.spread:.1%}, baseline "
                      f"{args.baseline}, x{args.slower:g}:")
        return 0
    if len(args.files) <= args.baseline:
        p.error(f"give more than --baseline {args.baseline} files")
    history = [results_of(f) for f in args.files]
    report(walk(history, args.baseline, args.slower), f"{len(history)} runs, baseline {args.baseline}, "
                                                      f"x{args.slower:g}:")
    return 0


if __name__ == "__main__":
    sys.exit(main())
