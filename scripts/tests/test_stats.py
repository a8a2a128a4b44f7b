"""The comparison's statistic on synthetic repetitions: exact p values, the false-positive rate it holds, verdicts."""
import itertools
import json
import math
import random
import unittest

import fixture
from regbench_base.verdict import Verdict
import verdict_rates
from regbench_base import model
from regbench_base import stats
from regbench_report import verdicts


def brute_p(a, b):
    """Two-sided Mann-Whitney p by enumerating every split of the pooled values (ties count one half)."""
    pooled = list(a) + list(b)
    n, m = len(a), len(b)

    def u(bs, as_):
        return sum((x > y) + 0.5 * (x == y) for x in bs for y in as_)
    centre = n * m / 2
    observed = abs(u(b, a) - centre)
    hits = total = 0
    for idx in itertools.combinations(range(n + m), m):
        bs = [pooled[i] for i in idx]
        as_ = [pooled[i] for i in range(n + m) if i not in idx]
        total += 1
        hits += abs(u(bs, as_) - centre) >= observed - 1e-9
    return hits / total


class MannWhitney(unittest.TestCase):
    def test_complete_separation(self):
        self.assertAlmostEqual(stats.mann_whitney_p([1, 2, 3], [4, 5, 6]), 0.1)
        self.assertAlmostEqual(stats.mann_whitney_p([4, 5, 6], [1, 2, 3]), 0.1)
        self.assertAlmostEqual(stats.mann_whitney_p([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]), 2 / 252)
        self.assertAlmostEqual(stats.smallest_p(3, 3), 0.1)
        self.assertAlmostEqual(stats.smallest_p(2, 2), 1 / 3)

    def test_identical_and_all_tied(self):
        self.assertEqual(stats.mann_whitney_p([1, 2, 3], [1, 2, 3]), 1.0)
        self.assertEqual(stats.mann_whitney_p([5, 5, 5], [5, 5, 5]), 1.0)

    def test_exact_p_equals_enumeration_with_ties(self):
        rnd = random.Random(10)
        for _ in range(200):
            n, m = rnd.randint(1, 6), rnd.randint(1, 6)
            a = [rnd.choice((1, 2, 2, 3, 4)) for _ in range(n)]     # few distinct values: many ties
            b = [rnd.choice((2, 3, 3, 4, 5)) for _ in range(m)]
            self.assertAlmostEqual(stats.mann_whitney_p(a, b), brute_p(a, b), msg=f"{a} {b}")

    def test_the_normal_approximation_beyond_the_exact_limit(self):
        rnd = random.Random(11)
        a = [rnd.gauss(0, 1) for _ in range(stats.EXACT_LIMIT + 5)]
        b = [rnd.gauss(0.5, 1) for _ in range(stats.EXACT_LIMIT + 5)]
        p = stats.mann_whitney_p(a, b)
        self.assertTrue(0 < p < 1)
        # the same data just inside the limit (exact) gives nearly the same p
        self.assertAlmostEqual(stats.mann_whitney_p(a[:stats.EXACT_LIMIT], b[:stats.EXACT_LIMIT]),
                               stats._normal_p(a[:stats.EXACT_LIMIT], b[:stats.EXACT_LIMIT]), delta=0.01)

    def test_it_holds_its_false_positive_rate(self):
        # repetitions of one distribution: p <= ALPHA in at most ALPHA of the cases (exact, so below it with ties)
        rnd = random.Random(12)
        for n in (3, 5, 8):
            trials = 2000
            hits = sum(stats.mann_whitney_p([rnd.lognormvariate(0, 0.05) for _ in range(n)],
                                            [rnd.lognormvariate(0, 0.05) for _ in range(n)]) <= stats.ALPHA
                       for _ in range(trials))
            self.assertLessEqual(hits / trials, stats.ALPHA + 0.02, n)   # 0.02: three standard errors


