"""Tests of regbench_base: the State enum is the contract's, the reader reads bytes, the packages stand side by side."""
import ast
import contextlib
import glob
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import unittest
from unittest import mock

import fixture
from regbench_base import contract, model, text
from regbench_base.state import Gap, State, unmeasured
from regbench_base.verdict import Verdict


def sources(*folders):
    """The Python files under scripts/ folders (all of scripts/ without arguments), with the command lines."""
    roots = [os.path.join(fixture.SCRIPTS, f) for f in folders] or [fixture.SCRIPTS]
    files = [p for r in roots for p in glob.glob(os.path.join(r, "**", "*.py"), recursive=True)]
    if not folders:
        for p in filter(os.path.isfile, glob.glob(os.path.join(fixture.SCRIPTS, "*"))):
            with open(p, "rb") as f:
                if f.read(32).startswith(b"#!/usr/bin/python3"):
                    files.append(p)
    return sorted(files)


class States(unittest.TestCase):
    def test_state_is_the_contracts_list(self):
        self.assertEqual([s.value for s in State], contract.states())
        self.assertEqual(State("below_resolution"), State.BELOW_RESOLUTION)
        self.assertEqual(str(State.NOT_RUN), "not_run")

    def test_what_each_state_means(self):
        self.assertEqual([s for s in State if s.figure], [State.MEASURED])
        self.assertEqual([s for s in State if s.bound], [State.BELOW_RESOLUTION])
        self.assertEqual({s for s in State if s.timed}, {State.MEASURED, State.BELOW_RESOLUTION})
        self.assertEqual({s for s in State if s.ran}, {State.MEASURED, State.BELOW_RESOLUTION, State.ERROR})
        self.assertEqual([s for s in State if s.failed], [State.ERROR])
        self.assertEqual(unmeasured(), [State.ERROR, State.NOT_RUN, State.SKIPPED, State.BELOW_RESOLUTION])
        for s in unmeasured():
            self.assertTrue(s.cell and s.heading and s.sentence, s)
        self.assertEqual((Gap.NAN.cell, Gap.ABSENT.cell, Gap.NAN.figure, Gap.NAN.ran, Gap.ABSENT.ran),
                         ("NaN", "—", False, True, False))

    def test_a_new_contract_state_without_a_meaning_stops_the_import(self):
        spec = importlib.util.spec_from_file_location("regbench_base.state_again",
                                                      os.path.join(fixture.SCRIPTS, "regbench_base", "state.py"))
        with mock.patch.object(contract, "states", lambda: ["measured", "throttled"]):
            with self.assertRaisesRegex(ImportError, "the contract's state throttled has no row in _MEANINGS"):
                spec.loader.exec_module(importlib.util.module_from_spec(spec))


# A state word of the contract, of a Measure's gaps, of the report's old vocabulary, or a verdict, in quotes.
_STATE_WORDS = contract.states() + [g.value for g in Gap] + ["ok", "below"]
_VERDICT_WORDS = [v.value for v in Verdict]
_WORDS = "|".join(re.escape(w) for w in _STATE_WORDS + _VERDICT_WORDS)
_QUOTED = rf"""["']({_WORDS})["']"""
_VERDICT = "|".join(re.escape(w) for w in _VERDICT_WORDS)
_COMPARED = re.compile(rf"""(==|!=|===|!==|\bis\b)\s*{_QUOTED}|{_QUOTED}\s*(==|!=|===|!==)"""
                       rf"""|\bin\s*[(\[{{][^()\[\]{{}}]*{_QUOTED}|\bstate\s*=\s*'({_WORDS})'"""
                       # a verdict looked up by its word: a dict keyed by verdicts, a count by word
                       rf"""|[{{,]\s*["']({_VERDICT})["']\s*:|\[\s*["']({_VERDICT})["']\s*\]|\.get\(\s*["']({_VERDICT})["']""")
