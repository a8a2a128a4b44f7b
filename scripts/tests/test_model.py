"""Loading result files: every state a benchmark can be in, repetitions, and files that are not regbench's."""
import math
import unittest

import fixture
from regbench_report import model, names


class LoadSingle(unittest.TestCase):
    def setUp(self):
        self.run = model.load(fixture.path("single.json"))

    def test_measured_counter_is_its_value_with_unknown_noise(self):
        m = self.run.measure("thrpt/read32/relaxed")
        self.assertEqual((m.state, m.value, m.noise), ("ok", 0.25, None))

    def test_below_resolution_carries_the_bound_from_the_label(self):
        m = self.run.measure("lat/read32/relaxed")
        self.assertEqual((m.state, m.bound), ("below", 26.0))
        self.assertIsNone(self.run.measure("lat/read32/relaxed", "ns").bound)

    def test_skipped_and_failed_keep_their_reason(self):
        s = self.run.results["rep/read32/string/8"]
        self.assertEqual((s.state, s.reason), ("skipped", "x86 has no string instruction that repeats one memory address"))
        e = self.run.results["thrpt/write32/relaxed"]
        self.assertEqual((e.state, e.reason), ("error", "SIGBUS at offset 0x0"))

    def test_nan_and_absent_counters(self):
        self.assertEqual(self.run.measure("thrpt/write64/relaxed").state, "nan")
        self.assertEqual(self.run.measure("copy/toio/libc/4096", "bytes_per_second").state, "absent")
        self.assertEqual(self.run.measure("no/such/benchmark").state, "absent")

    def test_histogram(self):
        h = self.run.histograms["lat/read32/fenced"]
        self.assertEqual((h.unit, len(h.edges), h.counts[1]), ("cycles", 5, 800))


class LoadRepetitions(unittest.TestCase):
    def setUp(self):
        self.run = model.load(fixture.path("reps.json"))

    def test_median_and_cv_come_from_the_aggregates(self):
        m = self.run.measure("thrpt/read32/relaxed")
        self.assertEqual((m.value, m.noise), (0.25, 0.0566))
        self.assertEqual(self.run.repetitions, 2)
        self.assertNotIn("thrpt/read32/relaxed_median", self.run.results)

    def test_without_aggregates_the_repetitions_give_median_and_spread(self):
        m = self.run.measure("chain/read32/relaxed")
        self.assertAlmostEqual(m.value, 2.8)
        self.assertAlmostEqual(m.noise, 0.1414 / 2.8, places=3)


class BadFiles(unittest.TestCase):
    def check(self, name, why):
        with self.assertRaises(model.ReportError) as e:
            model.load(fixture.path(name))
        text = str(e.exception)
        self.assertTrue(text.startswith(fixture.path(name) + ": "), text)
        self.assertIn(why, text)
        self.assertTrue(text.endswith(")") and "(" in text, "ends with what to try: " + text)
        self.assertNotIn("\n", text)

    def test_malformed(self):
        self.check("malformed.json", "not valid JSON")

    def test_foreign_google_benchmark_file(self):
        self.check("foreign.json", "not from regbench")

    def test_not_google_benchmark(self):
        self.check("notgb.json", "not Google Benchmark JSON")

    def test_histogram_edges_must_outnumber_counts(self):
        self.check("badhist.json", "2 edges for 2 counts")

    def test_missing_file(self):
        self.check("absent.json", "No such file")


class Runs(unittest.TestCase):
    def test_merge_refuses_another_target(self):
        with self.assertRaises(model.ReportError) as e:
            model.merge([model.load(fixture.path("single.json")), model.load(fixture.path("port.json"))])
        self.assertIn("--compare", str(e.exception))

    def test_merge_of_one_run_in_parts(self):
        run = model.merge([model.load(fixture.path("single.json")), model.load(fixture.path("reps.json"))])
        self.assertEqual(run.measure("thrpt/read32/relaxed").noise, 0.0566)
        self.assertIn("dispatch/read32/direct", run.results)

    def test_labels_name_what_differs(self):
        runs = [model.load(fixture.path(n)) for n in ("single.json", "port.json")]
        self.assertEqual(model.label_runs(runs), ["ram", "port:0xc000+256"])
        same = [model.load(fixture.path("single.json"))] * 2
        self.assertEqual(model.label_runs(same), ["run 1", "run 2"])


class Names(unittest.TestCase):
    def test_parse(self):
        n = names.parse("rep/read16be/string/256")
        self.assertEqual((n.family, n.op, n.width, n.strategy, n.param), ("rep", "readbe", 16, "string", 256))
        self.assertEqual(names.parse("barrier/mfence").op, "mfence")

    def test_compact_groups_a_cross_product(self):
        got = names.compact([f"rep/{op}{w}/string/{n}" for op in ("read", "write") for w in (8, 32) for n in (1, 8)])
        self.assertEqual(got, ["rep/{read,write}{8,32}/string/{1,8}"])


if __name__ == "__main__":
    unittest.main()
