"""The charts of a report: what each kind draws, its colours, marks and legends, on fixture and published runs."""
import dataclasses
import json
import os
import re
import unittest

import fixture
from regbench_base.verdict import Verdict
from fixture import drawn, rendered, table_after
from regbench_base import model
from regbench_base.model import Key

PUBLISHED = os.path.join(os.path.dirname(fixture.SCRIPTS), "reports")


class PortAgainstMmio(unittest.TestCase):
    def rows(self, files, labels):
        from regbench_report import charts
        runs = [model.load(fixture.path(f)) for f in files]
        return charts.port_mmio_rows(runs, labels)

    def test_pairs_within_a_run(self):
        got = {(p, r, s): m.value for p, r, s, _, m in self.rows(("mmio-and-port.json", "port.json"), ["pci", "port"])}
        self.assertEqual(got, {("rep", "read32 ×8", "port I/O: string (pci)"): 900,
                               ("rep", "read32 ×8", "MMIO: relaxed (pci)"): 1200,
                               ("dispatch", "read32", "port I/O: cookie-pio (pci)"): 1500,
                               ("dispatch", "read32", "MMIO: cookie-mmio (pci)"): 1100})
        out, md = rendered("mmio-and-port.json", "port.json")
        self.assertIn("port-vs-mmio.svg", os.listdir(out))
        target = table_after(md, "## Target")
        self.assertIn(["accelerator", "kvm: a QEMU guest with hardware virtualization",
                       "tcg: QEMU's emulation, timings are emulation costs, not hardware"], target)

    def test_rows_across_runs_in_reading_order(self):
        rows = self.rows(("single.json", "port.json"), ["ram", "port"])
        self.assertEqual(list(dict.fromkeys((p, r) for p, r, *_ in rows)),
                         [("thrpt", "read32 relaxed"), ("thrpt", "read32 fenced")])
        got = {(r, s): (k, m.value) for _, r, s, k, m in rows}
        self.assertEqual(got[("read32 relaxed", "MMIO: ram")][0], "mmio")
        self.assertEqual(got[("read32 relaxed", "port I/O: port")][0], "port")

    def test_counts_in_numeric_order(self):
        from regbench_report import charts
        run = model.load(fixture.path("mmio-and-port.json"))
        for n in (64, 512):         # a text sort put x512 and x64 before x8
            for s in ("relaxed", "string"):
                res = run.find("rep", "read", 32, s, 8)
                run.add(dataclasses.replace(res, name=f"r{s}{n}", key=res.key._replace(param=n),
                                            pair=res.pair and f"rrelaxed{n}"))
        rows = charts.port_mmio_rows([run], ["pci"])
        self.assertEqual(list(dict.fromkeys(r for p, r, *_ in rows)),
                         ["read32 ×8", "read32 ×64", "read32 ×512", "read32"])

    def edited(self, name, edit):
        with open(fixture.path(name), encoding="utf-8") as f:
            doc = json.load(f)
        edit(doc["regbench"]["benchmarks"])
        return model.from_document(name, doc)

    def test_a_run_pairs_only_what_the_file_pairs(self):
        from regbench_report import charts
        run = self.edited("mmio-and-port.json", lambda b: b["rep/read32/string/8"].pop("pair"))
        self.assertEqual({(p, r) for p, r, *_ in charts.port_mmio_rows([run], ["pci"])}, {("dispatch", "read32")})
        # a pair must be an MMIO benchmark: a port one beside a port one is no comparison
        run = self.edited("mmio-and-port.json", lambda b: b["dispatch/read32/cookie-mmio"].update(space="pio"))
        self.assertEqual({(p, r) for p, r, *_ in charts.port_mmio_rows([run], ["pci"])}, {("rep", "read32 ×8")})

    def test_across_runs_the_side_is_the_space_the_benchmark_ran_in(self):
        from regbench_report import charts
        runs = [model.load(fixture.path("single.json")),
                self.edited("port.json", lambda b: b["thrpt/read32/fenced"].update(space="mmio"))]
        rows = charts.port_mmio_rows(runs, ["ram", "port"])
        self.assertEqual(list(dict.fromkeys((p, r) for p, r, *_ in rows)), [("thrpt", "read32 relaxed")])