# A class named by a state or verdict word: in a selector (a stylesheet, a script's strings) or a class list.
_IDENTS = "|".join(w for w in _STATE_WORDS + _VERDICT_WORDS if re.fullmatch(r"[a-z_]+", w))
_SELECTOR = re.compile(rf"""\.({_IDENTS})(?![\w-])""")
_CLASS_LIST = re.compile(rf"""classList\.\w+\(\s*["'`]({_IDENTS})["'`]|class(Name)?\s*=\s*["'`][^"'`]*\b({_IDENTS})\b""")
_JS_STRING = re.compile(r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)""")


def _classes_named_by_words(path, text):
    """(line, text) of each class a state or verdict word names in a stylesheet or a script."""
    found = []
    if path.endswith(".css"):
        text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
        for n, line in enumerate(text.splitlines(), 1):
            # selectors only: what comes before a declaration block, not the values inside it
            selector = line.split("{")[0] if "{" in line or line.rstrip().endswith(",") else ""
            if _SELECTOR.search(selector):
                found.append((n, line.strip()))
        return found
    script = path.endswith(".js")
    for n, line in enumerate(text.splitlines(), 1):
        # a script's strings may be selectors; a Python module writes classes only as class="..."
        if script and any(_SELECTOR.search(m.group(0)) for m in _JS_STRING.finditer(line)) or _CLASS_LIST.search(line):
            found.append((n, line.strip()))
    return found


class NoStateWords(unittest.TestCase):
    def test_no_state_or_verdict_is_compared_with_a_word(self):
        found = []
        # the site's script too: its page reads the same states
        pages = glob.glob(os.path.join(fixture.SCRIPTS, "**", "*.js"), recursive=True)
        for p in sources() + sorted(pages):
            if p == os.path.abspath(__file__):
                continue        # the check's own examples below
            with open(p, encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    if _COMPARED.search(line):
                        found.append(f"{os.path.relpath(p, fixture.SCRIPTS)}:{n}: {line.strip()}")
        self.assertEqual(found, [], "ask the State (state.figure, state.bound, ...) or the Verdict (verdict.costlier, "
                                    "verdict.same, ...) instead of comparing words")

    def test_no_class_is_named_by_a_state_or_verdict_word(self):
        """A page styles and selects cells by what their state means (timed, untimed), not by the state's word."""
        found = []
        files = [p for ext in ("js", "css") for p in glob.glob(os.path.join(fixture.SCRIPTS, "**", f"*.{ext}"),
                                                               recursive=True)] + sources()
        for p in sorted(files):
            if p == os.path.abspath(__file__):
                continue
            with open(p, encoding="utf-8") as f:
                found += [f"{os.path.relpath(p, fixture.SCRIPTS)}:{n}: {line}"
                          for n, line in _classes_named_by_words(p, f.read())]
        self.assertEqual(found, [], "give the element a class that says what its state means (State.timed: timed)")

    def test_the_check_catches_what_it_looks_for(self):
        for line in ('if res.state == "ok":', 'x = m.state != "below_resolution"', 'if s in ("skipped", "error"):',
                     "WHERE s.state = 'measured'", 'if "not_run" == state:', 'if v.verdict == "slower":',
                     'v.verdict not in ("slower", "faster")', 'x = {"same": 1, "unclear": 2}[v.verdict]',
                     "counts['slower']", 'MARKS.get("faster", 0)', 'if (q.verdict === "same") {'):
            self.assertTrue(_COMPARED.search(line), line)
        self.assertFalse(_COMPARED.search('meta.update(state="error", reason="x")'))
        self.assertFalse(_COMPARED.search('url = self.server.database("same")'))
        for path, text in (("a.css", "#reference td.skipped a, #reference td.error a { color: red; }"),
                           ("a.css", "td.measured,\ntd.other { x: 1 }"),
                           ("a.js", 'for (const td of tr.querySelectorAll("td.measured, td.below_resolution")) {'),
                           ("a.js", 'if (td.classList.contains("slower")) n++;'),
                           ("a.py", "html = f'<td class=\"measured {x}\">'")):
            self.assertTrue(_classes_named_by_words(path, text), text)
        for path, text in (("a.js", "console.error(e.message);"), ("a.css", "td.timed { color: var(--error); }"),
                           ("a.js", 'td.classList.contains("timed")')):
            self.assertFalse(_classes_named_by_words(path, text), text)


