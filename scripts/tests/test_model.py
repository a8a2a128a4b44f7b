"""Loading result files: what the metadata says each benchmark is, every state, repetitions, files that are not regbench's."""
import glob
import json
import os
import unittest

import fixture
from regbench_base import contract, model, names
from regbench_base.model import Key
from regbench_base.state import Gap, State


def document(name):
    with open(fixture.path(name), encoding="utf-8") as f:
        return json.load(f)


class LoadSingle(unittest.TestCase):
    def setUp(self):
        self.run = model.load(fixture.path("single.json"))

    def test_measured_counter_is_its_value_with_unknown_noise(self):
        m = self.run.measure(Key("thrpt", "read", 32, "relaxed"))
        self.assertEqual((m.state, m.value, m.noise), (State.MEASURED, 0.25, None))

    def test_fields_come_from_the_metadata(self):
        r = self.run.named("rep/read32/relaxed/256")
        self.assertEqual(r.key, Key("rep", "read", 32, "relaxed", 256))
        self.assertEqual(self.run.named("barrier/mfence").key, Key("barrier", "mfence"))
        self.assertIs(self.run.find("copy", "toio", strategy="simd", param=4096),
                      self.run.named("copy/toio/simd/4096"))
        self.assertEqual(self.run.named("dispatch/read32/cookie-pio").space, "pio")

    def test_below_resolution_carries_the_bound_from_the_metadata(self):
        m = self.run.measure(Key("lat", "read", 32, "relaxed"))
        self.assertEqual((m.state, m.bound), (State.BELOW_RESOLUTION, 26.0))
        self.assertIsNone(self.run.measure(Key("lat", "read", 32, "relaxed"), "ns").bound)
        self.assertEqual(self.run.named("barrier/compiler").bound, 0.0001)

    def test_skipped_and_failed_keep_their_reason(self):
        s = self.run.named("rep/read32/string/8")
        self.assertEqual((s.state, s.reason), (State.SKIPPED, "x86 has no string instruction that repeats one memory address"))
        e = self.run.named("thrpt/write32/relaxed")
        self.assertEqual((e.state, e.reason), (State.ERROR, "SIGBUS at offset 0x0"))

    def test_omitted_and_absent_counters(self):
        # regbench omits non-finite counters: a measured benchmark without cycles had no number for it
        self.assertEqual(self.run.measure(Key("thrpt", "write", 64, "relaxed")).state, Gap.NAN)
        self.assertEqual(self.run.measure(Key("thrpt", "write", 64, "relaxed"), "ns").state, Gap.ABSENT)
        self.assertEqual(self.run.measure(Key("copy", "toio", None, "libc", 4096), "bytes_per_second").state, Gap.ABSENT)
        self.assertEqual(self.run.measure(Key("no", "such")).state, Gap.ABSENT)

    def test_a_sampled_result_s_interval(self):
        doc = document("single.json")
        doc["regbench"]["benchmarks"]["lat/read32/fenced"]["interval"] = [76.5, 80.25]
        run = model.from_document("dithered.json", doc)
        lat = run.named("lat/read32/fenced")
        self.assertEqual(lat.interval, (76.5, 80.25))
        self.assertEqual([run.measure(lat.key, c).value for c in model.INTERVAL], [76.5, 80.25])
        # a file without one (older, or another family) has none, and tables show nothing there
        self.assertIsNone(self.run.named("lat/read32/fenced").interval)
        self.assertEqual(self.run.measure(lat.key, "interval_low").state, Gap.ABSENT)
        # several runs together have no one interval of their mean
        self.assertIsNone(model.group([run, run]).named("lat/read32/fenced").interval)

    def test_histogram_belongs_to_its_benchmark(self):
        h = self.run.named("lat/read32/fenced").histogram
        self.assertEqual((h.unit, len(h.edges), h.counts[1]), ("cycles", 5, 800))
        self.assertIsNone(self.run.named("lat/write32/fenced").histogram)

    def test_meta(self):
        m = self.run.meta
        self.assertEqual(m.kernel, {"single": "relaxed", "copy": "string-wide"})
        self.assertTrue(m.sampled("lat") and m.sampled("flush") and not m.sampled("thrpt"))
        self.assertEqual(m.families["rep"].param, "count")
        self.assertEqual(sorted(["libc", "simd", "relaxed", "direct"], key=m.strategy_key),
                         ["relaxed", "simd", "direct", "libc"])


