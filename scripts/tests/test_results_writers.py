"""scripts/results under pressure on SQLite: concurrent writers, signals and killed writers, a run's identity, paths
and outputs that must not go astray, secrets, full disks, locales, schema upgrades."""
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import unittest
import zlib

import fixture
from test_results_store import RESULTS, Check, edited, results, rows

ROOT = os.path.dirname(fixture.SCRIPTS)


def variants(n, base="reps.json"):
    """n distinct runs: one fixture, its host and date changed."""
    return [edited(base, lambda d, i=i: d["context"].update(host=f"host{i}", date=f"2026-12-0{1 + i % 9}T0{i % 10}:00:00"
                                                                                     "+00:00"), f"run{i}.json")
            for i in range(n)]


def at_once(*commands):
    """Runs the scripts/results commands at the same moment (processes); their CompletedProcess-like results."""
    procs = [subprocess.Popen([RESULTS, *c], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for c in commands]
    out = []
    for p in procs:
        o, e = p.communicate(timeout=300)
        out.append(subprocess.CompletedProcess(p.args, p.returncode, o, e))
    return out


def stored_json(db, run_id_start=""):
    return [json.loads(zlib.decompress(z)) for z, in rows(db, "SELECT json_zlib FROM runs WHERE id LIKE ?",
                                                           run_id_start + "%")]


class Writers(Check):
    def test_concurrent_adds_into_a_new_store_all_land(self):
        for attempt in range(2):
            db = os.path.join(fixture.tmpdir(), "new.sqlite")
            files = variants(6)
            done = at_once(*(["add", "--db", db, f] for f in files))
            for p in done:
                self.ok(p)
            self.assertEqual(rows(db, "SELECT COUNT(*) FROM runs"), [(6,)])
            self.assertEqual(os.listdir(os.path.dirname(db)), ["new.sqlite"])    # no private file left behind

    def test_concurrent_adds_into_an_existing_store_all_land(self):
        db = os.path.join(fixture.tmpdir(), "old.sqlite")
        self.ok(results("add", "--db", db, fixture.path("single.json")))
        files = variants(5)
        for p in at_once(*(["add", "--db", db, f] for f in files), ["add", "--db", db, *files]):
            self.ok(p)
        self.assertEqual(rows(db, "SELECT COUNT(*) FROM runs"), [(6,)])

    def test_a_failing_add_never_removes_a_store_another_made(self):
        db = os.path.join(fixture.tmpdir(), "shared.sqlite")
        files = variants(4)
        done = at_once(*(["add", "--db", db, f, fixture.path("foreign.json")] for f in files[:2]),
                       *(["add", "--db", db, f] for f in files[2:]))
        self.assertEqual([p.returncode for p in done], [1, 1, 0, 0])
        self.assertEqual(rows(db, "SELECT COUNT(*) FROM runs"), [(2,)])

    def add_stopped_by(self, signo):
        folder = fixture.tmpdir()
        db = os.path.join(folder, "store.sqlite")
        self.ok(results("add", "--db", db, fixture.path("reps.json")))
        fifo = os.path.join(folder, "slow.json")
        os.mkfifo(fifo)
        proc = subprocess.Popen([RESULTS, "add", "--db", db, fixture.path("single.json"), fifo],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        writer = None
        for _ in range(600):
            try:
                writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError:
                time.sleep(0.05)
        self.assertIsNotNone(writer, "add never opened the pipe")
        proc.send_signal(signo)
        out, err = proc.communicate(timeout=60)
        os.close(writer)
        return proc, err, db

    def test_sigterm_and_sighup_leave_a_store_list_reads(self):
        for signo in (signal.SIGTERM, signal.SIGHUP):
            proc, err, db = self.add_stopped_by(signo)
            self.assertEqual(proc.returncode, 128 + signo, err)
            self.assertEqual(err, f"results: interrupted by {signal.Signals(signo).name} (the store and the output "
                                  "folder are as they were)\n")
            self.assertFalse(os.path.exists(db + "-journal"))
            self.assertIn(f"{db}: 1 run", self.ok(results("list", "--db", db)))

    def test_a_writer_killed_inside_its_transaction_leaves_a_store_list_reads(self):
        db = os.path.join(fixture.tmpdir(), "killed.sqlite")
        self.ok(results("add", "--db", db, fixture.path("reps.json")))
        # a writer that dies with its pages half written: a hot journal that only a read-write open rolls back
        code = ("import sqlite3, os, signal, sys\n"
                "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                "c.execute('PRAGMA cache_size = 1'); c.execute('BEGIN IMMEDIATE')\n"
                "c.execute(\"UPDATE runs SET host = 'half' || hex(randomblob(3000))\")\n"
                "c.execute(\"INSERT INTO regbench_store VALUES ('junk', hex(randomblob(90000)))\")\n"
                "os.kill(os.getpid(), signal.SIGKILL)\n")
        subprocess.run([sys.executable, "-c", code, db])
        self.assertTrue(os.path.exists(db + "-journal"))
        out = self.ok(results("list", "--db", db))
        self.assertIn("fixture-host", out)
        self.assertIn(f"{db}: 1 run", out)


class SignalInstants(unittest.TestCase):
    """signal_instants.py's trials, a few (the long run, under a CPU hog, is docs/TESTING.md's): SIGINT, SIGTERM or
    SIGHUP at random instants of an add end it within a second, the store as it was or with the whole add."""

    def test_a_signal_at_any_instant_of_an_add(self):
        import signal_instants
        trials, failed, statuses, _ = signal_instants.run(12, seed=11, say=lambda line: None)
        self.assertEqual(failed, [], statuses)


class Identity(Check):
    def test_a_copy_rewritten_by_another_tool_is_already_there(self):
        db = os.path.join(fixture.tmpdir(), "same.sqlite")
        self.ok(results("add", "--db", db, fixture.path("reps.json")))

        def rewritten(d):
            # a pretty-printer may write 4746.0 as 4746, Python writes 4746.0: the same numbers in other text, other key order, indent
            for b in d["benchmarks"]:
                b["cycles"] = float(b["cycles"])
            d["context"]["num_cpus"] = float(d["context"]["num_cpus"])
            d["context"] = dict(reversed(list(d["context"].items())))
        copy = edited("reps.json", rewritten, "copy.json")
        with open(copy, encoding="utf-8") as f:
            doc = json.load(f)
        with open(copy, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=4)
        self.assertIn("0 added, 1 already there", self.ok(results("add", "--db", db, copy)))
        changed = edited("reps.json", lambda d: d["benchmarks"][0].update(cycles=d["benchmarks"][0]["cycles"] + 1e-9))
        self.assertIn("1 added, 0 already there", self.ok(results("add", "--db", db, changed)))


class Paths(Check):
    def test_an_empty_output_folder_is_refused(self):
        db = os.path.join(fixture.tmpdir(), "s.sqlite")
        self.ok(results("add", "--db", db, fixture.path("reps.json")))
        here = fixture.tmpdir()
        with open(os.path.join(here, "README.md"), "w", encoding="utf-8") as f:
            f.write("mine\n")
        self.one_line(results("table", "--db", db, "-o", "", cwd=here), 2, "-o: empty")
        self.one_line(results("table", "--db", db, "-o", "  ", cwd=here), 2, "-o: empty")
        self.one_line(results("table", "--db", db, cwd=here), 2, "the following arguments are required: -o")
        self.assertEqual(os.listdir(here), ["README.md"])

    def checkout(self):
        """A copy of the scripts the store needs, so that its default store (results/ of it) can be broken."""
        top = fixture.tmpdir()
        os.makedirs(os.path.join(top, "bench"))
        os.makedirs(os.path.join(top, "scripts"))
        shutil.copy(os.path.join(ROOT, "bench", "regbench.schema.json"), os.path.join(top, "bench"))
        for part in ("results", "regbench_results", "regbench_base"):
            src = os.path.join(fixture.SCRIPTS, part)
            (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, os.path.join(top, "scripts", part))
        return top

    def test_a_default_store_folder_that_is_a_file_or_a_dangling_link(self):
        top = self.checkout()
        tool = os.path.join(top, "scripts", "results")
        env = {k: v for k, v in os.environ.items() if k != "REGBENCH_DB"}
        with open(os.path.join(top, "results"), "w", encoding="utf-8") as f:
            f.write("not a folder\n")
        p = subprocess.run([tool, "add", fixture.path("reps.json")], capture_output=True, text=True, env=env)
        self.one_line(p, 1, os.path.join(top, "results"), "cannot make the store's folder")
        os.remove(os.path.join(top, "results"))
        os.symlink(os.path.join(top, "gone"), os.path.join(top, "results"))
        p = subprocess.run([tool, "add", fixture.path("reps.json")], capture_output=True, text=True, env=env)
        self.one_line(p, 1, os.path.join(top, "results"), "cannot make the store's folder")

    def test_no_password_in_any_line(self):
        for url in ("postgresql://u:secret1@127.0.0.1:1/x", "postgresql://u@127.0.0.1:1/x?password=secret2",
                    "postgresql:///x?host=127.0.0.1&port=1&password=secret3&user=u",
                    "postgresql://u@[bad?password=secret4"):
            for args in (["list", "--db", url], ["add", "--db", url, fixture.path("reps.json")]):
                p = results(*args)
                self.assertEqual(p.returncode, 1)
                self.assertNotIn("secret", p.stdout + p.stderr)
                self.assertIn("***", p.stderr)
            p = results("list", env=dict(os.environ, REGBENCH_DB=url))
            self.assertNotIn("secret", p.stdout + p.stderr)


class Outputs(Check):
    @classmethod
    def setUpClass(cls):
        cls.db = os.path.join(fixture.tmpdir(), "out.sqlite")
        subprocess.run([RESULTS, "add", "--db", cls.db, fixture.path("answers.json"), fixture.path("reps.json")],
                       check=True, capture_output=True)

    def test_a_full_disk_under_stdout_is_one_line(self):
        with open("/dev/full", "w", encoding="utf-8") as full:
            for args in (["export", "--format", "bmf", "--run", fixture.path("answers.json")], ["list", "--db", self.db],
                         ["latency", "--db", self.db, "--json"]):
                p = subprocess.run([RESULTS, *args], stdout=full, stderr=subprocess.PIPE, text=True)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertEqual(p.stderr.splitlines(), ["results: standard output: No space left on device (the "
                                                         "output is incomplete; write it where there is room)"])

    def test_a_full_disk_under_the_table_is_one_line(self):
        mount = fixture.tmpdir()
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mount], capture_output=True).returncode:
            self.skipTest("cannot mount a small tmpfs here (needs root)")
        self.addCleanup(subprocess.run, ["umount", mount])
        out = os.path.join(mount, "table")
        p = results("table", "--db", self.db, "-o", out)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
        self.assertIn("No space left on device", p.stderr)
        self.assertEqual(os.listdir(mount), [])            # nothing half written is left

    def test_latency_in_a_locale_that_is_not_utf8(self):
        for enc in ("latin-1", "ascii"):
            p = subprocess.run([RESULTS, "latency", "--db", self.db], capture_output=True,
                               env=dict(os.environ, LC_ALL="C", PYTHONIOENCODING=enc))
            self.assertEqual((p.returncode, p.stderr), (0, b""), enc)
            out = p.stdout.decode(enc)
            self.assertIn("lat/read32/", out)
            self.assertIn(" | " if enc == "ascii" else " · ", out.splitlines()[0])     # the group's heading

    def test_a_filter_that_names_nothing_is_an_error(self):
        self.one_line(results("latency", "--db", self.db, "--host", "typo"), 1, "--host typo: no run in the store")
        self.one_line(results("list", "--db", self.db, "--label", "baseline=yes"), 1, "--label baseline=yes")
        self.one_line(results("table", "--db", self.db, "-o", fixture.tmpdir(), "nosuch/"), 1, "nosuch/: names no "
                      "benchmark")
        self.one_line(results("list", "--db", self.db, "--since", "yesterday"), 2, "argument --since: invalid date")

    def test_list_orders_runs_by_the_instant_they_ran(self):
        db = os.path.join(fixture.tmpdir(), "zones.sqlite")
        east = edited("reps.json", lambda d: d["context"].update(date="2026-12-03T10:00:00+02:00", host="east"), "e.json")
        west = edited("reps.json", lambda d: d["context"].update(date="2026-12-03T09:00:00+00:00", host="west"), "w.json")
        self.ok(results("add", "--db", db, west, east))
        hosts = [line.split()[2] for line in self.ok(results("list", "--db", db)).splitlines()[1:-1]]
        self.assertEqual(hosts, ["east", "west"])          # 08:00 UTC before 09:00 UTC


