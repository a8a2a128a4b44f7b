"""The verdict of a comparison: slower, faster, same, unclear or n/a, from the repetitions or runs of both sides.

Two kinds of noise move a result:
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

Slower or faster: the test separates the sides and the medians differ by
at least the floor (MIN_EFFECT for its unit, CALM_EFFECT for one run a side
undisturbed, one timer step for results that move in steps).  Same is not
the absence of that: it is an equivalence test (two one-sided tests at
ALPHA / 2 each), the 90% interval of the ratio, widened by the run-to-run
spread the values cannot show, lies within ±MARGIN (at least one timer
step).  Anything else is unclear, with the margin its interval reaches and
how many runs a side would bring it within MARGIN.  n/a is a result
without a number on a side.
"""
import math
import statistics
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

from .verdict import Verdict

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

# The margin a "same" names: the 90% interval of the ratio lies within ±MARGIN.  It is the smallest
# difference several runs a side can show (MIN_EFFECT["run"]), so with 3 runs of each build the verdicts
# split at one figure.  One run a side widens the interval by its family's run-to-run spread, so only the
# steadiest families (chain/, barrier/ undisturbed) can be shown the same with one run.
MARGIN = 0.05

# The normal quantile of the 90% interval (two-sided, ALPHA), for large samples and the runs estimate.
Z = statistics.NormalDist().inv_cdf(1 - ALPHA / 2)

# CALM_EFFECT and MIN_EFFECT are the 98th percentile of how far two runs of one build land apart: that is
# SPREAD_Z standard deviations of the difference of two runs, each run's own deviation that over sqrt(2).
SPREAD_Z = statistics.NormalDist().inv_cdf(0.99)

# An unclear verdict counts the runs a side that would bring it within MARGIN up to this many; beyond it
# says "more than".
RUNS_LIMIT = 30

# The verdicts, in the order reports count them.
VERDICTS = tuple(Verdict)

# A cost below this many cycles per unit is no cost to speak of (barrier/compiler
# reads 0.00001): two such results are the same whatever their ratio.
NEGLIGIBLE_CYCLES = 0.01

# Above this many values a side the exact distribution is replaced by the
# normal approximation (with the tie and continuity corrections): its p is
# then within about 0.01 of the exact one, whose count grows with both sides.
EXACT_LIMIT = 25


@dataclass
class Comparison:
    """How side b's value of a counter compares with side a's.

    ratio is b's median over a's (of the counter as written: cycles, or
    bytes/s); verdict is a Verdict: slower or faster (b against a, in cost:
    less GB/s is slower), same, unclear or n/a; unit what the test counted
    (repetition or run) and n how many of them on each side; p is the
    test's two-sided p (None when not tested); floor the smallest relative
    difference that could count as slower or faster; margin the ±relative
    difference a same names (its interval lies within it); interval the
    90% interval of the ratio, widened by the run-to-run spread its values
    cannot show, None where the values are too few for one; margin_needed
    the margin that interval reaches (what a same would have needed);
    runs_needed how many runs a side would bring an unclear one within its
    margin (None: a comparison inside one run, or no count would: see why);
    why says what decided it; calm whether the result was undisturbed on
    both sides (its family's floor applied).
    """
    ratio: Optional[float]
    verdict: Verdict
    p: Optional[float] = None
    floor: Optional[float] = None
    why: str = ""
    unit: str = "repetition"
    n: Tuple[int, int] = (0, 0)
    calm: bool = False
    margin: Optional[float] = None
    interval: Optional[Tuple[float, float]] = None
    margin_needed: Optional[float] = None
    runs_needed: Optional[int] = None


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


def shift_interval(a: Sequence[float], b: Sequence[float], alpha=ALPHA):
    """The (1 - alpha) interval of log(b) - log(a)'s shift, or None when the values are too few for one.

    The distribution-free interval that inverts the Mann-Whitney test (as
    Hodges and Lehmann's estimate does): of the n * m differences between a
    value of b and one of a, drop the k smallest and the k largest, k as
    large as the test's null distribution allows at alpha / 2 a side.  With
    3 values a side it is the whole range of the 9 differences (90%).
    """
    n, m = len(a), len(b)
    if min(n, m) < 1 or min(list(a) + list(b)) <= 0:
        return None
    if n > EXACT_LIMIT or m > EXACT_LIMIT:
        k = math.floor(n * m / 2 - Z * math.sqrt(n * m * (n + m + 1) / 12))
    else:
        counts = _exact_counts([2 * (i + 1) for i in range(n + m)], m)   # doubled rank sums of b, no ties
        total, least, below, k = sum(counts.values()), m * (m + 1), 0, 0
        for s in sorted(counts):
            below += counts[s]
            if below / total > alpha / 2 + 1e-12:
                break
            k = (s - least) // 2 + 1                                     # U = (s - least) / 2, and P(U < k) holds
    if k < 1:
        return None
    d = sorted(math.log(y) - math.log(x) for x in a for y in b)
    return d[k - 1], d[len(d) - k]