class FromAPipe(unittest.TestCase):
    """A result read from a pipe (`cat run.json | scripts/report /dev/stdin`) cannot be read again: the report keeps
    what it read and copies that, named after the pipe (it named the output folder "None" in an error before)."""

    def piped(self, text):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:                       # the writer, as cat would be
            os.close(r)
            with os.fdopen(w, "w", encoding="utf-8") as f:
                f.write(text)
            os._exit(0)
        os.close(w)
        try:
            return model.load(f"/dev/fd/{r}")
        finally:
            os.close(r)
            os.waitpid(pid, 0)

    def test_the_text_read_is_kept_and_copied(self):
        with open(fixture.path("single.json"), encoding="utf-8") as f:
            text = f.read()
        run = self.piped(text)
        self.assertEqual(list(run.read_once.values()), [text])
        self.assertEqual(model.load(fixture.path("single.json")).read_once, {})
        self.assertEqual(model.group([run, run]).read_once, run.read_once)
        from regbench_report import render
        out = fixture.tmpdir()
        render.write([run], out)
        copied = os.path.basename(run.path) + ".json"
        with open(os.path.join(out, copied), encoding="utf-8") as f:
            self.assertEqual(f.read(), text)
        with open(os.path.join(out, "README.md"), encoding="utf-8") as f:
            self.assertIn(f"raw results: [{copied}]({copied})", f.read())


class StateIsTheMetadata(unittest.TestCase):
    """Google Benchmark's error fields and labels do not decide a state; regbench.benchmarks does."""

    def test_metadata_state_wins_over_error_message_and_label(self):
        doc = document("single.json")
        meta = doc["regbench"]["benchmarks"]
        meta["rep/read32/string/8"].update(state="error", reason="SIGSEGV in rep insl")
        meta["lat/read32/relaxed"].update(state="skipped", reason="not today")
        del meta["lat/read32/relaxed"]["bound"]
        run = model.from_document("x.json", doc)
        self.assertEqual((run.named("rep/read32/string/8").state, run.named("rep/read32/string/8").reason),
                         (State.ERROR, "SIGSEGV in rep insl"))
        self.assertEqual(run.named("lat/read32/relaxed").state, State.SKIPPED)

    def test_a_below_resolution_bound_is_the_metadata_s_not_the_label_s(self):
        doc = document("single.json")
        doc["regbench"]["benchmarks"]["flush/write32/relaxed"]["bound"] = 52.0
        run = model.from_document("x.json", doc)
        self.assertEqual(run.measure(Key("flush", "write", 32, "relaxed")).bound, 52.0)


class OpaqueNames(unittest.TestCase):
    """Names are identifiers: a file whose names say nothing loads to the same benchmarks."""

    def test_same_keys_states_and_numbers_as_the_named_file(self):
        named, opaque = model.load(fixture.path("single.json")), model.load(fixture.path("opaque.json"))
        self.assertTrue(all(r.name.startswith("bench-") for r in opaque.results.values()))
        self.assertEqual(set(named.results), set(opaque.results))
        for key, a in named.results.items():
            b = opaque.results[key]
            self.assertEqual((a.state, a.counters, a.bound, a.reason, a.space, a.histogram),
                             (b.state, b.counters, b.bound, b.reason, b.space, b.histogram), key)


