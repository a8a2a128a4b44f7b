"""The scripts/results command line: add, list, table, latency, history, alerts, export, delete, prune, retag.

Kept thin (arguments, printing, exit status) over the package's modules.
Every failure is one line, `results: what: why (what to try)`, and a non-zero
exit: 2 for a command line it cannot use, 1 for files, stores and folders it
cannot use, 128 + the signal's number when SIGINT, SIGTERM or SIGHUP stops it
(the store and the output folder are then as they were).  alerts gives 1 a
meaning of its own (a result got slower), 3 to nothing to compare and 4 to a
store it cannot use (ALERTS_*, docs/FLEET.md).  Output that cannot be written (a full disk under stdout) is an error;
characters a non-UTF-8 terminal cannot show are written in ASCII.
"""
import codecs
import contextlib
import os
import struct
import sys
import zlib

from regbench_base import command, folder, model, stats
from regbench_base.args import Parser, UsageError
from regbench_base.state import State
from regbench_base.text import number, ratio_text, tick_words

from . import history, jsontext, passwords, query, runfile, store
from .errors import NothingChosen, ResultsError

# alerts' exit statuses, which a cron job tells apart (docs/FLEET.md): 1 only ever means that a result got slower.
ALERTS_NONE, ALERTS_SLOWER, ALERTS_NOTHING, ALERTS_FAILED = 0, 1, 3, 4

