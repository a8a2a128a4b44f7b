"""scripts/report as a user runs it: exit status, one-line errors naming the file, what it prints."""
import os
import subprocess
import sys
import unittest

import fixture

REPORT = os.path.join(fixture.SCRIPTS, "report")


def report(*args):
    return subprocess.run([sys.executable, REPORT, *args], capture_output=True, text=True)


class Errors(unittest.TestCase):
    def check(self, name, why):
        out = fixture.tmpdir()
        p = report(fixture.path(name), "-o", out)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stdout, "")
        lines = p.stderr.splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertTrue(lines[0].startswith(f"report: {fixture.path(name)}: "), lines[0])
        self.assertIn(why, lines[0])

    def test_malformed_json(self):
        self.check("malformed.json", "not valid JSON")

    def test_foreign_json(self):
        self.check("foreign.json", "not from regbench")

    def test_a_regbench_file_without_the_metadata_object(self):
        self.check("old.json", "written by a regbench older than the metadata contract (no 'regbench' object) "
                               "(re-run it with this regbench)")

    def test_one_bad_file_among_good_ones_is_named(self):
        out = fixture.tmpdir()
        p = report("--compare", fixture.path("single.json"), fixture.path("notgb.json"), "-o", out)
        self.assertEqual(p.returncode, 1)
        self.assertTrue(p.stderr.startswith(f"report: {fixture.path('notgb.json')}: not Google Benchmark JSON"))

    def test_compare_needs_two_files(self):
        p = report("--compare", fixture.path("single.json"), "-o", fixture.tmpdir())
        self.assertEqual(p.returncode, 1)
        self.assertIn("--compare needs at least two files", p.stderr)

    def test_usage_without_output(self):
        self.assertEqual(report(fixture.path("single.json")).returncode, 2)


class Modes(unittest.TestCase):
    def test_report_then_index(self):
        root = fixture.tmpdir()
        p = report(fixture.path("single.json"), "-o", os.path.join(root, "ram"))
        self.assertEqual((p.returncode, p.stdout.strip()), (0, os.path.join(root, "ram", "README.md")))
        p = report("--compare", "--names", "a,b", fixture.path("single.json"), fixture.path("port.json"),
                   "-o", os.path.join(root, "ram-vs-port"))
        self.assertEqual(p.returncode, 0, p.stderr)
        p = report("--index", root)
        self.assertEqual((p.returncode, p.stdout.strip()), (0, f"{os.path.join(root, 'README.md')}: 2 reports"))


if __name__ == "__main__":
    unittest.main()
