"""The verdict of a comparison: same, faster or slower, from the repetitions or runs of both sides.

Two conditions, both needed, because two kinds of noise move a result:
- Within a run, repetitions scatter.  An exact two-sided Mann-Whitney U test
  says whether the two sides separate beyond that scatter; it holds its
  false-positive rate (ALPHA) whatever the distribution, and with too few
  values it cannot reject at all.
- Between runs, a whole run moves: the fastest call of a kernel lands on
  other physical pages, another core clock, another neighbour on the host,
  and lat/ moves with each run's timer calibration.  Repetitions of one run
  share all that, so they cannot show it.  Where each side has several runs
  (a group, model.group), the run is the test's unit: each run's median is
  one value and the run-to-run spread is inside the test.  Where a side has
  one run, the test is over repetitions and a difference must also exceed
  the run-to-run spread measured on back-to-back runs of one build.

Either way a difference must exceed MIN_EFFECT for its unit, and for
results that move in timer steps one step.  A result that fails a condition
is "same": no difference this data can show.  "n/a" is a result without a
number on a side, or with too few values for the test ever to reach ALPHA.
"""
import math
import statistics
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

# The test's false-positive rate, two-sided.  With 3 values a side (3
# repetitions, regbench's default, or 3 runs) the smallest exact p is 2/20 =
# 0.10: only a complete separation passes.
ALPHA = 0.10

# The smallest relative difference that can count, by the test's unit,
# measured with scripts/tests/verdict_rates.py on back-to-back runs of one
# build on the development VM (docs/METHOD.md, "Verdicts"): there a third of
# the results jump between runs by up to 2x (copies and _rep loops between
# two speeds, lat/ with the timer calibration), so one run a side can only
# show a difference of 2x (floor 0.9: 4.4% false positives on the default
# suite; 1.0: 1.3%), while with 3 runs a side the test absorbs the run-to-run
# spread and 5% keeps false positives under 5%.
MIN_EFFECT = {"run": 0.05, "repetition": 1.0}

# Where neither side was measured on a disturbed machine (regbench's control
# and the scheduler, benchmarks' "disturbed"), one run a side holds tighter,
# by how far each family moves between back-to-back runs of one build, at
# the 98th percentile of the results undisturbed in both runs of a pair
# (core-clock changes taken out, tables.compare_in), the larger of two
# machines: the Ice Lake VM (six runs, 15 pairs) and the AMD EPYC Zen 5 VM
# (six runs, 15 pairs): chain/ 1.9% (Zen 5: a rare run puts an ordered read
# 28% apart), thrpt/ 3.3%, barrier/ 1%, rep/ 38% and copy/ 78% (Zen 5: _rep
# loops and copies switch between speeds from one run to the next, up to
# 2.5x for copies), lat/ 0 (whole timer steps), flush/ 14%, dispatch/ 35%
# (Ice Lake: the indirect calls).  A family not here, or a result disturbed
# on either side, keeps MIN_EFFECT["repetition"].  Several runs a side (the
# run as the unit) absorb those switches: give 3 of each build to see 5%.
CALM_EFFECT = {"chain": 0.02, "thrpt": 0.05, "barrier": 0.05, "rep": 0.40, "lat": 0.30,
               "copy": 0.80, "flush": 0.40, "dispatch": 0.40}

# A cost below this many cycles per unit is no cost to speak of (barrier/compiler
# reads 0.00001): two such results are the same whatever their ratio.
NEGLIGIBLE_CYCLES = 0.01

# Above this many values a side the exact distribution is replaced by the
# normal approximation (with the tie and continuity corrections): its p is
# then within about 0.01 of the exact one, whose count grows with both sides.
EXACT_LIMIT = 25


@dataclass
class Verdict:
    """How side b's value of a counter compares with side a's.

    ratio is b's median over a's (of the counter as written: cycles, or
    bytes/s); verdict is same, faster, slower (b against a, in cost: less
    GB/s is slower) or n/a; unit what the test counted (repetition or run)
    and n how many of them on each side; p is the test's two-sided p (None
    when not tested); floor the smallest relative difference that could
    count; why says what decided an n/a or a same; calm whether the
    result was undisturbed on both sides (its family's floor applied).
    """
    ratio: Optional[float]
    verdict: str
    p: Optional[float] = None
    floor: Optional[float] = None
    why: str = ""
    unit: str = "repetition"
    n: Tuple[int, int] = (0, 0)
    calm: bool = False


