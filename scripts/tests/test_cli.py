"""scripts/report, scripts/summary and scripts/publish as a user runs them: exit status, one-line errors naming the
file, what they print."""
import contextlib
import errno
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import unittest
from unittest import mock

import fixture
from regbench_base.state import State

REPORT = os.path.join(fixture.SCRIPTS, "report")
SUMMARY = os.path.join(fixture.SCRIPTS, "summary")
PUBLISH = os.path.join(fixture.SCRIPTS, "publish")


def report(*args):
    return subprocess.run([sys.executable, REPORT, *args], capture_output=True, text=True)


def summary(*args, cwd=None):
    return subprocess.run([SUMMARY, *args], capture_output=True, text=True, cwd=cwd)


def edited(name, edit):
    """A copy of a fixture with edit(document) applied, in a fresh folder; returns its path."""
    with open(fixture.path(name), encoding="utf-8") as f:
        doc = json.load(f)
    edit(doc)
    path = os.path.join(fixture.tmpdir(), name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return path


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

    def test_a_benchmark_only_a_later_run_has(self):
        out = os.path.join(fixture.tmpdir(), "three")
        p = report("--compare", fixture.path("reps.json"), fixture.path("port.json"), fixture.path("single.json"),
                   "-o", out)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        with open(os.path.join(out, "compare.json"), encoding="utf-8") as f:
            names = {r["name"] for r in json.load(f)["results"]}
        self.assertIn("copy/toio/simd/64", names)   # in the third run only

    def test_compare_needs_two_files(self):
        p = report("--compare", fixture.path("single.json"), "-o", fixture.tmpdir())
        self.assertEqual(p.returncode, 1)
        self.assertIn("--compare needs at least two files", p.stderr)

    def test_usage_without_output(self):
        self.assertEqual(report(fixture.path("single.json")).returncode, 2)

    def one_line(self, p, status, *words):
        self.assertEqual((p.returncode, p.stdout), (status, ""), p.stderr)
        lines = p.stderr.splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertTrue(lines[0].startswith("report: ") and lines[0].endswith(")"), lines[0])
        for w in words:
            self.assertIn(w, lines[0])

    def test_a_python_without_matplotlib(self):
        # a matplotlib that cannot be imported, first on the path (as in a pyenv build without it; the script
        # itself starts with -S and adds the site packages later, so -S here would not hide Debian's)
        hide = fixture.tmpdir()
        with open(os.path.join(hide, "matplotlib.py"), "w", encoding="utf-8") as f:
            f.write("raise ImportError('No module named matplotlib')\n")
        env = dict(os.environ, PYTHONPATH=hide)
        out = os.path.join(fixture.tmpdir(), "r")
        p = subprocess.run([sys.executable, REPORT, fixture.path("single.json"), "-o", out],
                           capture_output=True, text=True, env=env)
        self.one_line(p, 1, "this Python has no matplotlib", "/usr/bin/python3")
        self.assertFalse(os.path.exists(out))
        # the index needs no charts
        p = subprocess.run([sys.executable, REPORT, "--index", fixture.tmpdir()], capture_output=True, text=True,
                           env=env)
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_bad_command_lines(self):
        one = fixture.path("single.json")
        self.one_line(report("--bogus", one, "-o", fixture.tmpdir()), 2, "unrecognized arguments: --bogus")
        self.one_line(report("-o", fixture.tmpdir()), 2, "no result files")
        self.one_line(report("--compare", "--names", "a", one, one, "-o", fixture.tmpdir()), 2,
                      "--names: 1 labels for 2 files")
        self.one_line(report("--compare", "--names", "a,a", one, one, "-o", fixture.tmpdir()), 2,
                      "two different labels")
        self.one_line(report("--names", "a", one, "-o", fixture.tmpdir()), 2, "add --compare")
        self.one_line(report("--compare", "--command", "x", one, one, "-o", fixture.tmpdir()), 2, "--command")
        self.one_line(report("--index", fixture.tmpdir(), one), 2, "--index: takes only the reports folder")

    def test_bad_files_and_folders(self):
        d = fixture.tmpdir()
        empty = os.path.join(d, "empty.json")
        open(empty, "w").close()
        self.one_line(report(empty, "-o", os.path.join(d, "r")), 1, f"{empty}: the file is empty")
        self.one_line(report(os.path.join(d, "absent.json"), "-o", os.path.join(d, "r")), 1,
                      "No such file or directory")
        self.one_line(report(d, "-o", os.path.join(d, "r")), 1, f"{d}: Is a directory")
        self.one_line(report(one_file := fixture.path("single.json"), "-o", one_file), 1, "not a folder")
        mine = fixture.tmpdir()
        with open(os.path.join(mine, "README.md"), "w") as f:
            f.write("# my notes\n")
        self.one_line(report(fixture.path("single.json"), "-o", mine), 1, "holds 1 file the report did not write",
                      "--force")
        p = report("--force", fixture.path("single.json"), "-o", mine)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.one_line(report("--index", mine), 1, "not an index of reports")
        self.assertEqual(report("--force", "--index", mine).returncode, 0)
        self.one_line(report("--index", os.path.join(d, "absent")), 1, "No such file or directory")

    def test_interrupted(self):
        from regbench_report import charts, cli

        def interrupted(*a):
            raise KeyboardInterrupt
        out = os.path.join(fixture.tmpdir(), "r")
        real, charts.all_charts = charts.all_charts, interrupted
        try:
            with contextlib.redirect_stderr(io.StringIO()) as err:
                status = cli.main([fixture.path("single.json"), "-o", out])
        finally:
            charts.all_charts = real
        self.assertEqual((status, err.getvalue()),
                         (130, "report: interrupted (the output folder is as it was before)\n"))
        self.assertFalse(os.path.exists(out))


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


class Summary(unittest.TestCase):
    def rows(self, p):
        """{benchmark: (TSC cycles, note)} of the headline table."""
        lines = p.stdout.splitlines()
        table = lines[lines.index(next(l for l in lines if l.startswith("benchmark "))) + 1:]
        table = table[:table.index("")]
        return {l.split()[0]: (l.split()[1], l[81:].strip()) for l in table}

    def test_headline_rows_and_counts(self):
        p = summary(fixture.path("single.json"))
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        rows = self.rows(p)
        self.assertEqual(list(rows), [
            "lat/read32/relaxed", "chain/read32/relaxed", "thrpt/read32/relaxed", "thrpt/read64/relaxed",
            "thrpt/write32/relaxed", "thrpt/write64/relaxed", "flush/write32/relaxed",
            "rep/read32/relaxed/8", "rep/read32/relaxed/256", "copy/toio/simd/4096", "copy/toio/libc/4096",
            "barrier/compiler", "barrier/mfence",
            "dispatch/read32/direct", "dispatch/read32/cookie-mmio", "dispatch/read32/cookie-pio"])
        self.assertEqual(rows["thrpt/write32/relaxed"], ("-", "error: SIGBUS at offset 0x0"))
        self.assertEqual(rows["lat/read32/relaxed"], ("-", "below timer resolution (< 26 cycles)"))
        self.assertEqual(rows["barrier/mfence"], ("40.5", ""))
        self.assertIn("23 benchmarks: 16 measured, 3 below timer resolution, 3 skipped (reason in the JSON), 1 failed",
                      p.stdout)

    def test_states_are_counted_from_the_metadata(self):
        def edit(doc):
            meta = doc["regbench"]["benchmarks"]
            meta["rep/read32/string/8"].update(state="error", reason="SIGSEGV in rep insl")   # GB: "skipped: ..."
            meta["thrpt/read32/fenced"].update(state="skipped", reason="not on this CPU")      # GB: measured
        p = summary(edited("single.json", edit))
        self.assertIn("23 benchmarks: 15 measured, 3 below timer resolution, 3 skipped (reason in the JSON), 2 failed",
                      p.stdout)

    def test_rows_are_chosen_by_fields_and_the_kernel_s_strategy(self):
        def edit(doc):
            doc["regbench"]["kernel_strategies"].update(single="fenced", copy="simd")
            doc["regbench"]["strategies"]["simd"]["kind"] = "variant"    # not the fastest accessor: the kernel's
        rows = self.rows(summary(edited("single.json", edit)))
        self.assertEqual([r for r in rows if not r.startswith(("barrier/", "dispatch/"))],
                         ["lat/read32/fenced", "thrpt/read32/fenced", "copy/toio/simd/4096", "copy/toio/libc/4096"])
        self.assertEqual(rows["lat/read32/fenced"], ("78", ""))

    def test_a_sampled_figure_shows_its_interval(self):
        def edit(doc):
            doc["regbench"]["kernel_strategies"]["single"] = "fenced"
            doc["regbench"]["benchmarks"]["lat/read32/fenced"]["interval"] = [76.5, 80.25]
        self.assertEqual(self.rows(summary(edited("single.json", edit)))["lat/read32/fenced"],
                         ("78", "95% interval 76.5 to 80.25"))

    def test_names_are_only_shown(self):
        named, opaque = summary(fixture.path("single.json")), summary(fixture.path("opaque.json"))
        self.assertEqual(opaque.returncode, 0)
        strip = lambda p: [l[30:] for l in p.stdout.splitlines()[3:] if not l.startswith(("CV above", "failed: "))]
        self.assertEqual(strip(opaque), strip(named))
        self.assertEqual(len(self.rows(opaque)), 16)

    def check(self, path, why, args=None):
        p = summary(*(args if args is not None else [path]))
        self.assertEqual((p.returncode, p.stdout), (2, ""))
        lines = p.stderr.splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertTrue(lines[0].startswith(f"summary: {path}: " if path else "summary: "), lines[0])
        self.assertIn(why, lines[0])
        self.assertTrue(lines[0].endswith(")"), lines[0])
        self.assertNotIn("Traceback", p.stderr)

    def test_files_that_are_not_regbench_s(self):
        self.check(fixture.path("old.json"), "written by a regbench older than the metadata contract "
                                             "(no 'regbench' object) (re-run it with this regbench)")
        self.check(fixture.path("foreign.json"), "Google Benchmark JSON, but not from regbench (no 'regbench' object)")
        self.check(fixture.path("notgb.json"), "not Google Benchmark JSON")
        self.check(fixture.path("malformed.json"), "not valid JSON")
        empty = os.path.join(fixture.tmpdir(), "empty.json")
        open(empty, "w").close()
        self.check(empty, "the file is empty")
        self.check(os.path.join(fixture.tmpdir(), "absent.json"), "No such file or directory")
        self.check(fixture.tmpdir(), "Is a directory")

    def test_failures_disturbance_notes_and_an_interruption_are_said(self):
        def edit(doc):
            meta = doc["regbench"]["benchmarks"]
            meta["rep/read32/string/8"].update(state="error", reason="SIGSEGV at address 0x7f0000001000")
            meta["chain/read32/relaxed"].update(disturbed=1, note="the accessor adds a movzbl")
            meta["barrier/mfence"].update(state="not_run", reason="not run: the run was interrupted")
            doc["context"]["interrupted"] = "SIGINT"
        p = summary(edited("single.json", edit))
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = self.rows(p)
        self.assertEqual(rows["chain/read32/relaxed"], ("2.75", "DISTURBED: 1 of 1 repetitions; the accessor adds a movzbl"))
        self.assertEqual(rows["barrier/mfence"], ("-", "not run: the run was interrupted"))
        lines = p.stdout.splitlines()
        self.assertIn("23 benchmarks: 15 measured, 3 below timer resolution, 2 skipped (reason in the JSON), 2 failed, "
                      "1 not run", lines)
        self.assertIn("failed: thrpt/write32/relaxed: SIGBUS at offset 0x0", lines)
        self.assertIn("failed: rep/read32/string/8: SIGSEGV at address 0x7f0000001000", lines)
        self.assertIn("measured while the machine was disturbed (rerun them on a quiet machine): "
                      "chain/read32/relaxed (1 of 1)", lines)
        self.assertIn("INTERRUPTED (SIGINT): the run stopped early; these are the benchmarks it finished", lines)
        self.assertEqual(summary("--kept", edited("single.json", edit)).stdout, "20\n")    # 15 + 3 below + 2 failed

    def test_many_disturbed_are_counted_per_family(self):
        figures = []

        def edit(doc):
            for meta in doc["regbench"]["benchmarks"].values():
                meta["disturbed"] = 1
                figures.append(State(meta["state"]).timed)
        lines = summary(edited("single.json", edit)).stdout.splitlines()
        line = [l for l in lines if l.startswith("measured while the machine was disturbed")]
        self.assertEqual(len(line), 1, lines)
        # those with a figure: a skipped or failed one has nothing to rerun on a quiet machine
        self.assertGreater(sum(figures), 8)
        self.assertRegex(line[0], rf": {sum(figures)} benchmarks \((\w+/ \d+, )*\w+/ \d+; scripts/report marks each with †\)$")
        self.assertIn("chain/ ", line[0])

    def test_inconsistent_metadata(self):
        self.check(edited("single.json", lambda d: d["regbench"]["benchmarks"].pop("chain/read32/relaxed")),
                   "benchmark 'chain/read32/relaxed' has no entry in regbench.benchmarks")
        self.check(edited("single.json", lambda d: d["regbench"]["benchmarks"]["barrier/mfence"].update(state="ok")),
                   "regbench.benchmarks['barrier/mfence'].state: expected one of measured | below_resolution | "
                   "skipped | error | not_run, got \"ok\"")
        self.check(edited("single.json", lambda d: d["regbench"].update(contract=2)),
                   "written for metadata contract 2; these scripts read contract 1")

    def test_a_field_of_the_wrong_type_is_one_line_never_a_traceback(self):
        for edit, why in ((lambda d: d["context"].update(cpu_model=["AMD"]), "context.cpu_model: expected text, got a list"),
                          (lambda d: d["context"].update(tsc_hz=2.5e9),
                           "context.tsc_hz: expected a number as decimal text, got 2500000000.0"),
                          (lambda d: d["benchmarks"][2].update(cycles=[1]), "benchmarks[2].cycles: expected a number from "
                                                                             "-9007199254740992 to 9007199254740992, got a list"),
                          (lambda d: d["regbench"]["benchmarks"]["barrier/mfence"].update(disturbed="2"),
                           "regbench.benchmarks['barrier/mfence'].disturbed: expected a whole number of at least 0, "
                           "got \"2\""),
                          (lambda d: d["regbench"].update(kernel_strategies=None),
                           "regbench.kernel_strategies: expected an object, got null")):
            with self.subTest(why=why):
                path = edited("single.json", edit)
                self.check(path, why)

    def test_a_file_whose_name_starts_with_a_dash(self):
        folder = fixture.tmpdir()
        shutil.copyfile(fixture.path("single.json"), os.path.join(folder, "-x.json"))
        for args in (["--", "-x.json"], ["./-x.json"]):
            p = summary(*args, cwd=folder)
            self.assertEqual((p.returncode, p.stderr), (0, ""), args)
            self.assertIn("barrier/mfence", self.rows(p))
        self.check("", "(a file whose name starts with - goes after --: scripts/summary -- -x.json)", ["-x.json"])

    def test_median_cv_per_family(self):
        p = summary("--cv", fixture.path("reps.json"))
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        # reps.json's cv aggregates of cycles: thrpt/ has two measured benchmarks (3.45% and 5.66%)
        self.assertEqual(p.stdout.splitlines(), ["lat 20.0000 1", "chain 5.0508 1", "thrpt 4.5550 2",
                                                 "barrier 0.0000 1"])
        self.assertEqual(summary("--cv", fixture.path("single.json")).stdout, "")    # no repetitions, no CV

    def test_help_and_bad_command_lines(self):
        p = summary("--help")
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertIn("usage: scripts/summary [-h] [--kept | --cv] [--] RESULT.json", p.stdout)
        self.assertIn("A file whose name starts with - goes after --.", " ".join(p.stdout.split()))
        self.check("", "the following arguments are required: RESULT.json (see scripts/summary --help)", [])
        self.check("", "unrecognized arguments: b.json (see scripts/summary --help)", ["a.json", "b.json"])


def snapshot(d):
    """Every entry under d with its bytes (None for a folder), to prove a folder is exactly as it was."""
    out = {}
    for root, dirs, files in os.walk(d):
        for n in dirs:
            out[os.path.relpath(os.path.join(root, n), d)] = None
        for n in files:
            with open(os.path.join(root, n), "rb") as f:
                out[os.path.relpath(os.path.join(root, n), d)] = f.read()
    return out


class AllOrNothing(unittest.TestCase):
    """scripts/report puts a finished folder in place whole, or leaves it exactly as it was: a failure while
    it moves its files in, or a signal at any time, leaves nothing of the user's lost and nothing of its own."""

    def main(self, *args):
        """cli.main in this process: (status, stderr lines)."""
        from regbench_report import cli
        with contextlib.redirect_stderr(io.StringIO()) as err, contextlib.redirect_stdout(io.StringIO()):
            status = cli.main(list(args))
        return status, err.getvalue().splitlines()

    def one_line(self, lines, *words):
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].startswith("report: ") and lines[0].endswith(")"), lines[0])
        for w in words:
            self.assertIn(w, lines[0])

    def failing(self, out, call, when, how=None):
        """A patch of os.CALL that fails with EIO (or calls how) on a move into or out of out: the nth such move
        when is a number, else the move of the file called when."""
        real, seen, out = getattr(os, call), [], os.path.abspath(out)

        def fake(src, dst, **kw):
            if out in (os.path.dirname(os.path.abspath(dst)), os.path.dirname(os.path.abspath(src))):
                seen.append(dst)
                if len(seen) == when or os.path.basename(dst) == when:
                    if not how:
                        raise OSError(errno.EIO, os.strerror(errno.EIO), dst)
                    how()
            return real(src, dst, **kw)
        return mock.patch.object(os, call, fake)

    def mine(self):
        out = fixture.tmpdir()
        with open(os.path.join(out, "README.md"), "w") as f:
            f.write("# my notes\n")
        with open(os.path.join(out, "throughput.svg"), "w") as f:
            f.write("<svg>my chart</svg>\n")
        return out

    def test_force_failing_midway_keeps_the_user_s_files(self):
        out = self.mine()
        before = snapshot(out)
        for nth in (1, 3, 6):
            with self.failing(out, "replace", nth):
                status, lines = self.main("--force", fixture.path("single.json"), "-o", out)
            self.assertEqual(status, 1)
            self.one_line(lines, "Input/output error")
            self.assertEqual(snapshot(out), before, f"failing at move {nth}")

    def test_an_earlier_report_stays_whole_when_the_manifest_cannot_go_in(self):
        out = os.path.join(fixture.tmpdir(), "r")
        self.assertEqual(self.main(fixture.path("single.json"), "-o", out)[0], 0)
        before = snapshot(out)
        with self.failing(out, "replace", ".report-files"):     # the manifest goes in last
            status, lines = self.main(fixture.path("port.json"), "-o", out)
        self.assertEqual(status, 1)
        self.one_line(lines)
        self.assertEqual(snapshot(out), before)

    def test_an_earlier_file_that_cannot_be_removed_puts_everything_back(self):
        out = os.path.join(fixture.tmpdir(), "r")
        status, _ = self.main("--compare", fixture.path("single.json"), fixture.path("port.json"), "-o", out)
        self.assertEqual(status, 0)
        before = snapshot(out)
        # the single report writes no compare.json: the earlier one is moved out last, and that fails
        with self.failing(out, "rename", "compare.json"):
            status, lines = self.main(fixture.path("single.json"), "-o", out)
        self.assertEqual(status, 1)
        self.one_line(lines, "compare.json: Input/output error")
        self.assertEqual(snapshot(out), before)

    def test_a_signal_while_the_files_go_in_waits_for_the_end(self):
        out = os.path.join(fixture.tmpdir(), "r")
        with self.failing(out, "replace", 2, lambda: os.kill(os.getpid(), signal.SIGTERM)):
            status, lines = self.main(fixture.path("single.json"), "-o", out)
        self.assertEqual((status, lines), (0, []))
        self.assertEqual(folder_files(out), sorted(os.listdir(out)))

    def test_a_folder_named_like_a_file_of_the_report(self):
        out = self.mine()
        os.remove(os.path.join(out, "README.md"))
        os.mkdir(os.path.join(out, "README.md"))
        with open(os.path.join(out, "README.md", "kept.txt"), "w") as f:
            f.write("mine\n")
        before = snapshot(out)
        status, lines = self.main("--force", fixture.path("single.json"), "-o", out)
        self.assertEqual(status, 1)
        self.one_line(lines, f"{out}/README.md: a folder has the name of a file the report writes")
        self.assertEqual(snapshot(out), before)

    def test_folders_it_created_go_when_it_stops(self):
        from regbench_report import charts
        top = os.path.join(fixture.tmpdir(), "a")
        out = os.path.join(top, "b", "c")

        def stopped(*a):
            raise KeyboardInterrupt
        with mock.patch.object(charts, "all_charts", stopped):
            status, lines = self.main(fixture.path("single.json"), "-o", out)
        self.assertEqual((status, lines), (130, ["report: interrupted (the output folder is as it was before)"]))
        self.assertFalse(os.path.exists(top))
        # a folder below a file: one line, no traceback
        under = os.path.join(fixture.path("single.json"), "r")
        status, lines = self.main(fixture.path("single.json"), "-o", under)
        self.assertEqual(status, 1)
        self.one_line(lines, f"{under}: {fixture.path('single.json')} is not a folder")

    # scripts/report in a process of its own, made to wait (and say so) at one point: while it renders
    # (charts), or while it creates the output and staging folders (mkdtemp, where signals are held)
    PAUSED = """
import os, sys, tempfile, time
sys.path.insert(0, sys.argv[1])
from regbench_report import charts, cli
where, argv = sys.argv[2], sys.argv[3:]
module, name = (charts, "all_charts") if where == "charts" else (tempfile, "mkdtemp")
real = getattr(module, name)
def paused(*a, **k):
    setattr(module, name, real)
    print("paused", flush=True)
    time.sleep(1 if where == "mkdtemp" else 600)
    return real(*a, **k)
setattr(module, name, paused)
sys.exit(cli.main(argv))
"""

    def signalled(self, sig, where, out, *args):
        """scripts/report sent sig while paused where: (status, stderr)."""
        p = subprocess.Popen([sys.executable, "-c", self.PAUSED, fixture.SCRIPTS, where, *args, "-o", out],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.assertEqual(p.stdout.readline(), "paused\n")
        p.send_signal(sig)
        _, err = p.communicate(timeout=120)
        return p.returncode, err

    def test_sigterm_and_sighup_leave_no_staging_folder(self):
        for sig, name, where in ((signal.SIGTERM, "SIGTERM", "charts"), (signal.SIGHUP, "SIGHUP", "charts"),
                                 (signal.SIGTERM, "SIGTERM", "mkdtemp")):
            new = os.path.join(fixture.tmpdir(), "new", "report")
            status, err = self.signalled(sig, where, new, fixture.path("single.json"))
            self.assertEqual((status, err), (128 + sig, f"report: interrupted by {name} (the output folder is as it "
                                                        "was before)\n"))
            self.assertFalse(os.path.exists(os.path.dirname(new)))
            out = self.mine()
            before = snapshot(out)
            status, err = self.signalled(sig, where, out, "--force", fixture.path("single.json"))
            self.assertEqual(status, 128 + sig, err)
            self.assertEqual(snapshot(out), before)

    def test_a_reader_that_went_away(self):
        out = os.path.join(fixture.tmpdir(), "r")
        p = subprocess.Popen([sys.executable, REPORT, fixture.path("single.json"), "-o", out], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        p.stdout.close()     # | head -0: the path has no reader, the report is complete all the same
        err = p.stderr.read()
        self.assertEqual((p.wait(), err), (0, ""))
        self.assertEqual(folder_files(out), sorted(os.listdir(out)))
        with open("/dev/full", "w") as full:
            p = subprocess.run([sys.executable, REPORT, fixture.path("single.json"), "-o", out], stdout=full,
                               stderr=subprocess.PIPE, text=True)
        self.assertEqual((p.returncode, p.stderr), (1, "report: standard output: No space left on device (the report "
                                                       f"is complete: {out}/README.md)\n"))

    def mounted(self, options):
        """A tmpfs mounted with options (root only), unmounted when the test ends; None where that cannot be."""
        d = fixture.tmpdir()
        if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", options, "regbench-test", d],
                                               capture_output=True).returncode:
            return None
        self.addCleanup(subprocess.run, ["umount", d], capture_output=True)
        return d

    def test_a_full_disk_and_a_read_only_folder(self):
        small = self.mounted("size=96k")
        if not small:
            self.skipTest("not root, or no tmpfs here")
        with open(os.path.join(small, "README.md"), "w") as f:
            f.write("# my notes\n")
        before = snapshot(small)
        status, lines = self.main("--force", fixture.path("single.json"), "-o", small)
        self.assertEqual(status, 1)
        self.one_line(lines, "No space left on device")
        self.assertEqual(snapshot(small), before)
        ro = self.mounted("ro,size=64k")
        status, lines = self.main(fixture.path("single.json"), "-o", ro)
        self.assertEqual(status, 1)
        self.one_line(lines, f"{ro}: cannot write in it: Read-only file system (give a folder you can write to)")


def folder_files(out):
    """The files the manifest of out lists, with the manifest itself, sorted."""
    from regbench_base import folder
    return sorted(folder.owned(out) | {folder.MANIFEST})


def publish(*args):
    return subprocess.run([PUBLISH, *args], capture_output=True, text=True)


class Publish(unittest.TestCase):
    def test_bad_command_lines(self):
        for args, words in [(["--bogus"], "publish: unrecognized arguments: --bogus (see scripts/publish --help)"),
                            (["--only"], "publish: argument --only: expected one argument"),
                            (["--only", "ram,nosuch"], "publish: --only: no report 'nosuch' (the reports: ram, ram-across-cpus, trap,"),
                            (["a", "b"], "publish: unrecognized arguments: b"),
                            ([fixture.path("single.json")], "not a folder")]:
            p = publish(*args)
            self.assertEqual((p.returncode, p.stdout), (2, ""), p.stderr)
            self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
            self.assertIn(words, p.stderr)
            self.assertTrue(p.stderr.rstrip().endswith(")"), p.stderr)

    def test_render_only_re_renders_from_the_json_in_the_folder(self):
        out = fixture.tmpdir()
        ram = os.path.join(out, "ram-on-x")
        os.mkdir(ram)
        shutil.copyfile(fixture.path("single.json"), os.path.join(ram, "ram.json"))
        p = publish("--render-only", "--only", "ram", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(os.listdir(out)), ["README.md", "ram-on-x"])
        self.assertTrue({".report-files", "README.md", "ram.json"} <= set(os.listdir(ram)))
        with open(os.path.join(out, "README.md"), encoding="utf-8") as f:
            self.assertIn("- [ram-on-x](ram-on-x/) — regbench on ", f.read())
        # a file the report did not write: refused, as scripts/report refuses it, and nothing changes
        with open(os.path.join(ram, "notes.txt"), "w") as f:
            f.write("mine\n")
        before = {n: os.stat(os.path.join(ram, n)).st_mtime_ns for n in os.listdir(ram)}
        p = publish("--render-only", "--only", "ram,trap", out)
        self.assertEqual(p.returncode, 1)
        lines = p.stderr.splitlines()
        self.assertTrue(any(l.startswith(f"publish: {out}/ram-on-x: not rendered, left as it was (scripts/report: ")
                            and "notes.txt" in l for l in lines), p.stderr)
        self.assertIn(f"publish: {out}/trap: no trap.json in its folder, left as it was (measure it: "
                      "scripts/publish --only trap)", lines)
        after = {n: os.stat(os.path.join(ram, n)).st_mtime_ns for n in os.listdir(ram)}
        self.assertEqual(after, before)
        self.assertEqual(sorted(os.listdir(out)), ["README.md", "ram-on-x"])

    def test_the_cpus_compared_are_the_runs_in_their_folder(self):
        out = fixture.tmpdir()
        cpus = os.path.join(out, "ram-across-cpus")
        os.mkdir(cpus)
        p = publish("--render-only", "--only", "ram-across-cpus", out)
        self.assertEqual(p.returncode, 1)
        self.assertIn(f"publish: {out}/ram-across-cpus: fewer than two CPUs have a ram run, left as it was "
                      "(publish ram on another kind of CPU: scripts/publish --only ram)", p.stderr.splitlines())
        for tag in ("icelake", "zen5"):
            shutil.copyfile(fixture.path("single.json"), os.path.join(cpus, f"{tag}.json"))
        p = publish("--render-only", "--only", "ram-across-cpus", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(cpus, "README.md"), encoding="utf-8") as f:
            text = f.read()
        self.assertIn("The default suite on ram across CPUs", text)
        self.assertIn("| zen5 / icelake |", text)

if __name__ == "__main__":
    unittest.main()
