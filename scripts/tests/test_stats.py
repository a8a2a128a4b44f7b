"""The comparison's statistic on synthetic repetitions: exact p values, the false-positive rate it holds, verdicts."""
import itertools
import json
import math
import random
import unittest

import fixture
import verdict_rates
from regbench_base import model
from regbench_report import stats, verdicts


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

    def test_slower_faster_same(self):
        a = [100.0, 101.0, 99.5]
        big = 1 + stats.MIN_EFFECT["repetition"] + 0.2
        self.assertEqual(stats.compare(a, [x * big for x in a]).verdict, "slower")
        self.assertEqual(stats.compare(a, [x / big for x in a]).verdict, "faster")
        self.assertEqual(stats.compare(a, [x * big for x in a], higher_is_better=True).verdict, "faster")
        same = stats.compare(a, list(a))
        self.assertEqual((same.verdict, same.p, same.ratio, same.unit, same.n),
                         ("same", 1.0, 1.0, "repetition", (3, 3)))

    def test_separated_but_within_the_run_to_run_spread_is_the_same(self):
        a = [100.0, 100.1, 100.2]
        v = stats.compare(a, [x * 1.10 for x in a])
        self.assertEqual((v.verdict, v.p, v.floor), ("same", 0.1, stats.MIN_EFFECT["repetition"]))
        self.assertIn("run-to-run spread", v.why)
        # two benchmarks of one run: the floor of a test over runs
        self.assertEqual(stats.compare(a, [x * 1.10 for x in a], floor=stats.MIN_EFFECT["run"]).verdict, "slower")

    def test_an_undisturbed_result_has_its_family_s_floor(self):
        a = [100.0, 100.1, 100.2]
        v = stats.compare(a, [x * 1.10 for x in a], calm_family="chain")
        self.assertEqual((v.verdict, v.floor), ("slower", stats.CALM_EFFECT["chain"]))
        v = stats.compare(a, [x * 1.10 for x in a], calm_family="dispatch")
        self.assertEqual((v.verdict, v.floor), ("same", stats.CALM_EFFECT["dispatch"]))
        # a family without a measured spread keeps the disturbed floor
        self.assertEqual(stats.compare(a, [x * 1.10 for x in a], calm_family="new").floor,
                         stats.MIN_EFFECT["repetition"])

    def test_negligible_costs_are_the_same(self):
        v = stats.compare([2e-5] * 3, [9e-5] * 3, floor=0, negligible=stats.NEGLIGIBLE_CYCLES)
        self.assertEqual(v.verdict, "same")
        self.assertIn("no cost to speak of", v.why)
        self.assertEqual(stats.compare([2e-5] * 3, [9e-5] * 3, floor=0).verdict, "slower")

    def test_overlapping_repetitions_are_the_same_however_far_the_medians(self):
        v = stats.compare([100, 200, 300], [120, 250, 290], floor=0)
        self.assertEqual(v.verdict, "same")
        self.assertIn("overlap", v.why)

    def test_too_few_repetitions_cannot_tell(self):
        v = stats.compare([100.0, 100.0], [350.0, 350.0])
        self.assertEqual(v.verdict, "n/a")
        self.assertIn(f"--benchmark_repetitions={stats.values_needed()}", v.why)
        self.assertEqual(stats.values_needed(), 3)
        self.assertEqual(stats.compare([], [1.0]).verdict, "n/a")
        self.assertIsNone(stats.compare([1.0], []).ratio)

    def test_one_timer_step(self):
        self.assertEqual(stats.compare([26.0] * 5, [30.0] * 5, quantum=26, floor=0).verdict, "same")
        self.assertEqual(stats.compare([26.0] * 5, [52.0] * 5, quantum=26, floor=0).verdict, "slower")


