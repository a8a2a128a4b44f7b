"""scripts/results history, alerts, curation (delete, prune, retag) and exports from the store, with filters."""
import csv
import io
import json
import os
import unittest

import fixture
from test_results_store import Check, edited, results, rows


def series(slowdown=1.5, n=6, baselines=3):
    """n runs of one machine a day apart, the first `baselines` labelled baseline=yes, the last one `slowdown` times
    slower in every repetition (no noise: the verdicts are the test's, not the machine's)."""
    paths = []
    for i in range(n):
        def edit(d, i=i):
            d["context"].update(date=f"2026-12-0{i + 1}T09:00:00+00:00", kernel=f"6.1.{i}")
            if i < baselines:
                d["context"].setdefault("labels", {})["baseline"] = "yes"
            for k, b in enumerate(d["benchmarks"]):
                b["cycles"] = b["cycles"] * (slowdown if i == n - 1 else 1.0) * (1 + 0.001 * ((k + i) % 3))
        paths.append(edited("reps.json", edit, f"day{i}.json"))
    return paths


class History(Check):
    def store(self, *files):
        db = os.path.join(fixture.tmpdir(), "h.sqlite")
        self.ok(results("add", "--db", db, *files))
        return db

    def test_history_lists_each_run_with_its_verdict(self):
        db = self.store(*series())
        doc = json.loads(self.ok(results("history", "--db", db, "--json", "^thrpt/read32/relaxed$")))
        (s,) = doc["series"]
        self.assertEqual([p["kernel"] for p in s["points"]], [f"6.1.{i}" for i in range(6)])
        self.assertEqual(s["points"][0]["verdict"], None)
        self.assertEqual(s["points"][0]["labels"], {"baseline": "yes"})
        self.assertAlmostEqual(s["points"][-1]["ratio"], 1.5, delta=0.01)
        text = self.ok(results("history", "--db", db, "thrpt/read32/relaxed"))
        self.assertIn("thrpt/read32/relaxed · fixture-host · Fixture CPU · ram", text)
        self.one_line(results("history", "--db", db), 2, "history: no benchmark")
        self.one_line(results("history", "--db", db, "nosuch"), 1, "nosuch: names no benchmark")
        out = fixture.tmpdir()
        self.ok(results("history", "--db", db, "-o", out, "--force", "barrier/mfence"))
        self.assertIn("barrier_mfence--fixture-host--ram.svg", os.listdir(out))

    def test_alerts_exit_1_on_a_slower_run_and_0_without(self):
        db = self.store(*series())
        p = results("alerts", "--db", db)
        self.assertEqual(p.returncode, 1, p.stderr)
        lines = p.stdout.splitlines()
        self.assertEqual(len(lines), 5, p.stdout)         # every benchmark of reps.json is 1.5x slower
        self.assertTrue(all(l.startswith("slower: fixture-host · ram · ") and " 1.50× the baseline (" in l
                            for l in lines), lines)
        self.assertIn("against 3 runs", lines[0])          # the labelled baseline, not the last 5
        # the same data, nothing slower: exit 0
        calm = self.store(*series(slowdown=1.0))
        p = results("alerts", "--db", calm)
        self.assertEqual((p.returncode, p.stdout), (0, ""), p.stderr)
        self.assertIn("0 alerts in 5 results compared", p.stderr)
        # two runs of two repetitions cannot show a difference: not an alert
        p = results("alerts", "--db", db, "--baseline", "1")
        self.assertEqual((p.returncode, p.stdout), (0, ""), p.stderr)

    def test_a_date_filter_chooses_the_latest_runs_and_not_their_baseline(self):
        """FLEET.md's nightly job asks for --since yesterday: last night's run against its earlier runs (the filter
        took the baseline away too, and every night passed)."""
        db = self.store(*series())
        p = results("alerts", "--db", db, "--since", "2026-12-06")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertEqual(len(p.stdout.splitlines()), 5, p.stdout)
        self.assertIn("against 3 runs", p.stdout)
        # as of the day before the slow one: its run is the latest, and within its baseline
        p = results("alerts", "--db", db, "--until", "2026-12-05")
        self.assertEqual((p.returncode, p.stdout), (0, ""), p.stderr)

    def history(self, factors, name="day"):
        """Runs of answers.json a day apart, each run's every repetition times its factor (no label: the last
        BASELINE_RUNS are the baseline)."""
        import verdict_rates
        with open(fixture.path("answers.json"), encoding="utf-8") as f:
            doc = json.load(f)
        paths = []
        for i, factor in enumerate(factors):
            run = verdict_rates.scaled(doc, factor)
            run["context"]["date"] = f"2026-12-{i + 1:02d}T09:00:00+00:00"
            paths.append(os.path.join(fixture.tmpdir(), f"{name}{i}.json"))
            with open(paths[-1], "w", encoding="utf-8") as f:
                json.dump(run, f)
        return self.store(*paths)

    def test_a_machine_steady_within_one_percent_is_alerted_at_one_and_a_half(self):
        """The issue's case: seven runs within 1%, then one 1.5x slower: copy/ too (its family's floor is 80%)."""
        steady = [1.0, 1.004, 0.997, 1.009, 0.995, 1.002, 0.999]
        p = results("alerts", "--db", self.history(steady + [1.5]))
        self.assertEqual(p.returncode, 1, p.stderr)
        slower = {l.split(" · ")[2].split(":")[0] for l in p.stdout.splitlines()}
        self.assertIn("copy/toio/kernel/4096", slower)
        self.assertIn("chain/read32/relaxed", slower)
        # the same history and a latest run within it: nothing
        p = results("alerts", "--db", self.history(steady + [1.006], "calm"))
        self.assertEqual((p.returncode, p.stdout), (0, ""), p.stderr)

    def test_a_machine_whose_runs_move_by_half_is_not_alerted_at_one_and_a_half(self):
        """Its own spread decides the other way too: runs that switch between two speeds are no alert at 1.5x."""
        p = results("alerts", "--db", self.history([1.0, 1.5, 0.8, 1.4, 1.0, 1.6, 0.9, 1.5], "noisy"))
        self.assertEqual((p.returncode, p.stdout), (0, ""), p.stderr)

    def test_filters(self):
        tagged = edited("port.json", lambda d: d["context"].update(machine_id="abcdef0123456789abcdef0123456789", arch="x86_64"))
        db = self.store(*series(), tagged)
        listed = lambda *f: self.ok(results("list", "--db", db, *f)).splitlines()[-1]
        self.assertEqual(listed("--label", "baseline=yes"), f"{db}: 3 runs")
        self.assertEqual(listed("--since", "2026-12-04", "--until", "2026-12-05"), f"{db}: 2 runs")
        self.assertEqual(listed("--host", "guest", "--host", "fixture-host"), f"{db}: 7 runs")
        self.assertEqual(listed("--cpu", "qemu"), f"{db}: 1 run")
        self.assertEqual(listed("--machine", "abcdef"), f"{db}: 1 run")
        self.assertEqual(listed("--arch", "x86_64"), f"{db}: 1 run")
        self.assertEqual(rows(db, "SELECT host, machine_id, arch FROM runs WHERE machine_id IS NOT NULL"),
                         [("guest", "abcdef0123456789abcdef0123456789", "x86_64")])
        self.assertEqual(listed("--target", "1b36:0005 BAR1 port"), f"{db}: 1 run")
        self.one_line(results("list", "--db", db, "--arch", "aarch64"), 1, "--arch aarch64: no run in the store")
        self.one_line(results("list", "--db", db, "--host", "guest", "--label", "baseline=yes"), 1, db,
                      "no run matches all of the filters together")


