"""scripts/results on a live PostgreSQL: a server of Debian's postgresql started here (initdb in a temporary folder,
a Unix socket in it), the same rows as on SQLite, the same reference table, and the errors of a server that is gone."""
import glob
import json
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import unittest

import fixture
from test_results_store import Check, edited, results, rows
from test_results_writers import at_once, variants

from regbench_results import sql

RUNS = [fixture.path("single.json"), fixture.path("reps.json"), fixture.path("port.json")]


def server_binaries():
    """The bin folder of the newest PostgreSQL Debian installed (postgresql: /usr/lib/postgresql/VERSION/bin)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return os.path.dirname(found[-1]) if found else None


def server_user():
    """Who runs the server: this user, or as root an unprivileged one (initdb refuses root); None if there is none."""
    if os.geteuid() != 0:
        return pwd.getpwuid(os.geteuid())
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    return None


def spare_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A PostgreSQL server of its own: data and socket in a temporary folder, no TCP, trust for its one user."""

    def __init__(self, bindir, user):
        self.bindir, self.user = bindir, user
        self.dir = tempfile.mkdtemp(prefix="regbench-pg-")
        os.chmod(self.dir, 0o755)
        if os.geteuid() == 0:
            os.chown(self.dir, user.pw_uid, user.pw_gid)
        self.port = spare_port()
        self.data = os.path.join(self.dir, "data")

    def url(self, database, port=None):
        return f"postgresql:///{database}?host={self.dir}&port={port or self.port}&user=regbench"

    def database(self, name):
        """A new database of the server (each test its own store); its URL."""
        self.run("createdb", "-h", self.dir, "-p", str(self.port), "-U", "regbench", name)
        return self.url(name)

    def run(self, tool, *args):
        cmd = [os.path.join(self.bindir, tool), *args]
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", self.user.pw_name, "--", *cmd]
        p = subprocess.run(cmd, cwd=self.dir, capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            raise RuntimeError(f"{tool} failed: {p.stdout}{p.stderr}")

    def start(self):
        self.run("initdb", "-D", self.data, "-U", "regbench", "--auth=trust", "--no-sync", "-E", "UTF8",
                 "--no-locale")
        self.run("pg_ctl", "-D", self.data, "-l", os.path.join(self.dir, "server.log"), "-w", "-t", "120",
                 "-o", f"-k {self.dir} -p {self.port} -c listen_addresses='' -c fsync=off", "start")

    def stop(self):
        try:
            self.run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        except (RuntimeError, subprocess.TimeoutExpired):
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


class PostgreSQL(Check):
    @classmethod
    def setUpClass(cls):
        bindir, user = server_binaries(), server_user()
        if user is None:
            raise unittest.SkipTest("running as root and no unprivileged user (postgres, nobody) to run the server "
                                    "as: initdb refuses root")
        if bindir is None:
            raise AssertionError("no PostgreSQL server binaries under /usr/lib/postgresql (scripts/setup installs "
                                 "Debian's postgresql)")
        cls.server = Server(bindir, user)
        try:
            cls.server.start()
        except BaseException:
            cls.server.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_two_runs_added_twice_give_two_rows(self):
        url = self.server.database("two")
        two = RUNS[:2]
        self.assertIn("2 added, 0 already there; 2 runs in the store", self.ok(results("add", "--db", url, *two)))
        self.assertIn("0 added, 2 already there; 2 runs in the store", self.ok(results("add", "--db", url, *two)))
        out = self.ok(results("list", "--db", url)).splitlines()
        self.assertEqual(out[-1], f"{url}: 2 runs")
        import psycopg2
        with psycopg2.connect(url) as conn, conn.cursor() as cur:
            cur.execute("SELECT COUNT(*), COUNT(DISTINCT id) FROM runs")
            self.assertEqual(cur.fetchone(), (2, 2))
            cur.execute("SELECT COUNT(*) FROM results")
            self.assertEqual(cur.fetchone(), (23 + 5,))
        conn.close()

    def test_the_table_is_the_same_from_sqlite_and_postgresql(self):
        url = self.server.database("same")
        self.ok(results("add", "--db", url, *RUNS))
        db = os.path.join(fixture.tmpdir(), "same.sqlite")
        self.ok(results("add", "--db", db, *RUNS))
        self.assertEqual(len(rows(db, "SELECT id FROM runs")), 3)
        a, b = os.path.join(fixture.tmpdir(), "pg"), os.path.join(fixture.tmpdir(), "sqlite")
        self.ok(results("table", "--db", url, "-o", a))
        self.ok(results("table", "--db", db, "-o", b))
        self.assertEqual(sorted(os.listdir(a)), sorted(os.listdir(b)))
        for name in os.listdir(a):
            with open(os.path.join(a, name), "rb") as x, open(os.path.join(b, name), "rb") as y:
                self.assertEqual(x.read(), y.read(), name)
        with open(os.path.join(a, "README.md"), encoding="utf-8") as f:
            self.assertIn("> **Headline:** 3 runs of 2 machines in 2 machine × target columns", f.read())
        # the merged latency reads the runs' JSON back from either engine alike (answers.json has a grid)
        for store in (url, db):
            self.ok(results("add", "--db", store, fixture.path("answers.json")))
        pg = json.loads(self.ok(results("latency", "--db", url, "--json")))
        self.assertEqual([len(g["benchmarks"]) for g in pg["groups"]], [1])
        self.assertEqual(pg, json.loads(self.ok(results("latency", "--db", db, "--json"))))

    def test_a_database_without_the_tables_and_a_server_that_is_gone(self):
        empty = self.server.database("empty")
        self.one_line(results("list", "--db", empty), 1, empty, "not a regbench store")
        self.one_line(results("table", "--db", empty, "-o", fixture.tmpdir()), 1, empty, "not a regbench store")
        gone = self.server.url("regbench", port=self.server.port + 1)
        self.one_line(results("add", "--db", gone, RUNS[0]), 1, gone + ": cannot connect", "is the server running?")
        self.one_line(results("list", "--db", self.server.url("nosuchdb")), 1, "", 'database "nosuchdb" does not exist')

    def test_concurrent_adds_all_land_in_a_new_and_an_existing_database(self):
        for name in ("race1", "race2", "race3"):
            url = self.server.database(name)
            files = variants(5)
            for p in at_once(*(["add", "--db", url, f] for f in files), ["add", "--db", url, *reversed(files)]):
                self.ok(p)
            self.assertIn(f"{url}: 5 runs", self.ok(results("list", "--db", url)))
            more = variants(8)[5:]
            for p in at_once(*(["add", "--db", url, f, *files[:2]] for f in more)):
                self.ok(p)
            self.assertIn(f"{url}: 8 runs", self.ok(results("list", "--db", url)))

    def test_a_store_of_the_first_release_is_upgraded_in_place(self):
        url = self.server.database("v1")
        import psycopg2
        with open(fixture.path("store-v1.sql"), encoding="utf-8") as f:
            script = "\n".join(l for l in f.read().splitlines() if not l.startswith("PRAGMA"))
        with psycopg2.connect(url) as conn, conn.cursor() as cur:
            # SQLite's dump writes a newline as char(10), PostgreSQL's chr(10)
            cur.execute(script.replace("BEGIN TRANSACTION;", "").replace("COMMIT;", "").replace("char(10)", "chr(10)"))
        conn.close()
        p = results("list", "--db", url)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, f"results: {url}: upgraded the store from schema 1 to {sql.VERSION} in place (2 runs)\n")
        self.assertIn(f"{url}: 2 runs", p.stdout)
        self.assertIn("0 added, 1 already there", self.ok(results("add", "--db", url, edited("reps.json", lambda d: None))))

    def test_a_store_of_schema_2_is_upgraded_in_place(self):
        from test_results_merged import later
        url = self.server.database("v2")
        import psycopg2
        with open(fixture.path("store-v2.sql"), encoding="utf-8") as f:
            script = "\n".join(l for l in f.read().splitlines() if not l.startswith(("PRAGMA", "BEGIN", "COMMIT")))
        # SQLite's dump writes binary as X'hex' in BLOB columns, PostgreSQL reads decode('hex', 'hex') into BYTEA
        script = re.sub(r"X'([0-9A-Fa-f]*)'", r"decode('\1', 'hex')", script).replace(" BLOB", " BYTEA")
        with psycopg2.connect(url) as conn, conn.cursor() as cur:
            cur.execute(script.replace("char(10)", "chr(10)"))
        conn.close()
        p = results("list", "--db", url)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, f"results: {url}: upgraded the store from schema 2 to {sql.VERSION} in place (4 runs)\n")
        fresh = self.server.database("v2fresh")
        self.ok(results("add", "--db", fresh, *(fixture.path(f) for f in ("reps.json", "port.json", "answers.json")),
                        later(0, factor=2, baseline=True, as_name="answers2.json", date="2026-12-04T06:00:00+00:00")))
        for command in (["latency", "--json"], ["history", "--json", "read32"], ["alerts"]):
            self.assertEqual(results(*command, "--db", url).stdout.replace(url, "STORE"),
                             results(*command, "--db", fresh).stdout.replace(fresh, "STORE"), command)

    def test_concurrent_adds_all_land_in_the_merged_histograms(self):
        from test_results_merged import later
        url = self.server.database("mergedrace")
        files = [later(i, factor=1 + i) for i in range(5)]
        for p in at_once(*(["add", "--db", url, f] for f in files)):
            self.ok(p)
        doc = json.loads(self.ok(results("latency", "--db", url, "--json")))
        self.assertEqual(doc["groups"][0]["benchmarks"]["lat/read32/ordered"]["samples"], 15 * 52736)
        import psycopg2
        with psycopg2.connect(url) as conn, conn.cursor() as cur:
            cur.execute("SELECT runs FROM merged")
            self.assertEqual(cur.fetchall(), [(5,)])
        conn.close()

    def test_a_nul_in_a_context_value(self):
        url = self.server.database("nul")
        path = edited("reps.json", lambda d: d["context"].update(host="board\u00007", kernel="6.1\u0000"))
        out = self.ok(results("add", "--db", url, path))
        # PostgreSQL's text cannot hold a NUL: the add lands, and both lines print it as text.printable escapes it
        self.assertIn("board\\x007", out)
        self.assertIn("board\\x007", self.ok(results("list", "--db", url)))

    def test_a_password_parameter_is_never_printed(self):
        url = self.server.url("nosuchdb") + "&password=hunter2"
        p = results("add", "--db", url, RUNS[0])
        self.assertEqual(p.returncode, 1)
        self.assertNotIn("hunter2", p.stdout + p.stderr)
        url = self.server.database("masked") + "&password=hunter2"
        out = self.ok(results("add", "--db", url, RUNS[0]))
        self.assertNotIn("hunter2", out)
        self.assertIn("password=***", out)


if __name__ == "__main__":
    unittest.main()