class TallTable(Check):
    def test_a_section_too_tall_for_one_image_is_cut_into_several(self):
        from regbench_results import reference, render
        from regbench_base.model import Key
        from regbench_base.state import State
        rows_ = [Key("rep", "read", 32, "string", n) for n in range(1, 3701)]
        cells = {(k, 0): reference.Cell(State.MEASURED, float(k.param)) for k in rows_}
        s = reference.Section("rep", "read", "", "element", rows_, [0], cells)
        parts = render.parts(s, set())
        self.assertEqual([name for name, _ in parts[:3]], ["rep-read.svg", "rep-read-2.svg", "rep-read-3.svg"])
        self.assertEqual(len(parts), -(-3700 // render.ROWS_PER_IMAGE))
        self.assertEqual([k for _, part in parts for k in part], rows_)
        self.assertTrue(all(len(part) <= render.ROWS_PER_IMAGE for _, part in parts))


class Upgrade(Check):
    def test_an_older_store_is_upgraded_in_place_saying_so(self):
        db = fixture.store("store-v1.sql")     # the first release's: add of reps.json and port.json
        p = results("list", "--db", db)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, f"results: {db}: upgraded the store from schema 1 to 3 in place (2 runs)\n")
        self.assertIn(f"{db}: 2 runs", p.stdout)
        self.assertEqual(rows(db, "SELECT value FROM regbench_store WHERE key = 'schema_version'"), [("3",)])
        self.assertEqual(rows(db, "SELECT COUNT(*) FROM results"), [(9,)])
        self.assertEqual(self.ok(results("list", "--db", db)), p.stdout)      # once: the second says nothing
        # the ids are the new content hashes: the run again, re-indented, is already there
        again = edited("reps.json", lambda d: None)
        self.assertIn("0 added, 1 already there", self.ok(results("add", "--db", db, again)))

    def test_a_newer_store_is_refused(self):
        db = fixture.store("store-v1.sql")
        self.assertEqual(results("list", "--db", db).returncode, 0)
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE regbench_store SET value = '99'")
        conn.close()
        self.one_line(results("list", "--db", db), 1, db, "a store of schema 99, newer than this regbench's 3")
        self.one_line(results("add", "--db", db, fixture.path("single.json")), 1, db, "schema 99")


if __name__ == "__main__":
    unittest.main()