class Labels(unittest.TestCase):
    def test_labels_are_the_context_labels_object_and_undeclared_pairs(self):
        from types import SimpleNamespace
        from regbench_results import runfile
        run = SimpleNamespace(context={"date": "2026-12-01", "accelerator": "tcg",
                                       "labels": {"baseline": "yes", "host": "board7"}})
        got = {(r["key"], r["value"]) for r in runfile.label_rows(run, 5)}
        self.assertEqual(got, {("accelerator", "tcg"), ("baseline", "yes"), ("host", "board7")})


class Curation(Check):
    def test_delete_prune_retag(self):
        db = os.path.join(fixture.tmpdir(), "c.sqlite")
        self.ok(results("add", "--db", db, *series()))
        runs = rows(db, "SELECT id, key FROM runs ORDER BY time")
        ids, first = [i for i, _ in runs], runs[0][1]
        counted = lambda table: rows(db, f"SELECT COUNT(*) FROM {table} WHERE run_id = ?", first)[0][0]
        self.assertEqual((counted("results"), counted("labels")), (5, 1))    # its label baseline=yes
        out = self.ok(results("delete", "--db", db, ids[0][:12]))
        self.assertIn(f"{db}: 1 run deleted; 5 runs in the store", out)
        self.assertEqual((counted("results"), counted("labels")), (0, 0))
        self.one_line(results("delete", "--db", db, ids[0][:12]), 1, ids[0][:12], "no run in the store")
        self.one_line(results("delete", "--db", db, ids[1][:12], "0000"), 1, "0000", "no run")
        self.assertEqual(rows(db, "SELECT COUNT(*) FROM runs"), [(5,)])      # all or nothing
        self.assertIn("2 runs pruned; 3 runs in the store", self.ok(results("prune", "--db", db, "--keep", "3")))
        self.assertIn("1 run pruned; 2 runs in the store",
                      self.ok(results("prune", "--db", db, "--before", "2026-12-05")))
        self.one_line(results("prune", "--db", db), 2, "prune: nothing says")
        self.ok(results("retag", "--db", db, ids[-1][:8], "--host", "board9"))
        self.assertEqual(rows(db, "SELECT host FROM runs WHERE id = ?", ids[-1]), [("board9",)])
        self.assertEqual(self.ok(results("list", "--db", db, "--host", "board9")).splitlines()[-1], f"{db}: 1 run")
        self.assertIn("2 runs pruned; 0 runs in the store", self.ok(results("prune", "--db", db, "--keep", "0")))


