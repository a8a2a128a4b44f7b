"""Which runs and benchmarks a command works on: the filters every command takes, and reading the store with them.

A filter names runs by what the store's columns say of them (--host,
--machine, --cpu, --target, --arch, --since, --until, --label KEY=VALUE) and
benchmarks by patterns (regular expressions searched in the name, as Google
Benchmark's --benchmark_filter); the same option given twice is either
value, different options must all hold.  A value that names no run of the
store, filters that leave no run together, or a pattern that names no
benchmark of those runs is an error: a typo never reads as an empty answer.
"""
import os
import re
from dataclasses import dataclass, field
from typing import List

from . import passwords, reference, runfile, sql
from regbench_base.args import UsageError

from .errors import NothingChosen, ResultsError

# Each run filter: its option, what it matches in a run's row (with its labels), and its help.
FILTERS = (
    ("host", lambda run, v: run["host"] == v, "only runs of this host (as `list` shows it)"),
    ("machine", lambda run, v: bool(run["machine_id"]) and run["machine_id"].startswith(v),
     "only runs of this machine: its machine_id, or the start of it"),
    ("cpu", lambda run, v: v.lower() in run["cpu"].lower(), "only runs on a CPU whose name holds this text"),
    ("target", lambda run, v: v in (run["target"], reference.target_label(run)),
     "only runs of this target: its spec, or a column's name in the reference table"),
    ("arch", lambda run, v: run["arch"] == v, "only runs of this architecture (x86_64, aarch64; runs of a regbench "
     "that did not record it match none)"),
    ("label", lambda run, v: run["labels"].get(v[0]) == v[1],
     "only runs with this --benchmark_context pair, e.g. baseline=yes"),
)


def add_arguments(p, benchmarks=True):
    """The filter options (and the benchmark patterns, unless benchmarks is False) on a command's parser."""
    for name, _, what in FILTERS:
        p.add_argument(f"--{name}", action="append", default=[], metavar="KEY=VALUE" if name == "label" else None,
                       type=_pair if name == "label" else _given, help=what + " (repeatable)")
    p.add_argument("--since", type=when(False), metavar="DATE", help="only runs from this date on (ISO 8601: "
                   "2026-12-01, or a time with its offset; UTC where none is given)")
    p.add_argument("--until", type=when(True), metavar="DATE", help="only runs up to this date (a day given "
                   "alone: up to its end)")
    if benchmarks:
        p.add_argument("benchmarks", nargs="*", metavar="BENCHMARK",
                       help="benchmarks by name or pattern (a regular expression found in the name, as "
                            "--benchmark_filter; default: all)")


def _given(text):
    """A filter's value: an empty one (an unset variable, --machine "$ID") would match every run, and is refused."""
    if not text.strip():
        raise ValueError(text)
    return text


_given.__name__ = "value (empty: it would name every run)"


def _pair(text):
    key, eq, value = text.partition("=")
    if not eq or not key:
        raise ValueError(text)
    return key, value


_pair.__name__ = "KEY=VALUE pair"


def when(end):
    def parse(text):
        day = re.fullmatch(r"\d{4}-\d{2}-\d{2}", text)
        moment = runfile.utc(text + ("T23:59:59" if end else "T00:00:00") if day else text)
        if moment is None:
            raise ValueError(text)
        return moment
    parse.__name__ = "date"
    return parse


@dataclass
class Selection:
    """The runs a command works on (rows of `list` with their labels, oldest first) and its benchmark patterns."""
    runs: List[dict]
    patterns: List[str]
    every: List[dict] = field(default_factory=list)    # every run of the store, chosen or not

    @property
    def keys(self):
        """The runs' keys, as results, labels and histograms refer to them (their run_id)."""
        return [r["key"] for r in self.runs]

    def wants(self, name):
        return not self.patterns or any(re.search(p, name) for p in self.patterns)


def _order(run):
    # runs without a date last, then by id: one order on every engine
    return (run["time"] is None, run["time"] or "", run["id"])


def all_runs(store):
    """Every run of an open store (sql.LIST_FIELDS and `labels`, a dict), oldest first by the instant it ran."""
    runs = store.rows(sql.LIST_RUNS, sql.LIST_FIELDS)
    labels = {}
    for row in store.rows("SELECT run_id, key, value FROM labels", ("run_id", "key", "value")):
        labels.setdefault(row["run_id"], {})[row["key"]] = row["value"]
    for run in runs:
        run["labels"] = labels.get(run["key"], {})
    return sorted(runs, key=_order)