class LoadRepetitions(unittest.TestCase):
    def setUp(self):
        self.run = model.load(fixture.path("reps.json"))

    def test_median_and_cv_come_from_the_aggregates(self):
        m = self.run.measure(Key("thrpt", "read", 32, "relaxed"))
        self.assertEqual((m.value, m.noise), (0.25, 0.0566))
        self.assertEqual(self.run.repetitions, 2)
        self.assertEqual(len(self.run.results), 5)     # aggregates fold into their benchmark

    def test_without_aggregates_the_repetitions_give_median_and_spread(self):
        m = self.run.measure(Key("chain", "read", 32, "relaxed"))
        self.assertAlmostEqual(m.value, 2.8)
        self.assertAlmostEqual(m.noise, 0.1414 / 2.8, places=3)


class Groups(unittest.TestCase):
    """Several runs of one build as one side of a comparison."""

    def runs(self, *edits):
        out = []
        for i, edit in enumerate(edits):
            doc = document("reps.json")
            edit(doc)
            out.append(model.from_document(f"run{i}.json", doc))
        return out

    def test_medians_of_run_medians_and_every_run_kept(self):
        def scale(f):
            def edit(doc):
                for e in doc["benchmarks"]:
                    if e["run_name"] == "chain/read32/relaxed":
                        e["cycles"] *= f
            return edit
        g = model.group(self.runs(scale(1.0), scale(2.0), scale(3.0)))
        m = g.measure(Key("chain", "read", 32, "relaxed"))
        self.assertEqual(g.runs, 3)
        self.assertAlmostEqual(m.value, 2.8 * 2)
        self.assertEqual([round(x, 3) for x in m.runs], [2.8, 5.6, 8.4])
        self.assertEqual(len(m.reps), 6)
        self.assertEqual(g.paths, ["run0.json", "run1.json", "run2.json"])
        self.assertIs(model.group(g_one := self.runs(scale(1.0))), g_one[0])

    def test_disturbed_repetitions_count_over_every_run(self):
        def disturbed(doc):
            doc["regbench"]["benchmarks"]["chain/read32/relaxed"]["disturbed"] = 1
        one = self.runs(disturbed)[0].named("chain/read32/relaxed")
        g = model.group(self.runs(disturbed, disturbed, lambda d: None)).named("chain/read32/relaxed")
        # three runs of the same repetitions: 2 disturbed out of all three runs' repetitions, not out of one run's
        self.assertEqual((g.disturbed, g.out_of, g.repetitions), (2, 3 * one.out_of, one.repetitions))

    def test_a_benchmark_not_measured_in_every_run(self):
        def below(doc):
            doc["regbench"]["benchmarks"]["thrpt/read32/relaxed"].update(state="below_resolution", bound=26,
                                                                          reason="below timer resolution (< 26 cycles)")
        g = model.group(self.runs(lambda d: None, below, lambda d: None))
        m = g.measure(Key("thrpt", "read", 32, "relaxed"))
        self.assertEqual((m.state, m.bound), (State.BELOW_RESOLUTION, 26))
        self.assertEqual(g.named("thrpt/read32/relaxed").reason,
                         "below timer resolution (< 26 cycles) (measured in 2 of 3 runs)")


