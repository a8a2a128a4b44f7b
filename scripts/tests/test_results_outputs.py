"""scripts/results' outputs and statuses under input a user did not mean: folders shared by two commands, dates out
of range, damaged stores, exit statuses a cron job reads, machines sharing a name, curation that names too much,
spreadsheet formulas, passwords in URLs."""
import csv
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import unittest

import fixture
from test_results_store import REPORT_TOOL, RESULTS, Check, edited, results, rows

# Each command that writes a folder, as a function of the store and the folder.
WRITERS = {
    "site": lambda db, out, *a: results("site", "--db", db, "-o", out, *a),
    "table": lambda db, out, *a: results("table", "--db", db, "-o", out, *a),
    "history": lambda db, out, *a: results("history", "--db", db, "-o", out, *a, "thrpt/"),
    "report": lambda db, out, *a: subprocess.run([sys.executable, REPORT_TOOL, fixture.path("reps.json"), "-o", out,
                                                  *a], capture_output=True, text=True),
}


def snapshot(d):
    out = {}
    for name in sorted(os.listdir(d)):
        with open(os.path.join(d, name), "rb") as f:
            out[name] = f.read()
    return out


class Ownership(Check):
    """Each command replaces only what it wrote itself: a folder holding another command's output is refused."""

    @classmethod
    def setUpClass(cls):
        cls.db = os.path.join(fixture.tmpdir(), "o.sqlite")
        subprocess.run([fixture.SCRIPTS + "/results", "add", "--db", cls.db, fixture.path("reps.json")], check=True,
                       capture_output=True)

    def test_no_command_replaces_another_commands_folder(self):
        # each writer after each other once, in a ring (the case first: history -o over a site)
        ring = ["site", "history", "table", "report", "site"]
        for first, second in zip(ring, ring[1:]):
            out = os.path.join(fixture.tmpdir(), first)
            p = WRITERS[first](self.db, out)
            self.assertEqual(p.returncode, 0, p.stderr)
            before = snapshot(out)
            p = WRITERS[second](self.db, out)
            self.assertEqual(p.returncode, 1, (first, second, p.stderr))
            self.assertIn("did not write", p.stderr, (first, second))
            self.assertEqual(snapshot(out), before, (first, second))
        # forced, it writes beside them: same-named files are overwritten, the others stay
        p = WRITERS["history"](self.db, out, "--force")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(set(before) - {".report-files", "README.md"} <= set(os.listdir(out)))

    def test_the_same_command_replaces_its_own_folder(self):
        for name, write in ((k, WRITERS[k]) for k in ("site", "history")):
            out = os.path.join(fixture.tmpdir(), name)
            for _ in range(2):
                p = write(self.db, out)
                self.assertEqual(p.returncode, 0, (name, p.stderr))

    def test_a_folder_written_before_writers_were_told_apart_is_recognized(self):
        """Manifests used to say scripts/report for every command: the site still re-renders its folder, and history
        -o still refuses it (it took the site's files as its own and removed them)."""
        out = os.path.join(fixture.tmpdir(), "old-site")
        self.ok(results("site", "--db", self.db, "-o", out))
        with open(os.path.join(out, ".report-files"), encoding="utf-8") as f:
            listed = f.read().splitlines()[1:]
        with open(os.path.join(out, ".report-files"), "w", encoding="utf-8") as f:
            f.write("# the files scripts/report wrote in this folder: it removes or overwrites only these\n"
                    + "".join(n + "\n" for n in listed))
        before = snapshot(out)
        self.one_line(WRITERS["history"](self.db, out), 1, out, "history -o did not write")
        self.assertEqual(snapshot(out), before)
        self.ok(results("site", "--db", self.db, "-o", out))


def _machine(mid, date, host="board", name=None, base="answers.json"):
    """A copy of a fixture run as machine mid (32 hex digits) named host, on date."""
    return edited(base, lambda d: (d["context"].update(machine_id=mid, date=date, host_name=host)),
                  name or f"{mid[:4]}-{date[:10]}.json")


