"""The store's merged lat/ histograms (table `merged`) on SQLite: kept in step by add, delete, prune and retag, and what
`latency` reads agreeing with adding up the runs themselves (test_results_cells upgrades earlier stores to them)."""
import os
import unittest

import fixture
from test_results_store import Check, edited, results, rows
from test_results_writers import at_once

from regbench_results import latency, query, store


def later(hours, host=None, factor=1, baseline=False, as_name=None, date=None):
    """answers.json (one lat/ histogram on the grid), run hours later (or at date), on another host, its counts
    multiplied."""
    def edit(d):
        d["context"]["date"] = date or f"2026-12-04T{4 + hours:02d}:48:32+00:00"
        if host:
            d["context"]["host"] = host
        if baseline:
            d["context"].setdefault("labels", {})["baseline"] = "yes"
        for h in d["regbench"]["histograms"].values():
            h["counts"] = [c * factor for c in h["counts"]]
    return edited("answers.json", edit, as_name or f"answers-{hours}-{host}-{factor}.json")


def merged(db):
    """The store's merged rows, each as its group, benchmark, runs and buckets, in one order."""
    return rows(db, "SELECT host, cpu, target, step, sub_buckets, name, runs, buckets FROM merged "
                    "ORDER BY host, cpu, target, step, sub_buckets, name")


def both_paths(db, **filters):
    """(latency of the merged rows, latency of the runs added up one by one) as latency --json documents."""
    s = store.open_store(db)
    try:
        args = type("Args", (), {**{f: [] for f, _, _ in query.FILTERS}, "since": None, "until": None,
                                 "benchmarks": [], **filters})
        chosen = query.select(s, args)
        return (latency.document(latency.build(s, chosen)),
                latency.document(latency.build(s, query.Selection(chosen.runs, chosen.patterns))))
    finally:
        s.close()


class Merged(Check):
    def fresh(self, *files):
        """A new store of the files: the merged rows that adding exactly these runs gives."""
        db = os.path.join(fixture.tmpdir(), "fresh.sqlite")
        self.ok(results("add", "--db", db, *files))
        return db

    def test_add_delete_prune_and_retag_keep_the_merged_rows_those_of_the_runs_left(self):
        runs = [later(0), later(1, factor=2), later(2, factor=3), later(3, host="other")]
        db = os.path.join(fixture.tmpdir(), "m.sqlite")
        self.ok(results("add", "--db", db, *runs[:2]))
        self.ok(results("add", "--db", db, *runs[2:]))
        self.assertEqual(merged(db), merged(self.fresh(*runs)))
        self.assertEqual([(r[0], r[6]) for r in merged(db)], [("other", 1), ("vm", 3)])
        fast, slow = both_paths(db)
        self.assertEqual(fast, slow)
        self.assertEqual(fast["groups"][1]["benchmarks"]["lat/read32/ordered"]["samples"], 6 * 52736)

        ids = dict(rows(db, "SELECT date, id FROM runs"))
        self.ok(results("delete", "--db", db, ids["2026-12-04T05:48:32+00:00"][:12]))
        self.assertEqual(merged(db), merged(self.fresh(runs[0], runs[2], runs[3])))
        self.assertEqual(*both_paths(db))

        self.ok(results("retag", "--db", db, ids["2026-12-04T06:48:32+00:00"][:12], "--host", "other"))
        self.assertEqual(merged(db), merged(self.fresh(runs[0], later(2, host="other", factor=3), runs[3])))
        self.assertEqual(*both_paths(db))

        self.ok(results("prune", "--db", db, "--keep", "1"))
        self.assertEqual(merged(db), merged(self.fresh(runs[0], runs[3])))
        self.ok(results("delete", "--db", db, ids["2026-12-04T04:48:32+00:00"][:12]))
        self.assertEqual([r[0] for r in merged(db)], ["other"])          # a group without runs leaves no row

    def test_filters_that_leave_a_group_in_part_add_up_its_runs(self):
        db = os.path.join(fixture.tmpdir(), "f.sqlite")
        self.ok(results("add", "--db", db, later(0), later(1, factor=2, baseline=True), later(2, factor=5)))
        fast, slow = both_paths(db)
        self.assertEqual(fast, slow)
        self.assertEqual(fast["groups"][0]["benchmarks"]["lat/read32/ordered"]["runs"], 3)
        for filters, runs, samples in (({"since": "2026-12-04T05:00:00Z"}, 2, 7), ({"label": [("baseline", "yes")]},
                                                                                      1, 2)):
            part, by_runs = both_paths(db, **filters)
            self.assertEqual(part, by_runs)
            row = part["groups"][0]["benchmarks"]["lat/read32/ordered"]
            self.assertEqual((row["runs"], row["samples"]), (runs, samples * 52736))

    def test_concurrent_adds_all_land_in_the_merged_rows(self):
        db = os.path.join(fixture.tmpdir(), "c.sqlite")
        self.ok(results("add", "--db", db, later(0)))
        files = [later(1 + i, factor=1 + i) for i in range(5)]
        for p in at_once(*(["add", "--db", db, f] for f in files)):
            self.ok(p)
        self.assertEqual(merged(db), merged(self.fresh(later(0), *files)))
        self.assertEqual(merged(db)[0][6], 6)


if __name__ == "__main__":
    unittest.main()
