"""Headline tables: which rows and columns exist, what the cells say, and when a difference is noise."""
import json
import unittest

import fixture
from regbench_base.verdict import Verdict
from regbench_base import model
from regbench_base import stats
from regbench_report import tables
from regbench_base.model import Key, Measure
from regbench_base.state import State


def load(*files):
    return [model.load(fixture.path(f)) for f in files]


def by_key(runs):
    return {t.key: t for t in tables.headline_tables(runs)}


def rows(t):
    return [t.row_text(r) for r in t.rows]


class SingleRunTables(unittest.TestCase):
    def setUp(self):
        self.runs = load("single.json")
        self.t = by_key(self.runs)

    def test_read_throughput_by_strategy_and_width(self):
        t = self.t["read-thrpt-cycles"]
        self.assertEqual((t.rows, t.cols), (["relaxed", "fenced"], [32, 64]))
        self.assertEqual(t.cell("relaxed", 32), (Key("thrpt", "read", 32, "relaxed"), "cycles"))
        self.assertIsNone(t.cell("fenced", 64))

    def test_family_texts_come_from_the_metadata(self):
        t = self.t["write-flush-cycles"]
        self.assertEqual(t.title, "Writes, flush/: TSC cycles per write+read")
        self.assertEqual(t.unit, "TSC cycles per write+read (median of samples)")
        self.assertEqual(t.what, "a write and the read-back of the same register: when a posted write has landed")

    def test_a_table_per_family_the_other_clock_on_demand(self):
        # thrpt/read32 has no core cycles: TSC cycles first, core cycles the other
        t = self.t["read-thrpt-cycles"]
        self.assertEqual(t.other.cells, {("relaxed", 64): (Key("thrpt", "read", 64, "relaxed"), "core_cycles")})
        self.assertIsNone(t.other.other)
        self.assertNotIn("read-thrpt-core_cycles", self.t)

    def test_core_cycles_first_where_every_bulk_result_has_them(self):
        run = self.runs[0]
        res = run.find("thrpt", "read", 32, "relaxed")
        res.counters["core_cycles"] = 0.375
        run.find("thrpt", "read", 32, "fenced").counters["core_cycles"] = 121.0
        t = by_key(self.runs)
        first = t["read-thrpt-core_cycles"]
        self.assertEqual((first.title, first.main), ("Reads, thrpt/: core cycles per access", None))
        self.assertEqual((first.other.key, first.other.main), ("read-thrpt-cycles", "cycles"))
        # a sampled family stays in TSC cycles (its values and bound move in TSC steps), as does a comparison
        self.assertEqual(tables.first_counter(self.runs, "lat"), "cycles")
        self.assertEqual(tables.first_counter(self.runs * 2, "thrpt"), "cycles")
        self.assertIn("read-thrpt-cycles", by_key(self.runs * 2))

    def test_latency_percentiles_take_the_columns_present(self):
        t = self.t["latency"]
        self.assertEqual(rows(t), ["lat/read32/fenced", "lat/write32/fenced"])
        self.assertEqual(t.cols, ["min", "p50", "p90", "p99", "p999", "max", "outliers"])

    def test_rows_every_run_skipped_are_left_to_not_measured(self):
        self.assertEqual(rows(self.t["rep"]), ["read32 relaxed"])
        self.assertEqual(self.t["rep"].col_text(256), "×256")
        self.assertEqual(self.t["dispatch"].rows, ["direct", "cookie-mmio"])

    def test_copy_in_gb_per_second_the_reference_last(self):
        t = self.t["copy-toio"]
        self.assertEqual((t.rows, t.cols, t.scale), (["simd", "libc"], [64, 4096], 1e-9))
        self.assertEqual(tables.cell_text(self.runs[0].measure(*t.cell("simd", 4096)), t.scale), "102")
        self.assertEqual(t.col_text(4096), "4 KiB")
        self.assertEqual(t.notes, ["libc is glibc's memcpy/memset on the same window: the reference"])

    def test_barriers_cheapest_first(self):
        self.assertEqual(self.t["barrier"].rows, ["compiler", "mfence"])

    def test_cell_texts(self):
        run = self.runs[0]
        self.assertEqual(tables.cell_text(run.measure(Key("lat", "read", 32, "relaxed"))), "< 26")
        self.assertEqual(tables.cell_text(run.measure(Key("thrpt", "write", 32, "relaxed"))), "error")
        self.assertEqual(tables.cell_text(run.measure(Key("thrpt", "write", 64, "relaxed"))), "NaN")
        self.assertEqual(tables.cell_text(run.measure(Key("rep", "read", 32, "string", 8))), "skipped")
        self.assertEqual(tables.cell_text(run.measure(Key("x", "y"))), "—")
        self.assertEqual([tables.number(v) for v in (1234.5, 40.5, 2.75, 0.25, 0.0001, 8.01e-05, 7.6e-06, -0.00999)],
                         ["1234", "40.5", "2.75", "0.250", "0.0001", "0.00008", "0.0000076", "-0.01"])
        # a bound is rounded up at its last digit, never down; an exact one stays as it is
        self.assertEqual([tables.bound_text(v) for v in (21, 26.25, 0.1, 8.01e-05, 9.999, 1234.5)],
                         ["< 21", "< 26.3", "< 0.100", "< 0.000081", "< 10", "< 1235"])


