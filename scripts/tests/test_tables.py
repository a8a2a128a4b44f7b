"""Headline tables: which rows and columns exist, what the cells say, and when a difference is noise."""
import unittest

import fixture
from regbench_report import model, tables
from regbench_report.model import Measure


def load(*files):
    return [model.load(fixture.path(f)) for f in files]


def by_key(runs):
    return {t.key: t for t in tables.headline_tables(runs)}


class SingleRunTables(unittest.TestCase):
    def setUp(self):
        self.runs = load("single.json")
        self.t = by_key(self.runs)

    def test_read_throughput_by_strategy_and_width(self):
        t = self.t["read-thrpt-cycles"]
        self.assertEqual((t.rows, t.cols), (["relaxed", "fenced"], [32, 64]))
        self.assertEqual(t.cell("relaxed", 32), ("thrpt/read32/relaxed", "cycles"))
        self.assertIsNone(t.cell("fenced", 64))

    def test_core_cycles_get_their_own_table_when_present(self):
        t = self.t["read-thrpt-core_cycles"]
        self.assertEqual(t.cells, {("relaxed", 64): ("thrpt/read64/relaxed", "core_cycles")})

    def test_latency_percentiles_take_the_columns_present(self):
        t = self.t["latency"]
        self.assertEqual(t.rows, ["lat/read32/fenced", "lat/write32/fenced"])
        self.assertEqual(t.cols, ["min", "p50", "p90", "p99", "p999", "max", "outliers"])

    def test_rows_every_run_skipped_are_left_to_not_measured(self):
        self.assertEqual(self.t["rep"].rows, ["read32 relaxed"])
        self.assertEqual(self.t["dispatch"].rows, ["direct", "cookie-mmio"])

    def test_copy_in_gb_per_second_libc_last(self):
        t = self.t["copy-toio"]
        self.assertEqual((t.rows, t.cols, t.scale), (["simd", "libc"], [64, 4096], 1e-9))
        self.assertEqual(tables.cell_text(self.runs[0].measure(*t.cell("simd", 4096)), t.scale), "102")

    def test_barriers_cheapest_first(self):
        self.assertEqual(self.t["barrier"].rows, ["compiler", "mfence"])

    def test_cell_texts(self):
        run = self.runs[0]
        self.assertEqual(tables.cell_text(run.measure("lat/read32/relaxed")), "< 26")
        self.assertEqual(tables.cell_text(run.measure("thrpt/write32/relaxed")), "error")
        self.assertEqual(tables.cell_text(run.measure("thrpt/write64/relaxed")), "NaN")
        self.assertEqual(tables.cell_text(run.measure("rep/read32/string/8")), "skipped")
        self.assertEqual(tables.cell_text(run.measure("x/y/z")), "—")
        self.assertEqual([tables.number(v) for v in (1234.5, 40.5, 2.75, 0.25, 0.0001)],
                         ["1234", "40.5", "2.75", "0.250", "0.0001"])


class Verdicts(unittest.TestCase):
    def test_beyond_inside_and_unknown_noise(self):
        a = Measure("ok", 100.0, 0.01)
        self.assertTrue(tables.compare(a, Measure("ok", 110.0, 0.01)).beyond)
        self.assertFalse(tables.compare(a, Measure("ok", 102.0, 0.01)).beyond)
        self.assertIsNone(tables.compare(a, Measure("ok", 150.0, None)).beyond)
        self.assertIsNone(tables.compare(a, Measure("below", bound=26)))

    def test_a_difference_under_one_timer_step_is_noise_even_without_repetitions(self):
        v = tables.compare(Measure("ok", 78.0), Measure("ok", 91.0), quantum=26)
        self.assertEqual((v.ratio, v.beyond), (91 / 78, False))
        self.assertEqual(tables.quantum(load("single.json")[0], "lat/read32/fenced", "p99"), 26)
        self.assertEqual(tables.quantum(load("single.json")[0], "thrpt/read32/fenced", "cycles"), 0)

    def test_ratio_text(self):
        self.assertEqual(tables.verdict_text(tables.Verdict(0.5, True)), "**0.50×**")
        self.assertEqual(tables.verdict_text(tables.Verdict(1.01, False)), "≈1.01×")
        self.assertEqual(tables.verdict_text(tables.Verdict(2.0, None)), "2.00× ?")


class ComparisonTables(unittest.TestCase):
    def test_union_of_runs_on_different_targets(self):
        t = by_key(load("single.json", "port.json"))["read-thrpt-cycles"]
        self.assertEqual(t.rows, ["relaxed", "fenced"])
        self.assertEqual(t.cols, [32, 64])


if __name__ == "__main__":
    unittest.main()
