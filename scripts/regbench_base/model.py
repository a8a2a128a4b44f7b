"""A regbench result file as the report sees it: context, what each benchmark is, one Result per benchmark.

Google Benchmark writes every repetition and, with --benchmark_repetitions,
mean/median/stddev/cv aggregates.  Reports quote the median, show the
repetition spread (cv) as the noise of each counter and compare runs over
every repetition's value (stats), so this module folds those entries into
one Result per benchmark, keeping each repetition's counters, and never lets
later code see the raw layout.  What a benchmark is (family, op, width,
strategy, param, space, state) comes from the file's `regbench` object
(the contract, bench/regbench.schema.json, which load() validates every
file against), never from its name: the rest of the report finds
benchmarks by those fields (Key) and takes family texts, display order and
the kernel's strategies from the same object (Meta).  A file that is not
regbench's JSON, or breaks the contract, raises ReportError with the
one-line reason the command line prints.
"""
import dataclasses
import json
import math
import os
import statistics
from dataclasses import dataclass, field
from typing import Dict, List, NamedTuple, Optional, Tuple

from . import contract, names, text
from .state import Gap, State
from .text import printable

CONTRACT = contract.version()

# Fields Google Benchmark writes for every run (the schema's); everything else in an entry is a counter.
_GB_FIELDS = contract.run_fields()
_DAMAGED = "the file is damaged or was edited; re-run regbench"


class ReportError(Exception):
    """A file the report cannot use; str() is `FILE: why (what to try)`."""

    def __init__(self, path, why, hint):
        # reasons quote names and values from the file: their control characters must not break the one line
        super().__init__(printable(f"{path}: {why} ({hint})"))


class Key(NamedTuple):
    """What a benchmark is; the same benchmark in two runs has the same Key whatever its name."""
    family: str
    op: str                      # read, write, fromio, toio, set, mfence, ...
    width: Optional[int] = None  # bits, None where the op has none (copies, barriers)
    strategy: str = ""           # "" for barrier/
    param: Optional[int] = None  # _rep count or copy size, None where the family sweeps nothing


@dataclass
class Family:
    """regbench.families[name]: what a family measures, its unit, whether its values move in timer steps, and what a
    report needs to know of it: the question it answers (role), its headline rows, its run-to-run spread."""
    name: str
    what: str
    unit: str                    # what one unit of `cycles` is: access, read, element, copy, ...
    param: Optional[str]         # None, "count" or "size"
    sampled: bool
    below_step: str = ""         # a sampled family: what to read where an access is below one timer step
    role: Optional[str] = None   # serialized, latency, issue, copies, ordering, cookie (the schema says each)
    headline: Tuple[str, ...] = ()   # op and width ("read32") of readl's rows a summary shows first, or "all"
    spread: Optional[float] = None   # how far its results move between two runs of one build; None: not measured

    def in_headline(self, key, readl):
        """Whether benchmark key (of this family) is one of its headline rows, readl being the kernel's readl."""
        return "all" in self.headline or (key.strategy == readl and bool(key.width)
                                          and names.opw(key.op, key.width) in self.headline)


@dataclass
class Meta:
    """A run's regbench object without the benchmarks: families, strategies, display order, kernel strategies."""
    families: Dict[str, Family]
    kinds: Dict[str, str]        # strategy -> accessor | variant | reference
    help: Dict[str, str]         # strategy -> which instructions it issues
    family_order: List[str]
    strategy_order: List[str]
    kernel: Dict[str, str]       # single, relaxed, copy -> strategy (relaxed: absent where the file has no such)

    def family_key(self, family):
        """Sort key putting families in the declared order, undeclared ones after it by name."""
        order = self.family_order
        return (order.index(family), "") if family in order else (len(order), family)

    def strategy_key(self, strategy):
        """Sort key: the declared order, undeclared strategies next by name, reference rows (libc) last."""
        order = self.strategy_order
        pos = (order.index(strategy), "") if strategy in order else (len(order), strategy)
        return (self.kinds.get(strategy) == "reference",) + pos

    def display_key(self, key):
        """Sort key of a Key in display order: family, op, width, strategy, count or size."""
        return (self.family_key(key.family), key.op, key.width or 0, self.strategy_key(key.strategy), key.param or 0)

    def is_reference(self, strategy):
        return self.kinds.get(strategy) == "reference"

    def sampled(self, family):
        f = self.families.get(family)
        return bool(f and f.sampled)

    def family_of(self, role):
        """The family (its name) that answers role (Family.role), the first in display order; None when no family
        of the runs does."""
        return next((f for f in sorted(self.families, key=self.family_key) if self.families[f].role == role), None)

    @staticmethod
    def union(metas):
        """The metadata of several runs as one: descriptions of the first run that has them, its order first."""
        first = metas[0]
        out = Meta({}, {}, {}, [], [], dict(first.kernel))
        for m in metas:
            for mine, theirs in ((out.families, m.families), (out.kinds, m.kinds), (out.help, m.help)):
                for k, v in theirs.items():
                    mine.setdefault(k, v)
            out.family_order += [f for f in m.family_order if f not in out.family_order]
            out.strategy_order += [s for s in m.strategy_order if s not in out.strategy_order]
        return out