def runs_for(shift, sigma, margin):
    """The fewest runs a side (at least values_needed()) whose interval would lie within ±margin around shift.

    sigma is one run's spread (a standard deviation, in log) and the
    interval a normal one: a guide to how many runs to give, not a promise.
    None where the shift itself is about the margin (more runs tell which
    side of it, not that it is inside) or beyond RUNS_LIMIT.
    """
    room = math.log1p(margin) - abs(shift)
    if room <= 0:
        return None
    for k in range(values_needed(), RUNS_LIMIT + 1):
        if Z * sigma * math.sqrt(2 / k) <= room:
            return k
    return None


def pct(x):
    """A relative difference as a verdict says it: 5%, 3.1%, 0.4%, 160%."""
    v = x * 100
    return f"{v:.0f}%" if v >= 10 else f"{v:.2g}%"


def _spread_sigma(spread):
    """One run's standard deviation (in log) from a spread measured at the 98th percentile of |two runs apart|."""
    return math.log1p(spread) / (SPREAD_Z * math.sqrt(2))


def _pooled_sigma(xa, xb):
    """The standard deviation (in log) of one value, pooled over both sides; 0 where neither side varies."""
    logs = [[math.log(x) for x in xs] for xs in (xa, xb)]
    free = sum(len(v) - 1 for v in logs)
    if free < 1:
        return None
    return math.sqrt(sum((len(v) - 1) * statistics.variance(v) for v in logs if len(v) > 1) / free)


def compare(a: Sequence[float], b: Sequence[float], *, a_runs: Sequence[float] = (), b_runs: Sequence[float] = (),
            higher_is_better=False, quantum=0.0, floor=None, calm_family=None, negligible=0.0, spread=None,
            shaken_family=None):
    """The Comparison of side b against side a for one counter.

    a and b are the values of every repetition (empty: no number on that
    side); a_runs and b_runs each run's median where a side holds several
    runs (when both do, they are the test's unit).  quantum is the step the
    values move in (the timer's resolution for sampled results), 0 if none:
    a difference under one step is not called, and a same names at least
    one step.  floor replaces MIN_EFFECT of the unit; calm_family, the
    family of a result undisturbed on both sides, gives CALM_EFFECT's floor
    to a test over repetitions; shaken_family, the family of a result
    disturbed on a side, holds a test over runs to CALM_EFFECT's floor
    where that is wider than MIN_EFFECT["run"].  Medians both under negligible
    (NEGLIGIBLE_CYCLES for a cost in cycles) are the same.  spread is given
    for two benchmarks of one run (how far one moves against the other that
    the repetitions cannot show); None means two runs, whose run-to-run
    spread widens an interval over repetitions by the floor's spread.
    """
    if not a or not b:
        return Comparison(None, Verdict.NA, why="no number in " + ("either run" if not a and not b else
                                                             "the first run" if not a else "the later run"))
    unit = "run" if len(a_runs) >= 2 and len(b_runs) >= 2 else "repetition"
    xa, xb = (list(a_runs), list(b_runs)) if unit == "run" else (list(a), list(b))
    ma, mb = statistics.median(xa), statistics.median(xb)
    if ma <= 0 or mb <= 0:
        return Comparison(None, Verdict.NA, why="a median of 0: no ratio", unit=unit)
    ratio, between = mb / ma, spread is None
    if floor is None:
        floor = CALM_EFFECT.get(calm_family, MIN_EFFECT[unit]) if unit == "repetition" else MIN_EFFECT[unit]
        if unit == "run" and shaken_family:
            # A busy host moves consecutive runs together (copies between two speeds for minutes on the AMD
            # EPYC VM), so a group of runs measured disturbed can move as far as one run does.
            floor = max(floor, CALM_EFFECT.get(shaken_family, MIN_EFFECT["repetition"]))
    if between:
        spread = 0.0 if unit == "run" else CALM_EFFECT.get(calm_family, MIN_EFFECT["repetition"])
    margin = max(MARGIN, quantum / min(ma, mb))
    seen = dict(floor=floor, unit=unit, n=(len(xa), len(xb)), calm=calm_family is not None, margin=margin)
    if max(ma, mb) < negligible:
        return Comparison(ratio, Verdict.SAME, why=f"both under {negligible:g}: no cost to speak of", **seen)
    p = mann_whitney_p(xa, xb) if smallest_p(len(xa), len(xb)) <= ALPHA else None
    shift = math.log(ratio)
    if p is not None and p <= ALPHA and abs(shift) >= math.log1p(floor) and abs(mb - ma) >= quantum:
        costlier = (ratio < 1) if higher_is_better else (ratio > 1)
        return Comparison(ratio, Verdict.SLOWER if costlier else Verdict.FASTER, p, **seen)
    iv = shift_interval(xa, xb)
    if iv:
        wide = math.log1p(spread)
        lo, hi = iv[0] - wide, iv[1] + wide
        seen.update(interval=(math.exp(lo), math.exp(hi)), margin_needed=math.expm1(max(-lo, hi)))
        span = (f"the {unit}s' 90% interval {math.exp(lo):.3g}–{math.exp(hi):.3g}×"
                + (f" (with the ±{pct(spread)} {'run-to-run ' if between else ''}spread their values cannot show)"
                   if spread else ""))
        if max(-lo, hi) <= math.log1p(margin):
            return Comparison(ratio, Verdict.SAME, p, why=f"within ±{pct(margin)}: {span}", **seen)
        why = f"cannot tell within ±{pct(margin)}: {span} reaches ±{pct(seen['margin_needed'])}"
    else:
        why = (f"cannot tell within ±{pct(margin)}: {len(xa)} and {len(xb)} {unit}s give no 90% interval")
    if between:
        sigma = _pooled_sigma(xa, xb) if unit == "run" else _spread_sigma(spread)
        seen["runs_needed"] = k = runs_for(shift, sigma, margin) if sigma is not None else values_needed()
        more = "runs a side"
    else:
        k = runs_for(shift, _pooled_sigma(xa, xb) or 0.0, margin)
        more = "repetitions each (`--benchmark_repetitions`)"
    if not between and spread:
        how = "measured on a disturbed machine: a quiet rerun would tell"
    elif k:
        how = f"about {k} {more} would tell"
    elif abs(shift) >= math.log1p(margin):
        how = (f"the medians are {pct(abs(ratio - 1))} apart, about the margin: more {more.split(' ')[0]} would show "
               "on which side of it")
    else:
        how = f"more than {RUNS_LIMIT} {more} would be needed"
    return Comparison(ratio, Verdict.UNCLEAR, p, why=f"{why}; {how}", **seen)


