"""A regbench result file as the store keeps it: its identity, its row in `runs`, a row per benchmark in `results`.

The file is read once, as bytes, and everything comes from those bytes: the
stored JSON, the content hash that is the run's id, and the fields, which
model.loads (the project's one reader of result files) takes from the same
bytes, so a pipe works as an argument and the rows always match the JSON.
"""
import datetime
import hashlib
import json
import re

from regbench_base import model

from .errors import ResultsError

COUNTERS = ("cycles", "core_cycles", "ns", "bytes_per_second")
# the counters whose repetition range the store keeps beside the median (cycles_lo, cycles_hi, ns_lo, ns_hi)
RANGED = ("cycles", "ns")


def read(path):
    """(model.Run, the file's bytes) of a result file; ResultsError naming path when it is not a regbench run."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except IsADirectoryError:
        raise ResultsError(path, "a folder, not a file", "give a regbench --benchmark_out file")
    except OSError as e:
        raise ResultsError(path, e.strerror or str(e), "give the path of a regbench --benchmark_out file")
    return parse(data, path), data


def parse(data, name):
    """The model.Run of a result file's bytes; errors name it `name`."""
    try:
        return model.loads(data, name)
    except model.ReportError as e:
        raise ResultsError(str(e)) from None


def digest(data):
    """The run's identity: SHA-256 of its JSON, keys sorted and spacing dropped (a re-indented copy is the same run)."""
    doc = json.loads(data)
    canon = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


def host(run):
    """The machine's name: the context's `host` (the fleet tags each run with its inventory name), else the hostname."""
    return str(run.ctx("host") or run.ctx("host_name") or "unknown")


_MARKS = re.compile(r"\((?:R|TM)\)|\bProcessor\b", re.I)


def cpu(run):
    """The CPU as a reader names it: 'Intel Xeon @ 2.80GHz', 'AMD EPYC (Zen 5)' (the core, where regbench knows it)."""
    name = " ".join(_MARKS.sub(" ", str(run.ctx("cpu_model") or "unknown CPU")).split())
    uarch = run.ctx("cpu_uarch")
    return f"{name} ({uarch})" if uarch and str(uarch) not in name else name


def _text(run, key):
    v = run.ctx(key)
    return None if v is None else str(v)


def run_row(run, data, run_id):
    """The run's row of `runs` (sql.RUNS), as a dict by column."""
    row = {k: _text(run, k) for k in ("cpu_model", "cpu_uarch", "kernel", "env_vm", "topology", "target_kind",
                                      "target_mapping", "target_device", "target_bar", "target_what", "accelerator",
                                      "regbench_version", "regbench_build_type", "date", "interrupted")}
    row.update(id=run_id, host=host(run), cpu=cpu(run), target=_text(run, "target") or "unknown",
               tsc_hz=run.ctx_float("tsc_hz"), core_hz_estimate=run.ctx_float("core_hz_estimate"),
               added=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
               json=data.decode("utf-8"))
    return row


def result_rows(run, run_id):
    """A row of `results` (sql.RESULTS) per benchmark of the run, as dicts by column, in the run's order."""
    rows = []
    for key, res in run.results.items():
        family = run.meta.families.get(key.family)
        row = {"run_id": run_id, "name": res.name, "family": key.family, "op": key.op, "width": key.width,
               "strategy": key.strategy, "param": key.param, "space": res.space, "unit": family.unit if family else "",
               "state": str(res.state), "reason": res.reason,
               "bound": res.bound if res.state.bound else None, "repetitions": res.repetitions,
               "disturbed": res.disturbed}
        for counter in COUNTERS:
            m = res.measure(counter)
            ok = m.state.figure
            row[counter] = m.value if ok else None
            if counter in RANGED:
                row[counter + "_lo"] = min(m.reps) if ok else None
                row[counter + "_hi"] = max(m.reps) if ok else None
        tsc = run.ctx_float("tsc_hz")
        if row["ns"] is None and row["cycles"] is not None and tsc:
            # a file without the ns counter: regbench's ns is exactly cycles at the run's TSC rate
            for end in ("", "_lo", "_hi"):
                row["ns" + end] = row["cycles" + end] / tsc * 1e9
        rows.append(row)
    return rows