# Each command's usage line, and what it does (the top-level usage lists them all).
USAGES = {
    "add": ("scripts/results add [--db STORE] RUN.json...", "add runs to the store (a run already there is kept once)"),
    "list": ("scripts/results list [--db STORE] [FILTERS]", "the runs in the store"),
    "table": ("scripts/results table [--db STORE] [FILTERS] -o DIR [--title TEXT] [--force] [BENCHMARK...]",
              "the reference table of the runs in the store (Markdown + SVG)"),
    "latency": ("scripts/results latency [--db STORE] [FILTERS] [--json] [BENCHMARK...]",
                "lat/ percentiles of each machine's runs merged into one distribution"),
    "history": ("scripts/results history [--db STORE] [FILTERS] [--json] [-o DIR] BENCHMARK...",
                "each machine × target's runs of benchmarks over time, each against the run before"),
    "alerts": ("scripts/results alerts [--db STORE] [FILTERS] [--baseline N] [BENCHMARK...]",
               "each machine × target's latest run against its baseline: exit 1 when a result got slower"),
    "export": ("scripts/results export --format csv|json|bmf [--db STORE] [FILTERS] [BENCHMARK...] | "
               "--format bmf --run RUN.json...", "the results for other tools, on stdout"),
    "delete": ("scripts/results delete [--db STORE] RUN...", "remove runs (by id, or its start) from the store"),
    "prune": ("scripts/results prune [--db STORE] [FILTERS] (--before DATE | --keep N)",
              "remove old runs: those before a date, or all but the last N of each machine × target"),
    "retag": ("scripts/results retag [--db STORE] RUN --host NAME", "give a run another host name"),
    "site": ("scripts/results site [--db STORE] [FILTERS] -o DIR [--title TEXT] [--force] [BENCHMARK...]",
             "the reference table as a static site: filters, sorting, each cell's history, each machine's runs"),
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
                             "machine, where timer ticks are each machine's own). The folder keeps a manifest of the "
                             "files written and is replaced all or nothing.")
    site = command("site", "Writes a static site into DIR (index.html, runs.html, history.html, data.js and their "
                           "script and stylesheet): the reference table to filter, sort and link to, each cell's "
                           "history, each machine's runs; it opens from the file system and fetches nothing. The "
                           "folder keeps a manifest of the files written and is replaced all or nothing.")
    for cmd, title in ((table, "the README's title"), (site, "the pages' title")):
        cmd.add_argument("-o", "--output", metavar="DIR", required=True, help="the folder to write (created if needed)")
        cmd.add_argument("--title", help=title)
        cmd.add_argument("--force", action="store_true",
                         help="write into a folder that holds files this command did not write (same-named ones are "
                              "overwritten, the rest kept)")
        query.add_arguments(cmd)
    lat = command("latency", "Adds up the lat/ histograms of every run of one machine and target (same host, CPU "
                             "and target, same timer step: regbench bins on a grid of that step alone) and gives "
                             "percentiles of the whole, in timer ticks (each machine's own: its TSC on x86-64, its "
                             "generic counter on arm64): each is the bucket its sample lies in, one "
                             "timer step wide below 64 steps, at most 1/32 of its lower edge above. Runs of a "
                             "regbench older than the grid are listed as left out.")
    query.add_arguments(lat)
    lat.add_argument("--json", action="store_true", help="the merged histograms and percentiles as JSON")
    for cmd in (add, lst, table, site, lat):
        cmd.add_argument("--db", metavar="STORE", help=STORE_HELP)
    hist = command("history", "Each machine × target's runs of the benchmarks named, oldest first: the date, the run, "
                              "its kernel, firmware and labels, the median ns with the repetitions' range, and the "
                              "report's verdict against the run before (slower, faster, same, n/a). The machine is "
                              "its machine_id where runs carry one, else its host.")
    hist.add_argument("--json", action="store_true", help="the series as JSON, for programs")
    hist.add_argument("-o", "--output", metavar="DIR", help="also write a chart per series into DIR (SVG)")
    hist.add_argument("--force", action="store_true", help="write into a folder holding files this did not write")
    al = command("alerts", "Compares each machine × target's latest run (of those the filters choose) with its own "
                           "baseline: its earlier runs in the store labelled "
                           f"{'='.join(history.BASELINE_LABEL)} (regbench --benchmark_context="
                           f"{'='.join(history.BASELINE_LABEL)}), else its last {history.BASELINE_RUNS} earlier runs, "
                           f"using the report's verdicts (with {stats.OWN_RUNS} baseline runs or more, the machine's "
                           "own spread decides). Prints one line per result that got slower. Exit status: 0 nothing got slower, "
                           f"{ALERTS_SLOWER} a result got slower (and nothing else), 2 a command line it cannot use, "
                           f"{ALERTS_NOTHING} nothing to compare (no run, filters or patterns naming none, no run before "
                           f"a latest), {ALERTS_FAILED} a store it cannot use.")
    al.add_argument("--baseline", type=int, metavar="N", help="compare with the last N earlier runs, labelled or not")
    export = command("export", "Prints results for other tools: csv and json, a row per benchmark per run with the "
                               "run's columns; bmf, Bencher Metric Format of one testbed (the newest run chosen; "
                               "measures cycles, latency in ns, throughput in units per second). --run exports files "
                               "instead of the store (several: parts of one run, merged).")
    export.add_argument("--format", required=True, choices=["csv", "json", "bmf"], help="the format")
    export.add_argument("--run", action="append", default=[], metavar="RUN.json",
                        help="a regbench --benchmark_out file to export instead of the store (bmf)")
    delete = command("delete", "Removes the runs named, with their results, in one transaction.")
    delete.add_argument("runs", nargs="+", metavar="RUN", help="a run's id, or its start as `list` shows it")
    prune = command("prune", "Removes, in one transaction, the runs chosen by the filters that ran before --before, "
                             "or all but the newest --keep of each machine × target; lists what it removed.")
    prune.add_argument("--before", type=query.when(False), metavar="DATE", help="remove the runs before this date")
    prune.add_argument("--keep", type=int, metavar="N", help="keep the newest N runs of each machine × target")
    retag = command("retag", "Gives a run another host name (the store's; the run's JSON keeps its own).")
    retag.add_argument("run", metavar="RUN", help="the run's id, or its start")
    retag.add_argument("--host", required=True, help="the new host name")
    for cmd in (hist, al, export):
        query.add_arguments(cmd)
    query.add_arguments(prune, benchmarks=False)
    for cmd in (hist, al, export, delete, prune, retag):
        cmd.add_argument("--db", metavar="STORE", help=STORE_HELP)
    return p


