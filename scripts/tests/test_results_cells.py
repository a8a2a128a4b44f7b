"""The store's reference table cells (table `cells`) on SQLite: kept in step by add, delete, prune and retag, the table
read from them agreeing with its runs' results, and a store of every earlier schema upgraded to answer as a new one;
the --json outputs written as json.dumps(indent=2) writes them."""
import json
import os
import random
import unittest
from unittest import mock

import fixture
from test_results_merged import later, merged
from test_results_store import Check, edited, results, rows

from regbench_results import cells as regbench_cells
from regbench_results import history, jsontext, query, reference, runfile, sql, store, upgrade


def cells(db):
    """The store's cells, each its column, benchmark and counts (not its id, which tells only the order cells were
    made in), in one order."""
    s = store.open_store(db)
    try:
        every = regbench_cells.every(s)
    finally:
        s.close()
    return sorted((col + tuple(c[f] for f in regbench_cells.BENCHMARK + regbench_cells.COUNTS)
                   for col, column in every.items() for c in column), key=repr)


def both_paths(db, **filters):
    """(the reference table of the filters' runs from `cells` where a column is whole, the same from the results of
    every run)."""
    s = store.open_store(db)
    try:
        args = type("Args", (), {**{f: [] for f, _, _ in query.FILTERS}, "since": None, "until": None,
                                 "benchmarks": [], **filters})
        chosen = query.select(s, args)
        return reference.build(s, chosen), reference.build(s, query.Selection(chosen.runs, chosen.patterns))
    finally:
        s.close()


def single(i, host=None, tsc=None, factor=1.0, machine=None):
    """single.json (figures, bounds under the timer's step, an error, skips) run i days later, on another host, another
    machine (its machine_id) or another TSC rate (its bounds then another number of ns), its figures scaled."""
    def edit(d):
        d["context"]["date"] = f"2026-11-{10 + i:02d}T12:00:00+01:00"
        if host:
            d["context"]["host"] = host
        if machine:
            d["context"]["machine_id"] = machine
        if tsc:
            d["context"]["tsc_hz"] = str(tsc)
        for k, b in enumerate(d["benchmarks"]):
            for c in ("cycles", "ns", "real_time", "cpu_time"):
                if isinstance(b.get(c), float):
                    b[c] *= factor * (1 + 0.01 * ((k + i) % 5 - 2))
    return edited("single.json", edit, f"single-{i}-{host}-{tsc}-{factor}-{machine}.json")


class Cells(Check):
    def fresh(self, *files):
        db = os.path.join(fixture.tmpdir(), "fresh.sqlite")
        self.ok(results("add", "--db", db, *files))
        return db

    def same_as_fresh(self, db, *files):
        """The store's cells are those of a new store of the files, every result is in the cell its run and name say,
        and `table` reads from the cells what it reads from the results."""
        self.assertEqual(cells(db), cells(self.fresh(*files)))
        s = store.open_store(db)
        try:
            ids = {c["id"]: (col, c["name"]) for col, column in regbench_cells.every(s).items() for c in column}
            runs = {r["key"]: regbench_cells.column(r) for r in query.all_runs(s)}
        finally:
            s.close()
        self.assertEqual(sorted(ids[cell] for cell, _, _ in rows(db, "SELECT cell, run_id, name FROM results")),
                         sorted((runs[run], name) for _, run, name in rows(db, "SELECT cell, run_id, name FROM results")))
        fast, slow = both_paths(db)
        self.assertEqual(fast, slow)
        return fast

    def test_add_delete_prune_and_retag_keep_the_cells_those_of_the_runs_left(self):
        runs = [single(0), single(1, tsc=3_000_000_000), single(2, factor=1.5), single(3, host="other"),
                later(0), later(1, factor=2), fixture.path("port.json")]
        db = os.path.join(fixture.tmpdir(), "c.sqlite")
        self.ok(results("add", "--db", db, *runs[:3]))
        self.ok(results("add", "--db", db, *runs[3:]))
        table = self.same_as_fresh(db, *runs)
        (relaxed,) = [cell for s in table.sections for (k, c), cell in s.cells.items()
                      if table.columns[c].host == "fixture-host" and k.family == "chain" and k.strategy == "relaxed"]
        self.assertEqual(relaxed.runs, 3)                  # the median of three runs, and their range
        self.assertLess(relaxed.lo, relaxed.value)

        ids = {d[:10]: i for d, i in rows(db, "SELECT date, id FROM runs")}
        # the run whose bounds are the lowest in ns (its TSC the fastest) goes: the cell's bound is the others'
        self.ok(results("delete", "--db", db, ids["2026-11-11"][:12]))
        self.same_as_fresh(db, runs[0], *runs[2:])
        self.ok(results("retag", "--db", db, ids["2026-11-12"][:12], "--host", "other"))
        self.same_as_fresh(db, runs[0], single(2, host="other", factor=1.5), *runs[3:])
        now = {"2026-11-10": runs[0], "2026-11-12": single(2, host="other", factor=1.5), "2026-11-13": runs[3],
               "2026-12-04": None, "2026-12-03": runs[6]}
        self.ok(results("prune", "--db", db, "--keep", "1"))
        left = [d for d, in rows(db, "SELECT date FROM runs ORDER BY date")]
        self.assertEqual(len(left), 4)                     # one of each machine × target
        self.same_as_fresh(db, *(now[d[:10]] or later(int(d[11:13]) - 4, factor=int(d[11:13]) - 3) for d in left))
        runs_at = len(sql.CELL_COLUMN) + len(regbench_cells.BENCHMARK)
        self.assertEqual([c for c in cells(db) if c[runs_at] < 1], [])   # no cell left empty

    def test_two_machines_that_share_a_host_name_are_two_columns_of_cells(self):
        db = os.path.join(fixture.tmpdir(), "m.sqlite")
        runs = [single(0), single(1, machine="a" * 32), single(2, machine="b" * 32, factor=2)]
        self.ok(results("add", "--db", db, *runs))
        table = self.same_as_fresh(db, *runs)
        self.assertEqual(sorted(m for m, in rows(db, "SELECT machine FROM cells")),
                         ["a" * 32, "b" * 32, "fixture-host"])
        self.assertEqual(len(table.columns), 3)
        s = store.open_store(db)
        try:
            # every column whole: the table is read from the cells alone, none of the runs' results
            every = query.all_runs(s)
            with mock.patch.object(reference.query, "results", side_effect=AssertionError("read the results")):
                self.assertEqual(reference.build(s, query.Selection(every, [], every)), table)
        finally:
            s.close()

    def test_filters_that_leave_a_column_in_part_read_its_results(self):
        db = os.path.join(fixture.tmpdir(), "f.sqlite")
        self.ok(results("add", "--db", db, single(0), single(1, factor=2), single(2), single(3, host="other")))
        for filters in ({"since": "2026-11-11T00:00:00Z"}, {"host": ["other"]}, {"benchmarks": ["^lat/", "chain"]}):
            fast, slow = both_paths(db, **filters)
            self.assertEqual(fast, slow, filters)
        fast, _ = both_paths(db, since="2026-11-11T00:00:00Z")
        self.assertEqual({c.runs for s in fast.sections for c in s.cells.values() if c.runs}, {2, 1})
        self.one_line(results("table", "--db", db, "-o", fixture.tmpdir(), "--force", "nosuch"), 1,
                      "nosuch: names no benchmark")
        # a pattern that is not a regular expression is a command line the tool cannot use (2), refused before the store
        self.one_line(results("table", "--db", db, "-o", fixture.tmpdir(), "--force", "("), 2,
                      "(: not a regular expression")


