"""The scripts/results command line: add runs to the store, list them, render the reference table and site, export them.

Kept thin (arguments, printing, exit status) over store, runfile, reference
and bmf.  Every failure is one line, `results: what: why (what to try)`, and
a non-zero exit: 2 for a command line it cannot use, 1 for files, stores and
folders it cannot use, 130 when interrupted (the store and the output folder
are then as they were).
"""
import json
import os
import sys

from regbench_base import model
from regbench_base.args import Parser, UsageError

from . import runfile, store
from .errors import ResultsError

# Each command's usage line, and what it does (the top-level usage lists them all).
USAGES = {
    "add": ("scripts/results add [--db STORE] RUN.json...", "add runs to the store (a run already there is kept once)"),
    "list": ("scripts/results list [--db STORE]", "the runs in the store"),
    "table": ("scripts/results table [--db STORE] -o DIR [--title TEXT] [--force]",
              "the reference table of every run in the store (Markdown + SVG)"),
    "latency": ("scripts/results latency [--db STORE] [--host HOST] [--target TARGET] [--json] [BENCHMARK...]",
                "lat/ percentiles of each machine's runs merged into one distribution"),
    "export": ("scripts/results export --format bmf RUN.json...", "Bencher Metric Format on stdout"),
    "site": ("scripts/results site [--db STORE] [FILTERS] -o DIR [--title TEXT] [--force] [BENCHMARK...]",
             "the reference table as a static site: filters, sorting, each cell's history, each machine's runs"),
}
USAGE = "\n       ".join(f"{line}\n           {what}" for line, what in USAGES.values())

STORE_HELP = (f"the store: an SQLite file (default {os.path.relpath(store.DEFAULT, store.ROOT)} at the top of this "
              f"checkout; created by add) or a PostgreSQL URL, {store.URL_FORM}")


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
    add = command("add", "Adds each run (its JSON verbatim, a row per benchmark) in one transaction: all of them "
                         "or, on a bad file or Ctrl-C, none. A run's id is the hash of its JSON: a run already in the "
                         "store is kept once.")
    add.add_argument("files", nargs="+", metavar="RUN.json", help="regbench --benchmark_out files")
    lst = command("list", "One line per run, oldest first.")
    table = command("table", "Renders the cross-machine reference table of every run in the store into DIR: "
                             "README.md and an SVG per table. Cells are nanoseconds (wall time: one clock on every "
                             "machine, where TSC cycles are each machine's own). The folder keeps a manifest of the "
                             "files written and is replaced all or nothing.")
    table.add_argument("-o", "--output", metavar="DIR", required=True, help="the folder to write (created if needed)")
    table.add_argument("--title", help="the README's title")
    table.add_argument("--force", action="store_true",
                       help="write into a folder that holds files this command did not write (same-named ones are "
                            "overwritten, the rest kept)")
    lat = command("latency", "Adds up the lat/ histograms of every run of one machine and target (same host, CPU "
                             "and target, same timer step: regbench bins on a grid of that step alone) and gives "
                             "percentiles of the whole, in TSC cycles: each is the bucket its sample lies in, one "
                             "timer step wide below 64 steps, at most 1/32 of its lower edge above. Runs of a "
                             "regbench older than the grid are listed as left out.")
    lat.add_argument("benchmarks", nargs="*", metavar="BENCHMARK", help="lat/ benchmarks by name (default: all)")
    lat.add_argument("--host", action="append", default=[], help="only this host (as `list` shows it; repeatable)")
    lat.add_argument("--target", action="append", default=[],
                     help="only this target: its spec, or a column's name in the reference table (repeatable)")
    lat.add_argument("--json", action="store_true", help="the merged histograms and percentiles as JSON")
    for cmd in (add, lst, table, lat):
        cmd.add_argument("--db", metavar="STORE", help=STORE_HELP)
    export = command("export", "Prints the runs (several files: parts of one run, merged) for a dashboard: bmf is "
                               "Bencher Metric Format, per benchmark the median TSC cycles per unit as value and the "
                               "lowest and highest repetition as lower_value and upper_value (measured benchmarks "
                               "only).")
    export.add_argument("--format", required=True, choices=["bmf"], help="the format (bmf: Bencher Metric Format)")
    export.add_argument("files", nargs="+", metavar="RUN.json", help="regbench --benchmark_out files")
    site = command("site", "Writes a static site into DIR (index.html, runs.html, history.html, data.js and their "
                           "script and stylesheet): the reference table to filter, sort and link to, each cell's "
                           "history, each machine's runs; it opens from the file system and fetches nothing. The "
                           "filters choose the runs (a filter that matches no run is an error); BENCHMARK patterns "
                           "(regular expressions) the benchmarks.")
    site.add_argument("benchmarks", nargs="*", metavar="BENCHMARK", help="only benchmarks matching these patterns")
    for flag, value, what in (("host", "HOST", "this host"), ("machine", "ID", "this machine identity (context "
                              "machine_id, or its start)"), ("cpu", "TEXT", "CPUs whose name contains this"),
                              ("target", "TARGET", "this target: its spec or column name"),
                              ("arch", "ARCH", "this architecture (x86_64, aarch64)"),
                              ("label", "KEY=VALUE", "runs whose context has this pair")):
        site.add_argument(f"--{flag}", action="append", default=[], metavar=value, help=f"only {what} (repeatable)")
    site.add_argument("--since", metavar="DATE", help="only runs from this date on (ISO 8601: 2026-12-01)")
    site.add_argument("--until", metavar="DATE", help="only runs up to this date (ISO 8601, inclusive)")
    site.add_argument("-o", "--output", metavar="DIR", required=True, help="the folder to write (created if needed)")
    site.add_argument("--title", help="the pages' title")
    site.add_argument("--force", action="store_true", help="write into a folder holding files this command did not "
                      "write (same-named ones are overwritten, the rest kept)")
    site.add_argument("--db", metavar="STORE", help=STORE_HELP)
    return p