class CompareRuns(unittest.TestCase):
    """Several runs a side: each run's median is one value, and the run-to-run spread is inside the test."""

    def test_runs_are_the_unit(self):
        reps = [100.0] * 9
        v = stats.compare(reps, [110.0] * 9, a_runs=[99.0, 100.0, 101.0], b_runs=[109.0, 110.0, 111.0])
        self.assertEqual((v.verdict, v.unit, v.n, v.p, v.floor),
                         ("slower", "run", (3, 3), 0.1, stats.MIN_EFFECT["run"]))

    def test_runs_that_jump_between_two_speeds_are_the_same(self):
        # repetitions alone would separate 1.0 from 1.7; the runs show both speeds on both sides
        v = stats.compare([1.0] * 3 + [1.7] * 6, [1.7] * 3 + [1.0] * 6, a_runs=[1.0, 1.7, 1.7], b_runs=[1.7, 1.0, 1.0])
        self.assertEqual(v.verdict, "same")

    def test_two_runs_a_side_cannot_tell(self):
        v = stats.compare([1.0] * 6, [2.0] * 6, a_runs=[1.0, 1.0], b_runs=[2.0, 2.0])
        self.assertEqual((v.verdict, v.unit), ("n/a", "run"))
        self.assertIn("give 3 runs of each", v.why)

    def test_one_side_with_one_run_tests_repetitions(self):
        v = stats.compare([1.0] * 3, [1.1] * 9, a_runs=(), b_runs=[1.1, 1.1, 1.1])
        self.assertEqual((v.verdict, v.unit), ("same", "repetition"))


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

    def test_runs_alike_are_the_same(self):
        got = self.verdicts(side(synthetic(1)), side(synthetic(2)))
        self.assertEqual({v.verdict for _, _, v in got}, {"same"})
        self.assertGreater(len(got), 10)
        got = self.verdicts(side(*(synthetic(i) for i in (1, 2, 3))), side(*(synthetic(i) for i in (4, 5, 6))))
        self.assertEqual({(v.verdict, v.unit) for _, _, v in got}, {("same", "run")})

    def test_every_repetition_ten_percent_slower(self):
        a = side(*(synthetic(i) for i in (1, 2, 3)))
        b = side(*(verdict_rates.scaled(synthetic(i), 1.10) for i in (4, 5, 6)))
        step = a.ctx_float("timer_resolution_cycles")
        small = []
        for key, name, v in self.verdicts(a, b):
            # a lat/ or flush/ value under ten timer steps moves by less than one step: no difference it can show
            if a.meta.sampled(key.family) and a.measure(key).value < 10 * step:
                small.append(name)
                self.assertEqual(v.verdict, "same", name)
            else:
                self.assertEqual((v.verdict, v.unit), ("slower", "run"), name)
        self.assertEqual(small, ["lat/read32/fenced", "lat/write32/fenced"])

    def test_one_run_a_side_shows_only_what_exceeds_the_run_to_run_spread(self):
        a = side(synthetic(1))
        ten = self.verdicts(a, side(verdict_rates.scaled(synthetic(2), 1.10)))
        # undisturbed on both sides: 10% shows in the families whose measured spread is under it
        for key, name, v in ten:
            floor = stats.CALM_EFFECT.get(key.family, 1)
            if floor != 0.10:   # at the floor itself the repetitions' own scatter decides
                self.assertEqual(v.verdict, "slower" if floor < 0.10 else "same", name)
        self.assertIn("slower", {v.verdict for _, _, v in ten})
        # measured on a disturbed machine on one side: only what exceeds the disturbed spread
        shaken = verdict_rates.scaled(synthetic(2), 1.10)
        for meta in shaken["regbench"]["benchmarks"].values():
            meta["disturbed"] = 1
        self.assertEqual({v.verdict for _, _, v in self.verdicts(a, side(shaken))}, {"same"})
        factor = 1 + stats.MIN_EFFECT["repetition"] + 0.2
        big = self.verdicts(a, side(verdict_rates.scaled(synthetic(2), factor)))
        self.assertEqual({v.verdict for _, _, v in big}, {"slower"})

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
        self.assertTrue(chain and all(v.verdict == "same" and "core clock" in v.why for v in chain), chain)
        # a real change moves both: still called
        real = self.verdicts(a, side(clocked(2, 1.10, 1.10)))
        self.assertIn("slower", {v.verdict for key, _, v in real if key.family == "chain"})
        # counted core cycles on a trap target leave the handler out: the TSC verdict stands alone
        base, trap = clocked(1, 1, 1), clocked(2, 1.10, 1)
        for d in (base, trap):
            d["context"].update(core_cycles_source="counted: perf_event", target_mapping="trap")
        self.assertIn("slower", {v.verdict for key, _, v in self.verdicts(side(base), side(trap))
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


if __name__ == "__main__":
    unittest.main()
