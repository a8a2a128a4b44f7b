"""A regbench result file as the store keeps it: its identity, its row in `runs`, its rows in the other tables.

The file is read once, as bytes, and everything comes from those bytes: the
stored JSON, the content hash that is the run's id, and the fields, which
model.load (the project's one reader of result files) takes from a private
copy, so a pipe works as an argument and the rows always match the JSON.
"""
import datetime
import hashlib
import itertools
import json
import re
import struct
import zlib

from regbench_base import contract, model
from regbench_base.state import State

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


def _number(f):
    """A number as the identity sees it: a whole number within a double's exact range is an integer, any other the
    double it is (so 4746, 4746.0 and 4.746e3 are one number)."""
    return int(f) if f.is_integer() and abs(f) < 2 ** 53 else f


def _integer(text):
    i = int(text)
    # an integer no double holds exactly stays as written
    return i if abs(i) < 2 ** 53 or float(i) != i else float(i)


_LONG_DIGITS = re.compile(rb"\d{16}")


def canonical(data):
    """(the run's identity, its parsed JSON): the identity is the SHA-256 of the JSON parsed with its numbers
    normalized and written back with keys sorted, so a re-indented copy, or one whose numbers another tool rewrote
    (a JSON pretty-printer may write 4746.0 as 4746), is the same run."""
    # an integer of 16 digits or more may be beyond a double's exact range; a file without one (the usual case)
    # is parsed without the per-integer call, which is a quarter of the time
    big = _integer if _LONG_DIGITS.search(data) else int
    doc = json.loads(data, parse_float=lambda t: _number(float(t)), parse_int=big)
    canon = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode("utf-8")).hexdigest(), doc


def utc(date):
    """An ISO 8601 date with its offset as UTC text that sorts in time order (YYYY-MM-DDTHH:MM:SSZ); None if none."""
    try:
        when = datetime.datetime.fromisoformat(str(date))
        if when.tzinfo is None:
            when = when.replace(tzinfo=datetime.timezone.utc)
        # year 1 at +14:00 is before the first instant a datetime holds, 9999-12-31 at -14:00 after the last
        return when.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    except (TypeError, ValueError, OverflowError):
        return None


def host(run):
    """The machine's name: the context's `host` (the fleet tags each run with its inventory name), else the hostname."""
    return str(run.ctx("host") or run.ctx("host_name") or "unknown")


def machine(row):
    """A run's machine (a row of `runs`): its machine_id where it has one, else its host.  Two machines may share a
    host name; every command tells machines apart by this, and names them by host (and id, where they clash)."""
    return row["machine_id"] or row["host"]


_MARKS = re.compile(r"\((?:R|TM)\)|\bProcessor\b", re.I)


def cpu(run):
    """The CPU as a reader names it: 'Intel Xeon @ 2.80GHz', 'AMD EPYC (Zen 5)' (the core, where regbench knows it)."""
    name = " ".join(_MARKS.sub(" ", str(run.ctx("cpu_model") or "unknown CPU")).split())
    uarch = run.ctx("cpu_uarch")
    return f"{name} ({uarch})" if uarch and str(uarch) not in name else name


def text(value):
    """A value as a text column holds it: a NUL (which PostgreSQL's text cannot hold) shown as U+2400."""
    return None if value is None else str(value).replace("\0", "\u2400")


def _text(run, key):
    return text(run.ctx(key))


def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def key(run_id):
    """The number the other tables know a run by: the first 60 bits of its id."""
    return int(run_id[:15], 16)


def meta_row(doc, run):
    """The row of `metas` of a run: its regbench object without the benchmarks, and the order of its ops."""
    # its texts as the run's results hold them (model.as_data), so that the names of both agree
    rb = {k: v for k, v in model.as_data("regbench", doc["regbench"]).items() if k not in ("benchmarks", "histograms")}
    rb["ops"] = list(dict.fromkeys(k.op for k in run.results))
    text = json.dumps(rb, sort_keys=True, separators=(",", ":")).encode("utf-8")
    return {"id": hashlib.sha256(text).hexdigest(), "regbench": zlib.compress(text, 6)}


def meta_of(data):
    """(model.Meta, op order) of a `metas` row's regbench (its compressed bytes)."""
    rb = json.loads(zlib.decompress(bytes(data)))
    return model._meta("metas", rb), rb["ops"]


def grid_of(hists):
    """(how many lat/ histograms, the grid they share or (None, None)) of a run's model.Histograms: a run has one
    timer step, so its histograms share one grid; those of a regbench older than the grid have none and are never
    merged with others."""
    grids = {h.grid for h in hists}
    return len(hists), (next(iter(grids)) if len(grids) == 1 and None not in grids else (None, None))