class Compare(unittest.TestCase):
    """One run a side: the repetitions are the unit, and a difference must exceed one run's run-to-run spread."""

    def test_slower_and_faster(self):
        a = [100.0, 101.0, 99.5]
        big = 1 + stats.MIN_EFFECT["repetition"] + 0.2
        self.assertEqual(stats.compare(a, [x * big for x in a]).verdict, Verdict.SLOWER)
        self.assertEqual(stats.compare(a, [x / big for x in a]).verdict, Verdict.FASTER)
        self.assertEqual(stats.compare(a, [x * big for x in a], higher_is_better=True).verdict, Verdict.FASTER)
        v = stats.compare(a, [x * big for x in a])
        self.assertEqual((v.p, v.unit, v.n, v.margin, v.interval), (0.1, "repetition", (3, 3), stats.MARGIN, None))

    def test_identical_runs_measured_disturbed_are_unclear_not_the_same(self):
        # one run a side with the disturbed spread (100%): the interval cannot be inside 5%, however alike
        a = [100.0, 101.0, 99.5]
        v = stats.compare(a, list(a))
        self.assertEqual((v.verdict, v.p, v.ratio, v.margin), (Verdict.UNCLEAR, 1.0, 1.0, stats.MARGIN))
        self.assertGreaterEqual(v.margin_needed, stats.MIN_EFFECT["repetition"])
        self.assertIsNone(v.runs_needed)
        self.assertIn(f"more than {stats.RUNS_LIMIT} runs a side", v.why)

    def test_the_same_only_when_the_interval_lies_inside_the_margin(self):
        a = [100.0, 100.1, 100.2]
        v = stats.compare(a, [x * 1.005 for x in a], calm_family="chain")
        self.assertEqual((v.verdict, v.margin), (Verdict.SAME, stats.MARGIN))
        lo, hi = v.interval
        # the repetitions' own interval (0.3% wide) widened by chain's run-to-run spread on each side
        self.assertAlmostEqual(lo, min(a[j] * 1.005 / a[i] for i in range(3) for j in range(3)) / 1.02)
        self.assertAlmostEqual(hi, max(a[j] * 1.005 / a[i] for i in range(3) for j in range(3)) * 1.02)
        self.assertLessEqual(v.margin_needed, stats.MARGIN)
        self.assertIn("within ±5%", v.why)
        # 3.5% apart: not called (under nothing but the floor) and not the same: its interval passes 5%
        u = stats.compare(a, [x * 1.035 for x in a], calm_family="chain", floor=0.5)
        self.assertEqual(u.verdict, Verdict.UNCLEAR)
        self.assertGreater(u.margin_needed, stats.MARGIN)
        self.assertIn("cannot tell within ±5%", u.why)

    def test_a_ten_percent_difference_is_never_the_same(self):
        # the case: a result 10% slower in every repetition, below a family's run-to-run floor
        a = [100.0, 100.1, 100.2]
        for family in list(stats.CALM_EFFECT) + [None]:
            v = stats.compare(a, [x * 1.10 for x in a], calm_family=family)
            self.assertIn(v.verdict, (Verdict.SLOWER, Verdict.UNCLEAR), family)
            self.assertEqual(v.verdict is Verdict.SLOWER, stats.CALM_EFFECT.get(family, 1.0) < 0.10, family)

    def test_an_undisturbed_result_has_its_family_s_floor(self):
        a = [100.0, 100.1, 100.2]
        v = stats.compare(a, [x * 1.10 for x in a], calm_family="chain")
        self.assertEqual((v.verdict, v.floor), (Verdict.SLOWER, stats.CALM_EFFECT["chain"]))
        v = stats.compare(a, [x * 1.10 for x in a], calm_family="dispatch")
        self.assertEqual((v.verdict, v.floor), (Verdict.UNCLEAR, stats.CALM_EFFECT["dispatch"]))
        # a family without a measured spread keeps the disturbed floor
        self.assertEqual(stats.compare(a, [x * 1.10 for x in a], calm_family="new").floor,
                         stats.MIN_EFFECT["repetition"])

    def test_unclear_says_how_many_runs_a_side_would_tell(self):
        a = [100.0, 100.1, 100.2]
        v = stats.compare(a, [x * 1.01 for x in a], calm_family="thrpt")     # 5% spread: 1% apart cannot be inside 5%
        self.assertEqual(v.verdict, Verdict.UNCLEAR)
        sigma = math.log1p(stats.CALM_EFFECT["thrpt"]) / (stats.SPREAD_Z * math.sqrt(2))
        self.assertEqual(v.runs_needed, stats.runs_for(math.log(1.01), sigma, stats.MARGIN))
        self.assertIn(f"about {v.runs_needed} runs a side would tell", v.why)
        # medians as far apart as the margin: no count of runs makes that the same
        w = stats.compare(a, [x * 1.06 for x in a], calm_family="dispatch")
        self.assertEqual((w.verdict, w.runs_needed), (Verdict.UNCLEAR, None))
        self.assertIn("about the margin", w.why)

    def test_negligible_costs_are_the_same(self):
        v = stats.compare([2e-5] * 3, [9e-5] * 3, floor=0, negligible=stats.NEGLIGIBLE_CYCLES)
        self.assertEqual(v.verdict, Verdict.SAME)
        self.assertIn("no cost to speak of", v.why)
        self.assertEqual(stats.compare([2e-5] * 3, [9e-5] * 3, floor=0).verdict, Verdict.SLOWER)

    def test_overlapping_repetitions_are_unclear_however_far_the_medians(self):
        v = stats.compare([100, 200, 300], [120, 250, 290], floor=0, spread=0.0)
        self.assertEqual(v.verdict, Verdict.UNCLEAR)
        self.assertGreater(v.margin_needed, 1.0)

    def test_too_few_repetitions_cannot_tell(self):
        v = stats.compare([100.0, 100.0], [350.0, 350.0])
        self.assertEqual((v.verdict, v.interval, v.margin_needed), (Verdict.UNCLEAR, None, None))
        self.assertIn("2 and 2 repetitions give no 90% interval", v.why)
        self.assertEqual(stats.values_needed(), 3)

    def test_n_a_only_without_a_figure(self):
        for a, b, why in (([], [1.0], "the first run"), ([1.0], [], "the later run"), ([], [], "either run")):
            v = stats.compare(a, b)
            self.assertEqual((v.verdict, v.ratio, v.margin), (Verdict.NA, None, None))
            self.assertIn(why, v.why)
        self.assertEqual(stats.compare([0.0] * 3, [1.0] * 3).verdict, Verdict.NA)

    def test_one_timer_step(self):
        # a same names at least one timer step: 26 against 30 is inside one step of 26 (100%)
        v = stats.compare([26.0] * 5, [30.0] * 5, quantum=26, floor=0, spread=0.0)
        self.assertEqual((v.verdict, v.margin), (Verdict.SAME, 1.0))
        self.assertEqual(stats.compare([26.0] * 5, [52.0] * 5, quantum=26, floor=0, spread=0.0).verdict, Verdict.SLOWER)
        self.assertEqual(stats.compare([78.0] * 5, [91.0] * 5, quantum=26, floor=0, spread=0.0).margin, 26 / 78)

    def test_within_one_run_the_repetitions_decide(self):
        a = [100.0, 100.1, 100.2]
        self.assertEqual(stats.compare(a, [x * 1.01 for x in a], floor=0.05, spread=0.0).verdict, Verdict.SAME)
        v = stats.compare(a, [100.0 * f for f in (1.01, 1.04, 1.07)], floor=0.05, spread=0.0)
        self.assertEqual((v.verdict, v.runs_needed), (Verdict.UNCLEAR, None))
        self.assertIn("repetitions each (`--benchmark_repetitions`)", v.why)
        v = stats.compare(a, [x * 1.01 for x in a], floor=1.0, spread=1.0)
        self.assertEqual(v.verdict, Verdict.UNCLEAR)
        self.assertIn("a quiet rerun would tell", v.why)


