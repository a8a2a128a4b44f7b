"""The scripts/results command line: add runs to the store, list them, render the reference table, export them.

Kept thin (arguments, printing, exit status) over store, runfile, reference
and bmf.  Every failure is one line, `results: what: why (what to try)`, and
a non-zero exit: 2 for a command line it cannot use, 1 for files, stores and
folders it cannot use, 130 when interrupted (the store and the output folder
are then as they were).
"""
import json
import os
import sys

import codecs
import signal

from regbench_report import folder, model
from regbench_report.cli import Parser, UsageError

from . import query, runfile, store
from .errors import ResultsError

# Each command's usage line, and what it does (the top-level usage lists them all).
USAGES = {
    "add": ("scripts/results add [--db STORE] RUN.json...", "add runs to the store (a run already there is kept once)"),
    "list": ("scripts/results list [--db STORE] [FILTERS]", "the runs in the store"),
    "table": ("scripts/results table [--db STORE] [FILTERS] -o DIR [--title TEXT] [--force] [BENCHMARK...]",
              "the reference table of the runs in the store (Markdown + SVG)"),
    "latency": ("scripts/results latency [--db STORE] [FILTERS] [--json] [BENCHMARK...]",
                "lat/ percentiles of each machine's runs merged into one distribution"),
    "export": ("scripts/results export --format bmf RUN.json...", "Bencher Metric Format on stdout"),
}
USAGE = ("\n       ".join(f"{line}\n           {what}" for line, what in USAGES.values())
         + "\nFILTERS: --host --machine --cpu --target --arch --since --until --label KEY=VALUE (see a command's --help)")

STORE_HELP = (f"the store: an SQLite file (default ${store.ENVIRONMENT}, else "
              f"{os.path.relpath(store.DEFAULT, store.ROOT)} at the top of this checkout; created by add) or a "
              f"PostgreSQL URL, {store.URL_FORM}")


def _runs(n):
    return f"{n} run" if n == 1 else f"{n} runs"


