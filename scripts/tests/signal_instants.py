#!/usr/bin/python3
"""signal_instants: scripts/results add stopped by a signal at random instants, and what each stop left.

Each trial starts `scripts/results add` of a few runs (into a store that
holds one run, or into a new store), sends SIGINT, SIGTERM or SIGHUP after a
random delay drawn from the whole length of an add (interpreter start-up,
imports, reading the files, the transaction, the commit, the exit), and
checks what every stop must leave:
- the process ends within a second of the signal (LIMIT);
- its status is 0 (the add was done before the signal could stop it), 128 +
  the signal (stopped, said in one line), or killed by the signal itself,
  silently (it came while the interpreter started, before the script's
  first line could take it over: nothing was changed); a SIGINT in the
  interpreter's own start-up (importing io) is Python's KeyboardInterrupt
  with its traceback and status 1, before any code of the project ran:
  counted apart, as that residue; so is a SIGINT while the interpreter
  checks whether the script's path is an import path entry, which it
  reports ("Failed checking if argv[0] ...") and drops, going on to run
  the add (status 0, the whole add in the store);
- no traceback, at most one line on stderr;
- the store is as it was or holds the whole add (SQLite's integrity check,
  every run or none, `merged` the sum of the histograms left), and no
  journal or private file is left beside it.

    signal_instants.py [--trials N] [--seed S] [--quiet]

Run it beside a CPU hog to see the signal case under load, e.g.
`for i in 1 2; do (while :; do :; done) & done` (kill them after); the CI
runs a few trials of it (test_results_writers.SignalInstants).
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
RESULTS = os.path.join(os.path.dirname(HERE), "results")
FIXTURES = os.path.join(HERE, "fixtures")
LIMIT = 1.0
SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _files(folder, n):
    """n distinct runs with histograms: answers.json, its date changed."""
    with open(os.path.join(FIXTURES, "answers.json"), encoding="utf-8") as f:
        doc = json.load(f)
    out = []
    for i in range(n):
        doc["context"]["date"] = f"2026-12-{10 + i:02d}T09:00:00+00:00"
        path = os.path.join(folder, f"run{i}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        out.append(path)
    return out


def _state(db):
    """(runs, merged runs summed, histograms) of a store, after SQLite's integrity check; None where there is none."""
    if not os.path.exists(db):
        return None
    with sqlite3.connect(db) as conn:
        # SQLite's integrity check answers one row of "ok", or a row for each fault it found
        check = conn.execute("PRAGMA integrity_check").fetchall()
        if check != [("ok",)]:
            raise AssertionError(f"{db}: integrity check: {check}")
        runs = conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
        summed = conn.execute("SELECT COALESCE(SUM(runs), 0) FROM merged").fetchone()[0]
        hists = conn.execute("SELECT COUNT(*) FROM histograms").fetchone()[0]
    conn.close()
    return runs, summed, hists