def _add(args):
    query.check_arguments(args)
    prepared, lines = [], []
    for path in args.files:
        prepared.append(runfile.rows_of(*runfile.read(path)))
    s, new = store.add(args.db, prepared)
    if s.upgraded:
        _upgraded(s)
    for path, rows, fresh in zip(args.files, prepared, new):
        row = rows["run"]
        lines.append(f"{'added' if fresh else 'kept '} {row['id'][:12]}  {row['host']}  {row['cpu']}  "
                     f"{row['target']}  {row['date'] or 'undated'}  {len(rows['results'])} benchmarks  ({path})")
    total, added = s.total, sum(new)
    _say(*lines)
    _say(f"{s.where}: {added} added, {len(args.files) - added} already there; {_runs(total)} in the store")
    return 0


def _upgraded(s):
    old, new, runs = s.upgraded
    print(f"results: {s.where}: upgraded the store from schema {old} to {new} in place ({_runs(runs)})",
          file=sys.stderr)


def _open(args):
    """The store a command names, made current (an older one upgraded, saying so); its patterns checked first."""
    query.check_arguments(args)
    s = store.open_store(args.db)
    try:
        s.prepare()
    except BaseException:
        s.close()
        raise
    if s.upgraded:
        _upgraded(s)
    return s


@contextlib.contextmanager
def _damaged(s):
    """A value of the store this code cannot read (a hand-edited row, a blob another program wrote) as one line."""
    try:
        yield
    except (ValueError, TypeError, KeyError, IndexError, zlib.error, struct.error) as e:
        raise ResultsError(s.where, f"holds a value this regbench cannot read ({type(e).__name__}: {e})",
                           "another program changed the store: restore it from a copy, or delete the run named "
                           "and add its file again") from None


def _read(args, build, **select):
    """build(store, the runs and results the filters choose) on the store a reading command names, closed after."""
    s = _open(args)
    try:
        with _damaged(s):
            return build(s, query.select(s, args, **select))
    finally:
        s.close()


def _say(*lines):
    """Lines on stdout, each one line whatever a run's text holds (a newline, an escape sequence: shown escaped); the
    trailing blank ones left out."""
    text = "\n".join(command.printable(line) for line in lines).rstrip()
    print(text)


def _columns(rows, head):
    """Rows of text as aligned columns under a heading (a cell's control characters shown escaped first)."""
    rows = [[command.printable(x) for x in r] for r in rows]
    head = [command.printable(x) for x in head]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    return ["  ".join(str(x).ljust(w) for x, w in zip(r, widths)).rstrip() for r in [head, *rows]]


def _list(args):
    where, runs = _read(args, lambda s, selection: (s.where, selection.runs), need_runs=False)
    if not runs:
        _say(f"{where}: no runs (add some: scripts/results add RUN.json)")
        return 0
    rows = [[r["id"][:12], r["date"] or "-", r["host"], r["cpu"], r["target"], r["accelerator"] or "-",
             f"{r['results']} ({r['measured']} measured)", r["regbench_version"] or "-"] for r in runs]
    _say(*_columns(rows, ["id", "date", "host", "cpu", "target", "accel", "benchmarks", "regbench"]))
    _say(f"{where}: {_runs(len(runs))}")
    return 0


def _table(args):
    try:
        import matplotlib   # noqa: F401  (the SVGs need it; say so before reading anything)
    except ImportError:
        raise ResultsError(sys.executable, "this Python has no matplotlib", "run scripts/results itself, which uses "
                           "Debian's /usr/bin/python3, after apt-get install python3-matplotlib") from None
    from . import reference, render
    _output(args)
    table = _read(args, reference.build)
    _say(_written(args, lambda: render.write(table, args.output, title=args.title, force=args.force)))
    return 0


def _site(args):
    from . import site
    _output(args)
    pages = _read(args, site.collect)
    _say(_written(args, lambda: site.write(pages, args.output, title=args.title, force=args.force)))
    return 0


def _written(args, write):
    """What write() returns (it writes the folder -o names), its failures as one line each."""
    try:
        return write()
    except folder.FolderError as e:
        raise ResultsError(str(e)) from None
    except OSError as e:
        raise ResultsError(e.filename or args.output, e.strerror or str(e),
                           "check that the output folder is writable") from None


