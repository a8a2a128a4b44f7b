"""A regbench result file as the report sees it: context, one Result per benchmark, histograms.

Google Benchmark writes every repetition and, with --benchmark_repetitions,
mean/median/stddev/cv aggregates.  Reports quote the median and use the
repetition spread (cv) as the noise of each counter, so this module folds
those entries into one Result per benchmark and never lets later code see
the raw layout.  A file that is not regbench's JSON raises ReportError with
the one-line reason the command line prints.
"""
import json
import math
import os
import re
import statistics
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from . import names

# Fields Google Benchmark writes for every run; everything else numeric is a counter.
_GB_FIELDS = {"name", "run_name", "run_type", "repetitions", "repetition_index", "threads", "iterations",
              "real_time", "cpu_time", "time_unit", "family_index", "per_family_instance_index",
              "aggregate_name", "aggregate_unit", "label", "error_occurred", "error_message"}
_BOUND = re.compile(r"<\s*([0-9.]+(?:[eE][-+]?[0-9]+)?)")


class ReportError(Exception):
    """A file the report cannot use; str() is `FILE: why (what to try)`."""

    def __init__(self, path, why, hint):
        super().__init__(f"{path}: {why} ({hint})")


@dataclass
class Measure:
    """One counter of one benchmark in one run, as a table cell needs it.

    state is ok (value is a number), below (under the timer's resolution;
    bound is that resolution), skipped, error, nan, or absent.  noise is the
    relative spread across repetitions (cv), None when unknown.
    """
    state: str
    value: Optional[float] = None
    noise: Optional[float] = None
    bound: Optional[float] = None
    reason: str = ""


ABSENT = Measure("absent")


@dataclass
class Result:
    """One benchmark of a run: its counters' medians and spreads, or why it has none."""
    name: names.Name
    state: str                       # ok, below, skipped, error
    counters: Dict[str, float] = field(default_factory=dict)
    noise: Dict[str, Optional[float]] = field(default_factory=dict)
    repetitions: int = 1
    bound: Optional[float] = None    # for below: the resolution the result is under
    reason: str = ""                 # for skipped/error/below: the message or label

    def measure(self, counter):
        """The Measure of one counter (absent when this benchmark has no such counter)."""
        if self.state in ("skipped", "error", "below"):
            # the bound is in TSC cycles: it says nothing about ns or bytes/s
            bound = self.bound if counter in ("cycles", "p50") else None
            return Measure(self.state, bound=bound, reason=self.reason)
        if counter not in self.counters:
            return ABSENT
        v = self.counters[counter]
        if v is None or not math.isfinite(v):
            return Measure("nan", reason=f"{counter} is not a number in the JSON")
        return Measure("ok", v, self.noise.get(counter))


@dataclass
class Histogram:
    """A lat/ sample histogram: counts[i] samples fell in [edges[i], edges[i+1])."""
    unit: str
    edges: List[float]
    counts: List[float]


@dataclass
class Run:
    """One result file (or several merged): where and how it was measured, and what."""
    paths: List[str]
    context: Dict[str, object]
    results: Dict[str, Result]
    histograms: Dict[str, Histogram]

    @property
    def path(self):
        return self.paths[0]

    def ctx(self, key, default=None):
        """A context value as text, default when absent or empty."""
        v = self.context.get(key)
        return default if v is None or v == "" else v

    def ctx_float(self, key):
        """A numeric context value, or None."""
        try:
            v = float(self.context.get(key))
        except (TypeError, ValueError):
            return None
        return v if math.isfinite(v) else None

    def measure(self, name, counter="cycles"):
        r = self.results.get(name)
        return r.measure(counter) if r else ABSENT

    @property
    def repetitions(self):
        return max((r.repetitions for r in self.results.values()), default=1)