class Interval(unittest.TestCase):
    """The distribution-free interval of the shift that the same verdict rests on."""

    def test_three_a_side_is_the_range_of_the_differences(self):
        a, b = [1.0, 2.0, 4.0], [2.0, 3.0, 5.0]
        d = sorted(math.log(y) - math.log(x) for x in a for y in b)
        self.assertEqual(stats.shift_interval(a, b), (d[0], d[-1]))

    def test_more_values_drop_the_extreme_differences(self):
        a, b = [float(x) for x in range(1, 9)], [float(x) + 0.5 for x in range(1, 9)]
        d = sorted(math.log(y) - math.log(x) for x in a for y in b)
        # 8 and 8: P(U <= 15) = 0.0415 and P(U <= 16) = 0.0524 (exact, no ties): 15 dropped at each end
        self.assertEqual(stats.shift_interval(a, b), (d[15], d[-16]))

    def test_too_few_values_have_no_interval(self):
        self.assertIsNone(stats.shift_interval([1.0, 2.0], [1.0, 2.0]))
        self.assertIsNone(stats.shift_interval([1.0], [1.0, 2.0, 3.0]))
        self.assertIsNone(stats.shift_interval([1.0, 0.0, 2.0], [1.0, 2.0, 3.0]))

    def test_it_covers_the_true_shift_nine_times_in_ten(self):
        rnd = random.Random(13)
        for n in (3, 6):
            trials, shift, hit = 1500, 0.07, 0
            for _ in range(trials):
                lo, hi = stats.shift_interval([rnd.lognormvariate(0, 0.05) for _ in range(n)],
                                              [rnd.lognormvariate(shift, 0.05) for _ in range(n)])
                hit += lo <= shift <= hi
            self.assertGreaterEqual(hit / trials, 1 - stats.ALPHA - 0.025, n)   # exact: at least 90%, less noise

    def test_runs_for_and_pct(self):
        self.assertEqual(stats.runs_for(0.0, 0.0, 0.05), stats.values_needed())
        self.assertIsNone(stats.runs_for(math.log(1.06), 0.001, 0.05))
        self.assertIsNone(stats.runs_for(0.0, 1.0, 0.05))
        few, many = stats.runs_for(0.0, 0.02, 0.05), stats.runs_for(0.0, 0.04, 0.05)
        self.assertLess(few, many)
        self.assertEqual([stats.pct(x) for x in (0.05, 0.031, 0.004, 1.6)], ["5%", "3.1%", "0.4%", "160%"])


