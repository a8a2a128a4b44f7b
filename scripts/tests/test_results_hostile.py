"""Hostile run files (hostile.py: every text markup, a formula, an escape sequence or a forged line) through
scripts/summary, scripts/report and scripts/results, runs without dates, and the site they make in headless Chromium,
where nothing may run and every page draws or says why not."""
import concurrent.futures
import dataclasses
import html.parser
import json
import os
import re
import subprocess
import unittest
from urllib.parse import quote

import fixture
import hostile
from test_results_site import CHROMIUM, Page, chromium
from test_results_store import Check, edited, results, rows

SITE_JS = os.path.join(fixture.SCRIPTS, "regbench_results", "site", "site.js")


def _dated(date, copy):
    """An edit: the run's date (None: none at all), and which copy it is (undated copies would be one run)."""
    def edit(d):
        d["context"]["labels"]["copy"] = str(copy)
        if date:
            d["context"]["date"] = date
        else:
            d["context"].pop("date", None)
    return edit


# What the pages may hold: these elements, no event handler, no link to a script, no script but the site's own.
TAGS = {"html", "head", "meta", "title", "link", "body", "header", "nav", "a", "h1", "h2", "main", "p", "details",
        "summary", "span", "form", "label", "input", "select", "option", "output", "table", "thead", "tbody", "tr",
        "th", "td", "button", "b", "code", "section", "figure", "script"}


class Elements(html.parser.HTMLParser):
    """Every element of a page as (tag, attributes)."""

    def __init__(self, text):
        super().__init__()
        self.found = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


_BUILT = {}


def built():
    """A store of hostile runs and the site made from it, once: {db, out, data, files}.

    answers.json three times a day apart and twice without a date (one machine, one target: a history of five
    points, two undated), and reps, single, port and mmio-and-port once each: every text of each is a payload.
    """
    if not _BUILT:
        files = [hostile.hostile("answers.json", f"answers{i}.json", start=0,
                                 edit=_dated(f"2026-12-0{i + 1}T0{i}:00:00+00:00" if i < 3 else None, i))
                 for i in range(5)]
        # the same payloads in every copy (start=0): one machine, one target, one history; the reps differ by date
        for i, name in enumerate(("reps.json", "single.json", "port.json", "mmio-and-port.json")):
            files.append(hostile.hostile(name, start=100 * (i + 1)))
        db = os.path.join(fixture.tmpdir(), "hostile.sqlite")
        p = results("add", "--db", db, *files)
        assert p.returncode == 0, p.stderr
        out = os.path.join(fixture.tmpdir(), "site")
        p = results("site", "--db", db, "-o", out)
        assert p.returncode == 0, p.stderr
        with open(os.path.join(out, "data.js"), encoding="utf-8") as f:
            text = f.read()
        data = json.loads(text[text.index("=") + 1:].strip().rstrip(";"))
        _BUILT.update(db=db, out=out, data=data, files=files, printed=p.stdout + p.stderr)
    return _BUILT


class Script(unittest.TestCase):
    def test_the_script_puts_text_into_the_page_only_as_text(self):
        with open(SITE_JS, encoding="utf-8") as f:
            text = f.read()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
                     "setTimeout(\"", "srcdoc"):
            self.assertNotIn(sink, text, sink)


class Pages(Check):
    @classmethod
    def setUpClass(cls):
        for k, v in built().items():
            setattr(cls, k, v)

    def test_no_payload_is_markup_in_any_page(self):
        """Every payload is in the pages as text: no element or attribute of its own, in the HTML as written."""
        for name in ("index.html", "runs.html", "history.html"):
            with open(os.path.join(self.out, name), encoding="utf-8") as f:
                page = f.read()
            elements = Elements(page).found
            self.assertEqual({t for t, _ in elements} - TAGS, set(), name)
            self.assertEqual([a for _, attrs in elements for a in attrs if a.startswith("on")], [], name)
            self.assertEqual([a["href"] for _, a in elements if re.match(r"\s*(javascript|data):", a.get("href", ""), re.I)],
                             [], name)
            self.assertEqual([a.get("src") for t, a in elements if t == "script"],
                             ["data.js", "site.js"] if name == "history.html" else ["site.js"], name)
            self.assertIn("Content-Security-Policy", page)
        # the payloads are there, escaped: the machines' markup shows as text
        with open(os.path.join(self.out, "runs.html"), encoding="utf-8") as f:
            self.assertIn("&lt;script&gt;document.documentElement.dataset.ran=", f.read())
        with open(os.path.join(self.out, "README.md"), encoding="utf-8") as f:
            self.assertNotRegex(f.read(), r"<(?!/?(details|summary|br)>)[A-Za-z/!?]")