def parser():
    p = Parser(prog="results", usage=USAGE,
               description="The results store: regbench runs from any number of machines in one SQLite file or "
                           "PostgreSQL database (tables runs and results), the cross-machine reference table drawn "
                           "from it, and exports for dashboards.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser, prog="results")
    command = lambda name, description: sub.add_parser(name, usage=USAGES[name][0], help=USAGES[name][1],
                                                        description=description)
    add = command("add", "Adds each run (its JSON compressed, a row per benchmark) in one transaction: all of them "
                         "or, on a bad file or a signal, none. A run's id is the hash of its JSON's content (parsed, "
                         "numbers normalized): a run already in the store, re-indented or not, is kept once.")
    add.add_argument("files", nargs="+", metavar="RUN.json", help="regbench --benchmark_out files")
    lst = command("list", "One line per run, oldest first (by the instant it ran, whatever its time zone).")
    query.add_arguments(lst, benchmarks=False)
    table = command("table", "Renders the cross-machine reference table of every run in the store into DIR: "
                             "README.md and an SVG per table. Cells are nanoseconds (wall time: one clock on every "
                             "machine, where TSC cycles are each machine's own). The folder keeps a manifest of the "
                             "files written and is replaced all or nothing.")
    table.add_argument("-o", "--output", metavar="DIR", required=True, help="the folder to write (created if needed)")
    table.add_argument("--title", help="the README's title")
    table.add_argument("--force", action="store_true",
                       help="write into a folder that holds files this command did not write (same-named ones are "
                            "overwritten, the rest kept)")
    query.add_arguments(table)
    lat = command("latency", "Adds up the lat/ histograms of every run of one machine and target (same host, CPU "
                             "and target, same timer step: regbench bins on a grid of that step alone) and gives "
                             "percentiles of the whole, in TSC cycles: each is the bucket its sample lies in, one "
                             "timer step wide below 64 steps, at most 1/32 of its lower edge above. Runs of a "
                             "regbench older than the grid are listed as left out.")
    query.add_arguments(lat)
    lat.add_argument("--json", action="store_true", help="the merged histograms and percentiles as JSON")
    for cmd in (add, lst, table, lat):
        cmd.add_argument("--db", metavar="STORE", help=STORE_HELP)
    export = command("export", "Prints the runs (several files: parts of one run, merged) for a dashboard: bmf is "
                               "Bencher Metric Format, per benchmark the median TSC cycles per unit as value and the "
                               "lowest and highest repetition as lower_value and upper_value (measured benchmarks "
                               "only).")
    export.add_argument("--format", required=True, choices=["bmf"], help="the format (bmf: Bencher Metric Format)")
    export.add_argument("files", nargs="+", metavar="RUN.json", help="regbench --benchmark_out files")
    return p


def _add(args):
    prepared, lines = [], []
    for path in args.files:
        run, data = runfile.read(path)
        prepared.append(store.rows_of(run, data))
    s, new = store.add(args.db, prepared)
    if s.upgraded:
        _upgraded(s)
    for path, rows, fresh in zip(args.files, prepared, new):
        row = rows["run"]
        lines.append(f"{'added' if fresh else 'kept '} {row['id'][:12]}  {row['host']}  {row['cpu']}  "
                     f"{row['target']}  {row['date'] or 'undated'}  {len(rows['results'])} benchmarks  ({path})")
    total, added = s.total, sum(new)
    print("\n".join(lines))
    print(f"{s.where}: {added} added, {len(args.files) - added} already there; {_runs(total)} in the store")
    return 0


def _upgraded(s):
    old, new, runs = s.upgraded
    print(f"results: {s.where}: upgraded the store from schema {old} to {new} in place ({_runs(runs)})",
          file=sys.stderr)


def _open(args):
    """The store a reading command names, made current (an older one upgraded, saying so)."""
    s = store.open_store(args.db)
    try:
        s.prepare()
    except BaseException:
        s.close()
        raise
    if s.upgraded:
        _upgraded(s)
    return s


def _columns(rows, head):
    """Rows of text as aligned columns under a heading."""
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    return ["  ".join(str(x).ljust(w) for x, w in zip(r, widths)).rstrip() for r in [head, *rows]]


def _list(args):
    s = _open(args)
    try:
        runs = query.select(s, args, need_runs=False).runs
    finally:
        s.close()
    if not runs:
        print(f"{s.where}: no runs (add some: scripts/results add RUN.json)")
        return 0
    rows = [[r["id"][:12], r["date"] or "-", r["host"], r["cpu"], r["target"], r["accelerator"] or "-",
             f"{r['results']} ({r['measured']} measured)", r["regbench_version"] or "-"] for r in runs]
    print("\n".join(_columns(rows, ["id", "date", "host", "cpu", "target", "accel", "benchmarks", "regbench"])))
    print(f"{s.where}: {_runs(len(runs))}")
    return 0


def _table(args):
    try:
        import matplotlib   # noqa: F401  (the SVGs need it; say so before reading anything)
    except ImportError:
        raise ResultsError(sys.executable, "this Python has no matplotlib", "run scripts/results itself, which uses "
                           "Debian's /usr/bin/python3, after apt-get install python3-matplotlib") from None
    from . import reference, render
    _output(args)
    s = _open(args)
    try:
        selection = query.select(s, args)
        table = reference.build(s, selection)
    finally:
        s.close()
    try:
        path = render.write(table, args.output, title=args.title, force=args.force)
    except folder.FolderError as e:
        raise ResultsError(str(e)) from None
    except OSError as e:
        raise ResultsError(e.filename or args.output, e.strerror or str(e),
                           "check that the output folder is writable") from None
    print(path)
    return 0


def _latency(args):
    from . import latency
    s = _open(args)
    try:
        lat = latency.build(s, query.select(s, args))
    finally:
        s.close()
    if args.json:
        print(json.dumps(latency.document(lat), indent=2))
        return 0
    out = []
    for g in lat.groups:
        ghz = f", TSC {g.tsc_hz / 1e9:.3f} GHz" if g.tsc_hz else ""
        out += [f"{g.host} · {g.cpu} · {g.target} (timer step {g.step:g} TSC cycles{ghz}): {_runs(len(g.runs))} merged"]
        rows = [[r.name, r.runs, r.samples, *(latency.bucket_text(r.percentiles[p], g.step)
                                              for p, _ in latency.PERCENTILES)] for r in g.rows]
        out += ["  " + line for line in _columns(rows, ["benchmark", "runs", "samples",
                                                         *(p for p, _ in latency.PERCENTILES)])] + [""]
    for row, why in lat.left_out:
        out.append(f"left out: run {row['id'][:12]} ({row['host']}, {row['target']}): {why}")
    if not lat.groups and not lat.left_out:
        out.append(f"{s.where}: no lat/ histograms in the runs asked for")
    else:
        out.append(f"{s.where}: TSC cycles; a percentile is the bucket its sample lies in (< N: under one timer step)")
    print("\n".join(out).rstrip())
    return 0


def _export(args):
    from . import bmf
    runs = [runfile.read(path)[0] for path in args.files]
    try:
        run = model.merge(runs) if len(runs) > 1 else runs[0]
    except model.ReportError as e:
        # model's hint is scripts/report's (--compare); here several files are parts of one run
        raise ResultsError(str(e).rsplit(" (", 1)[0] + " (export each run on its own: several files given "
                           "together are parts of one run)") from None
    print(json.dumps(bmf.document(run), indent=2))
    return 0


def _output(args):
    """-o as given: an empty one (an unset variable) is refused rather than taken as the current folder."""
    if not args.output.strip():
        raise UsageError("-o: empty (give the folder to write, e.g. -o reference)")


COMMANDS = {"add": _add, "list": _list, "table": _table, "latency": _latency, "export": _export}


# Characters the output uses that a terminal in a non-UTF-8 locale (LC_ALL=C, latin-1) cannot show, in ASCII.
_PLAIN = {"–": "-", "—": "-", "·": "|", "×": "x", "±": "+-", "†": "+", "…": "...", "≤": "<=", "≥": ">=",
          "\u2400": "\\0", "µ": "u"}


def _plain(err):
    return "".join(_PLAIN.get(c, "?") for c in err.object[err.start:err.end]), err.end


codecs.register_error("regbench_plain", _plain)


def main(argv=None):
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(errors="regbench_plain")
    restore = folder.catch_signals()
    try:
        try:
            args = parser().parse_args(argv)
            if not args.command:
                raise UsageError("no command (give add, list, table, latency or export; see scripts/results --help)")
            status = COMMANDS[args.command](args)
            sys.stdout.flush()
            return status
        finally:
            folder.settled()
    except UsageError as e:
        return _fail(str(e), 2)
    except ResultsError as e:
        return _fail(str(e), 1)
    except KeyboardInterrupt as e:
        signo = getattr(e, "signo", signal.SIGINT)
        by = "" if signo == signal.SIGINT else f" by {signal.Signals(signo).name}"
        return _fail(f"interrupted{by} (the store and the output folder are as they were)", 128 + signo)
    except BrokenPipeError:
        # a reader that stopped early (| head): nothing more to say, and nothing to say it to
        _drop_stdout()
        return 1
    except OSError as e:
        if e.filename is None:
            # writing to stdout failed (a full disk, a closed file): what was printed is incomplete
            _drop_stdout()
            return _fail(f"standard output: {e.strerror or e} (the output is incomplete; write it where there is "
                         "room)", 1)
        return _fail(f"{e.filename}: {e.strerror or e} (check the path)", 1)
    finally:
        restore()


def _drop_stdout():
    """Points stdout at /dev/null, so that Python's flush at exit has nothing left to fail on."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.stdout = open(os.devnull, "w", encoding="utf-8")


def _fail(line, status):
    print(f"results: {line}", file=sys.stderr)
    return status