class Statuses(Check):
    """2 for a command line on every command; alerts: 1 only for a result that got slower, 3 for nothing to compare."""

    @classmethod
    def setUpClass(cls):
        from test_results_history import series
        cls.db = os.path.join(fixture.tmpdir(), "s.sqlite")
        cls.calm = os.path.join(fixture.tmpdir(), "calm.sqlite")
        subprocess.run([RESULTS, "add", "--db", cls.db, *series()], check=True, capture_output=True)
        subprocess.run([RESULTS, "add", "--db", cls.calm, *series(slowdown=1.0)], check=True, capture_output=True)
        cls.first = rows(cls.db, "SELECT id FROM runs ORDER BY time")[0][0]

    def test_a_command_line_it_cannot_use_is_2_on_every_command(self):
        out = os.path.join(fixture.tmpdir(), "o")
        db, run = self.db, fixture.path("reps.json")
        for args, start in [(["table", "--db", db, "-o", out, "("], "(: not a regular expression"),
                            (["site", "--db", db, "-o", out, "[a-"], "[a-: not a regular expression"),
                            (["latency", "--db", db, "("], "(: not a regular expression"),
                            (["history", "--db", db, "("], "(: not a regular expression"),
                            (["alerts", "--db", db, "("], "(: not a regular expression"),
                            (["export", "--db", db, "--format", "csv", "("], "(: not a regular expression"),
                            (["export", "--format", "bmf", run], f"{run}: a result file, not a benchmark pattern"),
                            (["list", "--db", db, "--machine", ""], "argument --machine: invalid value"),
                            (["prune", "--db", db, "--machine", "", "--keep", "1"], "argument --machine: invalid"),
                            (["list", "--db", db, "--host", " "], "argument --host: invalid value"),
                            (["prune", "--db", db], "prune: nothing says which runs to remove"),
                            (["retag", "--db", db, self.first[:12], "--host", ""], "--host: empty"),
                            (["retag", "--db", db, self.first[:12], "--host", "a\nb"], "--host: holds a control"),
                            (["retag", "--db", db, self.first[:12], "--host", "x" * 10000], "--host: 10000 characters"),
                            (["list", "--db", ""], "--db: empty"), (["add", "--db", "", run], "--db: empty"),
                            (["list", "--db", db, "--since", "0001-01-01T00:00:00+14:00"], "argument --since"),
                            (["list", "--db", db, "--until", "9999-12-31T23:59:59-14:00"], "argument --until"),
                            (["list", "--bogus"], "unrecognized arguments: --bogus")]:
            self.one_line(results(*args), 2, start)
        self.assertEqual(rows(db, "SELECT COUNT(*) FROM runs"), [(6,)])       # nothing was pruned or retagged

    def test_alerts_one_means_slower_and_nothing_else(self):
        p = results("alerts", "--db", self.db)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(results("alerts", "--db", self.calm).returncode, 0)
        one = os.path.join(fixture.tmpdir(), "one.sqlite")
        self.ok(results("add", "--db", one, fixture.path("reps.json")))
        for args, start in [(["--db", one], f"{one}: nothing to compare"),                 # no run before the latest
                            (["--db", self.db, "--host", "nowhere"], "--host nowhere: no run"),
                            (["--db", self.db, "^nothing/"], "^nothing/: names no benchmark"),
                            (["--db", self.db, "--since", "2030-01-01"], f"{self.db}: no run matches")]:
            self.one_line(results("alerts", *args), 3, start)
        empty = os.path.join(fixture.tmpdir(), "emptied.sqlite")
        self.ok(results("add", "--db", empty, fixture.path("reps.json")))
        self.ok(results("prune", "--db", empty, "--keep", "0"))
        self.one_line(results("alerts", "--db", empty), 3, f"{empty}: no runs in the store")
        for store, why in ((os.path.join(fixture.tmpdir(), "absent.sqlite"), "no store there"),
                           (fixture.path("reps.json"), "not an SQLite database")):
            self.one_line(results("alerts", "--db", store), 4, store, why)
        self.one_line(results("alerts", "--db", self.db, "("), 2, "(: not a regular expression")