def _latency(args):
    from . import latency
    where, lat = _read(args, lambda s, selection: (s.where, latency.build(s, selection)))
    if args.json:
        print(jsontext.dumps(latency.document(lat)))
        return 0
    out = []
    for g in lat.groups:
        ghz = f", {g.counter} {g.tsc_hz / 1e9:.3f} GHz" if g.tsc_hz else ""
        machine = f" (machine {g.machine[:12]})" if g.machine != g.host else ""
        out += [f"{g.host}{machine} · {g.cpu} · {g.target} (timer step {g.step:g} {tick_words([g.counter])}{ghz}): "
                f"{_runs(len(g.runs))} merged"]
        rows = [[r.name, r.runs, r.samples, *(latency.bucket_text(r.percentiles[p], g.step)
                                              for p, _ in latency.PERCENTILES)] for r in g.rows]
        out += ["  " + line for line in _columns(rows, ["benchmark", "runs", "samples",
                                                         *(p for p, _ in latency.PERCENTILES)])] + [""]
    for row, why in lat.left_out:
        out.append(f"left out: run {row['id'][:12]} ({row['host']}, {row['target']}): {why}")
    if not lat.groups and not lat.left_out:
        out.append(f"{where}: no lat/ histograms in the runs asked for")
    else:
        out.append(f"{where}: {tick_words(g.counter for g in lat.groups)}; a percentile is the bucket its sample lies "
                   "in (< N: under one timer step)")
    _say(*out)
    return 0


def _export(args):
    from . import bmf, export
    if args.run:
        if args.format != "bmf" or args.benchmarks or any(getattr(args, f) for f, _, _ in query.FILTERS):
            raise UsageError("--run: files are exported as bmf alone, without filters (add them to a store for csv, "
                             "json or filters)")
        runs = [runfile.read(path)[0] for path in args.run]
        try:
            run = model.merge(runs) if len(runs) > 1 else runs[0]
        except model.ReportError as e:
            # model's hint is scripts/report's (--compare); here several files are parts of one run
            raise ResultsError(str(e).rsplit(" (", 1)[0] + " (export each run on its own: several files given "
                               "together are parts of one run)") from None
        print(jsontext.dumps(bmf.document(runfile.result_rows(run, ""))))
        return 0
    out = _read(args, lambda s, selection: export.text(s, selection, args.format))
    print(out)
    return 0


def _history(args):
    if not args.benchmarks:
        raise UsageError("history: no benchmark (give one or more names or patterns, e.g. chain/read32/ordered)")
    if args.output is not None:
        _output(args)
    all_series = _read(args, history.series)
    if args.output is not None:
        from . import charts
        _written(args, lambda: charts.write(all_series, args.output, args.force))
    if args.json:
        print(jsontext.dumps(history.document(all_series)))
        return 0
    out = []
    for h in all_series:
        out.append(f"{h.name} · {h.host} · {h.cpu} · {h.target}" + (f" (machine {h.machine[:12]})"
                                                                    if h.machine != h.host else ""))
        rows = []
        for p in h.points:
            r, run = p.result, p.run
            figure = ("—" if r["ns"] is None else f"{number(r['ns'])} ns" + (
                f" ({number(r['ns_lo'])}–{number(r['ns_hi'])})" if r["ns_lo"] is not None else ""))
            labels = ",".join(f"{k}={v}" for k, v in sorted(run["labels"].items()) if k not in ("host",))
            verdict = f"{p.verdict.verdict} {ratio_text(p.verdict.ratio)}" if p.verdict and p.verdict.ratio \
                else p.verdict.verdict if p.verdict else ""
            rows.append([run["date"] or "-", run["id"][:12], run["kernel"] or "-", run["firmware"] or "-",
                         labels or "-", figure if State(r["state"]).figure else r["state"], verdict])
        out += ["  " + line for line in _columns(rows, ["date", "run", "kernel", "firmware", "labels", "median",
                                                         "verdict"])] + [""]
    _say(*out)
    return 0


