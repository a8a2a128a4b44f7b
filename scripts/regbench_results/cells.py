"""Each reference table cell's counts kept in the store (the table `cells`), so that `table` reads a row and an index
range per cell, whatever the number of runs.

A cell is one benchmark (its name and the contract's fields) in one column of
the reference table: a machine (host, CPU, accelerator) and a target as
runfile.target_label names it.  Its row counts its results by what they say
(a figure, a bound under the timer's resolution, a failure, disturbed or not)
and keeps the lowest bound; the median and the range of its figures are read
off the index results_cell (cell, ns), which each result is in through its
`cell`.  add, delete, prune and retag keep the counts in step inside their own
transaction (Store.add, Store.remove, Store.retag), which one writer at a time
holds, as merged.py does for the lat/ histograms.
"""
from regbench_base.state import State

from . import runfile, sql

# The columns of `results` a cell counts, and those of a result that say which cell it is in (with its run's column).
FIELDS = ("run_id", "name", "family", "op", "width", "strategy", "param", "unit", "state", "ns", "bound", "disturbed")
BENCHMARK = sql.CELL_KEY[4:]
COLUMN = sql.CELL_KEY[:4]
_BOUND_STATES = tuple(str(s) for s in State if s.bound)


def column(run):
    """The reference table column of a run (a row of `runs`): host, CPU, accelerator ('' for none), target."""
    return run["host"], run["cpu"], run["accelerator"] or "", runfile.target_label(run)


def _counts(row, tsc_hz):
    """What one result adds to its cell: {count: 0 or 1}, and its bound in ns (None: not below the timer's step, or
    its run's TSC rate unknown)."""
    state = State(row["state"])
    measured = row["ns"] is not None            # a figure in ns: only a state with figures has one
    bound = state.bound
    return {"runs": 1, "measured": int(measured), "measured_disturbed": int(measured and bool(row["disturbed"])),
            "bound": int(bound), "bound_disturbed": int(bound and bool(row["disturbed"])),
            "failed": int(state.failed)}, (runfile.ns(row["bound"], tsc_hz) if bound else None)


def change(execute, many, changes):
    """Adds (sign 1) or takes out (sign -1) runs' results: changes are (run row, [result rows], sign).  A result added
    gets its cell's id in its row (`cell`), which its INSERT writes.  execute(statement, params) and many(statement,
    rows) run statements in the caller's transaction.  Returns the ids of the cells whose lowest bound went with a
    result taken out: refresh() them once those results are gone."""
    by_column = {}
    for run, rows, sign in changes:
        by_column.setdefault(column(run), []).append((run, rows, sign))
    fields = ", ".join(sql.CELL_FIELDS)
    next_id, stale, write = None, set(), {}
    for col, items in by_column.items():
        cells = {}
        for values in execute(f"SELECT {fields} FROM cells WHERE {' AND '.join(f'{c} = ?' for c in COLUMN)}",
                              col).fetchall():
            cell = dict(zip(sql.CELL_FIELDS, values))
            cells[tuple(cell[f] for f in BENCHMARK)] = cell
        for run, rows, sign in items:
            for row in rows:
                key = tuple(row[f] for f in BENCHMARK)
                cell = cells.get(key)
                if cell is None:
                    if next_id is None:
                        next_id = execute("SELECT COALESCE(MAX(id), 0) FROM cells").fetchone()[0] + 1
                    cell = cells[key] = dict(zip(sql.CELL_KEY, col + key), id=next_id, bound_ns=None,
                                             **{c: 0 for c in sql.CELL_COUNTS if c != "bound_ns"})
                    next_id += 1
                counts, bound_ns = _counts(row, run["tsc_hz"])
                for c, n in counts.items():
                    cell[c] += sign * n
                if bound_ns is not None:
                    _bound(cell, bound_ns, sign)
                if cell["bound_ns_runs"] == 0 and cell["bound_ns"] is not None:
                    stale.add(cell["id"])
                if sign > 0:
                    row["cell"] = cell["id"]
                write[cell["id"]] = cell
    ids = sorted(write)
    for part in _parts(ids):
        execute(f"DELETE FROM cells WHERE id IN ({', '.join('?' for _ in part)})", tuple(part))
    many(sql.ADD_CELL, [tuple(write[i][f] for f in sql.CELL_FIELDS) for i in ids if write[i]["runs"] > 0])
    gone = {i for i in ids if write[i]["runs"] <= 0}
    return sorted(stale - gone)


def _bound(cell, bound_ns, sign):
    """The cell's lowest bound and how many results have it, with one bound added or taken out."""
    if sign > 0:
        if cell["bound_ns"] is None or bound_ns < cell["bound_ns"]:
            cell["bound_ns"], cell["bound_ns_runs"] = bound_ns, 1
        elif bound_ns == cell["bound_ns"]:
            cell["bound_ns_runs"] += 1
    elif bound_ns == cell["bound_ns"]:
        cell["bound_ns_runs"] -= 1


def refresh(execute, ids):
    """The lowest bound of cells whose lowest went with results taken out, from the results they hold now."""
    for i in ids:
        known = [runfile.ns(b, tsc) for b, tsc in execute(
            "SELECT s.bound, r.tsc_hz FROM results s JOIN runs r ON r.key = s.run_id "
            f"WHERE s.cell = ? AND s.state IN ({', '.join('?' for _ in _BOUND_STATES)})", (i, *_BOUND_STATES))]
        known = [b for b in known if b is not None]
        low = min(known) if known else None
        execute("UPDATE cells SET bound_ns = ?, bound_ns_runs = ? WHERE id = ?", (low, known.count(low), i))


def _parts(ids, size=500):
    return [ids[i:i + size] for i in range(0, len(ids), size)]


# --- reading: a cell's figures ---------------------------------------------------------------------------------------

READ = f"SELECT {', '.join(sql.CELL_FIELDS)} FROM cells WHERE {' AND '.join(f'{c} = ?' for c in COLUMN)}"
_MIDDLE = "SELECT ns FROM results WHERE cell = ? AND ns IS NOT NULL ORDER BY ns LIMIT ? OFFSET ?"
_RANGE = "SELECT MIN(ns), MAX(ns) FROM results WHERE cell = ?"
_ONE = "SELECT ns_lo, ns_hi FROM results WHERE cell = ? AND ns IS NOT NULL"


def of_column(store, col):
    """The rows of `cells` of one column (column()'s), as dicts."""
    return store.rows(READ, sql.CELL_FIELDS, col)


def figures(store, cell):
    """(median, lowest, highest) in ns of a cell with figures (a row of `cells`): the median of its results' figures
    as statistics.median takes it, and their range, or the one result's own range of repetitions."""
    n = cell["measured"]
    middle = [r["ns"] for r in store.rows(_MIDDLE, ("ns",), (cell["id"], 2 - n % 2, (n - 1) // 2))]
    median = middle[0] if n % 2 else (middle[0] + middle[1]) / 2
    (ends,) = store.rows(_ONE if n == 1 else _RANGE, ("lo", "hi"), (cell["id"],))
    return median, ends["lo"], ends["hi"]