class Exports(Check):
    def test_csv_json_and_bmf_of_the_store(self):
        db = os.path.join(fixture.tmpdir(), "e.sqlite")
        self.ok(results("add", "--db", db, *series(n=2, baselines=0), fixture.path("port.json")))
        table = list(csv.DictReader(io.StringIO(self.ok(results("export", "--db", db, "--format", "csv",
                                                                "--host", "fixture-host", "^thrpt/")))))
        self.assertEqual(len(table), 4)                   # two runs, two thrpt/ benchmarks
        self.assertEqual({r["name"] for r in table}, {"thrpt/read32/relaxed", "thrpt/read32/fenced"})
        doc = json.loads(self.ok(results("export", "--db", db, "--format", "json", "--cpu", "QEMU")))
        self.assertEqual({r["run_host"] for r in doc["results"]}, {"guest"})
        self.one_line(results("export", "--db", db, "--format", "bmf"), 1, "--format bmf: the runs chosen are 2")
        bmf = json.loads(self.ok(results("export", "--db", db, "--format", "bmf", "--host", "fixture-host")))
        m = bmf["barrier/mfence"]
        self.assertEqual(sorted(m), ["cycles", "latency", "throughput"])
        self.assertAlmostEqual(m["latency"]["value"], m["cycles"]["value"] / 2.5)     # 2.5 GHz TSC
        self.assertAlmostEqual(m["throughput"]["value"], 1e9 / m["latency"]["value"])


if __name__ == "__main__":
    unittest.main()
