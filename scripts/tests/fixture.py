"""Shared by the report tests: the packages on sys.path, the fixture files by name, a rendered report and its tables."""
import atexit
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
sys.path.insert(0, SCRIPTS)


def path(name):
    """The path of a fixture JSON file in fixtures/."""
    return os.path.join(HERE, "fixtures", name)


_TMP = tempfile.mkdtemp(prefix="regbench-report-test-")
atexit.register(shutil.rmtree, _TMP, ignore_errors=True)


def tmpdir():
    """A fresh folder, removed when the tests end."""
    return tempfile.mkdtemp(dir=_TMP)


def store(sql_name):
    """A new SQLite store in a temporary folder made from a fixture's SQL (a store an older release wrote)."""
    import sqlite3
    db = os.path.join(tmpdir(), sql_name.replace(".sql", ".sqlite"))
    with open(path(sql_name), encoding="utf-8") as f:
        conn = sqlite3.connect(db)
        with conn:
            conn.executescript(f.read())
        conn.close()
    return db


def rendered(*files, **kw):
    """(the report folder, its README) of the fixture files rendered as one report."""
    from regbench_base import model
    from regbench_report import render
    out = tmpdir()
    runs = [model.load(path(f)) for f in files]
    with open(render.write(runs, out, **kw), encoding="utf-8") as f:
        return out, f.read()


def table_after(text, heading):
    """The rows of the first Markdown table after a heading, as lists of cells."""
    block = text.split(heading, 1)[1]
    rows = [l for l in block.splitlines() if l.startswith("|")]
    end = next((i for i, l in enumerate(block.splitlines()) if l.startswith("|")), 0)
    rows = []
    for line in block.splitlines()[end:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split(" | ")])
    return rows


def drawn(fn, *args):
    """Calls a chart function with its module's finish (which writes the file) replaced; returns the matplotlib
    figures it made."""
    module = sys.modules[fn.__module__]
    figs, finish = [], module.finish
    module.finish = lambda fig, *a, **k: figs.append(fig)
    try:
        fn(*args)
    finally:
        module.finish = finish
    return figs
