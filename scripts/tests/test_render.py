"""Whole reports from fixtures: the README's tables and sections, the charts, the copied JSON, the index."""
import dataclasses
import json
import os
import re
import unittest

import fixture
from regbench_report import index, model, render
from regbench_report.model import Key


def rendered(*files, **kw):
    out = fixture.tmpdir()
    runs = [model.load(fixture.path(f)) for f in files]
    with open(render.write(runs, out, **kw), encoding="utf-8") as f:
        return out, f.read()


def table_after(text, heading):
    """The rows of the first Markdown table after a heading, as lists of cells."""
    block = text.split(heading, 1)[1]
    rows = [l for l in block.splitlines() if l.startswith("|")]
    end = next((i for i, l in enumerate(block.splitlines()) if l.startswith("|")), 0)
    rows = []
    for line in block.splitlines()[end:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split(" | ")])
    return rows


class SingleReport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir, cls.md = rendered("single.json", command="regbench --target=ram --quick")

    def test_headline_and_title(self):
        self.assertIn("# regbench on ram: Fixture CPU", self.md)
        self.assertIn("> **Headline:** ram (WB); readl 2.75 TSC cycles dependent, 0.250 back-to-back; mfence 40.5; "
                      "4 KiB memcpy_toio fastest with simd (102 GB/s)", self.md)

    def test_machine_and_target_tables(self):
        machine = dict((r[0], r[1]) for r in table_after(self.md, "## Machine")[2:])
        self.assertEqual(machine["TSC"], "2.500 GHz, invariant — calibrated against CLOCK_MONOTONIC_RAW")
        self.assertEqual(machine["core clock"], "3.750 GHz (1.50 × TSC) — estimate: dependent add chain")
        self.assertEqual(machine["caches"], "L1d 32 KiB, L3 32 MiB shared by 2")
        target = dict((r[0], r[1]) for r in table_after(self.md, "## Target")[2:])
        self.assertEqual(target["mapping"], "WB (write-back, cached)")
        self.assertIn("- governor: powersave: frequencies move during the run", self.md)

    def test_read_table_cells(self):
        rows = table_after(self.md, "### Reads, thrpt/")
        self.assertEqual(rows[0], ["strategy", "32-bit", "64-bit"])
        self.assertEqual(rows[2:], [["relaxed", "0.250", "0.500"], ["fenced", "80.5", "—"]])
        self.assertEqual(table_after(self.md, "### Reads, lat/")[2:], [["relaxed", "< 26"], ["fenced", "78"]])

    def test_write_table_shows_errors_and_nan(self):
        rows = table_after(self.md, "### Writes, thrpt/")
        self.assertEqual(rows[2:], [["relaxed", "error", "NaN"]])

    def test_latency_percentiles(self):
        rows = table_after(self.md, "### Latency percentiles")
        self.assertEqual(rows[0], ["benchmark", "min", "p50", "p90", "p99", "p999", "max", "outliers"])
        self.assertEqual(rows[2], ["lat/read32/fenced", "52", "78", "78", "104", "130", "9000", "3"])
        self.assertEqual(rows[3][5], "—")

    def test_not_measured_grouped_by_reason(self):
        section = self.md.split("## Not measured", 1)[1].split("## Reproduce")[0]
        self.assertIn("- SIGBUS at offset 0x0 — 1: `thrpt/write32/relaxed`", section)
        self.assertIn("- x86 has no string instruction that repeats one memory address — 2: "
                      "`rep/read32/string/{8,256}`", section)
        self.assertIn("- < 26 TSC cycles — 2: `flush/write32/relaxed`, `lat/read32/relaxed`", section)

    def test_reproduce_uses_the_given_command(self):
        self.assertIn("```sh\nregbench --target=ram --quick\n```", self.md)

    def test_noise_unknown_without_repetitions(self):
        self.assertIn("Noise: unknown", self.md)

    def test_files(self):
        files = set(os.listdir(self.dir))
        for f in ("README.md", "single.json", "latency-read.svg", "latency-write.svg", "throughput.svg",
                  "histogram-read32.svg", "rep-read.svg", "copy-toio.svg", "barriers.svg"):
            self.assertIn(f, files)
        self.assertNotIn("port-vs-mmio.svg", files)
        for image in re.findall(r"\]\(([^)]+\.svg)\)", self.md):
            self.assertIn(image, files)
        with open(os.path.join(self.dir, "latency-read.svg"), encoding="utf-8") as f:
            svg = f.read()
        self.assertIn("<svg", svg)


