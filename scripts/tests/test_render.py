"""Whole reports from fixtures: the README's tables and sections, the charts, the copied JSON, the index."""
import os
import re
import unittest

import fixture
from regbench_report import index, model, render


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


class PortAgainstMmio(unittest.TestCase):
    def test_pairs_within_and_across_runs(self):
        runs = [model.load(fixture.path(f)) for f in ("mmio-and-port.json", "port.json")]
        from regbench_report import charts
        pairs = charts.port_mmio_pairs(runs, ["pci", "port"])
        got = [(w, p.value, m.value) for w, p, m in pairs]
        self.assertIn(("read32_rep ×8 (pci)", 900, 1200), got)
        self.assertIn(("ioread32 cookie (pci)", 1500, 1100), got)
        out, md = rendered("mmio-and-port.json", "port.json")
        self.assertIn("port-vs-mmio.svg", os.listdir(out))
        target = table_after(md, "## Target")
        self.assertIn(["accelerator", "kvm: a QEMU guest with hardware virtualization",
                       "tcg: QEMU's emulation, timings are emulation costs, not hardware"], target)


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