def meta(runs):
    """The metadata of all runs together (comparisons order and describe by the union)."""
    return Meta.union([r.meta for r in runs])


@dataclass
class Measure:
    """One counter of one benchmark in one run, as a table cell needs it.

    state is the benchmark's State (a figure in value where it has one;
    bound, the timer's resolution, where it is under it), or a Gap when the
    benchmark has no figure for this counter.  noise is the
    relative spread across repetitions (cv), None when unknown; reps the
    value of every repetition (the one value when the file has no
    repetitions); runs, for several runs of one build taken together, each
    run's median (empty for a single run).
    """
    state: object                    # State or Gap
    value: Optional[float] = None
    noise: Optional[float] = None
    bound: Optional[float] = None
    reason: str = ""
    reps: Tuple[float, ...] = ()
    runs: Tuple[float, ...] = ()


ABSENT = Measure(Gap.ABSENT)

# A sampled result's interval as two counters (Result.measure): its low and high ends, TSC cycles.
INTERVAL = ("interval_low", "interval_high")


@dataclass
class Histogram:
    """A lat/ sample histogram: counts[i] samples fell in [edges[i], edges[i+1]).

    grid is (timer step, buckets per power of two) where regbench binned on
    its fixed grid: histograms with equal grids add up (distribution.merge);
    None for files older than the grid, whose bins are their own.
    """
    unit: str
    edges: List[float]
    counts: List[float]
    grid: Optional[Tuple[float, int]] = None


@dataclass
class Result:
    """One benchmark of a run: what it is, its counters' medians and spreads, or why it has none."""
    name: str                        # its name in the file: an identifier, never taken apart
    key: Key
    state: State
    space: str = "mmio"              # mmio, pio or region (pread/pwrite): where it ran
    pair: Optional[str] = None       # for a port benchmark beside MMIO: the name of its MMIO counterpart
    counters: Dict[str, float] = field(default_factory=dict)
    noise: Dict[str, Optional[float]] = field(default_factory=dict)
    reps: Dict[str, List[float]] = field(default_factory=dict)   # counter -> its finite value in each repetition
    runs: Dict[str, List[float]] = field(default_factory=dict)   # counter -> each run's median (several runs: group)
    repetitions: int = 1
    bound: Optional[float] = None    # for below: the resolution the result is under
    reason: str = ""                 # for skipped/error/below: why; for ok: the label
    histogram: Optional[Histogram] = None
    disturbed: int = 0               # repetitions measured while the machine was disturbed
    note: str = ""                   # regbench's note on what the figure holds beyond the access, or ""
    failed: List[str] = field(default_factory=list)   # error messages of repetitions that failed
    # lat/, flush/: the 95% interval of the mean cost (TSC cycles) from every repetition's dithered samples; None
    # for other families, for several runs taken together, and in files older than the field
    interval: Optional[Tuple[float, float]] = None
    dithered: bool = False           # its figure is a dithered mean (the file gave an interval): no timer steps
    pooled: int = 0                  # several runs taken together: their repetitions summed, which disturbed and
                                     # failed count over (they are summed too); 0 for one run

    # what disturbed and failed are out of: one run's repetitions, or several runs' together
    out_of = property(lambda self: self.pooled or self.repetitions)

    family = property(lambda self: self.key.family)
    op = property(lambda self: self.key.op)
    width = property(lambda self: self.key.width)
    strategy = property(lambda self: self.key.strategy)
    param = property(lambda self: self.key.param)

    def measure(self, counter="cycles"):
        """The Measure of one counter (absent when this benchmark has no such counter).

        INTERVAL's names are the ends of `interval` (of cycles), which tables show as counters.
        """
        if counter in INTERVAL:
            if self.interval is None:
                return ABSENT
            return Measure(self.state, self.interval[INTERVAL.index(counter)]) if self.state.figure else \
                Measure(self.state, bound=self.bound, reason=self.reason)
        if not self.state.figure:
            # the bound is in timer ticks: it says nothing about ns or bytes/s
            bound = self.bound if counter in ("cycles", "p50") else None
            return Measure(self.state, bound=bound, reason=self.reason)
        v = self.counters.get(counter)
        if v is None or not math.isfinite(v):
            # regbench omits non-finite counters; every measured benchmark has cycles
            if counter == "cycles" or counter in self.counters:
                return Measure(Gap.NAN, reason=f"{counter} is not a number in the JSON")
            return ABSENT
        return Measure(self.state, v, self.noise.get(counter), reps=tuple(self.reps.get(counter) or (v,)),
                       runs=tuple(self.runs.get(counter, ())))