def _texts(v):
    """Every text in a parsed document or a Run's parts, keys too."""
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield from _texts(k)
            yield from _texts(x)
    elif isinstance(v, (list, tuple)):
        for x in v:
            yield from _texts(x)


class Reports(unittest.TestCase):
    """A run's text is one line of data in what summary and report write: no control or format character reaches a
    terminal or a Markdown file, no line of its own (a forged heading), no link, image or tag to anywhere."""

    def test_every_text_a_run_gives_the_report_is_one_line(self):
        from regbench_base import model
        from regbench_report import summary
        counts = set()
        for start in range(len(hostile.PAYLOADS)):          # each payload in every field once
            run = model.load(hostile.hostile("answers.json", start=start))
            texts = list(_texts(run.context)) + [t for r in run.results.values() for t in
                                                 (r.name, r.reason, r.note, *r.key[:2], r.key.strategy)]
            texts += list(_texts(dataclasses.asdict(run.meta)))
            self.assertEqual([t for t in texts if isinstance(t, str) and not t.isprintable()], [], start)
            lines = summary.lines(run)
            self.assertEqual([l for l in lines if not l.isprintable()], [], start)
            counts.add(len(lines))
        self.assertEqual(len(counts), 1, "a run's text made lines of its own")

    def test_the_report_and_its_files_are_data(self):
        files = [hostile.hostile("answers.json", f"a{start}.json", start=start) for start in (0, 7, 14)]
        out = os.path.join(fixture.tmpdir(), "report")
        p = subprocess.run([os.path.join(fixture.SCRIPTS, "report"), "--compare", *files, "-o", out],
                           capture_output=True, text=True)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        with open(os.path.join(out, "README.md"), encoding="utf-8") as f:
            md = f.read()
        self.assertEqual([l for l in md.splitlines() if not l.isprintable()], [])
        self.assertNotRegex(md, r"(?m)^(#+ Forged|\[ref)")
        self.assertNotRegex(md, r"<(?!/?(details|summary|br)>)[A-Za-z/!?]")
        self.assertEqual(re.findall(r"\]\((?![\w.-]+\))[^)]*\)", md), [])       # links only to its own files
        self.assertEqual([n for n in os.listdir(out) if not re.fullmatch(r"[\w.-]+", n)], [])


def every_command(test, db, runs):
    """Every command over a store: one line at most on stderr, no traceback, no line broken by a run's text (a
    newline, a carriage return, an escape sequence in a host or a benchmark's name)."""
    out = fixture.tmpdir()
    for args in (["list"], ["latency"], ["latency", "--json"], ["history", "."], ["history", "--json", "."],
                 ["history", "-o", os.path.join(out, "h"), "."], ["alerts"], ["export", "--format", "csv"],
                 ["export", "--format", "json"], ["export", "--format", "bmf"], ["table", "-o", os.path.join(out, "t")],
                 ["site", "-o", os.path.join(out, "s")], ["retag", runs[0][:12], "--host", "renamed"],
                 ["delete", runs[1][:12]], ["prune", "--keep", "1", "--host", "renamed"]):
        p = results(args[0], "--db", db, *args[1:])
        # alerts may find a slower run (1) or nothing to compare (3); a BMF report is of one testbed (1: narrow it)
        allowed = (0, 1, 3) if args[0] == "alerts" else (0, 1) if "bmf" in args else (0,)
        test.assertIn(p.returncode, allowed, (args, p.stderr))
        test.assertNotIn("Traceback", p.stderr, args)
        test.assertLessEqual(len(p.stderr.splitlines()), 1, (args, p.stderr))
        if args[0] not in ("export",) and "--json" not in args:
            test.assertNotRegex(p.stdout, r"[\r\x1b\t\x00]", args)


class Commands(Check):
    @classmethod
    def setUpClass(cls):
        for k, v in built().items():
            setattr(cls, k, v)

    def test_every_command_holds(self):
        every_command(self, self.db, [r for r, in rows(self.db, "SELECT id FROM runs ORDER BY time")])


def _figures(value, date):
    """An edit: every figure of every benchmark (counters, aggregates) the value, the run on date."""
    def edit(d):
        d["context"]["date"] = date
        for e in d["benchmarks"]:
            for k, v in e.items():
                if isinstance(v, (int, float)) and not isinstance(v, bool) and k not in COUNTS:
                    e[k] = value
    return edit


# An entry's fields that count rather than measure (a figure of 0 or less there is another kind of damage).
COUNTS = {"repetitions", "repetition_index", "threads", "iterations", "family_index", "per_family_instance_index"}