class OrderAndKindsFromTheFile(unittest.TestCase):
    """Display order and what counts as the reference are the file's, not the report's."""

    def doc(self):
        with open(fixture.path("single.json"), encoding="utf-8") as f:
            return json.load(f)

    def test_strategy_order(self):
        doc = self.doc()
        doc["regbench"]["order"]["strategies"].reverse()
        t = by_key([model.from_document("x.json", doc)])
        self.assertEqual(t["read-thrpt-cycles"].rows, ["fenced", "relaxed"])
        self.assertEqual(t["dispatch"].rows, ["cookie-mmio", "direct"])

    def test_family_order(self):
        keys = lambda runs: [t.key for t in tables.headline_tables(runs) if t.key.startswith("read-")]
        self.assertEqual(keys(load("single.json")), ["read-lat-cycles", "read-chain-cycles", "read-thrpt-cycles"])
        doc = self.doc()
        doc["regbench"]["order"]["families"] = ["thrpt", "chain", "lat"]
        self.assertEqual(keys([model.from_document("x.json", doc)]),
                         ["read-thrpt-cycles", "read-chain-cycles", "read-lat-cycles"])

    def test_the_reference_row_is_the_declared_one(self):
        doc = self.doc()
        doc["regbench"]["strategies"]["libc"]["kind"] = "accessor"
        doc["regbench"]["strategies"]["simd"]["kind"] = "reference"
        doc["regbench"]["strategies"]["simd"]["help"] = "the vector copy everyone compares with"
        t = by_key([model.from_document("x.json", doc)])["copy-toio"]
        self.assertEqual(t.rows, ["libc", "simd"])
        self.assertEqual(t.notes, ["simd is the vector copy everyone compares with: the reference"])

    def test_single_access_tables_are_families_of_accessor_strategies(self):
        # dispatch reads 32 bits too, but its rows are variants of one accessor, not access strategies
        self.assertNotIn("read-dispatch-cycles", by_key(load("single.json")))
        doc = self.doc()
        for s in ("direct", "cookie-mmio", "cookie-pio"):
            doc["regbench"]["strategies"][s]["kind"] = "accessor"
        self.assertIn("read-dispatch-cycles", by_key([model.from_document("x.json", doc)]))


class OpaqueNames(unittest.TestCase):
    def test_the_same_tables_whatever_the_names(self):
        named, opaque = by_key(load("single.json")), by_key(load("opaque.json"))
        self.assertEqual(list(named), list(opaque))
        for key, t in named.items():
            u = opaque[key]
            self.assertEqual((t.title, t.rows, t.cols, t.cells, rows(t)), (u.title, u.rows, u.cols, u.cells, rows(u)))