@dataclass
class Run:
    """One result file (or several merged), or several runs of one build (group): where and how, and what."""
    paths: List[str]
    context: Dict[str, object]
    results: Dict[Key, Result]
    meta: Meta
    runs: int = 1                # how many runs of one build it takes together (group)
    # the text of each source that cannot be read twice (a pipe, /dev/stdin), by path: the report's copy
    read_once: Dict[str, str] = field(default_factory=dict)

    @property
    def path(self):
        return self.paths[0]

    def ctx(self, key, default=None):
        """A context value as text, or the label of that name (--benchmark_context), default when absent or empty."""
        v = self.context.get(key, (self.context.get("labels") or {}).get(key))
        return default if v is None or v == "" else v

    def timer_counter(self):
        """The counter the run's timer read: "TSC" or "generic counter" (text.timer_counter)."""
        return text.timer_counter(self.ctx("timer_counter"), self.ctx("arch"))

    def ctx_float(self, key):
        """A numeric context value, or None."""
        try:
            v = float(self.ctx(key))
        except (TypeError, ValueError):
            return None
        return v if math.isfinite(v) else None

    def find(self, family, op, width=None, strategy="", param=None):
        """The Result of the benchmark with these fields, or None."""
        return self.results.get(Key(family, op, width, strategy, param))

    def named(self, name):
        """The Result of the benchmark called name in the file, or None."""
        return next((r for r in self.results.values() if r.name == name), None)

    def measure(self, key, counter="cycles"):
        r = self.results.get(key)
        return r.measure(counter) if r else ABSENT

    def add(self, result):
        self.results[result.key] = result

    @property
    def repetitions(self):
        return max((r.repetitions for r in self.results.values()), default=1)

    @property
    def repetitions_text(self):
        """How many repetitions its benchmarks had: "3 repetitions", or with adaptive ones "3 to 9 repetitions"."""
        counts = [r.repetitions for r in self.results.values() if r.state.figure] or [self.repetitions]
        least, most = min(counts), max(counts)
        return f"{least} to {most} repetitions" if least != most else f"{most} repetition" + ("s" if most != 1 else "")


def load(path):
    """Reads one regbench JSON file and validates it against the contract; raises ReportError naming the file."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ReportError(path, e.strerror or str(e), "give the path of a regbench --benchmark_out file")
    run = loads(data, path)
    if not os.path.isfile(path):
        # a pipe or a device cannot be read twice: the report keeps the text it read
        run.read_once[path] = data.decode("utf-8")
    return run


def loads(data, name):
    """The Run of a result file's bytes, validated against the contract; ReportError naming it `name`."""
    return from_document(name, document(data, name))