# --- a machine against its own history (scripts/results alerts) -------------------------------------------------

# A latest run is compared with the machine's own earlier runs: where it has at least OWN_RUNS of them with the
# result, their spread from run to run decides how far the latest may land before it is slower (a one-sided
# prediction bound at OWN_LEVEL: one more run of an unchanged machine lands beyond it once in 1 / (1 - OWN_LEVEL)),
# instead of the family-wide CALM_EFFECT, which the steadiest machine cannot tighten and the noisiest cannot widen.
# OWN_FLOOR is the least it names however steady the runs.  Measured in docs/METHOD.md ("Alerts").
OWN_RUNS = 4
OWN_LEVEL = 0.999
OWN_FLOOR = 0.05


def _t_pdf(x, df):
    return math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi) \
        * (1 + x * x / df) ** (-(df + 1) / 2)


def t_quantile(level, df):
    """Student's t quantile at level (above 0.5) with df degrees of freedom: the t pdf integrated (Simpson) and the
    upper end found by bisection; the normal quantile from 200 degrees on."""
    if df >= 200:
        return statistics.NormalDist().inv_cdf(level)

    def cdf(x, steps=2000):
        h = x / steps
        s = _t_pdf(0, df) + _t_pdf(x, df) + sum((4 if i % 2 else 2) * _t_pdf(i * h, df) for i in range(1, steps))
        return 0.5 + s * h / 3
    lo, hi = 0.0, 1.0
    while cdf(hi) < level:
        lo, hi = hi, hi * 2
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) < level else (lo, mid)
    return (lo + hi) / 2


def own_floor(runs):
    """The smallest relative slowdown a machine's own runs show (lists of one result's values, one per earlier run):
    the one-sided OWN_LEVEL prediction bound for one more run, from the spread of the runs' medians (in log), at
    least OWN_FLOOR; None with fewer than OWN_RUNS runs (the family's floor then applies)."""
    if len(runs) < OWN_RUNS:
        return None
    logs = [math.log(statistics.median(r)) for r in runs if r and statistics.median(r) > 0]
    if len(logs) < OWN_RUNS:
        return None
    bound = t_quantile(OWN_LEVEL, len(logs) - 1) * statistics.stdev(logs) * math.sqrt(1 + 1 / len(logs))
    return max(OWN_FLOOR, math.expm1(bound))


def against_history(runs, b, *, family=None, disturbed=False, shaken=False, negligible=0.0):
    """The Comparison of a latest run's values b against a machine's earlier runs of the same result (a list of
    value lists, oldest first): slower only beyond what those runs' own spread allows (own_floor), where there
    are enough of them and the latest was not measured on a disturbed machine (disturbed; the earlier runs'
    disturbance, shaken, is in their spread); else as compare() with the family's floor, which either's
    disturbance widens."""
    pooled = [x for r in runs for x in r]
    medians = [statistics.median(r) for r in runs if r]
    floor = None if disturbed else own_floor(runs)
    if floor is None:
        return compare(pooled, b, a_runs=medians if len(medians) > 1 else (),
                       calm_family=None if disturbed or shaken else family, negligible=negligible)
    v = compare(pooled, b, floor=floor, spread=floor, negligible=negligible)
    v.why = (v.why + "; " if v.why else "") + f"the floor is this machine's own: {len(medians)} earlier runs"
    return v