class BadFiles(unittest.TestCase):
    def check_text(self, path, text, why):
        self.assertTrue(text.startswith(path + ": "), text)
        self.assertIn(why, text)
        self.assertTrue(text.endswith(")") and "(" in text, "ends with what to try: " + text)
        self.assertNotIn("\n", text)

    def check(self, name, why):
        with self.assertRaises(model.ReportError) as e:
            model.load(fixture.path(name))
        self.check_text(fixture.path(name), str(e.exception), why)

    def check_doc(self, doc, why):
        with self.assertRaises(model.ReportError) as e:
            model.from_document("edited.json", doc)
        self.check_text("edited.json", str(e.exception), why)

    def test_malformed(self):
        self.check("malformed.json", "not valid JSON")

    def test_foreign_google_benchmark_file(self):
        self.check("foreign.json", "not from regbench (no 'regbench' object)")

    def test_a_regbench_file_without_the_metadata_object(self):
        self.check("old.json", "written by a regbench older than the metadata contract (no 'regbench' object) "
                               "(re-run it with this regbench)")

    def test_not_google_benchmark(self):
        self.check("notgb.json", "not Google Benchmark JSON")

    def test_histogram_edges_must_outnumber_counts(self):
        self.check("badhist.json", "expected one more edge than counts, got 2 edges for 2 counts")

    def test_missing_file(self):
        self.check("absent.json", "No such file")

    def test_a_benchmark_without_metadata(self):
        doc = document("single.json")
        del doc["regbench"]["benchmarks"]["chain/read32/relaxed"]
        self.check_doc(doc, "benchmark 'chain/read32/relaxed' has no entry in regbench.benchmarks")

    def test_aggregates_need_the_metadata_of_their_run_name(self):
        doc = document("reps.json")
        del doc["regbench"]["benchmarks"]["barrier/mfence"]
        doc["benchmarks"] = [b for b in doc["benchmarks"] if b.get("run_type") == "aggregate"]
        self.check_doc(doc, "benchmark 'barrier/mfence' has no entry")

    def test_malformed_metadata_entries(self):
        where = "regbench.benchmarks['thrpt/read32/relaxed']"
        for field, value, why in (("width", "32", f"{where}.width: expected a whole number of at least 1 or null, "
                                                  "got \"32\""),
                                  ("family", "thr", f"{where}.family: expected a family of regbench.families, "
                                                    "got \"thr\""),
                                  ("strategy", "relaxd", f"{where}.strategy: expected \"\" or a strategy of "
                                                         "regbench.strategies, got \"relaxd\""),
                                  ("state", "ok", f"{where}.state: expected one of measured | below_resolution | "
                                                  "skipped | error | not_run, got \"ok\""),
                                  ("space", "io", f"{where}.space: expected one of mmio | pio | region, got \"io\""),
                                  ("pair", "thrpt/read32/nothing", f"{where}.pair: expected a benchmark of "
                                                                   "regbench.benchmarks, got \"thrpt/read32/nothing\""),
                                  ("param", True, f"{where}.param: expected a whole number of at least 1 or null, "
                                                  "got true"),
                                  ("disturbed", -1, f"{where}.disturbed: expected a whole number of at least 0, "
                                                    "got -1")):
            doc = document("single.json")
            doc["regbench"]["benchmarks"]["thrpt/read32/relaxed"][field] = value
            with self.subTest(field=field):
                self.check_doc(doc, why)
        doc = document("single.json")
        del doc["regbench"]["benchmarks"]["thrpt/read32/relaxed"]["reason"]
        self.check_doc(doc, f"{where}.reason: expected text, found nothing")
        doc = document("single.json")
        del doc["regbench"]["benchmarks"]["lat/read32/relaxed"]["bound"]
        self.check_doc(doc, "regbench.benchmarks['lat/read32/relaxed'].bound: expected a number from 0 to "
                            "9007199254740992 or null, found nothing")

    def test_malformed_interval(self):
        where = "regbench.benchmarks['lat/read32/fenced'].interval"
        for value, why in (([80.0], f"{where}: expected at least 2 items, got 1"),
                           ([76, 78, 80], f"{where}: expected [low, high], low at most high, got [76, 78, 80]"),
                           ([80, 76], f"{where}: expected [low, high], low at most high, got [80, 76]"),
                           (["76", 80], f"{where}[0]: expected a number")):
            doc = document("single.json")
            doc["regbench"]["benchmarks"]["lat/read32/fenced"]["interval"] = value
            with self.subTest(value=value):
                self.check_doc(doc, why)

    def test_malformed_descriptions(self):
        doc = document("single.json")
        doc["regbench"]["families"]["lat"]["sampled"] = "yes"
        self.check_doc(doc, "regbench.families['lat'].sampled: expected true or false, got \"yes\"")
        doc = document("single.json")
        doc["regbench"]["kernel_strategies"]["single"] = "readl"
        self.check_doc(doc, "regbench.kernel_strategies.single: expected a strategy of regbench.strategies, "
                            "got \"readl\"")
        doc = document("single.json")
        doc["regbench"]["order"]["strategies"] = "relaxed"
        self.check_doc(doc, "regbench.order.strategies: expected a list, got \"relaxed\"")

    def test_wrong_types_where_the_renderer_reads(self):
        """Every field the report prints has its type checked at load: none can reach the renderer."""
        for edit, why in ((lambda d: d["context"].update(cpu_model=["AMD"]), "context.cpu_model: expected text, got a list"),
                          (lambda d: d["context"].update(date=20261204), "context.date: expected text, got 20261204"),
                          (lambda d: d["context"].update(accelerator={"tcg": 1}),
                           "context.accelerator: expected text, got an object"),
                          (lambda d: d["context"].update(num_cpus="2"), "context.num_cpus: expected a whole number, "
                                                                         "got \"2\""),
                          (lambda d: d["benchmarks"][0].update(cycles="3"), "benchmarks[0].cycles: expected a number from "
                                                                             "-9007199254740992 to 9007199254740992, got \"3\""),
                          (lambda d: d["benchmarks"][0].update(label=7), "benchmarks[0].label: expected text, got 7"),
                          (lambda d: d["regbench"]["families"]["lat"].update(what=None),
                           "regbench.families['lat'].what: expected text, got null"),
                          (lambda d: d["regbench"]["histograms"]["lat/read32/fenced"].update(counts=[1, 1e300, 2, 3]),
                           "regbench.histograms['lat/read32/fenced'].counts[1]: expected a whole number from 0 to "),
                          (lambda d: d["regbench"]["histograms"]["lat/read32/fenced"].update(edges=[0, 26, 26, 78, 104]),
                           "regbench.histograms['lat/read32/fenced'].edges: expected ascending bin edges")):
            doc = document("single.json")
            edit(doc)
            with self.subTest(why=why):
                self.check_doc(doc, why)

    def test_strict_json(self):
        """NaN, Infinity and numbers no double holds are not in the contract: refused in one line, not rendered."""
        with open(fixture.path("single.json"), encoding="utf-8") as f:
            text = f.read()
        for bad, why in ((text.replace('"cycles": 40.5', '"cycles": NaN', 1), "NaN is not a JSON number"),
                         (text.replace('"cycles": 40.5', '"cycles": -Infinity', 1), "-Infinity is not a JSON number"),
                         (text.replace('"cycles": 40.5', '"cycles": 1e999', 1), "the number 1e999 is beyond what a double"),
                         (text.replace('"cycles": 40.5', '"cycles": 1' + "0" * 400, 1), "is beyond what a double holds")):
            self.assertNotEqual(bad, text)
            path = os.path.join(fixture.tmpdir(), "bad.json")
            with open(path, "w", encoding="utf-8") as f:
                f.write(bad)
            with self.subTest(why=why), self.assertRaises(model.ReportError) as e:
                model.load(path)
            self.check_text(path, str(e.exception), why)

    def test_another_contract(self):
        doc = document("single.json")
        doc["regbench"]["contract"] = 2
        self.check_doc(doc, "written for metadata contract 2; these scripts read contract 1")

    def test_two_names_for_one_benchmark(self):
        doc = document("single.json")
        doc["regbench"]["benchmarks"]["chain/read32/relaxed"].update(family="thrpt")
        doc["regbench"]["benchmarks"]["chain/read32/relaxed"]["unit"] = "access"
        self.check_doc(doc, "benchmarks 'thrpt/read32/relaxed' and 'chain/read32/relaxed' are the same")

    def test_a_histogram_of_no_benchmark(self):
        doc = document("single.json")
        doc["regbench"]["histograms"]["lat/read8/relaxed"] = doc["regbench"]["histograms"]["lat/read32/fenced"]
        self.check_doc(doc, "histogram 'lat/read8/relaxed' is of no benchmark in the file")