class CompareRuns(unittest.TestCase):
    """Several runs a side: each run's median is one value, and the run-to-run spread is inside the test."""

    def test_runs_are_the_unit(self):
        reps = [100.0] * 9
        v = stats.compare(reps, [110.0] * 9, a_runs=[99.0, 100.0, 101.0], b_runs=[109.0, 110.0, 111.0])
        self.assertEqual((v.verdict, v.unit, v.n, v.p, v.floor),
                         (Verdict.SLOWER, "run", (3, 3), 0.1, stats.MIN_EFFECT["run"]))

    def test_runs_alike_are_the_same_within_the_margin(self):
        v = stats.compare([1.0] * 9, [1.0] * 9, a_runs=[1.0, 1.01, 0.99], b_runs=[1.02, 1.0, 0.995])
        self.assertEqual((v.verdict, v.unit, v.runs_needed), (Verdict.SAME, "run", None))
        self.assertEqual(v.interval, (0.995 / 1.01, 1.02 / 0.99))

    def test_runs_that_jump_between_two_speeds_are_unclear(self):
        # repetitions alone would separate 1.0 from 1.7; the runs show both speeds on both sides
        v = stats.compare([1.0] * 3 + [1.7] * 6, [1.7] * 3 + [1.0] * 6, a_runs=[1.0, 1.7, 1.7], b_runs=[1.7, 1.0, 1.0])
        self.assertEqual(v.verdict, Verdict.UNCLEAR)
        self.assertAlmostEqual(v.margin_needed, 0.7)

    def test_two_runs_a_side_cannot_tell(self):
        v = stats.compare([1.0] * 6, [2.0] * 6, a_runs=[1.0, 1.0], b_runs=[2.0, 2.0])
        self.assertEqual((v.verdict, v.unit), (Verdict.UNCLEAR, "run"))
        self.assertIn("2 and 2 runs give no 90% interval", v.why)
        v = stats.compare([1.0] * 6, [1.01] * 6, a_runs=[1.0, 1.0], b_runs=[1.01, 1.01])
        self.assertEqual((v.verdict, v.runs_needed), (Verdict.UNCLEAR, stats.values_needed()))

    def test_a_disturbed_group_holds_its_family_s_spread(self):
        a, b = [100.0, 101.0, 99.0], [120.0, 121.0, 119.0]
        v = stats.compare(a * 3, b * 3, a_runs=a, b_runs=b, shaken_family="copy")
        self.assertEqual((v.verdict, v.floor), (Verdict.UNCLEAR, stats.CALM_EFFECT["copy"]))
        v = stats.compare(a * 3, b * 3, a_runs=a, b_runs=b, shaken_family="chain")
        self.assertEqual((v.verdict, v.floor), (Verdict.SLOWER, stats.MIN_EFFECT["run"]))

    def test_one_side_with_one_run_tests_repetitions(self):
        v = stats.compare([1.0] * 3, [1.1] * 9, a_runs=(), b_runs=[1.1, 1.1, 1.1])
        self.assertEqual((v.verdict, v.unit), (Verdict.UNCLEAR, "repetition"))