class Tracebacks(Check):
    """Input out of range or damaged is one line, never a traceback."""

    def store(self, *files):
        db = os.path.join(fixture.tmpdir(), "t.sqlite")
        self.ok(results("add", "--db", db, *(files or [fixture.path("reps.json")])))
        return db

    def test_dates_out_of_range(self):
        files = [edited("reps.json", lambda d, t=t: d["context"].update(date=t), f"d{i}.json")
                 for i, t in enumerate(("0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"))]
        db = self.store(*files)
        listed = self.ok(results("list", "--db", db))
        self.assertIn("0001-01-01T00:00:00+14:00", listed)
        self.assertIn(f"{db}: 2 runs", listed)
        self.ok(results("history", "--db", db, "thrpt/read32/relaxed"))
        # an instant no datetime holds is no instant: the runs are undated, after every dated one
        self.assertEqual(rows(db, "SELECT COUNT(*) FROM runs WHERE time IS NULL"), [(2,)])

    def test_a_store_whose_version_row_is_missing_or_not_a_number(self):
        for change, why in (("DELETE FROM regbench_store", "its schema version is missing"),
                            ("UPDATE regbench_store SET value = 'three'", "its schema version is 'three', not a number"),
                            ("UPDATE regbench_store SET value = '1e999'", "not a number")):
            db = self.store()
            with sqlite3.connect(db) as conn:
                conn.execute(change)
            self.one_line(results("list", "--db", db), 1, db, why)

    def test_values_another_program_wrote_into_the_store(self):
        for change, command in (("UPDATE results SET reps = x'01020304ff'", ["history", "thrpt/read32/relaxed"]),
                                ("UPDATE results SET state = 'bogus'", ["table", "-o", "OUT"]),
                                ("UPDATE metas SET regbench = x'00'", ["table", "-o", "OUT"]),
                                ("UPDATE runs SET json_zlib = x'00'", ["export", "--format", "bmf"])):
            db = self.store()
            with sqlite3.connect(db) as conn:
                conn.execute(change)
            args = [os.path.join(fixture.tmpdir(), "out") if a == "OUT" else a for a in command]
            p = results(args[0], "--db", db, *args[1:])
            self.assertNotIn("Traceback", p.stderr, change)
            if p.returncode:
                self.one_line(p, 1, db, "holds a value this regbench cannot read")


class Identity(Check):
    """Two machines sharing a host name are two machines in every command."""

    @classmethod
    def setUpClass(cls):
        a, b = "a" * 32, "b" * 32
        cls.db = os.path.join(fixture.tmpdir(), "i.sqlite")
        files = [_machine(m, f"2026-12-0{d}T09:00:00+00:00") for m in (a, b) for d in (1, 2)]
        subprocess.run([RESULTS, "add", "--db", cls.db, *files], check=True, capture_output=True)

    def test_history_latency_table_and_site_keep_them_apart(self):
        doc = json.loads(self.ok(results("history", "--db", self.db, "--json", "^chain/read32/relaxed$")))
        self.assertEqual(sorted(s["machine"][:1] for s in doc["series"]), ["a", "b"])
        self.assertTrue(all(len(s["points"]) == 2 for s in doc["series"]))
        out = os.path.join(fixture.tmpdir(), "h")
        self.ok(results("history", "--db", self.db, "-o", out, "^chain/read32/relaxed$"))
        self.assertEqual(len([n for n in os.listdir(out) if n.endswith(".svg")]), 2)
        lat = json.loads(self.ok(results("latency", "--db", self.db, "--json")))
        self.assertEqual(sorted(g["machine"][:1] for g in lat["groups"]), ["a", "b"])
        self.assertTrue(all(len(g["runs"]) == 2 for g in lat["groups"]))
        table = os.path.join(fixture.tmpdir(), "t")
        self.ok(results("table", "--db", self.db, "-o", table))
        with open(os.path.join(table, "README.md"), encoding="utf-8") as f:
            readme = f.read()
        self.assertIn("(machine aaaaaaaa)", readme)
        self.assertIn("(machine bbbbbbbb)", readme)