def _midranks(pooled):
    """Rank of each value among pooled (1-based; ties share the mean of their ranks), doubled to stay integral."""
    order = sorted(range(len(pooled)), key=lambda i: pooled[i])
    ranks = [0] * len(pooled)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and pooled[order[j + 1]] == pooled[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = i + j + 2          # twice the mean of ranks i+1 .. j+1
        i = j + 1
    return ranks


def _exact_counts(ranks2, m):
    """{doubled rank sum: number of ways} over every choice of m of the pooled values (ties kept)."""
    groups = {}
    for r in ranks2:
        groups[r] = groups.get(r, 0) + 1
    dist = {(0, 0): 1}                           # (values chosen, doubled rank sum) -> ways
    for r, t in groups.items():
        nxt = {}
        for (k, s), ways in dist.items():
            for j in range(0, min(t, m - k) + 1):
                key = (k + j, s + j * r)
                nxt[key] = nxt.get(key, 0) + ways * math.comb(t, j)
        dist = nxt
    return {s: w for (k, s), w in dist.items() if k == m}


def mann_whitney_p(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided p of the Mann-Whitney U test of a against b: exact for small samples, ties included."""
    n, m = len(a), len(b)
    if n > EXACT_LIMIT or m > EXACT_LIMIT:
        return _normal_p(a, b)
    ranks2 = _midranks(list(a) + list(b))
    w2 = sum(ranks2[n:])                          # doubled rank sum of b
    centre2 = m * (n + m + 1)                     # its expectation, doubled
    counts = _exact_counts(ranks2, m)
    extreme = abs(w2 - centre2)
    hit = sum(w for s, w in counts.items() if abs(s - centre2) >= extreme)
    return min(1.0, hit / sum(counts.values()))


def _normal_p(a, b):
    """The two-sided p of the same test from the normal approximation, with the tie and continuity corrections."""
    n, m = len(a), len(b)
    ranks2 = _midranks(list(a) + list(b))
    w2, centre2 = sum(ranks2[n:]), m * (n + m + 1)
    ties = {}
    for r in ranks2:
        ties[r] = ties.get(r, 0) + 1
    big_n = n + m
    var = n * m / 12 * ((big_n + 1) - sum(t ** 3 - t for t in ties.values()) / (big_n * (big_n - 1)))
    if var <= 0:
        return 1.0
    z = (abs(w2 - centre2) / 2 - 0.5) / math.sqrt(var)
    return min(1.0, math.erfc(max(z, 0) / math.sqrt(2)))


def smallest_p(n, m):
    """The smallest two-sided p the exact test can give with n and m values (complete separation)."""
    return min(1.0, 2 / math.comb(n + m, n))


def values_needed(alpha=ALPHA):
    """The fewest values a side (the same on both) with which a complete separation reaches alpha."""
    n = 1
    while smallest_p(n, n) > alpha:
        n += 1
    return n


def compare(a: Sequence[float], b: Sequence[float], *, a_runs: Sequence[float] = (), b_runs: Sequence[float] = (),
            higher_is_better=False, quantum=0.0, floor=None, calm_family=None, negligible=0.0):
    """The Verdict of side b against side a for one counter.

    a and b are the values of every repetition (empty: no number on that
    side); a_runs and b_runs each run's median where a side holds several
    runs (when both do, they are the test's unit).  quantum is the step the
    values move in (the timer's resolution for sampled results), 0 if none;
    floor replaces MIN_EFFECT of the unit (two benchmarks of one run);
    calm_family, the family of a result undisturbed on both sides, gives
    CALM_EFFECT's floor to a test over repetitions.  Medians both under
    negligible (NEGLIGIBLE_CYCLES for a cost in cycles) are the same.
    """
    if not a or not b:
        return Verdict(None, "n/a", why="no number in " + ("either run" if not a and not b else
                                                             "the first run" if not a else "the later run"))
    unit = "run" if len(a_runs) >= 2 and len(b_runs) >= 2 else "repetition"
    xa, xb = (list(a_runs), list(b_runs)) if unit == "run" else (list(a), list(b))
    ma, mb = statistics.median(xa), statistics.median(xb)
    if ma <= 0 or mb <= 0:
        return Verdict(None, "n/a", why="a median of 0: no ratio", unit=unit)
    ratio = mb / ma
    if floor is None:
        floor = CALM_EFFECT.get(calm_family, MIN_EFFECT[unit]) if unit == "repetition" else MIN_EFFECT[unit]
    seen = dict(floor=floor, unit=unit, n=(len(xa), len(xb)), calm=calm_family is not None)
    if quantum and abs(mb - ma) < quantum:
        return Verdict(ratio, "same", why="less than one timer step apart", **seen)
    if max(ma, mb) < negligible:
        return Verdict(ratio, "same", why=f"both under {negligible:g}: no cost to speak of", **seen)
    if smallest_p(len(xa), len(xb)) > ALPHA:
        more = (f"give {values_needed()} runs of each" if unit == "run" else
                f"run with --benchmark_repetitions={values_needed()} or more")
        return Verdict(ratio, "n/a", why=f"{len(xa)} and {len(xb)} {unit}s cannot show a difference at "
                                         f"p ≤ {ALPHA:g} ({more})", **seen)
    p = mann_whitney_p(xa, xb)
    if p > ALPHA:
        return Verdict(ratio, "same", p, why=f"the {unit}s overlap (p = {p:.2g})", **seen)
    if abs(math.log(ratio)) < math.log1p(floor):
        return Verdict(ratio, "same", p, why=f"under the {floor:.0%} run-to-run spread of one {unit} a side"
                       if unit == "repetition" else f"under {floor:.0%}", **seen)
    costlier = (ratio < 1) if higher_is_better else (ratio > 1)
    return Verdict(ratio, "slower" if costlier else "faster", p, **seen)