def document(data, name, parse_float=None, parse_int=None):
    """The parsed JSON of a result file's bytes, not yet validated; ReportError naming it `name`.  parse_float and
    parse_int stand in for the contract's checks of each number (contract.parse): the store counts what a run's
    identity needs while the file is parsed, so that it is parsed once."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ReportError(name, "not text", "give regbench's --benchmark_out_format=json output")
    if not text.strip():
        raise ReportError(name, "the file is empty", "did the run finish? re-run regbench or scripts/run")
    try:
        doc = contract.parse(text, parse_float, parse_int)
    except json.JSONDecodeError as e:
        raise ReportError(name, f"not valid JSON (line {e.lineno} column {e.colno}: {e.msg})",
                          "write it with --benchmark_out_format=json; a cut-short run leaves broken JSON")
    except ValueError as e:
        # valid JSON beyond the contract or what Python reads: NaN, a number no double holds, 4300 digits, deep nesting
        raise ReportError(name, f"JSON this report cannot read ({e})", _DAMAGED)
    return doc


def from_document(path, doc):
    """Builds a Run from a parsed JSON document; path only names it in errors.

    Whose file it is and which contract it was written for decide the hint
    (another program's, an older regbench's, a newer contract); the schema
    decides every field's type; what remains here are the references
    between fields, which a schema cannot state.
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list) \
            or not isinstance(doc.get("context"), dict):
        raise ReportError(path, "not Google Benchmark JSON (no 'context' object and 'benchmarks' list)",
                          "give the file regbench wrote with --benchmark_out=FILE --benchmark_out_format=json")
    context = doc["context"]
    rb = doc.get("regbench")
    if rb is None:
        if "regbench_version" in context or "target" in context:
            raise ReportError(path, "written by a regbench older than the metadata contract (no 'regbench' object)",
                              "re-run it with this regbench")
        raise ReportError(path, "Google Benchmark JSON, but not from regbench (no 'regbench' object)",
                          "give a file written by regbench or scripts/run")
    if isinstance(rb, dict) and rb.get("contract") != CONTRACT:
        raise ReportError(path, f"written for metadata contract {json.dumps(rb.get('contract'))}; these scripts read "
                          f"contract {CONTRACT}", "use the scripts of the regbench that wrote it")
    why = contract.problem(doc)
    if why:
        raise ReportError(path, why, _DAMAGED)
    doc = as_data(path, doc)
    context, rb = doc["context"], doc["regbench"]
    m = _meta(path, rb)
    described = rb["benchmarks"]
    entries = {}
    for b in doc["benchmarks"]:
        name = b.get("run_name") or b["name"]
        if name not in described:
            raise ReportError(path, f"benchmark '{name}' has no entry in regbench.benchmarks", _DAMAGED)
        entries.setdefault(name, []).append(b)
    results = {}
    for name, es in entries.items():
        res = _result(name, es, _entry(path, m, described, name))
        if res.key in results:
            raise ReportError(path, f"benchmarks '{results[res.key].name}' and '{name}' are the same "
                              "family/op/width/strategy/param in regbench.benchmarks", _DAMAGED)
        results[res.key] = res
    by_name = {r.name: r for r in results.values()}
    for name, h in _histograms(path, rb.get("histograms", {})).items():
        if name not in by_name:
            raise ReportError(path, f"histogram '{name}' is of no benchmark in the file", _DAMAGED)
        by_name[name].histogram = h
    return Run([path], context, results, m)


def as_data(path, v):
    """A parsed run file (or a part of it) with every text, keys too, on one line (text.printable): a run's text is
    shown as data wherever it lands (a terminal, a Markdown file, a chart), and a newline, an escape sequence or a
    right-to-left override in it cannot start a line, a heading or a colour of its own.  The file itself, the one the
    store and the report keep, is left as it was; a text already printable is the same object."""
    if isinstance(v, str):
        return printable(v)
    if isinstance(v, list):
        return [as_data(path, x) for x in v]
    if isinstance(v, dict):
        out = {printable(k): as_data(path, x) for k, x in v.items()}
        if len(out) != len(v):
            raise ReportError(path, "two names differ only in control characters", _DAMAGED)
        return out
    return v


# --- references between fields: what the schema cannot say ---------------------------------

def _ref(path, where, value, known, what):
    """value when it names one of known; else the one line `where: expected what, got value`."""
    if value not in known:
        raise ReportError(path, f"{where}: expected {what}, got {contract.quoted(value)}", _DAMAGED)
    return value


# readl_relaxed's strategy in files written before kernel_strategies named it (see _meta).
_RELAXED = "relaxed"


# What regbench's families were to a report before its files said so (role, headline and spread in
# regbench.families): the rows family.c had when the fields came, for files that predate them.  No reader
# looks a family up by its name anywhere else; a family of such a file that is not here has no role.
_EARLIER = {"lat": ("serialized", ("read32", "read64"), 0.30), "chain": ("latency", ("read32", "read64"), 0.02),
            "thrpt": ("issue", ("read32", "read64", "write32", "write64"), 0.05), "flush": (None, ("write32",), 0.40),
            "rep": (None, ("read32",), 0.40), "copy": ("copies", (), 0.80), "barrier": ("ordering", ("all",), 0.05),
            "dispatch": ("cookie", ("all",), 0.40)}


