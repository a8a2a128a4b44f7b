"""scripts/results site: the static site from a store, its filters, and the pages in headless Chromium.

The store holds the fixtures' runs: two runs of one machine and target (a
history of three points with an edited copy), an AMD EPYC ram run with copies
(GB/s), a QEMU TCG guest's port run and a KVM guest's device run (emulated
columns), and a copy relabelled aarch64 and baseline=yes.  Chromium loads the
pages from file:// with the filter in the address, and the test reads back
which rows and columns the script left visible; screenshots are checked to be
drawn (not blank).
"""
import concurrent.futures
import html.parser
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import unittest

import fixture
from regbench_base.state import State
from regbench_results import site as site_module
from test_results_store import PUBLISHED, Check, edited, results

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def _later(doc, date, **context):
    doc["context"]["date"] = date
    doc["context"].update(context)


def make_store():
    """A store of the fixtures' runs (see the module's doc); returns its path."""
    db = os.path.join(fixture.tmpdir(), "site.sqlite")
    runs = [fixture.path(n) for n in ("single.json", "reps.json", "answers.json", "port.json", "mmio-and-port.json")]
    runs.append(edited("single.json", lambda d: _later(d, "2026-12-05T08:00:00+00:00", arch="x86_64"), "third.json"))
    runs.append(edited("single.json", lambda d: _later(d, "2026-12-06T08:00:00+00:00", arch="aarch64",
                                                       labels={"baseline": "yes"}, host="arm-board"), "arm.json"))
    p = results("add", "--db", db, *runs)
    assert p.returncode == 0, p.stderr
    return db


class Page(html.parser.HTMLParser):
    """What a test asks of a page: the reference table's rows and headings, with their attributes, in order."""

    def __init__(self, text):
        super().__init__()
        self.rows, self.heads, self.circles, self.sections = [], [], 0, []
        self._row = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-name" in a:
            self._row = dict(a, cells={})
            self.rows.append(self._row)
        elif tag == "td" and self._row is not None:
            self._row["cells"][a["data-col"]] = a
        elif tag == "th" and "data-col" in a:
            self.heads.append(a)
        elif tag == "circle":
            self.circles += 1
        elif tag == "section":
            self.sections.append(a)

    def handle_endtag(self, tag):
        if tag == "tr":
            self._row = None

    def shown(self):
        return [r for r in self.rows if "hidden" not in r]

    def shown_heads(self):
        return [h["data-col"] for h in self.heads if "hidden" not in h]


def chromium(url, *args):
    """Runs headless Chromium on url with a profile of its own; returns its stdout."""
    profile = tempfile.mkdtemp(dir=fixture.tmpdir())
    p = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args, url], capture_output=True,
                       text=True, timeout=180)
    shutil.rmtree(profile, ignore_errors=True)
    if p.returncode != 0:
        raise AssertionError(f"chromium exited {p.returncode}: {p.stderr[-2000:]}")
    return p.stdout


_BUILT = {}


def built():
    """The store and the site made from it, once for every test: {db, out, printed, page}."""
    if not _BUILT:
        db = make_store()
        out = os.path.join(fixture.tmpdir(), "site")
        p = results("site", "--db", db, "-o", out)
        assert p.returncode == 0, p.stderr
        with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
            _BUILT.update(db=db, out=out, printed=p.stdout, page=Page(f.read()))
    return _BUILT