class Figures(Check):
    """Runs whose every figure is one the contract allows but no machine measures (0, negative, 1e-300) beside a real
    one: every command, summary and report draw them or say why not (the table's colour scale threw on 1e-300, and
    matplotlib's warnings about a log scale over nothing positive reached stderr)."""

    def test_every_command_summary_and_report_hold(self):
        files = [fixture.path("answers.json")] + [
            edited("answers.json", _figures(v, f"2026-12-2{i}T00:00:00+00:00"), f"f{i}.json")
            for i, v in enumerate((0, -5.0, 1e-300))]
        db = os.path.join(fixture.tmpdir(), "figures.sqlite")
        self.ok(results("add", "--db", db, *files))
        every_command(self, db, [r for r, in rows(db, "SELECT id FROM runs ORDER BY time")])
        for f in files[1:]:
            p = subprocess.run([os.path.join(fixture.SCRIPTS, "summary"), f], capture_output=True, text=True)
            self.assertEqual((p.returncode, p.stderr), (0, ""), f)
        out = os.path.join(fixture.tmpdir(), "report")
        p = subprocess.run([os.path.join(fixture.SCRIPTS, "report"), "--compare", *files, "-o", out],
                           capture_output=True, text=True)
        self.assertEqual((p.returncode, p.stderr), (0, ""))


@unittest.skipUnless(os.access(CHROMIUM, os.X_OK), f"{CHROMIUM} is not installed (scripts/setup installs chromium)")
class InChromium(Check):
    """The hostile site as a browser shows it: nothing runs (no page's <html> gets data-ran), every page draws."""

    @classmethod
    def setUpClass(cls):
        for k, v in built().items():
            setattr(cls, k, v)
        base = "file://" + os.path.abspath(cls.out)
        data = cls.data
        runs = data["runs"]
        # the column with the undated runs, and a benchmark with a point in each of its runs
        col = next(c for c in data["columns"] if any(not runs[q[0]]["date"] for pts in data["history"][c["id"]].values()
                                                     for q in pts))
        bench = max(data["history"][col["id"]], key=lambda b: len(data["history"][col["id"]][b]))
        cls.points = len(data["history"][col["id"]][bench])
        other = next(c for c in data["columns"] if c["id"] != col["id"])
        # a cell whose unit is markup (the case: a family's unit with a script in it), in a dated column
        marked = next((c["id"], b) for c in data["columns"] if c["id"] != col["id"] for b in data["history"][c["id"]]
                      if "onerror" in data["units"].get(b, ""))
        payload = quote(hostile.PAYLOADS[0].format(n=999), safe="")
        cls.urls = {
            "index": f"{base}/index.html",
            "index-hostile-address": f"{base}/index.html#filter={payload}&family={payload}&sort={payload}",
            "runs": f"{base}/runs.html#machine={payload}",
            "history": f"{base}/history.html#col={col['id']}&bench={quote(bench, safe='')}",
            "history-other": f"{base}/history.html#col={other['id']}&bench="
                             + quote(next(iter(data["history"][other["id"]])), safe=""),
            "history-markup-unit": f"{base}/history.html#col={marked[0]}&bench={quote(marked[1], safe='')}",
            "history-no-column": f"{base}/history.html#col={payload}&bench={quote(bench, safe='')}",
            "history-no-benchmark": f"{base}/history.html#col={col['id']}&bench={payload}",
        }
        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            done = {k: pool.submit(chromium, u, "--dump-dom") for k, u in cls.urls.items()}
            cls.dom = {k: f.result() for k, f in done.items()}

    def test_nothing_runs(self):
        for name, dom in self.dom.items():
            self.assertNotIn("data-ran", dom, name)

    def test_every_page_draws_or_says_why_not(self):
        for name, dom in self.dom.items():
            self.assertNotIn('id="failure"', dom, name)         # no page failed to draw
        self.assertGreater(len(Page(self.dom["index"]).shown()), 10)
        self.assertEqual(Page(self.dom["index-hostile-address"]).shown(), [])        # nothing matches: said so
        self.assertRegex(self.dom["index-hostile-address"], r'<p id="nothing">No benchmark matches')
        self.assertEqual(Page(self.dom["history"]).circles, self.points)
        self.assertGreaterEqual(self.points, 5)                     # with the two undated runs
        self.assertGreater(Page(self.dom["history-other"]).circles, 0)
        self.assertGreater(Page(self.dom["history-markup-unit"]).circles, 0)
        self.assertIn("This site has no column", self.dom["history-no-column"])
        self.assertIn("This site has no history of", self.dom["history-no-benchmark"])


if __name__ == "__main__":
    unittest.main()
