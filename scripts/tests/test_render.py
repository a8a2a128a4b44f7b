"""Whole reports from fixtures: the README's tables and sections, the copied JSON, the manifest, the index."""
import json
import os
import re
import shutil
import subprocess
import sys
import unittest

import fixture
from fixture import drawn, rendered, table_after
from regbench_base import folder, model, names
from regbench_base.verdict import Verdict
from regbench_base.model import Key
from regbench_base.state import State
from regbench_report import index, render, summary

REPORT = os.path.join(fixture.SCRIPTS, "report")
PUBLISHED = os.path.join(os.path.dirname(fixture.SCRIPTS), "reports")


class SingleReport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir, cls.md = rendered("single.json", command="regbench --target=ram --quick")

    def test_headline_and_title(self):
        self.assertIn("# regbench on ram: Fixture CPU", self.md)
        self.assertIn("> **Headline:** ram (WB); readl 2.75 TSC cycles dependent, 0.250 back-to-back; mfence 40.5 TSC cycles; "
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


class AnswersFirst(unittest.TestCase):
    """A single-run report's first 40 lines answer a driver author's questions with the run's own figures.

    answers.json is a real run (ram, --quick, three repetitions, the benchmarks the answers read); every figure
    expected here is read from the run through model, never written into the test.
    """

    def first_screen(self, md):
        top = md.splitlines()[:40]
        self.assertIn("## In short", top)
        machine = md.splitlines().index("## Machine")
        self.assertGreater(machine, top.index("## In short"))
        return {line.split("**")[1]: line for line in top if line.startswith("- **")}

    def check(self, run, md):
        """Every answer the run has the benchmarks for, in the first 40 lines, with its figures."""
        from regbench_report import tables
        got = self.first_screen(md)
        first = lambda key: tables.first_counter([run], key.family)
        fig = lambda key: tables.number(run.measure(key, first(key)).value)
        readl, relaxed = run.meta.kernel["single"], run.meta.kernel["relaxed"]
        one = got["One `readl`"]
        for family in ("chain", "thrpt"):
            key = Key(family, "read", 32, readl)
            self.assertIn(f"in {tables.clock_name([run], first(key))}, ", one)
            self.assertIn(fig(key), one)
            self.assertIn(f"`{key.family}/read32/{readl}`", one)
        rel = got["`readl_relaxed`"]
        for family in ("chain", "thrpt"):
            a, b = Key(family, "read", 32, readl), Key(family, "read", 32, relaxed)
            v = tables.compare_results(run, a, b, first(a))
            self.assertIn(f"{fig(b)}", rel)
            if v.verdict.same:
                self.assertIn(": the same, within ±5%", rel)
        self.assertIn("memory model", rel)
        cookie = got["`ioread32`'s cookie"]
        for k in (k for k in run.results if k.family == "dispatch" and run.results[k].state.figure):
            self.assertIn(f"`{k.strategy}`" if k.strategy != "direct" else "`dispatch/read32/direct`", cookie)
            self.assertIn(fig(k), cookie)
        order = got["What each ordering adds"]
        for k in (k for k in run.results if k.family == "thrpt" and k.width == 32 and k.strategy != relaxed
                  and run.results[k].state.figure and run.meta.kinds[k.strategy] == "accessor"):
            self.assertIn(f"`{k.strategy}`", order)
        toio = got["`memcpy_toio`"]
        sizes = {k.param for k in run.results if k.family == "copy" and k.op == "toio" and run.results[k].state.figure}
        for n in sizes:
            gbs = {k.strategy: run.measure(k, "bytes_per_second").value for k in run.results
                   if k.family == "copy" and k.op == "toio" and k.param == n and run.results[k].state.figure
                   and not run.meta.is_reference(k.strategy)}
            best = max(gbs, key=gbs.get)
            self.assertIn(f"{names.size_text(n)} `{best}` {tables.number(gbs[best] / 1e9)} GB/s", toio)
        return got

    def test_a_fixture_run(self):
        run = model.load(fixture.path("answers.json"))
        _, md = rendered("answers.json")
        got = self.check(run, md)
        self.assertEqual(set(got), {"One `readl`", "`readl_relaxed`", "`ioread32`'s cookie", "What each ordering adds",
                                    "`memcpy_toio`"})
        self.assertIn("in TSC cycles, it is below the timer's step (< 21)", got["One `readl`"])

    def test_published_single_runs(self):
        for name in ("ram-on-zen5", "ram-on-icelake", "trap"):
            folder_ = os.path.join(PUBLISHED, name)
            run = model.load(next(os.path.join(folder_, f) for f in os.listdir(folder_) if f.endswith(".json")))
            with open(os.path.join(folder_, "README.md"), encoding="utf-8") as f:
                with self.subTest(report=name):
                    self.check(run, f.read())

    def test_on_arm64_readl_relaxed_saves_the_barrier(self):
        # the arm64 guest's run: readl_relaxed's saving is the dmb oshld readl adds, with that barrier's own figure,
        # and an emulator's figures are said to be one's; an x86 run keeps x86's answer
        path = os.path.join(PUBLISHED, "guest-tcg-arm64", "edu-arm64.json")
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        doc["context"]["arch"] = "aarch64"
        src = os.path.join(fixture.tmpdir(), "arm64.json")
        with open(src, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        md = rendered(src)[1]
        rel = self.first_screen(md)["`readl_relaxed`"]
        self.assertIn("On arm64", rel)
        self.assertIn("`dmb oshld`", rel)
        self.assertIn("`barrier/dmb_oshld`", rel)
        self.assertIn("emulator", rel)
        self.assertNotIn("x86", rel.split("On arm64")[1])

    def test_what_a_run_lacks_is_said_or_left_out(self):
        with open(fixture.path("answers.json"), encoding="utf-8") as f:
            doc = json.load(f)
        doc["regbench"]["benchmarks"]["dispatch/read32/cookie-mmio"].update(state="skipped", reason="no cookie here")
        for e in doc["benchmarks"]:
            if e["run_name"] == "dispatch/read32/cookie-mmio":
                e.update(error_occurred=True, error_message="skipped: no cookie here")
        kept = lambda b: not b["run_name"].startswith("copy/")
        doc["benchmarks"] = [b for b in doc["benchmarks"] if kept(b)]
        doc["regbench"]["benchmarks"] = {n: b for n, b in doc["regbench"]["benchmarks"].items() if b["family"] != "copy"}
        del doc["regbench"]["kernel_strategies"]["relaxed"]
        run = model.from_document("x.json", doc)
        from regbench_report import answers
        text = "\n".join(answers.lines(run))
        self.assertIn("`cookie-mmio` (the generic ioread32 on an MMIO cookie: an out-of-line call that decodes it) "
                      "skipped (no cookie here)", text)
        self.assertNotIn("memcpy_toio", text)
        # a file without kernel_strategies.relaxed whose readl is not `relaxed`: readl_relaxed was `relaxed`
        self.assertEqual(run.meta.kernel["relaxed"], "relaxed")
        doc["regbench"]["kernel_strategies"]["single"] = "relaxed"
        self.assertNotIn("relaxed", model.from_document("x.json", doc).meta.kernel)
        port = answers.lines(model.load(fixture.path("port.json")))
        self.assertEqual(port[0].split("**")[1], "One `readl`")
        # only what the run measured is said; an older file whose readl is `relaxed` says so
        self.assertNotIn("not in this run", "\n".join(port))
        self.assertIn("in this file `readl` is `relaxed`, which is `readl_relaxed` too", "\n".join(port))

    def test_a_measured_result_without_a_figure_is_left_out_of_the_orderings(self):
        with open(fixture.path("answers.json"), encoding="utf-8") as f:
            doc = json.load(f)
        for e in doc["benchmarks"]:
            if e["run_name"] == "thrpt/read32/fenced":
                for counter in ("cycles", "core_cycles"):
                    e.pop(counter, None)
        from regbench_report import answers
        order = [l for l in answers.lines(model.from_document("x.json", doc)) if "What each ordering adds" in l]
        self.assertEqual(len(order), 1)
        self.assertNotIn("`fenced`", order[0].split("per write")[0])


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
        # one value a side: under one timer step apart is no difference, and no interval shows it the same
        self.assertEqual(p50[2:], ["78", "91", "1.17× ?"])

    def test_headline_counts(self):
        self.assertRegex(self.md, r"> \*\*Headline:\*\* second vs first: of (\d+) results 0 slower, 0 faster, "
                                  r"0 the same, 5 unclear, \d+ without a figure on a side;")

    def test_compare_json(self):
        with open(os.path.join(self.dir, "compare.json"), encoding="utf-8") as f:
            doc = json.load(f)
        self.assertEqual([r["label"] for r in doc["runs"]], ["first", "second"])
        self.assertEqual([r["file"] for r in doc["runs"]], ["single.json", "reps.json"])
        self.assertEqual(doc["method"]["alpha"], 0.1)
        self.assertEqual(doc["method"]["values_needed"], 3)
        for r in doc["results"]:
            self.assertTrue({"name", "counter", "ratio", "verdict", "run", "p", "unit", "n", "why", "values",
                             "run_medians", "states", "disturbed"} <= set(r), r)
            self.assertIn(r["verdict"], ("same", "faster", "slower", "unclear", "n/a"))
            self.assertEqual(r["run"], "second")
            self.assertEqual(r["ratio"] is None, not (r["values"][0] and r["values"][1]), r)
        by = {(r["name"], r["counter"]): r for r in doc["results"]}
        fenced = by["lat/read32/fenced", "cycles"]
        self.assertEqual((fenced["verdict"], fenced["values"], fenced["margin"]),
                         ("unclear", [[78.0], [78.0, 104.0]], 26 / 78))
        self.assertIn("1 and 2 repetitions give no 90% interval", fenced["why"])
        self.assertEqual(by["thrpt/read32/relaxed", "cycles"]["verdict"], "unclear")     # 1 and 2 repetitions
        self.assertEqual(by["copy/toio/simd/4096", "bytes_per_second"]["states"], ["measured", "absent"])
        # the headline counts the same verdicts
        n = {v: sum(Verdict(r["verdict"]) is v for r in doc["results"]) for v in Verdict}
        self.assertIn(f"of {len(doc['results'])} results {n[Verdict.SLOWER]} slower, {n[Verdict.FASTER]} faster, "
                      f"{n[Verdict.SAME]} the same, {n[Verdict.UNCLEAR]} unclear, {n[Verdict.NA]} without a figure on "
                      "a side", self.md)

    def test_a_single_run_has_no_compare_json(self):
        out, _ = rendered("single.json")
        self.assertNotIn("compare.json", os.listdir(out))

    def test_both_files_copied(self):
        self.assertTrue({"single.json", "reps.json"} <= set(os.listdir(self.dir)))


class KernelAgainstReplica(unittest.TestCase):
    """A run in the kernel (runs_in kernel) against one in user space: In short, per kernel accessor."""

    def test_each_accessor_both_measured_has_its_line(self):
        with open(fixture.path("reps.json"), encoding="utf-8") as f:
            doc = json.load(f)
        doc["context"]["runs_in"] = "kernel"
        kernel = os.path.join(fixture.tmpdir(), "kernel.json")
        with open(kernel, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        runs = [model.load(fixture.path("single.json")), model.load(kernel)]
        with open(render.write(runs, fixture.tmpdir(), labels=["user", "kmod"]), encoding="utf-8") as f:
            md = f.read()
        short = md.split("## In short", 1)[1].split("\n## ", 1)[0]
        self.assertIn("kmod (in the kernel) against user (libiomap's replica)", short)
        single = runs[1].meta.kernel["single"]       # readl's strategy (relaxed, in files this old)
        line = next(l for l in short.splitlines() if l.startswith(f"- `readl` (`read32/{single}`)"))
        self.assertIn("thrpt/ 1.00× ?", line)       # the same cell as the thrpt/ table's
        self.assertIn("chain/", line)
        self.assertNotIn("fenced", short)            # not a kernel accessor's strategy

    def test_two_runs_in_user_space_have_none(self):
        _, md = rendered("single.json", "reps.json", labels=["first", "second"])
        self.assertNotIn("## In short", md)


class GroupComparison(unittest.TestCase):
    """--names with a label repeated: runs of one build, compared run against run."""

    def test_runs_of_one_build_are_one_side(self):
        out = os.path.join(fixture.tmpdir(), "r")
        p = subprocess.run([sys.executable, REPORT, "--compare", "--names", "old,old,old,new,new,new",
                            *([fixture.path("reps.json")] * 6), "-o", out], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(out, "README.md"), encoding="utf-8") as f:
            md = f.read()
        self.assertIn("# regbench comparison: old vs new", md)
        self.assertIn("Each side is several runs of one build", md)
        self.assertIn("`scripts/report --compare --names old,old,old,new,new,new reps.json reps-2.json reps-3.json "
                      "reps-4.json reps-5.json reps-6.json -o DIR`", md)
        with open(os.path.join(out, "compare.json"), encoding="utf-8") as f:
            doc = json.load(f)
        self.assertEqual([r["label"] for r in doc["runs"]], ["old"] * 3 + ["new"] * 3)
        chain = next(r for r in doc["results"] if r["name"] == "chain/read32/relaxed")
        self.assertEqual((chain["verdict"], chain["unit"], chain["n"], chain["run_medians"], chain["interval"],
                          chain["margin_needed"], chain["runs_needed"]),
                         ("same", "run", [3, 3], [[2.8] * 3, [2.8] * 3], [1.0, 1.0], 0.0, None))


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

    def test_a_note_shared_by_benchmarks_of_a_table_is_one_line(self):
        from regbench_report import markdown, tables
        with open(fixture.path("single.json"), encoding="utf-8") as f:
            doc = json.load(f)
        for n in ("thrpt/read32/relaxed", "thrpt/read64/relaxed"):
            doc["regbench"]["benchmarks"][n]["note"] = "one movzx more"
        run = model.from_document("x.json", doc)
        t = next(t for t in tables.headline_tables([run]) if t.key == "read-thrpt-cycles")
        self.assertEqual(markdown.table_notes(t, [run], ["ram"]), ["`thrpt/read{32,64}/relaxed`: one movzx more"])
        t = next(t for t in tables.headline_tables([run]) if t.key == "read-chain-cycles")
        self.assertEqual(markdown.table_notes(t, [run], ["ram"]), [])

    def test_runs_whose_tscs_tick_at_different_rates_are_said_to(self):
        from regbench_report import markdown
        a, b = model.load(fixture.path("single.json")), model.load(fixture.path("single.json"))
        self.assertEqual(markdown.tsc_rates_differ([a, b], ["a", "b"]), "")
        b.context["tsc_hz"] = "2096000000"
        text = markdown.tsc_rates_differ([a, b], ["icelake", "zen5"])
        self.assertIn("(icelake 2.500 GHz, zen5 2.096 GHz)", text)
        self.assertIn("Compare the core-cycle tables", text)

    def test_a_coarse_timer_is_said_where_it_leaves_a_sampled_family_below_it(self):
        from regbench_report import markdown, tables
        with open(fixture.path("single.json"), encoding="utf-8") as f:
            doc = json.load(f)
        doc["regbench"]["families"]["lat"]["instead"] = "chain/ gives a read's latency"
        doc["context"]["tsc_hz"] = "2100000000"
        doc["context"]["timer_resolution_cycles"] = "21"
        run = model.from_document("x.json", doc)
        t = next(t for t in tables.headline_tables([run]) if t.family == "lat" and t.main == "cycles")
        notes = [n for n in markdown.table_notes(t, [run], ["ram"]) if "TSC steps" in n]
        self.assertEqual(len(notes), 1, notes)
        self.assertRegex(notes[0], r"^TSC steps of 21 ticks \(10\.0 ns\): 1 of \d+ `lat/` results here are below one "
                                   r"step; chain/ gives a read's latency$")
        t = next(t for t in tables.headline_tables([run]) if t.key == "read-chain-cycles")
        self.assertFalse([n for n in markdown.table_notes(t, [run], ["ram"]) if "TSC steps" in n])


def listing(d):
    return sorted(os.listdir(d))


def manifest(d):
    with open(os.path.join(d, folder.MANIFEST), encoding="utf-8") as f:
        return sorted(l.strip() for l in f if not l.startswith("#"))


class Manifest(unittest.TestCase):
    """The report owns only what it wrote: a manifest, refusals, nothing half-written."""

    def write(self, out, *files, **kw):
        return render.write([model.load(fixture.path(f)) for f in files], out, **kw)

    def test_the_manifest_lists_every_file_written(self):
        out = os.path.join(fixture.tmpdir(), "r")
        self.write(out, "single.json")
        self.assertEqual(manifest(out), [f for f in listing(out) if f != folder.MANIFEST])
        self.assertIn("README.md", manifest(out))

    def test_rendering_again_removes_only_what_the_last_report_wrote(self):
        out = os.path.join(fixture.tmpdir(), "r")
        self.write(out, "single.json")
        first = set(manifest(out))
        self.write(out, "port.json", force=False)
        self.assertEqual(manifest(out), [f for f in listing(out) if f != folder.MANIFEST])
        gone = first - set(manifest(out))
        self.assertIn("single.json", gone)
        self.assertIn("copy-toio.svg", gone)
        self.assertFalse(gone & set(listing(out)))

    def test_a_folder_with_other_files_is_refused(self):
        out = fixture.tmpdir()
        for f in ("README.md", "mine.svg"):
            with open(os.path.join(out, f), "w") as fh:
                fh.write("the user's\n")
        with self.assertRaises(folder.FolderError) as e:
            self.write(out, "single.json")
        self.assertTrue(str(e.exception).startswith(f"{out}: holds 2 files the report did not write "
                                                    "(README.md, mine.svg) (give a new or empty folder, or --force"))
        self.assertEqual(listing(out), ["README.md", "mine.svg"])

    def test_force_writes_beside_them_and_never_removes_them(self):
        out = fixture.tmpdir()
        with open(os.path.join(out, "mine.svg"), "w") as fh:
            fh.write("the user's\n")
        self.write(out, "single.json", force=True)
        self.assertNotIn("mine.svg", manifest(out))
        self.write(out, "port.json", force=True)
        with open(os.path.join(out, "mine.svg")) as fh:
            self.assertEqual(fh.read(), "the user's\n")
        # the user's file is still not the report's: without --force the folder is refused
        with self.assertRaises(folder.FolderError):
            self.write(out, "single.json")

    def test_an_input_inside_the_folder_is_not_someone_else_s(self):
        out = fixture.tmpdir()
        shutil.copyfile(fixture.path("single.json"), os.path.join(out, "run.json"))
        render.write([model.load(os.path.join(out, "run.json"))], out)
        render.write([model.load(os.path.join(out, "run.json"))], out)
        self.assertIn("run.json", listing(out))

    def test_a_report_rendered_before_the_manifest_is_recognised_by_its_links(self):
        out = os.path.join(fixture.tmpdir(), "r")
        self.write(out, "single.json")
        os.remove(os.path.join(out, folder.MANIFEST))
        self.assertEqual(folder.foreign(out), [])
        with open(os.path.join(out, "mine.svg"), "w") as fh:
            fh.write("x")
        self.assertEqual(folder.foreign(out), ["mine.svg"])

    def test_an_edited_manifest_cannot_reach_outside_the_folder(self):
        root = fixture.tmpdir()
        out = os.path.join(root, "r")
        self.write(out, "single.json")
        with open(os.path.join(root, "keep.txt"), "w") as fh:
            fh.write("the user's\n")
        with open(os.path.join(out, folder.MANIFEST), "a", encoding="utf-8") as fh:
            fh.write("../keep.txt\n")
        self.write(out, "port.json")
        self.assertTrue(os.path.exists(os.path.join(root, "keep.txt")))

    def test_an_output_path_that_is_a_file(self):
        path = os.path.join(fixture.tmpdir(), "file")
        open(path, "w").close()
        with self.assertRaises(folder.FolderError) as e:
            self.write(path, "single.json")
        self.assertIn("not a folder", str(e.exception))

    def test_an_interrupted_rendering_leaves_the_folder_as_it_was(self):
        from regbench_report import charts
        root = fixture.tmpdir()
        old, new = os.path.join(root, "old"), os.path.join(root, "new")
        self.write(old, "single.json")

        def contents(d):
            out = {}
            for f in listing(d):
                with open(os.path.join(d, f), "rb") as fh:
                    out[f] = fh.read()
            return out
        before = contents(old)

        def interrupted(*a):
            raise KeyboardInterrupt
        real, charts.all_charts = charts.all_charts, interrupted
        try:
            for out in (old, new):
                with self.assertRaises(KeyboardInterrupt):
                    self.write(out, "port.json")
        finally:
            charts.all_charts = real
        self.assertEqual(contents(old), before)
        self.assertFalse(os.path.exists(new))


class Caveats(unittest.TestCase):
    """Charts and tables say what their numbers are: methods apart, where they come from, errors, disturbance."""

    def test_lat_and_chain_are_separate_panels(self):
        from regbench_report import charts
        run = model.load(fixture.path("single.json"))
        panels = charts.latency_panels([run], "read")
        self.assertEqual([f for f, _ in panels], ["lat", "chain"])
        lat, chain = (dict(v) for _, v in panels)
        self.assertEqual(lat[(0, "fenced", 32)], (78.0, 104.0, State.MEASURED))
        self.assertEqual(lat[(0, "relaxed", 32)], (26.0, None, State.BELOW_RESOLUTION))
        self.assertEqual(chain, {(0, "relaxed", 32): (2.75, None, State.MEASURED)})
        figs = drawn(charts.latency_chart, [run], ["ram"], fixture.tmpdir(), "read")
        self.assertEqual([a.get_title(loc="left").split(":")[0] for a in figs[0].axes], ["lat/", "chain/"])
        self.assertEqual([f for f, _ in charts.latency_panels([run], "write")], ["lat"])

    def test_every_footer_says_target_kind_and_accelerator(self):
        from regbench_report import charts
        runs = [model.load(fixture.path(f)) for f in ("mmio-and-port.json", "port.json")]
        self.assertEqual(charts.where(runs[1]).split(" · ")[1], "QEMU tcg: EMULATION COSTS, not hardware")
        footer = charts.common.footer_text(runs, ["a", "b"]).splitlines()
        self.assertEqual(len(footer), 2)
        self.assertIn("MMIO", footer[0])
        self.assertIn("port I/O", footer[1])
        self.assertIn("EMULATION COSTS", footer[1])
        single = charts.common.footer_text([model.load(fixture.path("single.json"))], ["ram"])
        self.assertTrue(single.startswith("ram (wb, MMIO) · Fixture CPU"), single)

    def test_errors_disturbance_and_notes_are_shown_where_the_benchmark_is(self):
        with open(fixture.path("single.json"), encoding="utf-8") as f:
            doc = json.load(f)
        doc["regbench"]["benchmarks"]["thrpt/read32/relaxed"].update(disturbed=1)
        doc["regbench"]["benchmarks"]["chain/read32/relaxed"]["note"] = "the accessor adds a movzbl"
        out = fixture.tmpdir()
        path = os.path.join(out, "in", "edited.json")
        os.makedirs(os.path.dirname(path))
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        with open(render.write([model.load(path)], os.path.join(out, "r")), encoding="utf-8") as f:
            md = f.read()
        thrpt_w = md.split("### Writes, thrpt/: TSC")[1].split("###")[0]
        self.assertIn("- `thrpt/write32/relaxed` failed: SIGBUS at offset 0x0", thrpt_w)
        thrpt_r = md.split("### Reads, thrpt/: TSC")[1].split("###")[0]
        self.assertIn("| relaxed | 0.250 † | 0.500 |", thrpt_r)
        self.assertIn("- † `thrpt/read32/relaxed`: 1 of 1 repetitions measured while the machine was disturbed",
                      thrpt_r)
        chain = md.split("### Reads, chain/")[1].split("###")[0]
        self.assertIn("- `chain/read32/relaxed`: the accessor adds a movzbl", chain)

    def test_a_repetition_that_failed_is_left_out_and_said(self):
        with open(fixture.path("reps.json"), encoding="utf-8") as f:
            doc = json.load(f)
        e = next(e for e in doc["benchmarks"] if e["name"] == "chain/read32/relaxed" and e.get("repetition_index") == 1)
        e.update(error_occurred=True, error_message="SIGSEGV at 0x7f00")
        res = model.from_document("x.json", doc).named("chain/read32/relaxed")
        self.assertEqual((res.reps["cycles"], res.failed), ([2.7], ["SIGSEGV at 0x7f00"]))


class Extremes(unittest.TestCase):
    """What the contract allows renders: every counter 0 (a p50 under the timer's overhead is kept as 0) or at the
    contract's largest, in a report, a comparison and the summary (the fuzzer found a port chart dividing by 0)."""

    def test_zero_and_the_largest_counters_render(self):
        for name in ("mmio-and-port.json", "single.json"):
            for value in (0, 2 ** 53):
                with open(fixture.path(name), encoding="utf-8") as f:
                    doc = json.load(f)
                for e in doc["benchmarks"]:
                    for k in [k for k in e if k not in model._GB_FIELDS]:
                        e[k] = value
                path = os.path.join(fixture.tmpdir(), name)
                with open(path, "w", encoding="utf-8") as f:
                    json.dump(doc, f)
                with self.subTest(name=name, value=value):
                    run = model.load(path)
                    self.assertTrue(summary.lines(run))
                    for runs in ([run], [run, model.load(path)]):
                        out = fixture.tmpdir()
                        self.assertTrue(os.path.isfile(render.write(runs, out, labels=["a", "b"][:len(runs)])))


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