class Upgrades(Check):
    # each fixture store was made by that schema's scripts/results: add of reps.json and port.json (schema 1), and of
    # reps.json, port.json, answers.json and a copy of it two hours later labelled baseline=yes, its histogram counts
    # doubled (schemas 2 and 3)
    RUNS = {1: ("reps.json", "port.json"), 2: ("reps.json", "port.json", "answers.json", "answers2"),
            3: ("reps.json", "port.json", "answers.json", "answers2")}

    def test_a_store_of_each_earlier_schema_is_upgraded_in_place_and_answers_as_a_new_one(self):
        fresh = {}
        for version, files in self.RUNS.items():
            with self.subTest(schema=version):
                db = fixture.store(f"store-v{version}.sql")
                p = results("list", "--db", db)
                self.assertEqual(p.stderr, f"results: {db}: upgraded the store from schema {version} to {sql.VERSION} "
                                           f"in place ({len(files)} runs)\n")
                self.assertEqual(rows(db, "SELECT value FROM regbench_store"), [(str(sql.VERSION),)])
                paths = [later(0, factor=2, baseline=True, as_name="answers2.json", date="2026-12-04T06:00:00+00:00")
                         if f == "answers2" else fixture.path(f) for f in files]
                if files not in fresh:
                    fresh[files] = os.path.join(fixture.tmpdir(), "new.sqlite")
                    self.ok(results("add", "--db", fresh[files], *paths))
                new = fresh[files]
                self.assertEqual(cells(db), cells(new))
                self.assertEqual(merged(db), merged(new))
                columns = ", ".join(c for c in sql.LIST_FIELDS if c != "added")
                self.assertEqual(rows(db, f"SELECT {columns} FROM runs ORDER BY id"),
                                 rows(new, f"SELECT {columns} FROM runs ORDER BY id"))
                self.assertEqual(*(rows(where, "SELECT r.id, s.name, s.reps FROM results s JOIN runs r ON "
                                           "r.key = s.run_id ORDER BY 1, 2") for where in (db, new)))
                for command in (["list"], ["latency", "--json"], ["history", "--json", "read32"], ["alerts"],
                                ["export", "--format", "csv"]):
                    self.assertEqual(results(*command, "--db", db).stdout.replace(db, "STORE"),
                                     results(*command, "--db", new).stdout.replace(new, "STORE"), command)
                self.assertEqual(*(both_paths(where)[0].sections for where in (db, new)))
                self.assertIn(f"0 added, {len(files)} already there", self.ok(results("add", "--db", db, *paths)))