def load(path):
    """Reads one regbench JSON file; raises ReportError naming the file when it cannot."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ReportError(path, e.strerror or str(e), "give the path of a regbench --benchmark_out file")
    except UnicodeDecodeError:
        raise ReportError(path, "not text", "give regbench's --benchmark_out_format=json output")
    if not text.strip():
        raise ReportError(path, "the file is empty", "did the run finish? re-run regbench or scripts/run")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReportError(path, f"not valid JSON (line {e.lineno} column {e.colno}: {e.msg})",
                          "write it with --benchmark_out_format=json; a cut-short run leaves broken JSON")
    return from_document(path, doc)


def from_document(path, doc):
    """Builds a Run from a parsed JSON document; path only names it in errors."""
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list) \
            or not isinstance(doc.get("context"), dict):
        raise ReportError(path, "not Google Benchmark JSON (no 'context' object and 'benchmarks' list)",
                          "give the file regbench wrote with --benchmark_out=FILE --benchmark_out_format=json")
    context = doc["context"]
    if "regbench_version" not in context and "target" not in context:
        raise ReportError(path, "Google Benchmark JSON, but not from regbench (no regbench_version or target "
                          "in its context)", "give a file written by regbench or scripts/run")
    entries = {}
    for i, b in enumerate(doc["benchmarks"]):
        if not isinstance(b, dict) or not isinstance(b.get("name"), str):
            raise ReportError(path, f"benchmark #{i + 1} has no name", "the file is damaged; re-run regbench")
        key = b.get("run_name") or b["name"]
        if b.get("run_type") == "aggregate" and key == b["name"] and b.get("aggregate_name"):
            key = key[: -len("_" + b["aggregate_name"])] if key.endswith("_" + b["aggregate_name"]) else key
        entries.setdefault(key, []).append(b)
    results = {key: _result(key, es) for key, es in entries.items()}
    return Run([path], context, results, _histograms(path, doc.get("histograms")))


def _counters(entry):
    return {k: (float(v) if v is not None else None) for k, v in entry.items()
            if k not in _GB_FIELDS and (isinstance(v, (int, float)) and not isinstance(v, bool) or v is None)}


def _result(key, entries):
    runs = [e for e in entries if e.get("run_type") != "aggregate"]
    aggs = {e.get("aggregate_name"): e for e in entries if e.get("run_type") == "aggregate"}
    first = (runs or entries)[0]
    name = names.parse(key)
    reps = int(first.get("repetitions") or len(runs) or 1)
    failed = [e for e in entries if e.get("error_occurred")]
    if failed:
        msg = str(failed[0].get("error_message") or "error: no message")
        state = "skipped" if msg.startswith("skipped:") else "error"
        return Result(name, state, repetitions=reps, reason=msg.split(":", 1)[1].strip() if ":" in msg else msg)

    median, cv, stddev, mean = (_counters(aggs[a]) if a in aggs else {} for a in ("median", "cv", "stddev", "mean"))
    samples = [_counters(e) for e in runs]
    counters, noise = {}, {}
    for c in sorted(set(median) | {c for s in samples for c in s}):
        vals = [s[c] for s in samples if s.get(c) is not None and math.isfinite(s[c])]
        if c in median:
            counters[c] = median[c]
        elif vals:
            counters[c] = statistics.median(vals)
        else:
            counters[c] = math.nan
        noise[c] = _noise(c, cv, stddev, mean, vals)
    if not any(v is not None and math.isfinite(v) for v in counters.values()):
        label = str(first.get("label") or "")
        if label.startswith("below timer resolution"):
            m = _BOUND.search(label)
            return Result(name, "below", repetitions=reps, bound=float(m.group(1)) if m else None, reason=label)
    return Result(name, "ok", counters, noise, reps, reason=str(first.get("label") or ""))


def _noise(c, cv, stddev, mean, vals):
    """Relative spread of counter c across repetitions: GB's cv, else stddev/mean, else from the runs."""
    if cv.get(c) is not None and math.isfinite(cv[c]):
        return cv[c]
    if stddev.get(c) is not None and mean.get(c):
        return abs(stddev[c] / mean[c])
    if len(vals) >= 2 and statistics.mean(vals):
        return abs(statistics.stdev(vals) / statistics.mean(vals))
    return None


def _histograms(path, obj):
    if obj is None:
        return {}
    if not isinstance(obj, dict):
        raise ReportError(path, "'histograms' is not an object", "the file is damaged; re-run regbench")
    out = {}
    for key, h in obj.items():
        try:
            edges, counts = [float(x) for x in h["edges"]], [float(x) for x in h["counts"]]
        except (TypeError, KeyError, ValueError):
            raise ReportError(path, f"histogram '{key}' lacks numeric edges and counts",
                              "the file is damaged; re-run regbench")
        if len(edges) != len(counts) + 1:
            raise ReportError(path, f"histogram '{key}' has {len(edges)} edges for {len(counts)} counts "
                              "(needs one more edge than counts)", "the file is damaged; re-run regbench")
        out[key] = Histogram(str(h.get("unit", "cycles")), edges, counts)
    return out


def merge(runs):
    """Several files of one machine and target as one run (later files win on the same name).

    A run split in parts (one family per invocation, say) reads as one report;
    files of different machines or targets belong side by side (--compare).
    """
    base = runs[0]
    for r in runs[1:]:
        for key in ("target", "cpu_model", "host_name"):
            if r.ctx(key) != base.ctx(key):
                raise ReportError(r.path, f"{key} is '{r.ctx(key)}', not '{base.ctx(key)}' as in {base.path}",
                                  "use --compare to put different machines or targets side by side")
    results, hists = {}, {}
    for r in runs:
        results.update(r.results)
        hists.update(r.histograms)
    return Run([p for r in runs for p in r.paths], dict(base.context), results, hists)


def label_runs(runs):
    """Short distinct labels for runs: the first context field that tells them apart, else the file name."""
    for key in ("target", "target_mapping", "accelerator", "cpu_model", "host_name", "regbench_version", "date"):
        labels = [str(r.ctx(key, "?")) for r in runs]
        if len(set(labels)) == len(labels):
            return labels
    stems = [os.path.splitext(os.path.basename(r.path))[0] for r in runs]
    if len(set(stems)) == len(stems):
        return stems
    return [f"run {i + 1}" for i in range(len(runs))]
