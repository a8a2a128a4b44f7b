#!/usr/bin/python3
"""verdict_rates: how often scripts/report --compare calls a difference between runs of one build, and finds a real one.

Given result files of the same build and target measured one after the
other, it compares sides of --runs K files each (K = 1: every pair of files;
K > 1: consecutive groups of K files, taken together as --names a,a,a,b,b,b
does) and prints for each pair of sides, and in total:
- the false-positive rate: results called "slower" or "faster" between the
  two real sides, and how many were shown "same" and how many "unclear";
- the detection rate: the later side made 10% slower in every repetition
  (each repetition's time counters times 1.10, its bytes/s divided by it),
  how many results then read "slower", and how many "same" (a sameness
  claimed where there is a 10% difference);
- the same against the earlier side itself made 10% slower (no run-to-run
  difference at all: what the statistic alone can find).
Rates are over the results with a number on both sides; results without one
(skipped, below resolution in a run) are counted apart.  --repetitions N
keeps only each benchmark's first N repetitions; --floor F replaces the
smallest difference that counts (stats.MIN_EFFECT), to see what another
floor would do on this machine.  Run with Debian's /usr/bin/python3 from
anywhere.
"""
import argparse
import copy
import itertools
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from regbench_base import model  # noqa: E402
from regbench_base import stats  # noqa: E402
from regbench_base.verdict import Verdict  # noqa: E402
from regbench_report import verdicts  # noqa: E402

# Counters that are not a time per operation: a rate (scaled the other way) and counts (left alone).
RATES = {"bytes_per_second", "items_per_second"}
COUNTS = {"outliers", "below_overhead"}


def scaled(doc, factor):
    """A copy of a result document in which every repetition took factor times as long."""
    out = copy.deepcopy(doc)
    for e in out["benchmarks"]:
        if e.get("aggregate_name") == "cv":
            continue
        for k, v in e.items():
            if k in model._GB_FIELDS and k not in ("real_time", "cpu_time") or k in COUNTS:
                continue
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                e[k] = v / factor if k in RATES else v * factor
    return out


def first_repetitions(doc, n):
    """A copy keeping each benchmark's first n repetitions and dropping the aggregates (the report recomputes)."""
    out = copy.deepcopy(doc)
    out["benchmarks"] = [e for e in out["benchmarks"]
                         if e.get("run_type") != "aggregate" and e.get("repetition_index", 0) < n]
    return out


def tally(a, b, by=None, real=0.0):
    """{verdict: count} over results with a number on both sides, and the count of those without; by, when
    given, also counts {(calm or disturbed, family): {verdict: count}} (calm: undisturbed on both sides).
    real, the relative difference made, counts a "same" whose margin is narrower than it as "false same"
    (the count is apart from the verdicts')."""
    counts = {v: 0 for v in stats.VERDICTS}
    if real:
        counts["false same"] = 0
    absent = 0
    for key, _, _, v in verdicts.results([a, b])[0]:
        if v.ratio is None:
            absent += 1
            continue
        counts[v.verdict] += 1
        if real and v.verdict.same and v.margin < real:
            counts["false same"] += 1
        if by is not None:
            cell = by.setdefault(("calm" if v.calm else "disturbed", key.family), {})
            cell[v.verdict] = cell.get(v.verdict, 0) + 1
    return counts, absent


def line(what, counts, absent, wanted):
    n = sum(counts[v] for v in stats.VERDICTS)
    hit = sum(counts[w] for w in wanted)
    return (f"{what}: {hit} of {n} results {' or '.join(map(str, wanted))} ({hit / max(n, 1):.1%}); "
            + ", ".join(f"{k} {v}" for k, v in counts.items()) + f"; {absent} without a number on a side")


