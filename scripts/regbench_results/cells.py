"""Each reference table cell's counts kept in the store (the table `cells`), so that `table` reads a row per column and
an index range per cell, whatever the number of runs.

A cell is one benchmark (its name and the contract's fields) in one column of
the reference table: a machine (host, machine id, CPU, accelerator) and a target as
runfile.target_label names it.  It counts its results by what they say (a
figure, a bound under the timer's resolution, a failure, disturbed or not) and
keeps the lowest bound; the median and the range of its figures are read off
the index results_cell (cell, ns), which each result is in through its
`cell`.  A column's cells are one row, packed: adding a run rewrites that row,
not a row per benchmark.  add, delete, prune and retag keep them in step inside
their own transaction (Store.add, Store.remove, Store.retag), which one writer
at a time holds, as merged.py does for the lat/ histograms.
"""
import json
import zlib

from regbench_base.state import State

from . import runfile, sql

# The columns of `results` a cell counts, and what a cell is made of: its id, its benchmark and its counts.
FIELDS = ("run_id", "name", "family", "op", "width", "strategy", "param", "unit", "state", "ns", "bound", "disturbed")
BENCHMARK = ("name", "family", "op", "width", "strategy", "param", "unit")
COUNTS = ("runs",                               # its results
          "measured", "measured_disturbed",     # of them with a figure in ns (the median's), and disturbed ones
          "bound", "bound_disturbed",           # of them below the timer's resolution, and disturbed ones
          "bound_ns", "bound_ns_runs",          # the lowest of their bounds in ns (None: none known), how many have it
          "failed")                             # of them failed (State.failed)
CELL = ("id", *BENCHMARK, *COUNTS)
_BOUND_STATES = tuple(str(s) for s in State if s.bound)

READ = f"SELECT cells FROM cells WHERE {' AND '.join(f'{c} = ?' for c in sql.CELL_COLUMN)}"
READ_ALL = f"SELECT {', '.join(sql.CELL_COLUMN)}, cells FROM cells"


def column(run):
    """The reference table column of a run (a row of `runs`): host, machine (runfile.machine), CPU, accelerator ('' for
    none), target; two machines that share a host name are two columns, as in reference._columns."""
    return run["host"], runfile.machine(run), run["cpu"], run["accelerator"] or "", runfile.target_label(run)


def pack(cells):
    """A column's cells (dicts of CELL) as its row keeps them: zlib of a JSON list, a list per cell."""
    return zlib.compress(json.dumps([[c[f] for f in CELL] for c in cells], separators=(",", ":")).encode("utf-8"), 6)


def unpack(blob):
    """The cells pack() wrote, as dicts of CELL."""
    return [dict(zip(CELL, values)) for values in json.loads(zlib.decompress(bytes(blob)))]


def of_column(store, col):
    """The cells of one column (column()'s) of an open store."""
    return [c for r in store.rows(READ, ("cells",), col) for c in unpack(r["cells"])]


def every(store):
    """{column: its cells} of an open store."""
    return {tuple(r[c] for c in sql.CELL_COLUMN): unpack(r["cells"]) for r in store.rows(READ_ALL, sql.CELL_FIELDS)}


def _counts(row, tsc_hz):
    """What one result adds to its cell's counts, and its bound in ns (None: not below the timer's step, or its run's
    TSC rate unknown)."""
    state = State(row["state"])
    measured = row["ns"] is not None            # a figure in ns: only a state with figures has one
    return {"runs": 1, "measured": int(measured), "measured_disturbed": int(measured and bool(row["disturbed"])),
            "bound": int(state.bound), "bound_disturbed": int(state.bound and bool(row["disturbed"])),
            "failed": int(state.failed)}, (runfile.ns(row["bound"], tsc_hz) if state.bound else None)


