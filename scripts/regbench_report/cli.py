"""The scripts/report command line: render one run, compare runs, or rebuild the reports index.

Kept thin (argument parsing and error printing) so that everything it does
can be tested by importing the modules it calls.
"""
import argparse
import sys

from . import index, model, render

USAGE = """scripts/report RESULT.json... -o DIR           a report of one run (several files of one run are merged)
       scripts/report --compare A.json B.json... -o DIR   the runs side by side, ratios against A
       scripts/report --index reports/                 rewrite reports/README.md from the reports in it"""


def parser():
    p = argparse.ArgumentParser(prog="report", usage=USAGE,
                                description="Turn regbench's JSON results into a report folder: README.md "
                                            "(tables), SVG charts and the raw JSON.")
    p.add_argument("files", nargs="*", metavar="RESULT.json", help="regbench --benchmark_out JSON files")
    p.add_argument("-o", "--output", metavar="DIR", help="the report folder to write (created if needed)")
    p.add_argument("--compare", action="store_true", help="one column per run, ratios against the first")
    p.add_argument("--names", metavar="A,B,...", help="labels of the compared runs (default: what differs)")
    p.add_argument("--title", help="the report's title")
    p.add_argument("--command", metavar="TEXT", help="the exact command line that produced a single run")
    p.add_argument("--index", metavar="DIR", help="rewrite DIR/README.md listing the reports in DIR")
    return p


def fail(line):
    print(f"report: {line}", file=sys.stderr)
    return 1


def main(argv=None):
    args = parser().parse_args(argv)
    if args.index:
        if args.files or args.output:
            return fail(f"--index: takes only the reports folder (run it after rendering the reports)")
        try:
            path, n = index.write(args.index)
        except OSError as e:
            return fail(f"{args.index}: {e.strerror} (give the folder holding the published reports)")
        print(f"{path}: {n} reports")
        return 0
    if not args.files or not args.output:
        parser().print_usage(sys.stderr)
        return 2
    if args.compare and len(args.files) < 2:
        return fail(f"{args.files[0]}: --compare needs at least two files (give one more, or drop --compare)")
    labels = [s.strip() for s in args.names.split(",")] if args.names else None
    if labels and (len(labels) != len(args.files) or len(set(labels)) != len(labels)):
        return fail(f"--names: {len(labels)} labels for {len(args.files)} files (give one distinct label per file)")
    try:
        runs = [model.load(f) for f in args.files]
        if not args.compare:
            runs = [model.merge(runs)]
            labels = labels[:1] if labels else None
        path = render.write(runs, args.output, labels=labels, title=args.title, command=args.command)
    except model.ReportError as e:
        return fail(str(e))
    except OSError as e:
        return fail(f"{e.filename or args.output}: {e.strerror} (check that the output folder is writable)")
    print(path)
    return 0