def _site(args):
    from regbench_base import folder
    from . import site
    s = store.open_store(args.db)
    try:
        s.check()
        data = site.collect(s, vars(args))
    finally:
        s.close()
    try:
        print(site.write(data, args.output, title=args.title, force=args.force))
    except folder.FolderError as e:
        raise ResultsError(str(e)) from None
    except OSError as e:
        raise ResultsError(e.filename or args.output, e.strerror or str(e),
                           "check that the folder is writable") from None
    return 0


def _add(args):
    s = store.open_store(args.db, create=True)
    try:
        lines, added = [], 0
        with s.transaction():
            for path in args.files:
                run, data = runfile.read(path)
                run_id = runfile.digest(data)
                row = runfile.run_row(run, data, run_id)
                new = s.add(row, runfile.result_rows(run, run_id))
                added += new
                lines.append(f"{'added' if new else 'kept '} {run_id[:12]}  {row['host']}  {row['cpu']}  "
                             f"{row['target']}  {row['date'] or 'undated'}  {len(run.results)} benchmarks  ({path})")
        total = s.count()
    finally:
        s.close()
    print("\n".join(lines))
    print(f"{s.where}: {added} added, {len(args.files) - added} already there; {_runs(total)} in the store")
    return 0


def _columns(rows, head):
    """Rows of text as aligned columns under a heading."""
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    return ["  ".join(str(x).ljust(w) for x, w in zip(r, widths)).rstrip() for r in [head, *rows]]


def _list(args):
    s = store.open_store(args.db)
    try:
        s.check()
        runs = s.runs()
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
    from regbench_base import folder
    from . import reference, render
    s = store.open_store(args.db)
    try:
        s.check()
        table = reference.build(s)
    finally:
        s.close()
    if not table.columns:
        raise ResultsError(s.where, "no runs in the store", "add some first: scripts/results add RUN.json")
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
    s = store.open_store(args.db)
    try:
        s.check()
        lat = latency.build(s, args.host, args.target, args.benchmarks)
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


COMMANDS = {"add": _add, "list": _list, "table": _table, "latency": _latency, "export": _export, "site": _site}


def main(argv=None):
    try:
        args = parser().parse_args(argv)
        if not args.command:
            raise UsageError("no command (give add, list, table, latency, export or site; see scripts/results --help)")
        return COMMANDS[args.command](args)
    except UsageError as e:
        return _fail(str(e), 2)
    except ResultsError as e:
        return _fail(str(e), 1)
    except KeyboardInterrupt:
        return _fail("interrupted (the store and the output folder are as they were)", 130)
    except BrokenPipeError:
        # a reader that stopped early (| head): nothing more to say, and nothing to say it to
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def _fail(line, status):
    print(f"results: {line}", file=sys.stderr)
    return status