class Histograms(unittest.TestCase):
    # a grid of step 26: a bucket per step up to 64 steps (1664), then 32 per power of two (2 steps wide up to 3328)
    GRID = model.Histogram("cycles", [52, 78, 104, 130, 1664, 1716, 1768, 3328, 3536], [1000, 8000, 991, 0, 3, 2, 0, 4],
                           (26.0, 32))

    def test_the_tail_above_p999_is_apart_and_does_not_stretch_the_axis(self):
        from regbench_base import distribution
        from regbench_report import charts
        h = self.GRID
        # 10000 samples: p99.9 is the sample of rank 9990, in the third bucket; the 9 above it are the tail
        self.assertEqual(distribution.percentile(h, 0.999), (104, 130))
        edges, counts, tail = distribution.split_tail(h)
        self.assertEqual((edges, counts, tail), ([52, 78, 104, 130], [1000, 8000, 991], (9, 130, 3536)))
        self.assertIsNone(distribution.split_tail(model.Histogram("cycles", [0, 26, 52], [4, 5]))[2])
        run = model.load(fixture.path("single.json"))
        run.named("lat/read32/fenced").histogram = h
        figs = drawn(charts.histogram_charts, [run], ["ram"], fixture.tmpdir())
        self.assertEqual(len(figs), 1)
        self.assertLessEqual(figs[0].axes[0].get_xlim()[1], 130)
        self.assertIn("+9 above p99.9, up to 3536", [t.get_text() for t in figs[0].axes[0].get_legend().get_texts()][0])

    def test_unequal_buckets_are_drawn_per_timer_step(self):
        from regbench_report import charts
        h = model.Histogram("cycles", [1664, 1716, 1768, 3328], [40, 10, 2], (26.0, 32))
        run = model.load(fixture.path("single.json"))
        run.named("lat/read32/fenced").histogram = h
        figs = drawn(charts.histogram_charts, [run], ["ram"], fixture.tmpdir())
        heights = [list(p.get_data().values) for p in figs[0].axes[0].patches if hasattr(p, "get_data")]
        # 40 and 10 samples over two steps each, 2 over sixty (p99.9 of 52 samples is the largest: no tail)
        self.assertEqual(heights, [[20.0, 5.0, 2 / 60]])
        self.assertEqual(figs[0].axes[0].get_ylabel(), "samples per timer step (log scale)")

    def test_a_panel_per_run(self):
        from regbench_report import charts
        runs = [model.load(fixture.path("single.json")) for _ in range(2)]
        figs = drawn(charts.histogram_charts, runs, ["a", "b"], fixture.tmpdir())
        self.assertEqual([ax.get_title() for ax in figs[0].axes], ["a", "b"])
        # the count axis spans the counts with room for the legend, not twenty decades
        top = max(max(r.histogram.counts) for r in runs[0].results.values() if r.histogram)
        self.assertLessEqual(figs[0].axes[0].get_ylim()[1], top * 1000)


class Distributions(unittest.TestCase):
    """Histograms on regbench's grid add up run by run; percentiles are buckets."""

    def test_runs_on_one_grid_add_up(self):
        from regbench_base import distribution
        a = model.Histogram("cycles", [52, 78, 104], [3, 1], (26.0, 32))
        b = model.Histogram("cycles", [78, 104, 130], [2, 5], (26.0, 32))
        c = model.Histogram("cycles", [1664, 1716], [1], (26.0, 32))
        m = distribution.merge([a, b, c])
        self.assertEqual((m.edges, m.counts, m.grid), ([52, 78, 104, 130, 1664, 1716], [3, 3, 5, 0, 1], (26.0, 32)))
        self.assertEqual(distribution.percentile(m, 0.5), (104, 130))     # the sample of rank 6 of 12
        self.assertEqual(distribution.percentile(m, 1), (1664, 1716))

    def test_histograms_that_do_not_share_a_grid_do_not_merge(self):
        from regbench_base import distribution
        a = model.Histogram("cycles", [52, 78], [3], (26.0, 32))
        for other, why in ((model.Histogram("cycles", [52, 78], [3]), "without a grid"),
                           (model.Histogram("cycles", [42, 63], [3], (21.0, 32)), "different grids"),
                           (model.Histogram("cycles", [52, 104], [3], (26.0, 32)), "disagree on the bucket from 52"),
                           (model.Histogram("cycles", [26, 65], [3], (26.0, 32)), "overlap at 52")):
            with self.assertRaises(distribution.MergeError) as e:
                distribution.merge([a, other])
            self.assertIn(why, str(e.exception))


class Colours(unittest.TestCase):
    def test_every_strategy_of_a_copy_chart_has_a_colour_of_its_own(self):
        from regbench_report import charts
        run = model.load(os.path.join(PUBLISHED, "copy-strategies", "copy.json"))
        figs = drawn(charts.copy_chart, [run], ["ram"], fixture.tmpdir(), "toio")
        lines = {l.get_label(): l.get_color() for l in figs[0].axes[0].get_lines() if not l.get_label().startswith("_")}
        self.assertGreaterEqual(len(lines), 13)
        self.assertEqual(len(set(map(str, lines.values()))), len(lines), lines)
        self.assertEqual(lines["libc"], "black")
        # the same strategy keeps its colour in every copy chart
        other = drawn(charts.copy_chart, [run], ["ram"], fixture.tmpdir(), "fromio")
        back = {l.get_label(): l.get_color() for l in other[0].axes[0].get_lines()}
        self.assertEqual([back[s] for s in ("simd", "kernel")], [lines[s] for s in ("simd", "kernel")])