class OpaqueNames(unittest.TestCase):
    def test_a_file_whose_names_say_nothing_renders_the_same_report(self):
        named_dir, named = rendered("single.json", command="regbench")
        opaque_dir, opaque = rendered("opaque.json", command="regbench")
        self.assertEqual(opaque.replace("opaque.json", "single.json"), named)
        self.assertNotIn("bench-", opaque)
        self.assertEqual(sorted(os.listdir(opaque_dir)), sorted(f.replace("single", "opaque") for f in os.listdir(named_dir)))
        for svg in (f for f in os.listdir(named_dir) if f.endswith(".svg")):
            with open(os.path.join(named_dir, svg), "rb") as a, open(os.path.join(opaque_dir, svg), "rb") as b:
                self.assertEqual(a.read(), b.read(), svg)


class ComparisonReport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir, cls.md = rendered("single.json", "reps.json", labels=["first", "second"])

    def test_one_column_per_run_and_ratios(self):
        rows = table_after(self.md, "### Reads, thrpt/")
        self.assertEqual(rows[0], ["strategy", "width (bits)", "first", "second", "second / first"])
        self.assertEqual(rows[2], ["relaxed", "32-bit", "0.250", "0.250", "1.00× ?"])
        self.assertEqual(rows[3], ["relaxed", "64-bit", "0.500", "—", "—"])
        self.assertEqual(rows[4], ["fenced", "32-bit", "80.5", "41", "0.51× ?"])

    def test_timer_step_marks_sampled_differences_as_noise(self):
        rows = table_after(self.md, "### Latency percentiles")
        p50 = next(r for r in rows if r[:2] == ["lat/read32/fenced", "p50"])
        self.assertEqual(p50[2:], ["78", "91", "≈1.17×"])

    def test_headline_counts(self):
        self.assertRegex(self.md, r"> \*\*Headline:\*\* second vs first: 0 of \d+ results differ beyond the noise "
                                  r"\(\d+ with noise unknown\)")

    def test_both_files_copied(self):
        self.assertTrue({"single.json", "reps.json"} <= set(os.listdir(self.dir)))


def drawn(fn, *args):
    """Calls a chart function with charts._finish replaced; returns the matplotlib figures it made."""
    from regbench_report import charts
    figs, finish = [], charts._finish
    charts._finish = lambda fig, *a, **k: figs.append(fig)
    try:
        fn(*args)
    finally:
        charts._finish = finish
    return figs


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
    def test_the_tail_bin_is_apart_and_does_not_stretch_the_axis(self):
        from regbench_report import charts
        h = model.Histogram("cycles", [52, 78, 104, 130, 155976], [10, 80, 9, 1])
        edges, counts, tail = charts.split_tail(h)
        self.assertEqual((edges, counts, tail), ([52, 78, 104, 130], [10, 80, 9], (1, 130, 155976)))
        self.assertEqual(charts.split_tail(model.Histogram("cycles", [0, 26, 52], [4, 5]))[2], None)
        run = model.load(fixture.path("single.json"))
        run.named("lat/read32/fenced").histogram = h
        figs = drawn(charts.histogram_charts, [run], ["ram"], fixture.tmpdir())
        self.assertEqual(len(figs), 1)
        self.assertLessEqual(figs[0].axes[0].get_xlim()[1], 130)

    def test_a_panel_per_run(self):
        from regbench_report import charts
        runs = [model.load(fixture.path("single.json")) for _ in range(2)]
        figs = drawn(charts.histogram_charts, runs, ["a", "b"], fixture.tmpdir())
        self.assertEqual([ax.get_title() for ax in figs[0].axes], ["a", "b"])
        # the count axis spans the counts with room for the legend, not twenty decades
        top = max(max(r.histogram.counts) for r in runs[0].results.values() if r.histogram)
        self.assertLessEqual(figs[0].axes[0].get_ylim()[1], top * 1000)


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