def _family(name, f):
    """A Family from regbench.families[name]; a file written before role, headline and spread takes _EARLIER's."""
    role, headline, spread = (f.get("role"), tuple(f["headline"]), f.get("spread")) if "headline" in f \
        else _EARLIER.get(name, (None, (), None))
    return Family(name, f["what"], f["unit"], f["param"], f["sampled"], f.get("below_step", f.get("instead", "")),
                  role, headline, spread)


def _meta(path, rb):
    families = {name: _family(name, f) for name, f in rb["families"].items()}
    strategies = rb["strategies"]
    kernel = {k: rb["kernel_strategies"][k] for k in ("single", "relaxed", "copy") if k in rb["kernel_strategies"]}
    for k, v in kernel.items():
        _ref(path, f"regbench.kernel_strategies.{k}", v, strategies, "a strategy of regbench.strategies")
    if "relaxed" not in kernel and kernel["single"] != _RELAXED and _RELAXED in strategies:
        # a file written before the field: where readl was another strategy, readl_relaxed was always `relaxed`
        # (before regbench had the kernel's own readl, readl itself was `relaxed` and there is no other)
        kernel["relaxed"] = _RELAXED
    return Meta(families, {n: s["kind"] for n, s in strategies.items()}, {n: s["help"] for n, s in strategies.items()},
                rb["order"]["families"], rb["order"]["strategies"], kernel)


def _entry(path, m, described, name):
    """(Key, state, space, pair, bound, reason, disturbed, note, interval) of regbench.benchmarks[name].

    disturbed (repetitions measured on a disturbed machine), note and
    interval are optional: files of regbench versions that did not write
    them have none.
    """
    e = described[name]
    where = contract.field(["regbench", "benchmarks", name])
    key = Key(_ref(path, f"{where}.family", e["family"], m.families, "a family of regbench.families"),
              e["op"], e["width"],
              _ref(path, f"{where}.strategy", e["strategy"], set(m.kinds) | {""},
                   "\"\" or a strategy of regbench.strategies"),
              e["param"])
    pair = e.get("pair")
    if pair is not None:
        _ref(path, f"{where}.pair", pair, described, "a benchmark of regbench.benchmarks")
    interval = e.get("interval")
    if interval is not None and (len(interval) != 2 or not interval[0] <= interval[1]):
        got = ", ".join(contract.quoted(v) for v in interval[:3]) + (", ..." if len(interval) > 3 else "")
        raise ReportError(path, f"{where}.interval: expected [low, high], low at most high, got [{got}]", _DAMAGED)
    return (key, State(e["state"]), e["space"], pair, e.get("bound"), e["reason"], e.get("disturbed", 0),
            e.get("note", ""), tuple(float(v) for v in interval) if interval is not None else None)


def _histograms(path, obj):
    out = {}
    for name, h in obj.items():
        where = contract.field(["regbench", "histograms", name])
        edges, counts = [float(x) for x in h["edges"]], [float(x) for x in h["counts"]]
        if len(edges) != len(counts) + 1:
            raise ReportError(path, f"{where}.edges: expected one more edge than counts, got {len(edges)} edges for "
                              f"{len(counts)} counts", _DAMAGED)
        if any(b <= a for a, b in zip(edges, edges[1:])):
            raise ReportError(path, f"{where}.edges: expected ascending bin edges, got {contract.quoted(h['edges'])}",
                              _DAMAGED)
        grid = h.get("grid")
        out[name] = Histogram(h.get("unit", "cycles"), edges, counts,
                              (float(grid["step"]), int(grid["sub_buckets"])) if grid else None)
    return out


# --- Google Benchmark's entries -----------------------------------------------------------

def _counters(entry):
    return {k: float(v) for k, v in entry.items() if k not in _GB_FIELDS}     # the schema: every other field a number