class Columns(Check):
    def test_a_runs_column_of_the_context_is_a_context_key_and_an_upgrade_fills_it_from_each_runs_json(self):
        from regbench_base import contract
        declared = contract.schema()["$defs"]["context"]["properties"]
        from_context = [c for c in sql.RUNS if c.source != sql.DERIVED]
        self.assertEqual([c.name for c in from_context if c.name not in declared], [])
        # what an upgrade to a schema that adds them does: the columns emptied, then filled from each run's JSON
        db = fixture.store("store-v3.sql")
        self.assertEqual(results("list", "--db", db).returncode, 0)
        names = ", ".join(c.name for c in from_context)
        before = rows(db, f"SELECT id, {names} FROM runs ORDER BY id")
        self.assertTrue(any(v is not None for r in before for v in r[1:]))
        s = store.open_store(db)
        try:
            s._execute(f"UPDATE runs SET {', '.join(f'{c.name} = NULL' for c in from_context)}")
            upgrade._fill_context(s, from_context)      # SQLite's autocommit: each statement lands
        finally:
            s.close()
        self.assertEqual(rows(db, f"SELECT id, {names} FROM runs ORDER BY id"), before)
        step, indexes, filled = sql.steps(sql.VERSION + 1, "sqlite")
        self.assertEqual((step, indexes, filled), ([], [], []))     # no schema beyond this one declares anything

    def test_fleet_md_names_every_column(self):
        with open(os.path.join(fixture.SCRIPTS, os.pardir, "docs", "FLEET.md"), encoding="utf-8") as f:
            text = f.read()
        schema = text[text.index("**The schema**"):text.index("Queries are plain SQL")]
        missing = [f"{t}.{c.name}" for t, (columns, _, _) in sql.TABLES.items() if t in ("runs", "results", "labels")
                   for c in columns if f"`{c.name}`" not in schema]
        self.assertEqual(missing, [], "say what each column holds in docs/FLEET.md's list")

    def test_the_identity_from_the_one_parse_is_canonicals(self):
        with open(fixture.path("single.json"), encoding="utf-8") as f:
            base = f.read()
        cases = {"as written": lambda d: None,
                 "whole doubles": lambda d: d["benchmarks"][0].update(cycles=4746.0, real_time=1.0),
                 "a string holding what a whole double ends in": lambda d: d["context"].update(kernel="v1.0, [2.0]}"),
                 "-0.0": lambda d: d["benchmarks"][0].update(cycles=-0.0),
                 "a long integer": lambda d: d["benchmarks"][0].update(iterations=2 ** 52 + 1)}
        parsed_again = []
        canonical = runfile.canonical
        with mock.patch.object(runfile, "canonical", lambda data: parsed_again.append(1) or canonical(data)):
            for name, edit in cases.items():
                doc = json.loads(base)
                edit(doc)
                for text in (json.dumps(doc), json.dumps(doc, indent=2)):
                    before = len(parsed_again)
                    run, (run_id, _) = runfile.load(text.encode("utf-8"), name)
                    self.assertEqual(run_id, canonical(text.encode("utf-8"))[0], name)
                    # files as regbench and other tools write them are parsed once
                    self.assertEqual(len(parsed_again) > before, name not in ("as written", "whole doubles"), name)


class IndentedJson(Check):
    def test_the_text_is_json_dumps_with_an_indent_of_two(self):
        rng = random.Random(3)
        plain = [None, True, False, 0, -5, 2 ** 60, 1.5, -0.0, 1e300, float("nan"), float("inf"), "a", "é\"\\\n\u2013",
                 "", {}, [], ()]

        def doc(depth):
            r = rng.random()
            if depth > 4 or r < 0.4:
                return rng.choice(plain)
            if r < 0.7:
                keys = ["k", "ü", 1, 2.5, True, None, *(f"z{i}" for i in range(5))]
                return {rng.choice(keys): doc(depth + 1) for _ in range(rng.randrange(5))}
            return [doc(depth + 1) for _ in range(rng.randrange(5))]
        for _ in range(3000):
            d = doc(0)
            self.assertEqual(jsontext.dumps(d), json.dumps(d, indent=2), d)

    def test_history_json_is_its_document_dumped(self):
        # a run with labels (an object inside a point) and runs without (every point's values plain)
        db = os.path.join(fixture.tmpdir(), "j.sqlite")
        self.ok(results("add", "--db", db, single(0), single(1, factor=2), later(0), later(1, baseline=True)))
        s = store.open_store(db)
        try:
            args = type("Args", (), {**{f: [] for f, _, _ in query.FILTERS}, "since": None, "until": None,
                                     "benchmarks": ["read32", "^lat/"]})
            doc = history.document(history.series(s, query.select(s, args)))
        finally:
            s.close()
        self.assertTrue(any(p["labels"] for series in doc["series"] for p in series["points"]))
        self.assertEqual(self.ok(results("history", "--db", db, "--json", "read32", "^lat/")),
                         json.dumps(doc, indent=2) + "\n")


if __name__ == "__main__":
    unittest.main()