class Headlines(unittest.TestCase):
    def test_a_copy_only_run_says_which_strategy_at_which_size(self):
        from regbench_report import markdown
        run = model.load(fixture.path("single.json"))
        run.results = {k: r for k, r in run.results.items() if k.family == "copy"}
        self.assertEqual(markdown.headline([run], ["ram"]),
                         "ram (WB): memcpy_toio simd at 64 B–4 KiB (25–102 GB/s) "
                         "(fastest, or within the noise of the fastest; libc aside)")

    def test_a_two_run_comparison_gives_the_cost_ratio_by_family(self):
        from regbench_report import markdown
        runs = [model.load(fixture.path(f)) for f in ("single.json", "reps.json")]
        self.assertIn("median cost ratio by family: ", markdown.headline(runs, ["a", "b"]))
        fams = dict((f, x) for f, x, _ in markdown.family_ratios(runs)[0])
        mfence = Key("barrier", "mfence")
        self.assertAlmostEqual(fams["barrier"], runs[1].measure(mfence).value / runs[0].measure(mfence).value)

    def test_readl_is_the_strategy_the_file_names_the_kernel_s(self):
        from regbench_report import markdown
        with open(fixture.path("single.json"), encoding="utf-8") as f:
            doc = json.load(f)
        doc["regbench"]["kernel_strategies"]["single"] = "fenced"
        run = model.from_document("x.json", doc)
        self.assertTrue(markdown.headline([run], ["ram"]).startswith("ram (WB); readl p50 78 TSC cycles, p99 104; "))

    def test_the_reference_of_copies_is_the_declared_one(self):
        from regbench_report import markdown
        with open(fixture.path("single.json"), encoding="utf-8") as f:
            doc = json.load(f)
        doc["regbench"]["strategies"]["libc"]["kind"] = "accessor"
        run = model.from_document("x.json", doc)
        run.results = {k: r for k, r in run.results.items() if k.family == "copy"}
        self.assertEqual(markdown.headline([run], ["ram"]), "ram (WB): memcpy_toio simd at 64 B–4 KiB (25–102 GB/s) "
                                                            "(fastest, or within the noise of the fastest)")

    def test_environment_warnings_are_regbench_s_list(self):
        from regbench_report import markdown
        run = model.load(fixture.path("single.json"))
        run.context.update({"env_warnings": "running in a VM (KVMKVMKVM): the host shares the CPU; governor powersave",
                            "env_others_busy": "0.000", "env_loadavg": "0.48"})
        self.assertEqual(markdown.warnings(run), ["running in a VM (KVMKVMKVM): the host shares the CPU",
                                                  "governor powersave"])

    def test_notes_say_what_figures_hold_by_note(self):
        from regbench_report import markdown
        with open(fixture.path("single.json"), encoding="utf-8") as f:
            doc = json.load(f)
        measured = [n for n, b in doc["regbench"]["benchmarks"].items() if b["state"] == "measured"][:2]
        for n in measured:
            doc["regbench"]["benchmarks"][n]["note"] = "one movzx more"
        run = model.from_document("x.json", doc)
        lines = markdown.notes(run)
        self.assertEqual(len(lines), 1)
        self.assertTrue(lines[0].startswith("- `") and lines[0].endswith(": one movzx more."), lines[0])
        self.assertEqual(markdown.notes(model.load(fixture.path("single.json"))), [])


class Index(unittest.TestCase):
    def test_index_lists_each_report_with_its_headline(self):
        root = fixture.tmpdir()
        for name, files in (("one", ["single.json"]), ("two", ["single.json", "reps.json"])):
            render.write([model.load(fixture.path(f)) for f in files], os.path.join(root, name))
        os.makedirs(os.path.join(root, "not-a-report"))
        path, n = index.write(root)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(n, 2)
        self.assertIn("- [one](one/) — regbench on ram: Fixture CPU: ram (WB); readl", text)
        self.assertIn("- [two](two/) — regbench comparison: ", text)


if __name__ == "__main__":
    unittest.main()