class Contract(unittest.TestCase):
    """The schema is the contract: the published files keep it, and the reader knows every state it declares."""

    def test_every_published_result_file_keeps_the_contract(self):
        files = [f for f in glob.glob(os.path.join(fixture.SCRIPTS, os.pardir, "reports", "*", "*.json"))
                 if os.path.basename(f) != "compare.json"]
        self.assertGreater(len(files), 10)
        for f in files:
            with self.subTest(file=f):
                self.assertTrue(model.load(f).results)

    def test_not_run_is_a_state_without_figures(self):
        doc = document("single.json")
        doc["regbench"]["benchmarks"]["chain/read32/relaxed"].update(state="not_run",
                                                                      reason="not run: the run was interrupted")
        r = model.from_document("x.json", doc).named("chain/read32/relaxed")
        self.assertEqual((r.state, r.reason, r.measure().state), (State.NOT_RUN, "not run: the run was interrupted",
                                                                  State.NOT_RUN))

    def test_paths_name_fields_as_a_reader_writes_them(self):
        self.assertEqual(contract.field(["regbench", "benchmarks", "lat/read8/x", "state"]),
                         "regbench.benchmarks['lat/read8/x'].state")
        self.assertEqual(contract.field(["benchmarks", 3, "cycles"]), "benchmarks[3].cycles")
        self.assertEqual(contract.field(["context", "odd key"]), "context['odd key']")
        self.assertEqual(contract.field(["regbench", "families", "lat", "what"]), "regbench.families['lat'].what")


