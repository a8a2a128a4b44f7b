"""The scripts/report command line: render one run, compare runs, or rebuild the reports index.

Kept thin (argument parsing and error printing) so that everything it does
can be tested by importing the modules it calls.  Every failure is one line,
`report: what: why (what to try)`, and a non-zero exit: 2 for a command line
it cannot use, 1 for files or folders it cannot use, 130, 143 or 129 when
SIGINT, SIGTERM or SIGHUP stopped it (the output folder as it was).
"""
import os
import sys

from regbench_base import command, contract, folder, model
from regbench_base.args import Parser, UsageError

from . import index

USAGE = """scripts/report RESULT.json... -o DIR           a report of one run (several files of one run are merged)
       scripts/report --compare A.json B.json... -o DIR   the runs side by side, verdicts against A (compare.json)
       scripts/report --index reports/                 rewrite reports/README.md from the reports in it"""


def parser():
    p = Parser(prog="report", usage=USAGE,
               description="Turn regbench's JSON results into a report folder: README.md (tables), SVG charts, "
                           "the raw JSON and, for --compare, compare.json. The folder keeps a manifest "
                           f"({folder.MANIFEST}) of the files the report wrote; it removes or overwrites only those.")
    p.add_argument("files", nargs="*", metavar="RESULT.json", help="regbench --benchmark_out JSON files")
    p.add_argument("-o", "--output", metavar="DIR", help="the report folder to write (created if needed)")
    p.add_argument("--compare", action="store_true", help="one column per run, verdicts against the first")
    p.add_argument("--names", metavar="A,B,...",
                   help="labels of the compared runs (default: what differs); files with the same label are runs of "
                        "one build, compared run against run (e.g. --names a,a,a,b,b,b)")
    p.add_argument("--title", help="the report's title")
    p.add_argument("--command", metavar="TEXT", help="the exact command line that produced a single run")
    p.add_argument("--force", action="store_true",
                   help="write into a folder that holds files the report did not write (same-named ones are "
                        "overwritten, the rest kept)")
    p.add_argument("--index", metavar="DIR", help="rewrite DIR/README.md listing the reports in DIR")
    return p


def fail(line, status=1):
    print(f"report: {line}", file=sys.stderr)
    return status


def _index(args):
    if args.files or args.output or args.compare or args.names or args.title or args.command:
        return fail("--index: takes only the reports folder (and --force) (run it after rendering the reports)", 2)
    try:
        path, n = index.write(args.index, force=args.force)
    except index.NotAnIndex as e:
        return fail(str(e))
    except OSError as e:
        return fail(f"{e.filename or args.index}: {e.strerror} (give the folder holding the published reports)")
    print(f"{path}: {n} reports")
    return 0


def _labels(args):
    """The --names labels, checked against the files; None without --names."""
    if not args.names:
        return None
    labels = [s.strip() for s in args.names.split(",")]
    if not args.compare:
        raise UsageError("--names: labels compared runs (add --compare, or drop --names)")
    if len(labels) != len(args.files) or not all(labels):
        raise UsageError(f"--names: {len(labels)} labels for {len(args.files)} files (give one non-empty label per "
                         "file; repeat a label for runs of one build)")
    if len(set(labels)) < 2:
        raise UsageError(f"--names: every file is '{labels[0]}' (a comparison needs two different labels)")
    return labels


def _run(argv):
    args = parser().parse_args(argv)
    if args.index:
        return _index(args)
    if not args.files:
        raise UsageError("no result files (give regbench --benchmark_out files, e.g. scripts/report "
                         "results/regbench-DATE.json -o DIR)")
    if not args.output:
        raise UsageError("no output folder (add -o DIR)")
    if args.compare and len(args.files) < 2:
        return fail(f"{args.files[0]}: --compare needs at least two files (give one more, or drop --compare)")
    if args.compare and args.command:
        raise UsageError("--command: the command line of a single run; a comparison shows each run's own "
                         "(drop --command)")
    labels = _labels(args)
    try:
        import matplotlib   # noqa: F401  (the charts need it; say so before reading anything)
    except ImportError:
        return fail(f"{sys.executable}: this Python has no matplotlib (run scripts/report itself, which uses "
                    "Debian's /usr/bin/python3, after apt-get install python3-matplotlib)")
    missing = contract.unavailable()
    if missing:
        return fail(missing)
    from . import render
    try:
        runs = [model.load(f) for f in args.files]
        if not args.compare:
            runs = [model.merge(runs)]
        elif labels:
            sides = list(dict.fromkeys(labels))
            runs = [model.group([r for r, l in zip(runs, labels) if l == s]) for s in sides]
            labels = sides
        path = render.write(runs, args.output, labels=labels, title=args.title, command=args.command,
                            force=args.force)
    except (model.ReportError, folder.FolderError) as e:
        return fail(str(e))
    except OSError as e:
        return fail(f"{e.filename or args.output}: {e.strerror} (check that the output folder is writable)")
    return _say(path)


def _say(path):
    """Prints where the report is; a reader that went away (| head) is no failure: the report is complete."""
    try:
        print(path, flush=True)
    except OSError as e:
        sys.stdout = open(os.devnull, "w")    # what could not be written must not be flushed again at exit
        if not isinstance(e, BrokenPipeError):
            return fail(f"standard output: {e.strerror} (the report is complete: {path})")
    return 0


def main(argv=None):
    return command.run("report", lambda: _run(argv), interrupted="the output folder is as it was before")
