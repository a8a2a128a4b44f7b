#!/usr/bin/python3
"""adaptive.py: adaptive repetitions keep what the benchmarks needed: from --benchmark_repetitions up to three times as many, more only where the ones before could not decide a 5% difference.

    adaptive.py RUN-REGBENCH...

RUN-REGBENCH is the command that runs regbench (under qemu-user in a cross
build).  Three short runs of the barrier/ and dispatch/ families (cheap,
and on a shared machine some of them disagree between repetitions):
- with --run-budget: each benchmark has 3 to 9 repetitions, numbered from 0
  with none missing, and its aggregates count them; one with more than 3
  has first repetitions that did not decide a 5% difference, as the
  verdicts' own interval (stats.shift_interval) reads them: regbench's rule
  and the report's agree;
- with --run-budget=0: exactly 3 each, the fixed repetitions of before;
- with --benchmark_repetitions=2 and no --run-budget: exactly 2 each (asked
  for a number of repetitions, a run gets that number).
Each check prints `ok: what` or `FAIL: what`; the exit status is 1 when any failed.
"""
import collections
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "scripts"))

from regbench_base import model, stats    # noqa: E402

FILTER = "--benchmark_filter=^(barrier|dispatch)/"
failed = 0


def check(ok, what):
    global failed
    print(f"{'ok' if ok else 'FAIL'}: {what}")
    failed += not ok


def run(regbench, *args):
    """The entries of one run's JSON by benchmark: ([repetition entries in order], {aggregate: entry})."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        p = subprocess.run(regbench + [FILTER, "--benchmark_min_time=0.002", f"--benchmark_out={out}", *args],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            print(p.stderr)
            check(False, f"regbench {' '.join(args)} exits 0 (got {p.returncode})")
            sys.exit(1)
        model.load(out)     # the contract's reader takes it
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
    reps, aggs = collections.defaultdict(list), collections.defaultdict(dict)
    for e in doc["benchmarks"]:
        if e["run_type"] == "aggregate":
            aggs[e["run_name"]][e["aggregate_name"]] = e
        else:
            reps[e["run_name"]].append(e)
    measured = {n for n, m in doc["regbench"]["benchmarks"].items() if m["state"] == "measured"}
    return {n: r for n, r in reps.items() if n in measured}, aggs


def decides(values):
    """Whether repetitions like these decide a 5% difference: the verdicts' 90% interval of the ratio within ±5%."""
    iv = stats.shift_interval(values, values)
    return iv is not None and math.expm1(max(-iv[0], iv[1])) <= stats.MARGIN


def main(regbench):
    reps, aggs = run(regbench, "--run-budget=20")
    counts = {n: len(r) for n, r in reps.items()}
    check(reps and all(3 <= c <= 9 for c in counts.values()),
          f"adaptive: 3 to 9 repetitions each ({collections.Counter(counts.values())} benchmarks by count)")
    check(all([e["repetition_index"] for e in r] == list(range(len(r))) and {e["repetitions"] for e in r} == {len(r)}
              for r in reps.values()), "adaptive: the repetitions kept are numbered from 0, and each says how many")
    check(all(a["median"]["iterations"] == counts[n] == a["median"]["repetitions"] for n, a in aggs.items()
              if n in counts and "median" in a), "adaptive: the aggregates count the repetitions kept")
    more = [n for n, r in reps.items() if len(r) > 3]
    # as regbench's rule does, only the measured repetitions count (one below resolution has no cycles: qemu-user's
    # barriers)
    wrong = [n for n in more if decides([e["cycles"] for e in reps[n][:-1] if "cycles" in e])]
    check(not wrong, f"adaptive: {len(more)} benchmarks had more than 3, each because the ones before did not decide "
                     f"5% (stats.shift_interval)" + (f"; not so: {' '.join(wrong)}" if wrong else ""))
    reps, _ = run(regbench, "--run-budget=0")
    check(reps and {len(r) for r in reps.values()} == {3}, "--run-budget=0: exactly 3 repetitions each")
    reps, _ = run(regbench, "--benchmark_repetitions=2")
    check(reps and {len(r) for r in reps.values()} == {2}, "--benchmark_repetitions=2: exactly 2 each")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