class VerdictsOnBars(unittest.TestCase):
    """A comparison's bars say the verdict of each later run against the first, as the tables decide it."""

    def runs(self):
        runs = [model.load(fixture.path("answers.json")) for _ in range(2)]
        slower = runs[1].find("thrpt", "read", 32, "fenced")
        for c in ("cycles", "core_cycles"):
            slower.reps[c] = [v * 3 for v in slower.reps[c]]
            slower.counters[c] *= 3
        return runs

    def marks(self, fig):
        return [t.get_text() for ax in fig.axes for t in ax.texts if t.get_text() in ("▲", "▼", "≈")]

    def test_throughput_and_latency_bars(self):
        from regbench_report import charts, tables
        runs = self.runs()
        key = Key("thrpt", "read", 32, "fenced")
        self.assertEqual(tables.compare_in(runs[0], runs[1], key, "cycles").verdict, Verdict.SLOWER)
        fig = drawn(charts.throughput_chart, runs, ["a", "b"], fixture.tmpdir())[0]
        self.assertIn("▲", self.marks(fig))
        from matplotlib.legend import Legend
        legends = [t.get_text() for c in fig.axes[-1].get_children() if isinstance(c, Legend) for t in c.get_texts()]
        self.assertIn("slower than a", legends)
        self.assertEqual(self.marks(drawn(charts.throughput_chart, runs[:1], ["a"], fixture.tmpdir())[0]), [])
        self.assertIn("≈", self.marks(drawn(charts.latency_chart, runs, ["a", "b"], fixture.tmpdir(), "read")[0]))

    def test_barrier_bars(self):
        from regbench_report import charts, tables
        import verdict_rates
        path = os.path.join(PUBLISHED, "ram-vs-trap", "ram.json")
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        runs = [model.load(path), model.from_document("slower.json", verdict_rates.scaled(doc, 3))]
        fig = drawn(charts.barrier_chart, runs, ["ram", "trap"], fixture.tmpdir())[0]
        want = [v.verdict.mark for k in runs[1].results if k.family == "barrier"
                for v in [tables.compare_in(runs[0], runs[1], k, "cycles")] if v.verdict in charts.MARKED]
        self.assertTrue(want)
        self.assertEqual(sorted(self.marks(fig)), sorted(want))


class Legends(unittest.TestCase):
    def test_a_strategy_only_a_later_run_has_is_in_the_legend(self):
        from regbench_report import charts
        runs = [model.load(fixture.path(f)) for f in ("mmio-and-port.json", "port.json")]
        del runs[0].results[Key("rep", "read", 32, "string", 8)]
        figs = drawn(charts.rep_chart, runs, ["pci", "port"], fixture.tmpdir(), "read")
        legends = [a.get_legend() for a in figs[0].axes if a.get_legend()]
        self.assertIn("string", [t.get_text() for lg in legends for t in lg.get_texts()])

    def test_the_run_legend_is_on_a_visible_panel(self):
        from matplotlib.legend import Legend
        from regbench_report import charts
        runs = [model.load(fixture.path("single.json")) for _ in range(2)]
        for r in runs:      # three widths: a 2x2 grid whose last cell is hidden
            for w in (8, 16):
                res = r.find("rep", "read", 32, "relaxed", 8)
                r.add(dataclasses.replace(res, name=f"w{w}", key=res.key._replace(width=w)))
        figs = drawn(charts.rep_chart, runs, ["a", "b"], fixture.tmpdir(), "read")
        titles = [c.get_title().get_text() for a in figs[0].axes if a.get_visible()
                  for c in a.get_children() if isinstance(c, Legend)]
        self.assertIn("run", titles)


class Text(unittest.TestCase):
    """A chart draws a run's text literally, and its own powers of ten as text: nothing is mathtext (with mathtext off
    for the run's text, log axes wrote their ticks as the raw $\\mathdefault{10^{2}}$)."""

    def test_a_runs_dollars_are_text_and_the_axes_powers_plain(self):
        from regbench_report import charts
        runs = [model.load(fixture.path("single.json")) for _ in range(2)]
        out = fixture.tmpdir()
        charts.histogram_charts(runs, ["$\\frac{1}{$", "$x^{2}$"], out)
        svg = sorted(os.listdir(out))[0]
        with open(os.path.join(out, svg), encoding="utf-8") as f:
            drawn_texts = re.findall(r"<!-- (.*?) -->", f.read())
        self.assertNotIn("mathdefault", " ".join(drawn_texts))
        self.assertTrue({"10⁰", "10¹", "10²", "$\\frac{1}{$", "$x^{2}$"} <= set(drawn_texts), drawn_texts)


if __name__ == "__main__":
    unittest.main()
