"""scripts/results' outputs and statuses under input a user did not mean: folders shared by two commands, dates out
of range, damaged stores, exit statuses a cron job reads, machines sharing a name, curation that names too much,
spreadsheet formulas, passwords in URLs."""
import os
import shutil
import subprocess
import sys
import unittest

import fixture
from test_results_store import REPORT_TOOL, Check, edited, results, rows

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


if __name__ == "__main__":
    unittest.main()