class Site(Check):
    @classmethod
    def setUpClass(cls):
        for k, v in built().items():
            setattr(cls, k, v)

    def column(self, target, label_part=""):
        return next(h["data-col"] for h in self.page.heads if h["data-target"] == target and label_part in
                    h["data-col"])

    def test_the_folder_holds_the_pages_and_nothing_is_fetched_from_elsewhere(self):
        self.assertEqual(self.printed, os.path.join(self.out, "index.html") + "\n")
        self.assertEqual(sorted(os.listdir(self.out)), [".report-files", "README.md", "data.js", "history.html",
                                                        "index.html", "runs.html", "site.css", "site.js"])
        for name in ("index.html", "runs.html", "history.html", "site.js", "site.css"):
            with open(os.path.join(self.out, name), encoding="utf-8") as f:
                text = f.read()
            self.assertNotRegex(text, r"(src|href)=\"(https?:)?//", name)
            self.assertNotIn("@import", text, name)

    def test_cells_are_the_stores_figures_copies_in_gbps(self):
        with sqlite3.connect(self.db) as conn:
            ns, size = conn.execute("SELECT ns, param FROM results WHERE family = 'copy' AND state = ? AND "
                                    "run_id IN (SELECT key FROM runs WHERE cpu LIKE 'AMD EPYC%') LIMIT 1",
                                    (str(State.MEASURED),)).fetchone()
        name = next(r["data-name"] for r in self.page.rows if r["data-family"] == "copy"
                    and r["data-name"].endswith(f"/{size}") and self.column("ram", "amd") in r["cells"])
        with sqlite3.connect(self.db) as conn:
            (ns,) = conn.execute("SELECT ns FROM results WHERE name = ? AND run_id IN (SELECT key FROM runs WHERE cpu "
                                 "LIKE 'AMD EPYC%')", (name,)).fetchone()
        row = next(r for r in self.page.rows if r["data-name"] == name)
        self.assertAlmostEqual(float(row["cells"][self.column("ram", "amd")]["data-v"]), size / ns,
                               delta=size / ns * 1e-3)

    def test_emulated_columns_have_a_colour_scale_of_their_own(self):
        heads = {h["data-col"]: h for h in self.page.heads}
        for kind in ("hardware", "emulated"):
            tones = [float(re.search(r"--t:([\d.]+)", c["style"]).group(1)) for r in self.page.rows
                     if r["data-family"] == "thrpt" for col, c in r["cells"].items()
                     if heads[col]["data-kind"] == kind and "style" in c]
            self.assertEqual((min(tones), max(tones)), (0.0, 1.0), kind)

    def test_filters_choose_the_runs_and_one_that_names_nothing_is_an_error(self):
        out = os.path.join(fixture.tmpdir(), "arm")
        self.ok(results("site", "--db", self.db, "--label", "baseline=yes", "-o", out))
        with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
            page = Page(f.read())
        self.assertEqual([(h["data-arch"], h["data-target"]) for h in page.heads], [("aarch64", "ram")])
        # the same folder again: the earlier site is replaced (its manifest says the files are the site's)
        self.ok(results("site", "--db", self.db, "--arch", "x86_64", "--host", "fixture-host", "^chain/", "-o", out))
        with open(os.path.join(out, "index.html"), encoding="utf-8") as f:
            page = Page(f.read())
        self.assertEqual({r["data-family"] for r in page.rows}, {"chain"})
        self.assertEqual({(h["data-machine"], h["data-arch"]) for h in page.heads}, {("fixture-cpu", "x86_64")})
        mine = os.path.join(fixture.tmpdir(), "mine")
        os.mkdir(mine)
        open(os.path.join(mine, "notes.txt"), "w").close()
        self.one_line(results("site", "--db", self.db, "-o", mine), 1, f"{mine}: holds 1 file the site did not")
        self.one_line(results("site", "--db", self.db, "--host", "nowhere", "-o", out), 1, "--host nowhere: no run")
        # a malformed filter is a usage error, as in every command that takes the filters
        self.one_line(results("site", "--db", self.db, "--label", "baseline", "-o", out), 2,
                      "argument --label: invalid KEY=VALUE pair")
        self.one_line(results("site", "--db", self.db, "^nothing/", "-o", out), 1, "^nothing/: names no benchmark")
        self.one_line(results("site", "--db", self.db, "(", "-o", out), 2, "(: not a regular expression")


class Published(unittest.TestCase):
    def test_the_published_sites_script_and_stylesheet_are_the_sources(self):
        """reports/site/ holds copies of site/site.js and site.css (a browser opens the folder alone): they may not
        drift from the sources (scripts/publish --only site writes them again; published-check.sh re-renders all)."""
        for name in ("site.js", "site.css"):
            with open(os.path.join(site_module.ASSETS, name), "rb") as a, \
                    open(os.path.join(PUBLISHED, "site", name), "rb") as b:
                self.assertTrue(a.read() == b.read(), f"reports/site/{name} differs from scripts/regbench_results/site/"
                                f"{name}: run scripts/publish --render-only --only site, then commit")