def family_names_in(path, families):
    """[(line, text)] of each string in a Python file that is a family's name or a benchmark name of one ("chain",
    "lat/"), leaving out docstrings, the keys of kernel_strategies (its "copy" is the kernel's memcpy_toio, not a
    family: a statement that says kernel) and model._EARLIER (what files of regbench versions before role, headline
    and spread meant)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    tree = ast.parse(text)
    lines = text.splitlines()
    skip = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            skip.add(id(body[0].value))                                 # a docstring
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_EARLIER" for t in node.targets):
            skip |= {id(n) for n in ast.walk(node)}
        if isinstance(node, ast.stmt) and not hasattr(node, "body") and \
                "kernel" in "\n".join(lines[node.lineno - 1:node.end_lineno]):
            skip |= {id(n) for n in ast.walk(node) if isinstance(n, ast.Constant) and n.value == "copy"}
    named = lambda v: v in families or (" " not in v and v.split("/")[0] in families and "/" in v)
    return sorted((n.lineno, n.value) for n in ast.walk(tree)
                  if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip and named(n.value))


class NoFamilyNames(unittest.TestCase):
    """What a report needs to know of a family is in the family's row (role, headline, spread: bench/family.c),
    which the JSON carries: no Python file of the packages looks a family up by its name."""

    def test_no_package_names_a_family(self):
        families = set(model._EARLIER)
        # publish.py's catalogue holds regbench command lines and report names, as a user writes them
        found = [f"{os.path.relpath(p, fixture.SCRIPTS)}:{n}: {v!r}"
                 for p in sources("regbench_base", "regbench_report", "regbench_results")
                 if os.path.basename(p) != "publish.py" for n, v in family_names_in(p, families)]
        self.assertEqual(found, [], "ask the family's row (model.Meta.family_of, Family.in_headline, Family.spread)")

    def test_the_check_catches_what_it_looks_for(self):
        d = fixture.tmpdir()
        path = os.path.join(d, "example.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write('"""chain/ in a docstring is prose."""\nif key.family == "chain":\n    x = f"lat/{opw}"\n'
                    'k = run.meta.kernel["copy"]\ny = ("barrier", 1)\n')
        self.assertEqual(family_names_in(path, {"chain", "lat", "copy", "barrier"}),
                         [(2, "chain"), (3, "lat/"), (5, "barrier")])


class NoJq(unittest.TestCase):
    def test_no_jq_in_scripts_bench_or_fuzz(self):
        """The result files are read by the one reader; users may still use jq (the docs say how)."""
        found = []
        for folder in ("scripts", "bench", "fuzz"):
            for d, _, files in os.walk(os.path.normpath(os.path.join(fixture.SCRIPTS, os.pardir, folder))):
                for name in files:
                    p = os.path.join(d, name)
                    if p == os.path.abspath(__file__) or "__pycache__" in d:
                        continue
                    with open(p, "rb") as f:
                        if re.search(rb"\bjq\b", f.read()):
                            found.append(os.path.relpath(p, os.path.join(fixture.SCRIPTS, os.pardir)))
        self.assertEqual(found, [], "read result files with regbench_base.model (scripts/summary, scripts/report)")


class Packages(unittest.TestCase):
    def imported(self, package):
        """The top-level packages each module of package imports, absolute or relative."""
        out = set()
        for p in sources(package):
            with open(p, encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    out |= {a.name.split(".")[0] for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    out.add(node.module.split(".")[0])
        return out

    def test_the_report_and_the_store_stand_side_by_side_on_the_base(self):
        report, results, base = (self.imported(p) for p in ("regbench_report", "regbench_results", "regbench_base"))
        self.assertIn("regbench_base", report)
        self.assertIn("regbench_base", results)
        self.assertNotIn("regbench_results", report)
        self.assertNotIn("regbench_report", results)
        self.assertFalse(base & {"regbench_report", "regbench_results", "regbench_publish"})
        # publishing builds, boots guests and runs both tools: it stands above them, and neither knows it
        self.assertFalse((report | results) & {"regbench_publish"})
        self.assertIn("regbench_report", self.imported("regbench_publish"))

    def test_the_command_lines_share_one_frame(self):
        """Signals, exit statuses and the last-resort line are regbench_base.command's, not a copy per tool."""
        for p in sources("regbench_report", "regbench_results", "regbench_publish"):
            with open(p, encoding="utf-8") as f:
                text = f.read()
            self.assertNotRegex(text, r"signal\.signal\(|except KeyboardInterrupt", os.path.relpath(p, fixture.SCRIPTS))


    def test_no_module_imports_one_that_imports_it_back(self):
        # within each package, at the top of a module or inside a function alike: a loop hides who depends on whom
        for package in ("regbench_base", "regbench_report", "regbench_results"):
            graph = {}
            for p in sources(package):
                name = os.path.splitext(os.path.relpath(p, os.path.join(fixture.SCRIPTS, package)))[0]
                with open(p, encoding="utf-8") as f:
                    tree = ast.parse(f.read())
                graph[name.replace(os.sep, ".")] = {
                    (node.module or a.name).split(".")[0] if node.level == 1 else node.module.split(".")[1]
                    for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                    and (node.level == 1 or (node.module or "").startswith(package + "."))
                    for a in node.names}
            loops = []

            def visit(node, path):
                for dep in sorted(graph.get(node, ())):
                    if dep in path:
                        loops.append(" -> ".join(path[path.index(dep):] + [dep]))
                    elif dep in graph:
                        visit(dep, path + [dep])
            for node in graph:
                visit(node, [node])
            self.assertEqual(loops, [], package)