def synthetic(jitter_seed, reps=5, spread=0.004):
    """The fixture single.json with `reps` repetitions of each measured benchmark, each within +-spread of its value."""
    with open(fixture.path("single.json"), encoding="utf-8") as f:
        doc = json.load(f)
    rnd = random.Random(jitter_seed)
    out = []
    for e in doc["benchmarks"]:
        for i in range(reps):
            r = dict(e, run_type="iteration", repetitions=reps, repetition_index=i)
            for k, v in e.items():
                if k not in model._GB_FIELDS and isinstance(v, (int, float)) and k not in verdict_rates.COUNTS:
                    r[k] = v * (1 + rnd.uniform(-spread, spread))
            out.append(r)
    doc["benchmarks"] = out
    return doc


def side(*docs):
    return model.group([model.from_document(f"run{i}.json", d) for i, d in enumerate(docs)])


class OnRuns(unittest.TestCase):
    """Verdicts over whole runs made from a fixture: repeated alike, and every repetition 10% slower."""

    def verdicts(self, a, b):
        return [(key, name, v) for key, _, name, v in verdicts.results([a, b])[0] if v.ratio is not None]

    def test_runs_alike_are_never_told_apart_and_the_same_where_their_spread_allows(self):
        got = self.verdicts(side(synthetic(1)), side(synthetic(2)))
        self.assertGreater(len(got), 10)
        for key, name, v in got:
            # one run a side: the family's run-to-run spread is added to the interval; under 5% it can be inside
            inside = stats.CALM_EFFECT.get(key.family, 1.0) < stats.MARGIN or v.margin > stats.MARGIN
            self.assertEqual(v.verdict, Verdict.SAME if inside else Verdict.UNCLEAR, name)
            self.assertTrue(v.verdict is Verdict.SAME or v.margin_needed > v.margin, name)
        got = self.verdicts(side(*(synthetic(i) for i in (1, 2, 3))), side(*(synthetic(i) for i in (4, 5, 6))))
        self.assertEqual({(v.verdict, v.unit) for _, _, v in got}, {(Verdict.SAME, "run")})

    def test_every_repetition_ten_percent_slower(self):
        a = side(*(synthetic(i) for i in (1, 2, 3)))
        b = side(*(verdict_rates.scaled(synthetic(i), 1.10) for i in (4, 5, 6)))
        step = a.ctx_float("timer_resolution_cycles")
        small = []
        for key, name, v in self.verdicts(a, b):
            # a lat/ or flush/ value under ten timer steps moves by less than one step: no difference it can show
            if a.meta.sampled(key.family) and a.measure(key).value < 10 * step:
                small.append(name)
                # the same within the one timer step it names, which is more than 10%
                self.assertEqual(v.verdict, Verdict.SAME, name)
                self.assertGreater(v.margin, 0.10, name)
            else:
                self.assertEqual((v.verdict, v.unit), (Verdict.SLOWER, "run"), name)
        self.assertEqual(small, ["lat/read32/fenced", "lat/write32/fenced"])

    def test_one_run_a_side_shows_only_what_exceeds_the_run_to_run_spread(self):
        a = side(synthetic(1))
        ten = self.verdicts(a, side(verdict_rates.scaled(synthetic(2), 1.10)))
        # undisturbed on both sides: 10% shows in the families whose measured spread is under it
        for key, name, v in ten:
            floor = stats.CALM_EFFECT.get(key.family, 1)
            if floor != 0.10:   # at the floor itself the repetitions' own scatter decides
                self.assertEqual(v.verdict, Verdict.SLOWER if floor < 0.10 else Verdict.UNCLEAR, name)
        self.assertIn(Verdict.SLOWER, {v.verdict for _, _, v in ten})
        # measured on a disturbed machine on one side: only what exceeds the disturbed spread, and nothing the same
        shaken = verdict_rates.scaled(synthetic(2), 1.10)
        for meta in shaken["regbench"]["benchmarks"].values():
            meta["disturbed"] = 1
        self.assertEqual({v.verdict for _, _, v in self.verdicts(a, side(shaken))}, {Verdict.UNCLEAR})
        factor = 1 + stats.MIN_EFFECT["repetition"] + 0.2
        big = self.verdicts(a, side(verdict_rates.scaled(synthetic(2), factor)))
        self.assertEqual({v.verdict for _, _, v in big}, {Verdict.SLOWER})

    def test_groups_measured_disturbed_hold_their_family_s_spread(self):
        def shaken(doc):
            for meta in doc["regbench"]["benchmarks"].values():
                meta["disturbed"] = 1
            return doc
        a = side(*(shaken(synthetic(i)) for i in (1, 2, 3)))
        b = side(*(shaken(verdict_rates.scaled(synthetic(i), 1.10)) for i in (4, 5, 6)))
        for key, name, v in self.verdicts(a, b):
            spread = stats.CALM_EFFECT[key.family]
            self.assertEqual(v.floor, max(spread, stats.MIN_EFFECT["run"]), name)
            if spread < 0.10 and not a.meta.sampled(key.family):
                self.assertEqual(v.verdict, Verdict.SLOWER, name)
            elif spread > 0.10:
                self.assertNotEqual(v.verdict, Verdict.SLOWER, name)

    def test_a_change_of_the_core_clock_alone_is_no_difference(self):
        def clocked(seed, tsc, core):
            doc = synthetic(seed)
            doc["context"]["core_cycles_source"] = "estimated: TSC cycles / TSC ticks of a dependent add"
            for e in doc["benchmarks"]:
                if "cycles" in e:
                    e["core_cycles"] = e["cycles"] * 1.8 * core
                    e["cycles"] *= tsc
            return doc
        a = side(clocked(1, 1, 1))
        # the host raised the core clock by 10%: CPU-bound costs take 10% fewer TSC ticks, the same core cycles
        faster_clock = self.verdicts(a, side(clocked(2, 1 / 1.10, 1)))
        chain = [v for key, _, v in faster_clock if key.family == "chain"]
        self.assertTrue(chain and all(v.verdict is Verdict.SAME and "core clock" in v.why for v in chain), chain)
        # a real change moves both: still called
        real = self.verdicts(a, side(clocked(2, 1.10, 1.10)))
        self.assertIn(Verdict.SLOWER, {v.verdict for key, _, v in real if key.family == "chain"})
        # counted core cycles on a trap target leave the handler out: the TSC verdict stands alone
        base, trap = clocked(1, 1, 1), clocked(2, 1.10, 1)
        for d in (base, trap):
            d["context"].update(core_cycles_source="counted: perf_event", target_mapping="trap")
        self.assertIn(Verdict.SLOWER, {v.verdict for key, _, v in self.verdicts(side(base), side(trap))
                                 if key.family == "chain"})

    def test_scaling_keeps_counts_and_turns_rates_the_other_way(self):
        doc = verdict_rates.scaled(synthetic(1, reps=1, spread=0), 2.0)
        by = {e["name"]: e for e in doc["benchmarks"]}
        self.assertEqual(by["lat/read32/fenced"]["p50"], 156)
        self.assertEqual(by["lat/read32/fenced"]["outliers"], 3)
        self.assertEqual(by["copy/toio/simd/4096"]["bytes_per_second"], 102.4e9 / 2)

    def test_fewer_repetitions_for_the_rates_script(self):
        doc = verdict_rates.first_repetitions(synthetic(1), 3)
        self.assertEqual({e["repetition_index"] for e in doc["benchmarks"]}, {0, 1, 2})
        self.assertTrue(all(e["run_type"] == "iteration" for e in doc["benchmarks"]))