class Verdicts(unittest.TestCase):
    def test_over_every_repetition(self):
        a = Measure(State.MEASURED, 100.0, 0.01, reps=(99.0, 100.0, 101.0))
        slower = tables.compare(a, Measure(State.MEASURED, 210.0, 0.01, reps=(209.0, 210.0, 211.0)))
        self.assertEqual((slower.verdict, round(slower.ratio, 3), slower.p), (Verdict.SLOWER, 2.1, 0.1))
        # one run a side: 10% is inside the run-to-run spread, so unclear; two benchmarks of one run: slower
        b = Measure(State.MEASURED, 110.0, 0.01, reps=(109.0, 110.0, 111.0))
        self.assertEqual((tables.compare(a, b).verdict, tables.compare_within(a, b).verdict), (Verdict.UNCLEAR, Verdict.SLOWER))
        self.assertEqual(tables.compare(a, Measure(State.MEASURED, 150.0, reps=(150.0,))).verdict, Verdict.UNCLEAR)
        self.assertEqual(tables.compare(a, Measure(State.BELOW_RESOLUTION, bound=26)).verdict, Verdict.NA)
        # runs of one build on each side: the runs are the unit
        g = lambda *runs: Measure(State.MEASURED, sorted(runs)[1], reps=runs * 3, runs=runs)
        self.assertEqual(tables.compare(g(99.0, 100.0, 101.0), g(109.0, 110.0, 111.0)).verdict, Verdict.SLOWER)
        # for GB/s, less is slower
        self.assertEqual(tables.compare(a, Measure(State.MEASURED, 40.0, reps=(39.0, 40.0, 41.0)), higher_is_better=True).verdict,
                         Verdict.SLOWER)

    def test_two_benchmarks_of_a_disturbed_run_are_never_shown_the_same(self):
        a = Measure(State.MEASURED, 100.0, 0.01, reps=(99.9, 100.0, 100.1))
        self.assertEqual(tables.compare_within(a, a).verdict, Verdict.SAME)
        v = tables.compare_within(a, a, disturbed=True)
        self.assertEqual((v.verdict, v.floor), (Verdict.UNCLEAR, stats.MIN_EFFECT["repetition"]))
        self.assertIn("a quiet rerun would tell", v.why)

    def test_a_difference_under_one_timer_step_is_not_called_and_not_shown_the_same_by_one_value(self):
        v = tables.compare(Measure(State.MEASURED, 78.0), Measure(State.MEASURED, 91.0), quantum=26)
        self.assertEqual((v.ratio, v.verdict, v.margin), (91 / 78, Verdict.UNCLEAR, 26 / 78))
        run = load("single.json")[0]
        self.assertEqual(tables.quantum(run, Key("lat", "read", 32, "fenced"), "p99"), 26)
        self.assertEqual(tables.quantum(run, Key("lat", "read", 32, "fenced"), "outliers"), 0)
        self.assertEqual(tables.quantum(run, Key("thrpt", "read", 32, "fenced"), "cycles"), 0)

    def test_sampled_families_are_the_ones_the_file_says(self):
        with open(fixture.path("single.json"), encoding="utf-8") as f:
            doc = json.load(f)
        doc["regbench"]["families"]["thrpt"]["sampled"] = True
        doc["regbench"]["families"]["lat"]["sampled"] = False
        run = model.from_document("x.json", doc)
        self.assertEqual(tables.quantum(run, Key("thrpt", "read", 32, "fenced"), "cycles"), 26)
        self.assertEqual(tables.quantum(run, Key("lat", "read", 32, "fenced"), "p99"), 0)

    def test_ratio_text(self):
        v = lambda ratio, verdict: tables.verdict_text(stats.Comparison(ratio, verdict))
        self.assertEqual(v(0.5, Verdict.FASTER), "**0.50× faster**")
        self.assertEqual(v(1.2, Verdict.SLOWER), "**1.20× slower**")
        self.assertEqual(v(1.01, Verdict.SAME), "≈1.01×")
        self.assertEqual(v(2.0, Verdict.UNCLEAR), "2.00× ?")
        self.assertEqual(v(None, Verdict.NA), "—")
        self.assertEqual([tables.ratio_text(x) for x in (0.0047, 0.5, 12.34, 123.4)], ["0.0047×", "0.50×", "12.3×", "123×"])


class ComparisonTables(unittest.TestCase):
    def test_union_of_runs_on_different_targets(self):
        t = by_key(load("single.json", "port.json"))["read-thrpt-cycles"]
        self.assertEqual(t.rows, ["relaxed", "fenced"])
        self.assertEqual(t.cols, [32, 64])


if __name__ == "__main__":
    unittest.main()