def run_row(run, data, run_id, meta, results):
    """The run's row of `runs` (sql.RUNS), as a dict by column; meta the id of its row of `metas`, results its rows
    of `results` (result_rows)."""
    row = {k: _text(run, k) for k in ("machine_id", "cpu_model", "cpu_uarch", "arch", "kernel", "firmware",
                                      "microcode", "env_vm", "topology", "target_kind", "target_mapping",
                                      "target_device", "target_bar", "target_what", "accelerator", "regbench_version",
                                      "regbench_commit", "regbench_build_type", "date", "interrupted")}
    row.update(id=run_id, host=text(host(run)), cpu=text(cpu(run)), target=_text(run, "target") or "unknown",
               tsc_hz=run.ctx_float("tsc_hz"), core_hz_estimate=run.ctx_float("core_hz_estimate"),
               time=utc(run.ctx("date")), added=now(), json_zlib=zlib.compress(data, 6), key=key(run_id), meta=meta,
               results=len(results), measured=sum(1 for r in results if State(r["state"]).figure))
    row["lat_histograms"], (row["grid_step"], row["grid_sub_buckets"]) = grid_of(
        [res.histogram for res in run.results.values() if res.histogram])
    return row


def label_rows(run, run_key):
    """The run's --benchmark_context pairs as rows of `labels`: the context's `labels` object where regbench writes
    one, and any context pair the contract does not declare (files of a regbench that wrote them beside its own)."""
    declared = contract.schema()["$defs"]["context"]["properties"]
    # regbench 0.1.0 wrote its labels among the context's own keys; the contract still declares those keys, marked
    # as set by --benchmark_context, so they are labels too.
    own = {k for k, d in declared.items() if not d.get("$comment", "").startswith("set by --benchmark_context")}
    pairs = {k: v for k, v in run.context.items() if k not in own and k != "labels"}
    if isinstance(run.context.get("labels"), dict):
        pairs.update(run.context["labels"])
    return [{"run_id": run_key, "key": text(k), "value": text(v if isinstance(v, str) else json.dumps(v))}
            for k, v in pairs.items()]


def pack(**columns):
    """Columns of numbers as the store keeps them: zlib of a JSON object, a column of whole numbers written as the
    differences from one to the next (histogram edges on a timer's grid then take a few bytes where their digits
    took ten)."""
    out = {}
    for name, xs in columns.items():
        whole = all(float(x).is_integer() and abs(x) < 2 ** 53 for x in xs)
        out[name] = {"deltas": [int(b) - int(a) for a, b in zip([0, *xs], xs)]} if whole else list(xs)
    return zlib.compress(json.dumps(out, separators=(",", ":")).encode("utf-8"), 9)


def unpack(data):
    """The columns pack() wrote, each a list of floats."""
    return {name: [float(x) for x in (itertools.accumulate(xs["deltas"]) if isinstance(xs, dict) else xs)]
            for name, xs in json.loads(zlib.decompress(bytes(data))).items()}


def pack_reps(reps):
    """A benchmark's repetitions (TSC cycles, six significant digits) as big-endian 32-bit floats, which hold six
    digits exactly: 4 bytes each, where their JSON took 9."""
    return struct.pack(f">{len(reps)}f", *reps)


def reps_of(data):
    """The repetitions pack_reps() wrote, to the same six digits; [] for none."""
    data = bytes(data or b"")
    return [float(f"{x:.6g}") for x in struct.unpack(f">{len(data) // 4}f", data)]


def histogram_rows(run, run_key):
    """A row of `histograms` per lat/ histogram of the run (with the model.Histogram, which `merged` adds up)."""
    return [{"run_id": run_key, "name": res.name, "step": res.histogram.grid[0] if res.histogram.grid else None,
             "sub_buckets": res.histogram.grid[1] if res.histogram.grid else None, "histogram": res.histogram,
             "buckets": pack(edges=res.histogram.edges, counts=res.histogram.counts)}
            for res in run.results.values() if res.histogram]


def histogram_of(row):
    """The model.Histogram of a row of `histograms`."""
    b = unpack(row["buckets"])
    grid = (row["step"], row["sub_buckets"]) if row["step"] is not None else None
    return model.Histogram("cycles", b["edges"], b["counts"], grid)


def result_rows(run, run_key):
    """A row of `results` (sql.RESULTS) per benchmark of the run, as dicts by column, in the run's order."""
    rows = []
    for key, res in run.results.items():
        family = run.meta.families.get(key.family)
        row = {"run_id": run_key, "name": text(res.name), "family": key.family, "op": key.op, "width": key.width,
               "strategy": key.strategy, "param": key.param, "space": res.space, "unit": family.unit if family else "",
               "state": str(res.state), "reason": text(res.reason),
               "bound": res.bound if res.state.bound else None, "repetitions": res.repetitions,
               "disturbed": res.disturbed}
        for counter in COUNTERS:
            m = res.measure(counter)
            ok = m.state.figure
            row[counter] = m.value if ok else None
            if counter in RANGED:
                row[counter + "_lo"] = min(m.reps) if ok else None
                row[counter + "_hi"] = max(m.reps) if ok else None
        reps = res.measure("cycles").reps if row["cycles"] is not None else None
        row["reps"] = pack_reps([float(f"{x:.6g}") for x in reps]) if reps else None
        tsc = run.ctx_float("tsc_hz")
        if row["ns"] is None and row["cycles"] is not None and tsc:
            # a file without the ns counter: regbench's ns is exactly cycles at the run's TSC rate
            for end in ("", "_lo", "_hi"):
                row["ns" + end] = row["cycles" + end] / tsc * 1e9
        rows.append(row)
    return rows