def side(files, docs, factor=None):
    """The files of one side as the report takes them (one run, or a group of runs), optionally made slower."""
    return model.group([model.from_document(f, scaled(d, factor) if factor else d) for f, d in zip(files, docs)])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="+", metavar="RESULT.json", help="runs of one build and target, in time order")
    p.add_argument("--runs", type=int, default=1, metavar="K", help="runs a side (1)")
    p.add_argument("--repetitions", type=int, metavar="N", help="use only the first N repetitions of each benchmark")
    p.add_argument("--slower", type=float, default=1.10, metavar="F", help="the factor of the detection run (1.10)")
    p.add_argument("--floor", type=float, metavar="F", help="the smallest relative difference that counts, for "
                   "repetitions and runs alike (default: the report's)")
    args = p.parse_args()
    if args.floor is not None:
        stats.MIN_EFFECT = {unit: args.floor for unit in stats.MIN_EFFECT}
        stats.CALM_EFFECT = {}
    k = args.runs
    if len(args.files) < 2 * k:
        p.error(f"give at least {2 * k} result files of one build for --runs {k}")
    docs = []
    for f in args.files:
        with open(f, encoding="utf-8") as fh:
            docs.append(json.load(fh))
    if args.repetitions:
        docs = [first_repetitions(d, args.repetitions) for d in docs]
    groups = [list(range(i, i + k)) for i in range(0, len(docs) - k + 1, k)]
    totals = {w: ({v: 0 for v in stats.VERDICTS}, [0]) for w in ("fp", "det", "self")}
    by = {"fp": {}, "det": {}}
    name = lambda g: "+".join(os.path.basename(args.files[i]) for i in g)
    for ga, gb in itertools.combinations(groups, 2):
        fa, da = [args.files[i] for i in ga], [docs[i] for i in ga]
        fb, db = [args.files[i] for i in gb], [docs[i] for i in gb]
        a = side(fa, da)
        what = f"{name(gb)} vs {name(ga)}"
        for w, b, wanted, text in (("fp", side(fb, db), [Verdict.SLOWER, Verdict.FASTER], f"same build, {what}"),
                                   ("det", side(fb, db, args.slower), [Verdict.SLOWER], f"{what} x{args.slower:g}"),
                                   ("self", side(fa, da, args.slower), [Verdict.SLOWER],
                                    f"{name(ga)} x{args.slower:g} vs itself")):
            counts, absent = tally(a, b, by.get(w), 0.0 if w == "fp" else args.slower - 1)
            print(line(text, counts, absent, wanted))
            for v, n in counts.items():
                totals[w][0][v] = totals[w][0].get(v, 0) + n
            totals[w][1][0] += absent
    print(line("in all, same build (false positives)", totals["fp"][0], totals["fp"][1][0],
               [Verdict.SLOWER, Verdict.FASTER]))
    print(line(f"in all, x{args.slower:g} (detection)", totals["det"][0], totals["det"][1][0], [Verdict.SLOWER]))
    print(line(f"in all, x{args.slower:g} against itself", totals["self"][0], totals["self"][1][0], [Verdict.SLOWER]))
    print("by family, undisturbed on both sides (calm) or not: false positives (slower or faster), same, unclear; "
          "detection (slower), same")
    share = lambda c, v: f"{c.get(v, 0):5} ({c.get(v, 0) / max(sum(c.values()), 1):6.1%})"
    for cell in sorted(by["fp"]):
        fp, det = by["fp"][cell], by["det"].get(cell, {})
        wrong = {"wrong": sum(n for v, n in fp.items() if v.differs)}
        wrong[""] = sum(fp.values())
        print(f"  {cell[0]:9} {cell[1]:8} of {sum(fp.values()):5}: {share(wrong, 'wrong')} {share(fp, Verdict.SAME)} "
              f"{share(fp, Verdict.UNCLEAR)}; of {sum(det.values()):5}: {share(det, Verdict.SLOWER)} "
              f"{share(det, Verdict.SAME)}")


if __name__ == "__main__":
    main()