class Setup:
    """A folder with the runs to add and a base store of one run, copied for each trial."""

    def __init__(self, adds=3):
        self.folder = tempfile.mkdtemp(prefix="regbench-signals-")
        self.files = _files(self.folder, adds + 1)
        self.base = os.path.join(self.folder, "base.sqlite")
        subprocess.run([RESULTS, "add", "--db", self.base, self.files[0]], check=True, capture_output=True)
        self.before = _state(self.base)
        self.length = self.timed()

    def timed(self, n=3):
        """The median length of an undisturbed add into a copy of the base store (s)."""
        took = []
        for _ in range(n):
            db = self.copy()
            t0 = time.monotonic()
            subprocess.run([RESULTS, "add", "--db", db, *self.files[1:]], check=True, capture_output=True)
            took.append(time.monotonic() - t0)
        return sorted(took)[n // 2]

    def copy(self, new=False):
        d = tempfile.mkdtemp(dir=self.folder)
        db = os.path.join(d, "store.sqlite")
        if not new:
            shutil.copyfile(self.base, db)
        return db

    def close(self):
        shutil.rmtree(self.folder, ignore_errors=True)


def trial(setup, rng):
    """One add stopped at a random instant; (what happened, the failures found: [] when it held)."""
    new = rng.random() < 0.3
    db = setup.copy(new)
    signo = rng.choice(SIGNALS)
    delay = rng.uniform(0, setup.length * 1.1)
    proc = subprocess.Popen([RESULTS, "add", "--db", db, *setup.files[1:]], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(delay)
    sent = time.monotonic()
    try:
        proc.send_signal(signo)
    except ProcessLookupError:
        pass
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        return f"{signal.Signals(signo).name} at {delay:.3f} s", ["did not end within 60 s"]
    took = time.monotonic() - sent
    st = proc.returncode
    what = f"{signal.Signals(signo).name} at {delay:.3f} s: exit {st} after {took:.3f} s"
    bad = []
    # SIGINT while the interpreter itself starts (importing io, before the script's first line can take the signal
    # over) is Python's KeyboardInterrupt, traceback and all: no code of the project has run, nothing was changed
    frames = re.findall(r'File "([^"]+)", line (\d+)', err)
    if st in (1, -signo) and signo == signal.SIGINT and err.rstrip().rstrip(":").endswith("KeyboardInterrupt") and \
            all(f.startswith("<frozen") or line == "0" for f, line in frames):
        state = _state(db)
        if state in (None, setup.before) and not (new and state):
            return what + " (in the interpreter's own start)", []
    # SIGINT while the interpreter checks the script's path (before its first line): Python prints it and drops it
    if signo == signal.SIGINT and err.startswith("Failed checking if argv[0] is an import path entry") and \
            all(f.startswith("<frozen") for f, _ in frames):
        what, err = what + " (dropped by the interpreter's own start)", ""
    if took > LIMIT:
        bad.append(f"ended {took:.2f} s after the signal (more than {LIMIT} s)")
    if st not in (0, 128 + signo, -signo):
        bad.append(f"exit status {st}")
    if st == -signo and err:
        bad.append(f"killed by the signal, and said: {err.strip()[-300:]!r}")
    if "Traceback" in err or len(err.splitlines()) > 1:
        bad.append(f"stderr: {err.strip()[-300:]!r}")
    if st == 128 + signo and not err.startswith(f"results: interrupted"):
        bad.append(f"stderr: {err.strip()!r}")
    added = len(setup.files) - 1
    base_runs = 0 if new else setup.before[0]
    try:
        state = _state(db)
    except (AssertionError, sqlite3.Error) as e:
        return what, bad + [str(e)]
    if state is None:
        if not new:
            bad.append("the store is gone")
        elif st == 0:
            bad.append("exit 0 and no store")
    else:
        runs, summed, hists = state
        if runs not in (base_runs, base_runs + added):
            bad.append(f"{runs} runs in the store (neither {base_runs} nor {base_runs + added})")
        if summed != hists:
            bad.append(f"merged adds up {summed} histograms, the store holds {hists}")
        if st == 0 and runs != base_runs + added:
            bad.append("exit 0 without the whole add")
        if st == 128 + signo and runs != base_runs:
            bad.append("said interrupted, but the add is in the store")
    left = [n for n in os.listdir(os.path.dirname(db)) if n != "store.sqlite"]
    if left:
        bad.append(f"left beside the store: {left}")
    return what, bad


def run(trials, seed, say=print):
    """(trials, [(what, failures)] of those that did not hold, {exit status: count}, the add's length)."""
    rng = random.Random(seed)
    setup = Setup()
    failed, statuses = [], {}
    try:
        for i in range(trials):
            what, bad = trial(setup, rng)
            st = what.split("exit ")[1].split(" ")[0] if "exit " in what else "hung"
            st = f"{st} (SIGINT in the interpreter's start)" if what.endswith("own start)") else st
            statuses[st] = statuses.get(st, 0) + 1
            if bad:
                failed.append((what, bad))
                say(f"FAIL {i}: {what}: {'; '.join(bad)}")
    finally:
        setup.close()
    return trials, failed, statuses, setup.length


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--trials", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args()
    trials, failed, statuses, length = run(args.trials, args.seed, say=(lambda s: None) if args.quiet else print)
    print(f"{trials} signals at random instants of an add of {length:.2f} s (undisturbed median): "
          f"{trials - len(failed)} held, {len(failed)} did not; exit statuses "
          + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items())))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