def select(store, args, need_runs=True):
    """The Selection of an open store that a command's filters (parsed args) name; ResultsError when a filter names
    nothing (need_runs: also when the store has no run at all)."""
    runs = all_runs(store)
    if not runs:
        if need_runs:
            raise NothingChosen(store.where, "no runs in the store", "add some first: scripts/results add RUN.json")
        return Selection([], [])
    chosen = runs
    for name, match, _ in FILTERS:
        values = getattr(args, name, [])
        for v in values:
            if not any(match(r, v) for r in runs):
                shown = f"{v[0]}={v[1]}" if name == "label" else v
                raise NothingChosen(f"--{name} {shown}", "no run in the store has it",
                                   f"`scripts/results list` shows the runs{_known(runs, name)}")
        if values:
            chosen = [r for r in chosen if any(match(r, v) for v in values)]
    since, until = getattr(args, "since", None), getattr(args, "until", None)
    if since:
        chosen = [r for r in chosen if r["time"] and r["time"] >= since]
    if until:
        chosen = [r for r in chosen if r["time"] and r["time"] <= until]
    if not chosen:
        raise NothingChosen(store.where, "no run matches all of the filters together", "`scripts/results list` "
                           "with fewer of them shows which runs there are")
    return Selection(chosen, list(getattr(args, "benchmarks", []) or []), runs)


def _known(runs, name):
    """A hint: the values the store has for a filter (the first few)."""
    column = {"host": "host", "machine": "machine_id", "arch": "arch", "target": "target"}.get(name)
    if column is None:
        return ""
    values = sorted({str(r[column]) for r in runs if r[column]})
    return f"; {name}s here: {', '.join(values[:6])}{' ...' if len(values) > 6 else ''}" if values else ""


def check_arguments(args):
    """The benchmark patterns of a command line, before any store is opened: each a regular expression (UsageError
    otherwise), and none a result file (`export --format bmf RUN.json`, the form older docs gave)."""
    db = getattr(args, "db", None)
    if db is not None and not db.strip():
        raise UsageError("--db: empty (give an SQLite file's path or a PostgreSQL URL, or leave --db out for "
                         "$REGBENCH_DB or the default store)")
    if db is not None and "://" not in db and re.search(r"(?i)\b(password|host|dbname|user)\s*=", db):
        # a libpq keyword string would be taken for a file's name, and a new store made under it, password and all
        raise UsageError(f"--db {passwords.masked(db)}: a PostgreSQL keyword string, not a URL or a file (write it "
                         "as a URL: postgresql://USER@HOST/DATABASE, the password in PGPASSWORD or ~/.pgpass)")
    for p in getattr(args, "benchmarks", None) or []:
        if p.endswith(".json") and os.path.isfile(p):
            hint = ("export a file with --run: scripts/results export --format bmf --run " + p
                    if getattr(args, "command", "") == "export" else "add it to a store first: scripts/results add " + p)
            raise UsageError(f"{p}: a result file, not a benchmark pattern ({hint})")
        pattern(p)


def pattern(p):
    """A benchmark pattern compiled; one that is not a regular expression is a command line the tool cannot use."""
    try:
        return re.compile(p)
    except (re.error, RecursionError, OverflowError) as e:
        raise UsageError(f"{p}: not a regular expression: {e} (give a benchmark's name or a pattern such as "
                         "'^lat/read32/')") from None


def check_patterns(selection, names):
    """ResultsError naming each benchmark pattern that matches none of names (the benchmarks of the runs chosen)."""
    for p in selection.patterns:
        rx = pattern(p)
        if not any(rx.search(n) for n in names):
            raise NothingChosen(p, "names no benchmark of the runs chosen", "`scripts/results table` or a run's "
                                "report lists the benchmarks")


def chunks(ids, size=500):
    """Run keys in parts, each small enough for one IN (...) list on any engine."""
    return [ids[i:i + size] for i in range(0, len(ids), size)] or [[]]


def results(store, selection, fields, where=""):
    """The results rows (fields of `results`, name among them) of the runs chosen whose names the patterns want;
    ResultsError when a pattern names none of their benchmarks.

    The patterns are matched against the store's distinct names first, so that only the rows of those names
    leave the engine: what a command reads grows with the benchmarks asked for, not with every benchmark."""
    names = []
    if selection.patterns:
        every = {r["name"] for r in store.rows("SELECT DISTINCT name FROM results", ("name",))}
        check_patterns(selection, every)
        names = sorted(n for n in every if selection.wants(n))
    found = []
    for part in chunks(selection.keys):
        if not part:
            continue
        q = (f"SELECT {', '.join(fields)} FROM results WHERE run_id IN ({', '.join('?' for _ in part)})"
             + (f" AND name IN ({', '.join('?' for _ in names)})" if names else "")
             + (f" AND {where}" if where else ""))
        found += store.rows(q, fields, tuple(part) + tuple(names))
    check_patterns(selection, {r["name"] for r in found})
    return found
