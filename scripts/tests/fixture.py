"""Shared by the report tests: the package on sys.path and the fixture files by name."""
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