def change(execute, changes):
    """Adds (sign 1) or takes out (sign -1) runs' results: changes are (run row, [result rows], sign).  A result added
    gets its cell's id in its row (`cell`), which its INSERT writes.  execute(statement, params) runs a statement in
    the caller's transaction.  Returns {column: ids of its cells whose lowest bound went with a result taken out}:
    refresh() them once those results are gone."""
    by_column = {}
    for run, rows, sign in changes:
        by_column.setdefault(column(run), []).append((run, rows, sign))
    next_id, stale = None, {}
    for col, items in by_column.items():
        cells = {tuple(c[f] for f in BENCHMARK): c for r in execute(READ, col).fetchall() for c in unpack(r[0])}
        for run, rows, sign in items:
            for row in rows:
                key = tuple(row[f] for f in BENCHMARK)
                cell = cells.get(key)
                if cell is None:
                    if next_id is None:     # ids are given out above the highest any column holds
                        next_id = 1 + max((c["id"] for r in execute("SELECT cells FROM cells").fetchall()
                                           for c in unpack(r[0])), default=0)
                    cell = cells[key] = dict(zip(BENCHMARK, key), id=next_id, bound_ns=None,
                                             **{c: 0 for c in COUNTS if c != "bound_ns"})
                    next_id += 1
                counts, bound_ns = _counts(row, run["tsc_hz"])
                for c, n in counts.items():
                    cell[c] += sign * n
                if bound_ns is not None:
                    _bound(cell, bound_ns, sign)
                if cell["bound_ns_runs"] == 0 and cell["bound_ns"] is not None:
                    stale.setdefault(col, set()).add(cell["id"])
                if sign > 0:
                    row["cell"] = cell["id"]
        left = sorted((c for c in cells.values() if c["runs"] > 0), key=lambda c: c["id"])
        _write(execute, col, left)
        stale[col] = stale.get(col, set()) & {c["id"] for c in left}
    return {col: ids for col, ids in stale.items() if ids}


def _write(execute, col, cells):
    execute(f"DELETE FROM cells WHERE {' AND '.join(f'{c} = ?' for c in sql.CELL_COLUMN)}", col)
    if cells:
        execute(sql.ADD_CELL, (*col, pack(cells)))


def _bound(cell, bound_ns, sign):
    """The cell's lowest bound and how many results have it, with one bound added or taken out."""
    if sign > 0:
        if cell["bound_ns"] is None or bound_ns < cell["bound_ns"]:
            cell["bound_ns"], cell["bound_ns_runs"] = bound_ns, 1
        elif bound_ns == cell["bound_ns"]:
            cell["bound_ns_runs"] += 1
    elif bound_ns == cell["bound_ns"]:
        cell["bound_ns_runs"] -= 1


def refresh(execute, stale):
    """The lowest bound of cells whose lowest went with results taken out (change()'s), from the results they hold."""
    for col, ids in stale.items():
        cells = [c for r in execute(READ, col).fetchall() for c in unpack(r[0])]
        for cell in cells:
            if cell["id"] in ids:
                known = [runfile.ns(b, tsc) for b, tsc in execute(
                    "SELECT s.bound, r.tsc_hz FROM results s JOIN runs r ON r.key = s.run_id "
                    f"WHERE s.cell = ? AND s.state IN ({', '.join('?' for _ in _BOUND_STATES)})",
                    (cell["id"], *_BOUND_STATES)).fetchall()]
                known = [b for b in known if b is not None]
                cell["bound_ns"] = min(known) if known else None
                cell["bound_ns_runs"] = known.count(cell["bound_ns"])
        _write(execute, col, cells)


# --- reading: a cell's figures ---------------------------------------------------------------------------------------

_MIDDLE = "SELECT ns FROM results WHERE cell = ? AND ns IS NOT NULL ORDER BY ns LIMIT ? OFFSET ?"
_RANGE = "SELECT MIN(ns), MAX(ns) FROM results WHERE cell = ?"
_ONE = "SELECT ns_lo, ns_hi FROM results WHERE cell = ? AND ns IS NOT NULL"


def figures(store, cell):
    """(median, lowest, highest) in ns of a cell with figures: the median of its results' figures as
    statistics.median takes it, and their range, or the one result's own range of repetitions."""
    n = cell["measured"]
    middle = [r["ns"] for r in store.rows(_MIDDLE, ("ns",), (cell["id"], 2 - n % 2, (n - 1) // 2))]
    median = middle[0] if n % 2 else (middle[0] + middle[1]) / 2
    (ends,) = store.rows(_ONE if n == 1 else _RANGE, ("lo", "hi"), (cell["id"],))
    return median, ends["lo"], ends["hi"]