class CompareJson(unittest.TestCase):
    """compare.json's verdict fields, from synthetic runs of the fixture: what a program reads to act on them."""

    def doc(self, a, b):
        return json.loads(json.dumps(verdicts.document([a, b], ["old", "new"], [["a.json"], ["b.json"]]),
                                     allow_nan=False))

    def test_method_names_the_margin_and_the_equivalence_test(self):
        doc = self.doc(side(synthetic(1)), side(synthetic(2)))
        self.assertEqual(doc["method"]["margin"], stats.MARGIN)
        self.assertIn("90% interval", doc["method"]["equivalence"])

    def test_one_run_a_side_unclear_carries_what_it_would_need(self):
        doc = self.doc(side(synthetic(1)), side(synthetic(2)))
        unclear = [r for r in doc["results"] if Verdict(r["verdict"]) is Verdict.UNCLEAR]
        self.assertTrue(unclear)
        for r in unclear:
            self.assertEqual(r["margin"], stats.MARGIN, r["name"])
            lo, hi = r["interval"]
            self.assertAlmostEqual(r["margin_needed"], max(1 / lo, hi) - 1, msg=r["name"])
            self.assertGreater(r["margin_needed"], r["margin"], r["name"])
            self.assertIn("cannot tell within ±5%", r["why"])
            if r["runs_needed"] is not None:
                self.assertGreaterEqual(r["runs_needed"], stats.values_needed())
                self.assertIn(f"about {r['runs_needed']} runs a side", r["why"])
        # rep/ (40%) and copy/ (80%) need many runs; chain/ none: it is shown the same with one
        self.assertTrue(any(r["family"] == "copy" and r["runs_needed"] is None for r in unclear))
        self.assertEqual({Verdict(r["verdict"]) for r in doc["results"] if r["family"] == "chain"}, {Verdict.SAME})

    def test_several_runs_a_side_the_same_carries_its_interval(self):
        doc = self.doc(side(*(synthetic(i) for i in (1, 2, 3))), side(*(synthetic(i) for i in (4, 5, 6))))
        for r in (r for r in doc["results"] if Verdict(r["verdict"]) is not Verdict.NA):      # n/a: barrier/compiler, below resolution
            self.assertEqual((Verdict(r["verdict"]), r["unit"], r["runs_needed"]), (Verdict.SAME, "run", None), r["name"])
            lo, hi = r["interval"]
            self.assertTrue(1 / (1 + r["margin"]) <= lo <= hi <= 1 + r["margin"], r["name"])
            self.assertLessEqual(r["margin_needed"], r["margin"], r["name"])

    def test_slower_and_n_a_carry_no_interval(self):
        later = verdict_rates.scaled(synthetic(2), 3.0)
        later["benchmarks"] = [e for e in later["benchmarks"] if not e["name"].startswith("chain/")]
        doc = self.doc(side(synthetic(1)), side(later))
        slower = next(r for r in doc["results"] if Verdict(r["verdict"]) is Verdict.SLOWER)
        self.assertEqual((slower["interval"], slower["margin_needed"], slower["runs_needed"]), (None, None, None))
        gone = next(r for r in doc["results"] if r["family"] == "chain")
        self.assertEqual((Verdict(gone["verdict"]), gone["ratio"], gone["margin"], gone["interval"]), (Verdict.NA, None, None, None))
        self.assertIn("no number in the later run", gone["why"])

