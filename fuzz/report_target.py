"""report_target.py: the report as a fuzz target: a file it reads is refused with ReportError, or it renders.

fuzz-report (libFuzzer with CPython embedded) calls one_input() for every
input and aborts on any exception it lets through, and mutate() for half of
its mutations: byte-level mutations of JSON text mostly break the syntax,
while the loader's checks are about what the values are.  A file the loader
accepts goes on through everything that reads it: the summary's lines, and a
report folder (tables, charts, compare.json) of the run alone, of the run
compared with itself, with a fixture, or as runs of one build; which of those
follows from the input's bytes, so that a replay does the same.  Run as a
program, it replays inputs the same way: python3 fuzz/report_target.py FILE|DIR...
"""
import json
import os
import shutil
import random
import sys
import tempfile
import traceback
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
os.environ.setdefault("MPLCONFIGDIR", tempfile.mkdtemp(prefix="fuzz-report-mpl-"))

from regbench_base import model                    # noqa: E402  (after the path that finds it)
from regbench_report import render, summary        # noqa: E402

_DIR = tempfile.mkdtemp(prefix="fuzz-report-")
_PATH = os.path.join(_DIR, "input.json")
_FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "tests", "fixtures", "reps.json")


def _render(run, data):
    """Everything that reads a loaded run: the summary, and one report folder in a way chosen by the input."""
    summary.lines(run)
    out = os.path.join(_DIR, "report")
    how = zlib.crc32(data) % 4
    if how == 0:
        runs, labels = [run], None
    elif how == 1:
        runs, labels = [run, model.load(_PATH)], ["a", "b"]
    elif how == 2:
        runs, labels = [model.load(_FIXTURE), run], None
    else:
        runs, labels = [model.group([run, model.load(_PATH)]), model.load(_FIXTURE)], ["a", "b"]
    try:
        render.write(runs, out, labels=labels)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def one_input(data):
    """Loads data as a result file, the way scripts/report reads one, and renders what loads: ReportError is the
    only way to refuse it, in one line."""
    with open(_PATH, "wb") as f:
        f.write(data)
    try:
        run = model.load(_PATH)
    except model.ReportError as e:
        if "\n" in str(e):
            raise AssertionError(f"a refusal of more than one line: {str(e)!r}") from e
        return
    _render(run, data)


# Values of every JSON type, the edges included, that a damaged or edited file may hold anywhere.
_VALUES = [None, True, False, 0, -1, 1, 2, 1.5, -0.0, 1e-300, 1e300, -1e300, 1e308, 2 ** 53, 2 ** 64, "", "x", "a\nb",
           "\x1b[31m", "mmio", "count", "2026-12-04T00:00:00+00:00", "1e400", [], {}, [[]], [1, 2], ["x"], {"": {}}]


def _nodes(doc, out):
    """Every (container, key) pair of the document, in order."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for k, v in items:
        out.append((doc, k))
        _nodes(v, out)
    return out


def mutate(data, max_size, seed):
    """One structural change to a JSON document, as bytes of at most max_size; None when data is not JSON."""
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return None
    rng = random.Random(seed)
    nodes = _nodes(doc, [])
    if not nodes:
        return None
    parent, key = rng.choice(nodes)
    strings = [k for p, k in nodes if isinstance(k, str)]
    how = rng.randrange(6)
    if how == 0:
        parent[key] = rng.choice(_VALUES)
    elif how == 1:
        parent[key] = rng.choice(nodes)[0]
    elif how == 2:
        parent[key] = [parent[key]] if rng.randrange(2) else {rng.choice(strings or ["k"]): parent[key]}
    elif how == 3:
        del parent[key]
    elif how == 4 and isinstance(parent, list):
        parent.insert(key, parent[key])
    elif how == 4:
        parent[rng.choice(strings)] = parent[key]
    else:
        p, k = rng.choice(nodes)
        parent[key], p[k] = p[k], parent[key]
    try:
        out = json.dumps(doc).encode()
    except (ValueError, RecursionError):
        return None
    return out if len(out) <= max_size else None


def cleanup():
    """Remove the temporary folder (the harness calls it at exit; the replay below when done)."""
    shutil.rmtree(_DIR, ignore_errors=True)


def _inputs(args):
    for a in args:
        if os.path.isdir(a):
            yield from (os.path.join(a, n) for n in sorted(os.listdir(a)))
        else:
            yield a


def main(args):
    if not args:
        print("fuzz/report_target.py: no input given (give files or folders of inputs)", file=sys.stderr)
        return 2
    failed = count = 0
    try:
        for path in _inputs(args):
            with open(path, "rb") as f:
                data = f.read()
            count += 1
            try:
                one_input(data)
            except Exception:  # noqa: BLE001  (every exception but ReportError is the finding)
                failed += 1
                print(f"fuzz/report_target.py: {path}: the report raised", file=sys.stderr)
                traceback.print_exc()
    finally:
        cleanup()
    print(f"fuzz-report: {count} inputs replayed, {failed} failed")
    return 1 if failed or not count else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