def _alerts(args):
    if args.baseline is not None and args.baseline < 1:
        raise UsageError("--baseline: give 1 or more earlier runs")
    try:
        where, (found, compared) = _read(args, lambda s, selection: (s.where, history.alerts(s, selection,
                                                                                          args.baseline)))
    except NothingChosen as e:
        e.status = ALERTS_NOTHING
        raise
    except ResultsError as e:
        e.status = ALERTS_FAILED
        raise
    for a in found:
        _say(f"slower: {a.host} · {a.target} · {a.name}: {ratio_text(a.verdict.ratio)} the baseline "
              f"(run {a.latest['id'][:12]} against {_runs(len(a.baseline))}; p = {a.verdict.p:.2g}, floor "
              f"{a.verdict.floor:.0%} a {a.verdict.unit})")
    if not compared:
        print(f"results: {where}: nothing to compare (no machine × target of the runs chosen has a run before its "
              "latest with the same benchmarks' repetitions; add runs, or widen the filters)", file=sys.stderr)
        return ALERTS_NOTHING
    print(f"{where}: {len(found)} alert{'s' if len(found) != 1 else ''} in {compared} results compared",
          file=sys.stderr)
    return ALERTS_SLOWER if found else ALERTS_NONE


def _remove(args, which, done):
    """Deletes the runs which(store) names, in one transaction, and prints each and what is left."""
    from . import curate
    s = _open(args)
    try:
        runs = which(s)
        curate.delete(s, runs)
        total = s.count()
    finally:
        s.close()
    for r in runs:
        _say(f"deleted {r['id'][:12]}  {r['host']}  {r['target']}  {r['date'] or 'undated'}")
    _say(f"{s.where}: {_runs(len(runs))} {done}; {_runs(total)} in the store")
    return 0


def _delete(args):
    from . import curate
    return _remove(args, lambda s: curate.resolve(s, args.runs), "deleted")


def _prune(args):
    from . import curate
    if args.keep is not None and args.keep < 0:
        raise UsageError("--keep: give 0 or more runs")
    return _remove(args, lambda s: curate.to_prune(query.select(s, args), args.before, args.keep), "pruned")


def _retag(args):
    from . import curate
    s = _open(args)
    try:
        (run,) = curate.resolve(s, [args.run])
        curate.retag(s, run, args.host)
    finally:
        s.close()
    _say(f"{run['id'][:12]}: host {run['host']} -> {args.host}")
    return 0


def _output(args):
    """-o as given: an empty one (an unset variable) is refused rather than taken as the current folder."""
    if not args.output.strip():
        raise UsageError("-o: empty (give the folder to write, e.g. -o reference)")


COMMANDS = {"add": _add, "list": _list, "table": _table, "latency": _latency, "history": _history, "alerts": _alerts,
            "export": _export, "delete": _delete, "prune": _prune, "retag": _retag, "site": _site}


# Characters the output uses that a terminal in a non-UTF-8 locale (LC_ALL=C, latin-1) cannot show, in ASCII.
_PLAIN = {"–": "-", "—": "-", "·": "|", "×": "x", "±": "+-", "†": "+", "…": "...", "≤": "<=", "≥": ">=",
          "\u2400": "\\0", "µ": "u"}


def _plain(err):
    return "".join(_PLAIN.get(c, "?") for c in err.object[err.start:err.end]), err.end


codecs.register_error("regbench_plain", _plain)


def main(argv=None):
    chosen = []

    def body():
        for stream in (sys.stdout, sys.stderr):
            stream.reconfigure(errors="regbench_plain")
        # no line says a password, whatever quoted it (the parser's complaint about a mistyped option, an engine's
        # message, an unexpected error): every argument that may hold one, and $REGBENCH_DB, scrubbed out
        named = [a for a in (sys.argv[1:] if argv is None else argv) if "://" in a or "=" in a]
        for db in named + [os.environ.get(store.ENVIRONMENT) or ""]:
            command.scrubbing(lambda line, db=db: passwords.scrub(line, db) or
                              f"{passwords.masked(db)}: {store.LEFT_OUT} (check the URL's user, password and host)")
        args = parser().parse_args(argv)
        if not args.command:
            raise UsageError(f"no command (give {', '.join(COMMANDS)}; see scripts/results --help)")
        chosen.append(args.command)
        return COMMANDS[args.command](args)
    # a failure of alerts must not read as "a result got slower"
    return command.run("results", body, errors=ResultsError, failure=lambda: ALERTS_FAILED if chosen == ["alerts"] else 1,
                       interrupted="the store and the output folder are as they were")