class Signals(unittest.TestCase):
    def test_a_signal_in_a_weakref_callback_is_not_lost(self):
        """Python prints and drops an exception raised in a weakref callback (an import's module lock has one): the
        command's frame sends the signal again, so the command still stops, saying nothing of it on stderr."""
        code = ("import signal, sys, time, weakref\n"
                f"sys.path.insert(0, {fixture.SCRIPTS!r})\n"
                "from regbench_base import command\n"
                "command.catch_signals()\n"
                "class Held: pass\n"
                "held = Held()\n"
                "ref = weakref.ref(held, lambda _: signal.raise_signal(signal.SIGTERM))\n"
                "try:\n"
                "    del held\n"
                "    for _ in range(2000):\n"
                "        time.sleep(0.001)\n"
                "    print('not stopped')\n"
                "except command.Interrupted as e:\n"
                "    print('stopped by', e)\n")
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        self.assertEqual((p.stdout, p.stderr), ("stopped by SIGTERM\n", ""))

    def test_a_signal_python_wrapped_in_another_error_still_stops_the_command(self):
        """A signal in a class body's __set_name__ (a dataclass's field, while a module is imported) reaches the
        command as a RuntimeError caused by it: still an interruption, said in one line with its status."""
        folder = fixture.tmpdir()
        with open(os.path.join(folder, "wrapped.py"), "w", encoding="utf-8") as f:
            f.write("from regbench_base import command\n"
                    "class Field:\n"
                    "    def __set_name__(self, owner, name):\n"
                    "        raise command.Interrupted(15)\n"
                    "class Run:\n"
                    "    read_once = Field()\n")
        code = (f"import sys; sys.path[:0] = [{fixture.SCRIPTS!r}, {folder!r}]\n"
                "from regbench_base import command\n"
                "sys.exit(command.launch('tool', 'wrapped'))\n")
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        self.assertEqual((p.returncode, p.stderr), (143, "tool: interrupted by SIGTERM\n"))