@unittest.skipUnless(os.access(CHROMIUM, os.X_OK), f"{CHROMIUM} is not installed (scripts/setup installs chromium)")
class InChromium(Check):
    """The pages as a browser shows them: the script filters and sorts from the address, and draws."""

    @classmethod
    def setUpClass(cls):
        for k, v in built().items():
            setattr(cls, k, v)
        fixed = cls.page.heads[0]["data-col"]
        arm = next(h["data-col"] for h in cls.page.heads if h["data-arch"] == "aarch64")
        history = next(h["data-col"] for h in cls.page.heads if h["data-col"] != arm and h["data-target"] == "ram"
                       and "fixture" in h["data-col"])
        cls.history_col = history
        base = "file://" + os.path.abspath(cls.out)
        cls.urls = {
            "name": f"{base}/index.html#filter=chain/read32/ordered",
            "copy": f"{base}/index.html#family=copy&kind=hardware",
            "sorted": f"{base}/index.html#family=thrpt&arch=x86_64&sort=-{fixed}",
            "history": f"{base}/history.html#col={history}&bench=chain/read32/relaxed",
            "runs": f"{base}/runs.html#machine=" + next(h["data-machine"] for h in cls.page.heads
                                                        if h["data-col"] == arm),
        }
        # the copy view and the history are also photographed (Chromium dumps and shoots in one start)
        shots = fixture.tmpdir()
        cls.shots = {"copy": os.path.join(shots, "index.png"), "history": os.path.join(shots, "history.png")}
        sizes = {"copy": "1200,800", "history": "900,600"}
        jobs = {k: ["--dump-dom"] + ([f"--screenshot={cls.shots[k]}", f"--window-size={sizes[k]}"]
                                     if k in cls.shots else []) for k in cls.urls}
        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            done = {k: pool.submit(chromium, cls.urls[k], *a) for k, a in jobs.items()}
            cls.dom = {k: f.result() for k, f in done.items()}

    def test_a_filter_in_the_address_leaves_the_rows_it_names(self):
        page = Page(self.dom["name"])
        self.assertEqual([r["data-name"] for r in page.shown()], ["chain/read32/ordered"])
        self.assertEqual(len(page.rows), len(self.page.rows))         # the others are there, hidden
        # the columns left are those with a figure for it
        row = next(r for r in self.page.rows if r["data-name"] == "chain/read32/ordered")
        self.assertEqual(page.shown_heads(), [h["data-col"] for h in self.page.heads
                                              if "timed" in row["cells"].get(h["data-col"], {}).get("class", "").split()])
        self.assertLess(len(page.shown_heads()), len(page.heads))

    def test_column_filters_hide_columns_and_the_rows_left_without_a_figure(self):
        page = Page(self.dom["copy"])
        heads = {h["data-col"]: h for h in page.heads}
        self.assertTrue(page.shown_heads())
        self.assertEqual({heads[c]["data-kind"] for c in page.shown_heads()}, {"hardware"})
        self.assertLess(len(page.shown_heads()), len(page.heads))
        shown = page.shown()
        self.assertTrue(shown)
        self.assertEqual({r["data-family"] for r in shown}, {"copy"})
        expected = [r["data-name"] for r in self.page.rows if r["data-family"] == "copy" and any(
            heads[c]["data-kind"] == "hardware" and "data-v" in cell for c, cell in r["cells"].items())]
        self.assertEqual([r["data-name"] for r in shown], expected)

    def test_sort_in_the_address_orders_the_rows_by_that_column(self):
        page = Page(self.dom["sorted"])
        col = self.page.heads[0]["data-col"]
        values = [float(r["cells"][col]["data-v"]) for r in page.shown() if "data-v" in r["cells"].get(col, {})]
        self.assertGreater(len(values), 2)
        self.assertEqual(values, sorted(values, reverse=True))
        self.assertNotIn("aarch64", {h["data-arch"] for h in page.heads if "hidden" not in h})

    def test_a_cells_history_is_a_point_per_run(self):
        with sqlite3.connect(self.db) as conn:
            (runs,) = conn.execute("SELECT COUNT(*) FROM results WHERE name = 'chain/read32/relaxed' AND run_id IN "
                                   "(SELECT key FROM runs WHERE host = 'fixture-host')").fetchone()
        self.assertEqual(runs, 3)
        self.assertEqual(Page(self.dom["history"]).circles, runs)

    def test_a_machine_links_to_its_runs(self):
        page = Page(self.dom["runs"])
        self.assertEqual(len([s for s in page.sections if "hidden" not in s]), 1)
        self.assertGreater(len(page.sections), 1)

    def test_the_pages_are_drawn(self):
        from PIL import Image
        for name, path in self.shots.items():
            image = Image.open(path).convert("RGB")
            page = image.crop((0, 100, image.width, image.height))    # below the title bar
            pixels = list(page.getdata())
            ink = sum(1 for p in pixels if p != (255, 255, 255))
            coloured = sum(1 for r, g, b in pixels if max(r, g, b) - min(r, g, b) > 50)
            # a page with nothing drawn (history.html without a cell) has 0.8% ink and 0.1% colour below its title
            self.assertGreater(ink / len(pixels), 0.025, name)
            self.assertGreater(coloured / len(pixels), 0.003, name)   # the cells' colours, the chart's line and points


if __name__ == "__main__":
    unittest.main()