class Curation(Check):
    def test_an_empty_filter_or_a_run_named_twice_changes_nothing_more(self):
        db = os.path.join(fixture.tmpdir(), "c.sqlite")
        a = "c" * 32
        older, newer = _machine(a, "2026-12-01T09:00:00+00:00"), _machine(a, "2026-12-02T09:00:00+00:00")
        self.ok(results("add", "--db", db, older, newer))
        self.one_line(results("prune", "--db", db, "--machine", "", "--keep", "0"), 2, "argument --machine")
        self.assertEqual(rows(db, "SELECT COUNT(*) FROM runs"), [(2,)])
        first = rows(db, "SELECT id FROM runs ORDER BY time")[0][0]
        self.assertIn("1 run deleted; 1 run in the store", self.ok(results("delete", "--db", db, first[:8],
                                                                          first[:12])))
        # the survivor's histograms are whole: what latency merges is what a store of it alone merges
        alone = os.path.join(fixture.tmpdir(), "alone.sqlite")
        self.ok(results("add", "--db", alone, newer))
        after, want = (json.loads(self.ok(results("latency", "--db", d, "--json"))) for d in (db, alone))
        self.assertTrue(after["groups"])
        self.assertEqual(after["groups"][0]["benchmarks"], want["groups"][0]["benchmarks"])


class Exports(Check):
    def test_a_csv_cell_never_starts_a_formula(self):
        from regbench_results import export
        import hostile
        db = os.path.join(fixture.tmpdir(), "x.sqlite")
        self.ok(results("add", "--db", db, hostile.hostile("reps.json")))
        table = list(csv.reader(io.StringIO(self.ok(results("export", "--db", db, "--format", "csv")))))
        cells = [c for row in table[1:] for c in row]
        self.assertTrue(any(c[:1] == "'" and c[1:2] in export.FORMULA for c in cells))   # some were neutralized
        self.assertEqual([c for c in cells if c[:1] in export.FORMULA], [])
        self.assertEqual((export.cell(-1.5), export.cell("-1"), export.cell("a=b")), (-1.5, "'-1", "a=b"))


class Secrets(Check):
    """No password, nor a part of one, in any line: URLs with @ and / in the password, keyword strings, PGPASSWORD."""

    def test_no_password_in_any_line(self):
        for url, secret in (("postgresql://u:se@cret1x@127.0.0.1:1/x", "se@cret1x"),
                            ("postgresql://u:se/cret2x@127.0.0.1:1/x", "se/cret2x"),
                            ("postgresql://u:p@ss/w0rd3@127.0.0.1:1/x", "p@ss/w0rd3"),
                            ("postgresql://u:s%40cret4x@127.0.0.1:1/x", "s@cret4x"),
                            ("postgresql://u@127.0.0.1:1/x?pass%77ord=secret5x", "secret5x"),
                            ("host=127.0.0.1 password=secret6x", "secret6x")):
            pieces = [p for p in re.split(r"[@/]", secret) if len(p) >= 3] + [secret, secret.replace("@", "%40")]
            for args in (["list", "--db", url], ["add", "--db", url, fixture.path("reps.json")],
                         ["table", "--db", url, "-o", fixture.tmpdir()], ["list", "--dB", url]):
                p = results(*args)
                self.assertNotEqual(p.returncode, 0)
                for piece in pieces:
                    self.assertNotIn(piece, p.stdout + p.stderr, args)
            p = results("list", env=dict(os.environ, REGBENCH_DB=url))
            self.assertFalse(any(piece in p.stdout + p.stderr for piece in pieces), p.stderr)
        p = results("list", "--db", "postgresql://u@127.0.0.1:1/x", env=dict(os.environ, PGPASSWORD="pgsecret7"))
        self.assertNotIn("pgsecret7", p.stdout + p.stderr)


class Smaller(Check):
    def test_a_device_is_not_a_store(self):
        if not os.path.exists("/dev/null-journal"):
            self.one_line(results("add", "--db", "/dev/null", fixture.path("reps.json")), 1, "/dev/null",
                          "not a regular file")
            self.assertFalse(os.path.exists("/dev/null-journal"))


if __name__ == "__main__":
    unittest.main()
