"""scripts/results on SQLite as a user runs it: the store's rows, the reference table, the BMF export, bad input."""
import json
import os
import signal
import sqlite3
import statistics
import subprocess
import time
import unittest
import zlib

import fixture
from regbench_base.state import State

RESULTS = os.path.join(fixture.SCRIPTS, "results")
PUBLISHED = os.path.join(os.path.dirname(fixture.SCRIPTS), "reports")
REPORT_TOOL = os.path.join(fixture.SCRIPTS, "report")


def results(*args, **kw):
    return subprocess.run([RESULTS, *args], capture_output=True, text=True, **kw)


def edited(name, edit, as_name=None):
    """A copy of a fixture with edit(document) applied, in a fresh folder; returns its path."""
    with open(fixture.path(name), encoding="utf-8") as f:
        doc = json.load(f)
    edit(doc)
    path = os.path.join(fixture.tmpdir(), as_name or name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return path


def rows(db, query, *params):
    with sqlite3.connect(db) as conn:
        return conn.execute(query, params).fetchall()


def median(doc, name, counter="cycles"):
    """Google Benchmark's median aggregate of a counter, or the median of the repetitions where it wrote none."""
    return next((b[counter] for b in doc["benchmarks"] if b.get("run_name", b["name"]) == name
                 and b.get("aggregate_name") == "median"), None) or statistics.median(repetitions(doc, name, counter))


def repetitions(doc, name, counter="cycles"):
    return [b[counter] for b in doc["benchmarks"] if b.get("run_name", b["name"]) == name
            and b.get("run_type") == "iteration"]


class Check(unittest.TestCase):
    def ok(self, p):
        self.assertEqual((p.returncode, p.stderr), (0, ""), p.stdout)
        return p.stdout

    def one_line(self, p, status, start, why=""):
        """A failure: the exit status, nothing on stdout, one line `results: START...` naming why, no traceback."""
        self.assertEqual(p.returncode, status, p.stderr)
        self.assertEqual(p.stdout, "")
        lines = p.stderr.splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertTrue(lines[0].startswith(f"results: {start}"), lines[0])
        self.assertIn(why, lines[0])
        self.assertRegex(lines[0], r"\(.+\)$")      # what to try, in parentheses at the end


class Store(Check):
    def test_two_runs_added_twice_give_two_rows(self):
        db = os.path.join(fixture.tmpdir(), "two.sqlite")
        two = [fixture.path("single.json"), fixture.path("reps.json")]
        self.assertIn("2 added, 0 already there; 2 runs in the store", self.ok(results("add", "--db", db, *two)))
        self.assertIn("0 added, 2 already there; 2 runs in the store", self.ok(results("add", "--db", db, *two)))
        self.assertEqual(rows(db, "SELECT COUNT(*) FROM runs"), [(2,)])
        self.assertEqual(rows(db, "SELECT COUNT(*) FROM results"), [(23 + 5,)])
        # the same run re-indented is the same run: its id is the hash of its content
        again = edited("single.json", lambda d: None)
        self.assertIn("0 added, 1 already there", self.ok(results("add", "--db", db, again)))

    def test_a_row_holds_the_contract_fields_the_medians_and_the_run_verbatim(self):
        db = os.path.join(fixture.tmpdir(), "fields.sqlite")
        path = fixture.path("reps.json")
        self.ok(results("add", "--db", db, path))
        with open(path, encoding="utf-8") as f:
            text = f.read()
        doc = json.loads(text)
        name = "thrpt/read32/relaxed"
        (row,) = rows(db, "SELECT family, op, width, strategy, param, space, unit, state, cycles, cycles_lo, cycles_hi,"
                          " ns, disturbed FROM results WHERE name = ?", name)
        reps = repetitions(doc, name)
        # no ns counter in this file: ns is cycles at its TSC rate (2.5 GHz), as regbench computes it
        unit = doc["regbench"]["families"]["thrpt"]["unit"]
        self.assertEqual(row, ("thrpt", "read", 32, "relaxed", None, "mmio", unit, "measured", median(doc, name),
                               min(reps), max(reps), median(doc, name) / 2.5, 0))
        (run,) = rows(db, "SELECT host, cpu, target, tsc_hz, date, json_zlib FROM runs")
        self.assertEqual(run[:5], ("fixture-host", "Fixture CPU", "ram", 2.5e9, doc["context"]["date"]))
        self.assertEqual(zlib.decompress(run[5]).decode("utf-8"), text)

    def test_the_host_is_the_context_host_else_the_hostname(self):
        db = os.path.join(fixture.tmpdir(), "host.sqlite")
        tagged = edited("single.json", lambda d: d["context"].update(host="board7"))
        self.ok(results("add", "--db", db, tagged, fixture.path("reps.json")))
        self.assertEqual(sorted(rows(db, "SELECT host FROM runs")), [("board7",), ("fixture-host",)])

    def test_a_bad_file_among_good_ones_adds_nothing(self):
        db = os.path.join(fixture.tmpdir(), "bad.sqlite")
        p = results("add", "--db", db, fixture.path("single.json"), fixture.path("foreign.json"))
        self.one_line(p, 1, fixture.path("foreign.json") + ": ", "not from regbench")
        self.assertFalse(os.path.exists(db))            # a new store is made only by an add that lands
        self.ok(results("add", "--db", db, fixture.path("reps.json")))
        p = results("add", "--db", db, fixture.path("single.json"), "/nonexistent/run.json")
        self.one_line(p, 1, "/nonexistent/run.json: No such file or directory")
        self.assertEqual(rows(db, "SELECT COUNT(*) FROM runs"), [(1,)])

    def test_ctrl_c_during_add_leaves_the_store_as_it_was(self):
        folder = fixture.tmpdir()
        db = os.path.join(folder, "store.sqlite")
        self.ok(results("add", "--db", db, fixture.path("reps.json")))
        before = rows(db, "SELECT id FROM runs")
        fifo = os.path.join(folder, "slow.json")
        os.mkfifo(fifo)
        # the second file is a pipe: add takes the first into its transaction, then waits for the pipe
        proc = subprocess.Popen([RESULTS, "add", "--db", db, fixture.path("single.json"), fifo],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        writer = None
        for _ in range(600):                  # until add has the pipe open (it is then inside its transaction)
            try:
                writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError:
                time.sleep(0.05)
        self.assertIsNotNone(writer, "add never opened the pipe")
        self.assertEqual(rows(db, "SELECT id FROM runs"), before)    # the first run is not visible yet
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        os.close(writer)
        self.assertEqual(proc.returncode, 130, err)
        self.assertEqual(err, "results: interrupted (the store and the output folder are as they were)\n")
        self.assertEqual(rows(db, "SELECT id FROM runs"), before)
        self.assertEqual(rows(db, "SELECT COUNT(*) FROM results"), [(5,)])

    def test_list(self):
        db = os.path.join(fixture.tmpdir(), "list.sqlite")
        self.ok(results("add", "--db", db, fixture.path("single.json"), fixture.path("port.json")))
        out = self.ok(results("list", "--db", db)).splitlines()
        self.assertEqual(out[0].split(), ["id", "date", "host", "cpu", "target", "accel", "benchmarks", "regbench"])
        self.assertEqual(len(out), 4)
        self.assertIn("port:0xc000+256", out[2])
        self.assertIn("tcg", out[2])
        self.assertEqual(out[-1], f"{db}: 2 runs")


class Table(Check):
    @classmethod
    def setUpClass(cls):
        """A store of three machines: the fixture host (two runs of ram), another CPU with a slower TSC, a TCG guest."""
        cls.db = os.path.join(fixture.tmpdir(), "table.sqlite")

        def other(d):
            d["context"].update(host_name="other", cpu_model="Other CPU", tsc_hz="2000000000")
            d["regbench"]["benchmarks"]["thrpt/read32/fenced"]["disturbed"] = 2
        cls.other = edited("single.json", other, "other.json")
        p = results("add", "--db", cls.db, fixture.path("single.json"), fixture.path("reps.json"), cls.other,
                    fixture.path("port.json"))
        assert p.returncode == 0, p.stderr
        cls.out = os.path.join(fixture.tmpdir(), "reference")
        p = results("table", "--db", cls.db, "-o", cls.out)
        assert p.returncode == 0, p.stderr
        with open(os.path.join(cls.out, "README.md"), encoding="utf-8") as f:
            cls.readme = f.read()

    def row(self, name):
        line = next(l for l in self.readme.splitlines() if l.startswith(f"| `{name}` |"))
        return [c.strip() for c in line.strip("|").split("|")]

    def test_a_column_per_machine_and_target(self):
        self.assertIn("> **Headline:** 4 runs of 3 machines in 3 machine × target columns", self.readme)
        lines = self.readme.splitlines()
        thrpt = lines.index("## thrpt/: ns per access")
        head = next(l for l in lines[thrpt:] if l.startswith("| benchmark |"))
        self.assertEqual([c.strip() for c in head.strip("|").split("|")][1:],
                         ["Fixture CPU<br>ram", "Other CPU<br>ram",
                          "QEMU Virtual CPU<br>1b36:0005 BAR1 port<br>(TCG emulation)"])

    def test_cells_are_ns_with_their_spread(self):
        with open(fixture.path("reps.json"), encoding="utf-8") as f:
            reps = json.load(f)
        with open(fixture.path("single.json"), encoding="utf-8") as f:
            single = json.load(f)
        name = "thrpt/read32/fenced"
        # the fixture host's column holds two runs: the median of their medians, spread the range between them
        medians = [median(reps, name) / 2.5, median(single, name, "ns")]
        mid = statistics.median(medians)
        spread = max(max(medians) - mid, mid - min(medians)) / mid
        cells = self.row(name)
        self.assertEqual(cells[1], f"{mid:.1f} ±{spread:.0%}" if spread >= 0.1 else f"{mid:.1f} ±{spread:.1%}")
        self.assertTrue(cells[2].endswith(" †"), cells)        # disturbed in the other machine's run
        # a bound is one TSC step, in ns by each machine's own TSC rate: 26 ticks at 2.5 and at 2 GHz
        below = self.row("lat/read32/relaxed")
        self.assertEqual(below[1:3], ["< 10.4", "< 13"])

    def test_the_tsc_rates_and_emulation_are_said(self):
        self.assertIn("TSC (here 2.00, 2.50 GHz)", self.readme)
        self.assertIn("**TCG**: QEMU's TCG", self.readme)
        self.assertIn("| QEMU Virtual CPU · 1b36:0005 BAR1 port · (TCG emulation) | guest |", self.readme)

    def test_an_svg_per_section_and_the_manifest(self):
        svgs = sorted(f for f in os.listdir(self.out) if f.endswith(".svg"))
        for svg in svgs:
            self.assertIn(f"]({svg})", self.readme)
        self.assertIn("thrpt.svg", svgs)
        with open(os.path.join(self.out, ".report-files"), encoding="utf-8") as f:
            listed = [l.strip() for l in f if not l.startswith("#")]
        self.assertEqual(listed, sorted(["README.md"] + svgs))

    def test_a_folder_with_other_files_is_refused_unless_forced(self):
        out = fixture.tmpdir()
        with open(os.path.join(out, "notes.md"), "w", encoding="utf-8") as f:
            f.write("mine\n")
        self.one_line(results("table", "--db", self.db, "-o", out), 1, f"{out}: holds 1 file", "notes.md")
        self.assertEqual(os.listdir(out), ["notes.md"])
        self.ok(results("table", "--db", self.db, "-o", out, "--force"))
        self.assertIn("notes.md", os.listdir(out))
        self.assertIn("README.md", os.listdir(out))

    def test_rendering_twice_gives_the_same_files(self):
        again = os.path.join(fixture.tmpdir(), "again")
        self.ok(results("table", "--db", self.db, "-o", again))
        for name in os.listdir(self.out):
            with open(os.path.join(self.out, name), "rb") as a, open(os.path.join(again, name), "rb") as b:
                self.assertEqual(a.read(), b.read(), name)


class Export(Check):
    def check_bmf(self, path):
        out = json.loads(self.ok(results("export", "--format", "bmf", "--run", path)))
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        measured = [n for n, b in doc["regbench"]["benchmarks"].items() if State(b["state"]).figure]
        self.assertEqual(sorted(out), sorted(measured))
        for name in measured:
            reps = repetitions(doc, name)
            self.assertEqual(out[name]["cycles"], {"value": median(doc, name), "lower_value": min(reps),
                                                   "upper_value": max(reps)}, name)
        return out

    def test_the_bmf_value_is_the_median(self):
        self.check_bmf(fixture.path("reps.json"))

    def test_a_published_run(self):
        out = self.check_bmf(os.path.join(PUBLISHED, "ram-on-zen5", "ram.json"))
        self.assertGreater(len(out), 300)

    def test_runs_of_two_machines_are_not_one_run(self):
        p = results("export", "--format", "bmf", "--run", fixture.path("single.json"), "--run", fixture.path("port.json"))
        self.one_line(p, 1, fixture.path("port.json") + ": target is", "export each run on its own")


class Latency(Check):
    """Runs of one machine add up into one lat/ distribution: two real trap runs (thousands of ticks an access, so
    the grid's wider buckets are in use), checked against their own histograms, never against timings."""

    @classmethod
    def setUpClass(cls):
        regbench = os.environ.get("REGBENCH") or os.path.join(os.path.dirname(fixture.SCRIPTS), "build", "bench",
                                                               "regbench")
        if not os.access(regbench, os.X_OK):
            raise unittest.SkipTest(f"no regbench at {regbench} (build it: scripts/build; ctest sets REGBENCH)")
        cls.dir = fixture.tmpdir()
        cls.files = []
        for i in range(2):
            path = os.path.join(cls.dir, f"trap{i}.json")
            p = subprocess.run([regbench, "--target", "trap", "--benchmark_filter=^lat/read32/(relaxed|ordered)$",
                                "--benchmark_repetitions=2", "--benchmark_min_time=0.002", f"--benchmark_out={path}",
                                "--benchmark_out_format=json"], capture_output=True, text=True)
            if p.returncode:
                raise AssertionError(p.stderr)
            cls.files.append(path)
        cls.docs = []
        for path in cls.files:
            with open(path, encoding="utf-8") as f:
                cls.docs.append(json.load(f))

    def store(self, *more):
        db = os.path.join(fixture.tmpdir(), "lat.sqlite")
        self.ok(results("add", "--db", db, *self.files, *more))
        return db

    def test_the_runs_histograms_add_up_bucket_by_bucket(self):
        db = self.store()
        doc = json.loads(self.ok(results("latency", "--db", db, "--json")))
        self.assertEqual(len(doc["groups"]), 1)
        g = doc["groups"][0]
        self.assertEqual((len(g["runs"]), g["target"], g["grid"]["step"]),
                         (2, "trap", float(self.docs[0]["context"]["timer_resolution_cycles"])))
        for name, merged in g["benchmarks"].items():
            want = {}
            for d in self.docs:
                h = d["regbench"]["histograms"][name]
                for lo, c in zip(h["edges"], h["counts"]):
                    want[lo] = want.get(lo, 0) + c
            got = {lo: c for lo, c in zip(merged["edges"], merged["counts"]) if c}
            self.assertEqual(got, {lo: c for lo, c in want.items() if c}, name)
            self.assertEqual(merged["samples"], sum(want.values()))
            # the pooled median lies between the runs' own medians (each repetition's p50), within its bucket
            p50s = [b["p50"] for d in self.docs for b in d["benchmarks"] if b["run_name"] == name and "p50" in b
                    and b["run_type"] == "iteration"]
            lo, hi = merged["percentiles"]["p50"]
            self.assertLessEqual(lo, max(p50s), name)
            self.assertGreater(hi, min(p50s), name)

    def test_the_table_and_what_is_left_out(self):
        other = edited("single.json", lambda d: None, "older.json")
        db = self.store(other)
        out = self.ok(results("latency", "--db", db, "lat/read32/relaxed"))
        lines = out.splitlines()
        self.assertRegex(lines[0], r"^.+ · .+ · trap \(timer step \d+ TSC cycles, TSC [\d.]+ GHz\): 2 runs merged$")
        self.assertEqual(lines[1].split(), ["benchmark", "runs", "samples", "p50", "p90", "p99", "p99.9", "max"])
        self.assertEqual(lines[2].split()[:2], ["lat/read32/relaxed", "2"])
        self.assertNotIn("lat/read32/ordered", out)
        self.assertNotIn("left out", out)       # the older run has no lat/read32/relaxed histogram
        self.assertRegex(self.ok(results("latency", "--db", db)),
                         r"left out: run \w{12} \(fixture-host, ram\): its histograms have no grid")
        self.one_line(results("latency", "--db", db, "lat/read32/none"), 1, "lat/read32/none: names no benchmark")

    def test_another_timer_step_is_another_group(self):
        def step(d):
            for h in d["regbench"]["histograms"].values():
                h["grid"]["step"] *= 2
                h["edges"] = [e * 2 for e in h["edges"]]
        db = self.store(self.coarse(step))
        doc = json.loads(self.ok(results("latency", "--db", db, "--json")))
        self.assertEqual(sorted(len(g["runs"]) for g in doc["groups"]), [1, 2])

    def test_a_histogram_without_samples_has_no_percentiles(self):
        def empty(d):
            for h in d["regbench"]["histograms"].values():
                h["counts"] = [0] * len(h["counts"])
            d["context"]["host"] = "empty-host"     # a group of its own
        db = os.path.join(fixture.tmpdir(), "empty.sqlite")
        self.ok(results("add", "--db", db, self.coarse(empty)))
        doc = json.loads(self.ok(results("latency", "--db", db, "--json")))
        merged = doc["groups"][0]["benchmarks"]["lat/read32/relaxed"]
        self.assertEqual((merged["samples"], merged["percentiles"]["p50"]), (0, None))
        row = [l for l in self.ok(results("latency", "--db", db)).splitlines() if "lat/read32/relaxed" in l]
        self.assertEqual(row[0].split()[1:], ["1", "0", "—", "—", "—", "—", "—"])

    def coarse(self, edit):
        with open(self.files[0], encoding="utf-8") as f:
            doc = json.load(f)
        edit(doc)
        path = os.path.join(fixture.tmpdir(), "coarse.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        return path


class Publish(Check):
    def publish(self, *args):
        return subprocess.run([os.path.join(fixture.SCRIPTS, "publish"), *args], capture_output=True, text=True)

    def test_the_reference_report_is_made_of_the_published_runs(self):
        out = fixture.tmpdir()
        p = self.publish("--render-only", "--only", "reference", out)
        self.assertEqual(p.returncode, 1)
        self.assertIn(f"publish: {out}/reference: no published run to put in it, left as it was (publish the other "
                      "reports first: scripts/publish)", p.stderr.splitlines())
        for folder, run, name in (("ram-on-x", "single.json", "ram.json"), ("trap", "port.json", "trap.json")):
            os.mkdir(os.path.join(out, folder))
            with open(fixture.path(run), "rb") as f, open(os.path.join(out, folder, name), "wb") as g:
                g.write(f.read())
        self.ok(self.publish("--render-only", "--only", "ram,trap", out))
        self.ok(self.publish("--render-only", "--only", "reference", out))
        with open(os.path.join(out, "reference", "README.md"), encoding="utf-8") as f:
            self.assertIn("> **Headline:** 2 runs of 2 machines in 2 machine × target columns", f.read())
        with open(os.path.join(out, "README.md"), encoding="utf-8") as f:
            self.assertIn("- [reference](reference/) — The reference table: every published run", f.read())
        # a JSON file of a report folder that is not a run: the reference is left as it was, the line says why
        notes = os.path.join(out, "trap", "notes.json")
        with open(notes, "w", encoding="utf-8") as f:
            f.write("{}\n")
        reference = os.path.join(out, "reference")
        stamps = lambda: {n: os.stat(os.path.join(reference, n)).st_mtime_ns for n in os.listdir(reference)}
        before = stamps()
        p = self.publish("--render-only", "--only", "reference", out)
        self.assertEqual(p.returncode, 1)
        self.assertIn(f"publish: {out}/reference: not rendered, left as it was (scripts/results: {notes}: not Google "
                      "Benchmark JSON", p.stderr)
        self.assertEqual(stamps(), before)


class Errors(Check):
    def test_help(self):
        for args in ([], ["add"], ["list"], ["table"], ["latency"], ["history"], ["alerts"], ["export"], ["delete"],
                     ["prune"], ["retag"]):
            p = results(*args, "--help")
            self.assertEqual((p.returncode, p.stderr), (0, ""))
            self.assertIn("usage: scripts/results", p.stdout)

    def test_no_command(self):
        self.one_line(results(), 2, "no command")
        self.one_line(results("remove"), 2, "argument COMMAND: invalid choice")

    def test_files_that_are_not_regbench_runs(self):
        for name, why in (("foreign.json", "not from regbench"), ("notgb.json", "not Google Benchmark JSON"),
                          ("old.json", "older than the metadata contract"), ("malformed.json", "not valid JSON")):
            for args in (["add", "--db", os.path.join(fixture.tmpdir(), "s.sqlite")], ["export", "--format", "bmf", "--run"]):
                self.one_line(results(*args, fixture.path(name)), 1, fixture.path(name) + ": ", why)
        self.one_line(results("export", "--format", "bmf", "--run", "/nonexistent.json"), 1, "/nonexistent.json: ")
        self.one_line(results("export", "--format", "bmf", "--run", fixture.tmpdir()), 1, "", "a folder, not a file")

    def test_stores_that_cannot_be_used(self):
        folder = fixture.tmpdir()
        self.one_line(results("list", "--db", os.path.join(folder, "none.sqlite")), 1, "", "no store there")
        self.one_line(results("table", "--db", os.path.join(folder, "none.sqlite"), "-o", folder), 1, "",
                      "no store there")
        self.one_line(results("list", "--db", folder), 1, folder, "a folder, not a store")
        self.one_line(results("list", "--db", fixture.path("single.json")), 1, "", "not an SQLite database")
        empty = os.path.join(folder, "empty.sqlite")
        sqlite3.connect(empty).execute("CREATE TABLE other (x)").connection.close()
        self.one_line(results("list", "--db", empty), 1, empty, "not a regbench store")
        self.assertEqual(rows(empty, "SELECT name FROM sqlite_master"), [("other",)])   # and left as it was
        self.one_line(results("add", "--db", os.path.join(folder, "no", "such", "s.sqlite"), fixture.path("reps.json")),
                      1, "", "cannot open it")

    def test_bad_urls_and_unreachable_servers(self):
        self.one_line(results("list", "--db", "mysql://host/db"), 1, "--db mysql://host/db: not a store")
        self.one_line(results("list", "--db", "postgresql://u:secret@[bad"), 1, "--db postgresql://u:***@[bad: ",
                      "not a URL")
        self.one_line(results("list", "--db", "postgresql://host:notaport/db"), 1, "--db ", "invalid integer value")
        for url in ("postgresql://127.0.0.1:1/regbench", f"postgresql:///regbench?host={fixture.tmpdir()}&port=5"):
            self.one_line(results("list", "--db", url), 1, url, "cannot connect")
            self.one_line(results("add", "--db", url, fixture.path("reps.json")), 1, url, "cannot connect")
        p = results("list", "--db", "postgresql://u:secret@127.0.0.1:1/x")
        self.assertNotIn("secret", p.stderr)


if __name__ == "__main__":
    unittest.main()