if __name__ == "__main__":
    unittest.main()


class History(unittest.TestCase):
    """alerts: a machine's own runs decide how far its latest may land (stats.against_history)."""

    def test_the_t_quantile_is_the_tables(self):
        for df, t in ((1, 318.31), (3, 10.215), (6, 5.208), (10, 4.144), (30, 3.385)):
            self.assertAlmostEqual(stats.t_quantile(0.999, df), t, places=2)

    def test_a_steady_machine_shows_what_its_family_cannot(self):
        runs = [[100 * f * (1 + 0.001 * i) for i in range(3)] for f in (1.0, 1.004, 0.997, 1.009, 0.995, 1.002, 0.999)]
        latest = [150.0, 150.1, 150.2]
        self.assertEqual(stats.against_history(runs, latest, family="copy").verdict, Verdict.SLOWER)
        # with too few runs of its own, or measured disturbed, the family's floor (copy/ 80%) stands
        self.assertIsNone(stats.own_floor(runs[:stats.OWN_RUNS - 1]))
        self.assertNotEqual(stats.against_history(runs[:3], latest, family="copy").verdict, Verdict.SLOWER)
        self.assertNotEqual(stats.against_history(runs, latest, family="copy", disturbed=True).verdict,
                            Verdict.SLOWER)
        self.assertEqual(stats.own_floor(runs), stats.OWN_FLOOR)      # 1% apart: the least floor

    def test_a_machine_that_moves_by_half_is_held_to_that(self):
        runs = [[100 * f] * 3 for f in (1.0, 1.5, 0.8, 1.4, 1.0, 1.6, 0.9)]
        self.assertGreater(stats.own_floor(runs), 1.0)
        self.assertNotEqual(stats.against_history(runs, [150.0] * 3, family="chain").verdict, Verdict.SLOWER)