class GuestChecks(unittest.TestCase):
    """scripts/tests/guest_results.py, which guest-test runs on the guest's files, fails on files that are not them."""

    def run_checks(self, section, files):
        import guest_results
        d = fixture.tmpdir()
        for name, src in files.items():
            shutil.copyfile(fixture.path(src), os.path.join(d, name))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            failed = guest_results.main([section, d, "tcg"])
        return failed, out.getvalue().splitlines()

    def test_a_run_that_lost_no_device_fails_the_lost_checks(self):
        failed, lines = self.run_checks("lost", {"lost.json": "single.json"})
        self.assertEqual(failed, 3, lines)
        self.assertEqual(lines[0], "FAIL: lost (host): the context says the device stopped answering (lost.json): "
                                   "target_lost absent")
        self.assertIn("thrpt/write32/relaxed: SIGBUS at offset 0x0", lines[2])

    def test_a_missing_file_fails_its_checks_with_the_readers_line(self):
        failed, lines = self.run_checks("ivshmem", {"ivshmem-uc.json": "single.json"})
        self.assertEqual(failed, 4, lines)
        self.assertIn("kind mmio, mapping wb, accelerator none", lines[0])
        self.assertIn("ivshmem-wc.json: No such file or directory", lines[1])


class Reader(unittest.TestCase):
    def test_loads_reads_bytes_and_names_them(self):
        with open(fixture.path("single.json"), "rb") as f:
            data = f.read()
        run = model.loads(data, "<stdin>")
        self.assertEqual(run.paths, ["<stdin>"])
        self.assertEqual(set(run.results), set(model.load(fixture.path("single.json")).results))
        for bad, why in ((b"", "<stdin>: the file is empty"), (b"\xff\xfe", "<stdin>: not text"),
                         (b"{", "<stdin>: not valid JSON")):
            with self.assertRaises(model.ReportError) as e:
                model.loads(bad, "<stdin>")
            self.assertTrue(str(e.exception).startswith(why), str(e.exception))


class RunText(unittest.TestCase):
    """A run's text is data: one line wherever it is shown, and never markup in a Markdown file."""

    def test_printable_keeps_text_on_one_line(self):
        self.assertEqual(text.printable("a\nb\x1b[31m\u202egnp\u0000 \u6f22\U0001f525"),
                         "a\\nb\\x1b[31m\\u202egnp\\x00 \u6f22\U0001f525")
        plain = "chain/read32/relaxed"
        self.assertIs(text.printable(plain), plain)

    def test_md_safe_leaves_only_the_reports_own_markup(self):
        own = "<details><summary>x</summary>\n\n![chart](copy-toio.svg) [raw](ram.json) [table](../reference/)" \
              " [site](site/)<br>\n</details>"
        self.assertEqual(text.md_safe(own), own)
        for hostile, kept in (("<img src=x onerror=alert(1)>", "&lt;img"), ("[x](javascript:alert(1))", "]\\("),
                              ("[x](javascript&#58;alert(1))", "]\\("), ("![t](https://evil.example/t.png)", "]\\("),
                              ("[t](//evil.example/)", "]\\("), ("[t]( data:text/html,x)", "]\\("),
                              ("[ref]: https://evil.example/", "\\[ref]:"), ("</details><script>", "&lt;script")):
            self.assertIn(kept, text.md_safe(hostile), hostile)

    def test_a_runs_texts_are_read_as_one_line(self):
        with open(fixture.path("single.json"), encoding="utf-8") as f:
            doc = json.load(f)
        doc["context"]["host_name"] = "a\n## forged\x1b[2J"
        name = next(n for n, b in doc["regbench"]["benchmarks"].items() if b.get("reason"))
        doc["regbench"]["benchmarks"][name]["reason"] = "line\nnext"
        run = model.loads(json.dumps(doc).encode(), "x.json")
        self.assertEqual(run.ctx("host_name"), "a\\n## forged\\x1b[2J")
        self.assertEqual(run.named(name).reason, "line\\nnext")


if __name__ == "__main__":
    unittest.main()
