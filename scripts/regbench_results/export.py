"""Exports of the store's results: CSV and JSON of the filtered results with their runs' columns, BMF of one testbed.

A row is one benchmark of one run: the run's identity and machine columns
(RUN_COLUMNS) beside the result's (RESULT_COLUMNS, as sql.RESULTS names them).
BMF is one report of one testbed: the newest run chosen, when the filters
leave one machine and target.

A CSV file is opened in spreadsheets, which take a cell starting with =, +,
-, @, a tab or a carriage return for a formula (CSV injection, as OWASP
describes it): a text cell starting so is written with a ' in front, which
the spreadsheet shows as text and does not keep.  Numbers are written as
they are (a negative figure is a number, not a formula).
"""
import csv
import io
import json

from . import bmf, history, query, reference, sql
from .errors import ResultsError

RUN_COLUMNS = ("id", "host", "machine_id", "cpu", "arch", "target", "accelerator", "kernel", "firmware", "microcode",
               "regbench_version", "regbench_commit", "date", "time")
RESULT_COLUMNS = tuple(f for f in sql.RESULT_FIELDS if f not in ("run_id", "reps"))


# What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection").
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def cell(value):
    """A CSV cell as a spreadsheet must take it: a text that would start a formula with a ' in front."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA) else value


def rows(store, selection):
    """The export's rows: dicts of run_* (RUN_COLUMNS, with labels) and the result's columns, runs oldest first."""
    runs = {r["key"]: r for r in selection.runs}
    order = {r["key"]: i for i, r in enumerate(selection.runs)}
    found = query.results(store, selection, ("run_id",) + RESULT_COLUMNS)
    found.sort(key=lambda r: order[r["run_id"]])
    out = []
    for r in found:
        run = runs[r["run_id"]]
        row = {f"run_{c}" if c != "id" else "run": run[c] for c in RUN_COLUMNS}
        row["labels"] = ",".join(f"{k}={v}" for k, v in sorted(run["labels"].items()))
        row.update((c, r[c]) for c in RESULT_COLUMNS)
        out.append(row)
    return out


def text(store, selection, fmt):
    """The export as text: csv, json or bmf."""
    if fmt == "bmf":
        testbeds = {(history.machine(r), reference.target_label(r)) for r in selection.runs}
        if len(testbeds) > 1:
            raise ResultsError("--format bmf", f"the runs chosen are {len(testbeds)} machine × target testbeds, and a "
                               "BMF report is one", "narrow them with --host, --machine or --target, one export each")
        newest = query.Selection(selection.runs[-1:], selection.patterns)
        return json.dumps(bmf.document(query.results(store, newest, sql.RESULT_FIELDS)), indent=2)
    data = rows(store, selection)
    if fmt == "json":
        return json.dumps({"results": data}, indent=2)
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=list(data[0]) if data else ["run"], lineterminator="\n")
    w.writeheader()
    w.writerows({k: cell(v) for k, v in row.items()} for row in data)
    return out.getvalue().rstrip("\n")