class Runs(unittest.TestCase):
    def test_merge_refuses_another_target(self):
        with self.assertRaises(model.ReportError) as e:
            model.merge([model.load(fixture.path("single.json")), model.load(fixture.path("port.json"))])
        self.assertIn("--compare", str(e.exception))

    def test_merge_of_one_run_in_parts(self):
        run = model.merge([model.load(fixture.path("single.json")), model.load(fixture.path("reps.json"))])
        self.assertEqual(run.measure(Key("thrpt", "read", 32, "relaxed")).noise, 0.0566)
        self.assertIn(Key("dispatch", "read", 32, "direct"), run.results)

    def test_metadata_of_several_runs_is_the_union_first_run_s_order_first(self):
        a, b = document("single.json"), document("single.json")
        a["regbench"]["order"] = {"families": ["thrpt", "lat"], "strategies": ["fenced", "relaxed"]}
        b["regbench"]["order"] = {"families": ["chain", "lat"], "strategies": ["relaxed", "turbo", "fenced"]}
        b["regbench"]["strategies"]["turbo"] = {"help": "a strategy only the second run knows", "kind": "accessor"}
        b["regbench"]["families"]["lat"]["what"] = "described differently"
        runs = [model.from_document("a.json", a), model.from_document("b.json", b)]
        for m in (model.meta(runs), model.merge(runs).meta):
            self.assertEqual(m.family_order, ["thrpt", "lat", "chain"])
            self.assertEqual(m.strategy_order, ["fenced", "relaxed", "turbo"])
            self.assertEqual(m.kinds["turbo"], "accessor")
            self.assertEqual(m.families["lat"].what, a["regbench"]["families"]["lat"]["what"])

    def test_labels_name_what_differs(self):
        runs = [model.load(fixture.path(n)) for n in ("single.json", "port.json")]
        self.assertEqual(model.label_runs(runs), ["ram", "port:0xc000+256"])
        same = [model.load(fixture.path("single.json"))] * 2
        self.assertEqual(model.label_runs(same), ["run 1", "run 2"])


class Names(unittest.TestCase):
    def test_label_from_fields(self):
        self.assertEqual(names.label(Key("rep", "read", 16, "string", 256)), "rep/read16/string/256")
        self.assertEqual(names.label(Key("barrier", "mfence")), "barrier/mfence")
        self.assertEqual(names.label(Key("copy", "toio", None, "simd", 4096)), "copy/toio/simd/4096")

    def test_compact_groups_a_cross_product(self):
        got = names.compact([Key("rep", op, w, "string", n) for op in ("read", "write") for w in (8, 32) for n in (1, 8)])
        self.assertEqual(got, ["rep/{read,write}{8,32}/string/{1,8}"])
        self.assertEqual(names.compact([Key("barrier", "mfence"), Key("barrier", "lfence")]), ["barrier/{lfence,mfence}"])


if __name__ == "__main__":
    unittest.main()
