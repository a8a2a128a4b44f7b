"""report_target.py: the report's JSON loader as a fuzz target: a file it reads either loads or is refused with ReportError.

fuzz-report (libFuzzer with CPython embedded) calls one_input() for every
input and aborts on any exception it lets through.  Run as a program, it
replays inputs the same way: python3 fuzz/report_target.py FILE|DIR...
"""
import os
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))

from regbench_report import model  # noqa: E402  (after the path that finds it)

_DIR = tempfile.mkdtemp(prefix="fuzz-report-")
_PATH = os.path.join(_DIR, "input.json")


def one_input(data):
    """Loads data as a result file, the way scripts/report reads one: ReportError is the only way to refuse it."""
    with open(_PATH, "wb") as f:
        f.write(data)
    try:
        model.load(_PATH)
    except model.ReportError as e:
        if "\n" in str(e):
            raise AssertionError(f"a refusal of more than one line: {str(e)!r}") from e


def cleanup():
    if os.path.exists(_PATH):
        os.unlink(_PATH)
    os.rmdir(_DIR)


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
                print(f"fuzz/report_target.py: {path}: the loader raised", file=sys.stderr)
                traceback.print_exc()
    finally:
        cleanup()
    print(f"fuzz-report: {count} inputs replayed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