def _result(name, entries, described):
    key, state, space, pair, bound, reason, disturbed, note, interval = described
    runs = [e for e in entries if e.get("run_type") != "aggregate"]
    aggs = {e.get("aggregate_name"): e for e in entries if e.get("run_type") == "aggregate"}
    first = (runs or entries)[0]
    reps = int(first.get("repetitions") or len(runs) or 1)
    # a repetition that failed has no values (Google Benchmark leaves it out of the aggregates too)
    failed = [str(e.get("error_message") or "failed") for e in runs if e.get("error_occurred")]
    runs = [e for e in runs if not e.get("error_occurred")]
    if not state.figure:
        return Result(name, key, state, space, pair, repetitions=reps, bound=bound if state.bound else None,
                      reason=reason, disturbed=disturbed, note=note, failed=failed, interval=interval,
                      dithered=interval is not None)

    median, cv, stddev, mean = (_counters(aggs[a]) if a in aggs else {} for a in ("median", "cv", "stddev", "mean"))
    samples = [_counters(e) for e in runs]
    counters, noise, values = {}, {}, {}
    for c in sorted(set(median) | {c for s in samples for c in s}):
        vals = [s[c] for s in samples if s.get(c) is not None and math.isfinite(s[c])]
        if c in median:
            counters[c] = median[c]
        elif vals:
            counters[c] = statistics.median(vals)
        else:
            counters[c] = math.nan
        noise[c] = _noise(c, cv, stddev, mean, vals)
        values[c] = vals
    return Result(name, key, state, space, pair, counters, noise, values, repetitions=reps,
                  reason=str(first.get("label") or ""), disturbed=disturbed, note=note, failed=failed,
                  interval=interval, dithered=interval is not None)


def _noise(c, cv, stddev, mean, vals):
    """Relative spread of counter c across repetitions: GB's cv, else stddev/mean, else from the runs."""
    if cv.get(c) is not None and math.isfinite(cv[c]):
        return cv[c]
    if stddev.get(c) is not None and mean.get(c):
        return abs(stddev[c] / mean[c])
    if len(vals) >= 2 and statistics.mean(vals):
        return abs(statistics.stdev(vals) / statistics.mean(vals))
    return None


def merge(runs):
    """Several files of one machine and target as one run (later files win on the same benchmark).

    A run split in parts (one family per invocation, say) reads as one report;
    files of different machines or targets belong side by side (--compare).
    """
    base = runs[0]
    for r in runs[1:]:
        for key in ("target", "cpu_model", "host_name"):
            if r.ctx(key) != base.ctx(key):
                raise ReportError(r.path, f"{key} is '{r.ctx(key)}', not '{base.ctx(key)}' as in {base.path}",
                                  "use --compare to put different machines or targets side by side")
    results = {}
    for r in runs:
        results.update(r.results)
    return Run([p for r in runs for p in r.paths], dict(base.context), results, meta(runs),
               read_once={p: t for r in runs for p, t in r.read_once.items()})


def group(runs):
    """Several runs of one build (the same --names label) as one side of a comparison.

    Each counter is the median of the runs' medians, and keeps every run's
    median (Result.runs) and every repetition: between runs a whole run moves
    (other physical pages, another core clock), which repetitions within one
    run cannot show, so comparisons of groups take the run as their unit.
    A benchmark that is not measured in every run takes the state, reason and
    bound of the first run that did not measure it, saying in how many runs.
    """
    if len(runs) == 1:
        return runs[0]
    keys = list(dict.fromkeys(k for r in runs for k in r.results))
    results = {}
    for key in keys:
        members = [r.results.get(key) for r in runs]
        first = next(m for m in members if m)
        missing = [m for m in members if not m or not m.state.figure]
        if missing:
            unmeasured = next((m for m in missing if m), None)     # None: the runs that lack it do not have it
            state, why = (unmeasured.state, unmeasured.reason or unmeasured.state) if unmeasured else \
                (State.SKIPPED, "not in every run's file")
            results[key] = dataclasses.replace(unmeasured or first, state=state, interval=None,
                                               reason=f"{why} (measured in {len(members) - len(missing)} of "
                                                      f"{len(members)} runs)")
            continue
        counters, noise, reps, medians = {}, {}, {}, {}
        for c in dict.fromkeys(c for m in members for c in m.counters):
            per_run = [m.counters[c] for m in members if c in m.counters and math.isfinite(m.counters[c])]
            counters[c] = statistics.median(per_run) if per_run else math.nan
            medians[c] = per_run
            reps[c] = [v for m in members for v in m.reps.get(c, [])]
            noise[c] = _noise(c, {}, {}, {}, per_run)
        results[key] = dataclasses.replace(first, counters=counters, noise=noise, reps=reps, runs=medians,
                                           interval=None, dithered=all(m.dithered for m in members),
                                           disturbed=sum(m.disturbed for m in members),
                                           pooled=sum(m.out_of for m in members),
                                           failed=[f for m in members for f in m.failed],
                                           note=next((m.note for m in members if m.note), ""))
    return Run([p for r in runs for p in r.paths], dict(runs[0].context), results, meta(runs), len(runs),
               {p: t for r in runs for p, t in r.read_once.items()})


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
