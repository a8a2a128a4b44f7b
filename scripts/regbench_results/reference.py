"""The reference table: every run in the store side by side, a column per machine and target, a row per benchmark.

No layout here (render writes it): which columns there are and what they are,
which benchmarks fill which section, and each cell's figure.  Cells are
nanoseconds, the one clock every machine shares: `cycles` are ticks of each
machine's own TSC (2.79 GHz on one, 2.10 GHz on another), and core cycles
are an estimate where a machine has no counters.  A column holding several
runs takes the median of their medians, and its spread is then the range of
those medians; a column of one run has its repetitions' range.

What each benchmark is comes from the store's columns (the contract's
fields, written by model at `add`); the display order and the families'
words from the runs' own metadata, read back through model from the JSON
of the newest run of each column.
"""
import statistics
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from regbench_base import model
from regbench_base.model import Key
from regbench_base.state import State


# What marks a column as emulation rather than hardware, and how the reader is told.
EMULATION = {
    "TCG": "QEMU's TCG: the CPU and the device are emulated, so these are costs of emulation, not of hardware",
    "trap": "the trap target: every access faults and is emulated inside the process (a signal, a decode, a return)",
    "QEMU device": "a QEMU device model under hardware virtualization: every access exits to QEMU's model",
}
MAPPINGS = {"uc": "UC", "wc": "WC", "wb": "WB"}


def emulation(run):
    """The key of EMULATION that applies to a run (a row of the store's runs), or ''."""
    if run["accelerator"] == "tcg" or "TCG" in (run["env_vm"] or ""):
        return "TCG"
    if run["target_mapping"] == "trap":
        return "trap"
    if run["accelerator"] and run["target_device"]:
        return "QEMU device"
    return ""


def target_label(run):
    """A target as a column names it: a PCI BAR by ids, BAR and mapping (spec spellings vary), else its spec."""
    if run["target_device"]:
        ids = run["target_device"].split()[0]
        mapping = run["target_mapping"] or ""
        return f"{ids} BAR{run['target_bar']} {MAPPINGS.get(mapping, mapping)}".strip()
    return run["target"]


@dataclass
class Column:
    """One machine and target: the runs that measured it, and how it is labelled."""
    machine: Tuple[str, str, str, str]      # host, cpu, accelerator, the machine (runfile.machine: its id, else host)
    target: str
    emulation: str
    runs: List[dict] = field(default_factory=list)    # rows of the store's runs, oldest first
    label: str = ""                                   # the machine as the table names it (set once all are known)

    @property
    def host(self):
        return self.machine[0]

    @property
    def cpu(self):
        return self.machine[1]


@dataclass
class Cell:
    """What one column says about one benchmark, in ns: measured (value, lo, hi), below resolution (bound), skipped or
    error."""
    state: State
    value: Optional[float] = None
    lo: Optional[float] = None
    hi: Optional[float] = None
    bound: Optional[float] = None
    disturbed: bool = False
    runs: int = 0                      # the column's runs that measured it


@dataclass
class Section:
    """A table: one family (and op, for families that sweep a count or size), the columns that have figures."""
    family: str
    op: Optional[str]
    what: str
    unit: str
    rows: List[Key]
    columns: List[int]                 # indexes into Reference.columns
    cells: Dict[Tuple[Key, int], Cell]
    hidden: int = 0                    # benchmarks no column measured (skipped or failed everywhere)


@dataclass
class Reference:
    columns: List[Column]
    sections: List[Section]
    runs: List[dict]
    meta: model.Meta


def _ns(value, tsc_hz):
    """TSC cycles of a run as ns (None when the run's TSC rate is unknown)."""
    return value / tsc_hz * 1e9 if value is not None and tsc_hz else None


def cell(members):
    """The Cell of one benchmark from its rows in the column's runs ((result row, run row) pairs, the rows holding
    FIELDS); one pair is one run's figure, as in a history."""
    ok = [(r, run) for r, run in members if State(r["state"]).figure and r["ns"] is not None]
    if ok:
        medians = [r["ns"] for r, _ in ok]
        if len(ok) > 1:
            lo, hi = min(medians), max(medians)
        else:
            lo, hi = ok[0][0]["ns_lo"], ok[0][0]["ns_hi"]
        return Cell(State.MEASURED, statistics.median(medians), lo, hi, disturbed=any(r["disturbed"] for r, _ in ok),
                    runs=len(ok))
    below = [_ns(r["bound"], run["tsc_hz"]) for r, run in members if State(r["state"]).bound]
    if below:
        known = [b for b in below if b is not None]
        return Cell(State.BELOW_RESOLUTION, bound=min(known) if known else None,
                    disturbed=any(r["disturbed"] for r, _ in members if State(r["state"]).bound))
    return Cell(State.ERROR if any(State(r["state"]).failed for r, _ in members) else State.SKIPPED)


def _label_machines(columns):
    """Each column's machine label: its CPU; the host too where two machines share a CPU, then the accelerator, then
    the start of the machine's id where two machines share a host name."""
    machines = sorted({c.machine for c in columns})
    labels = {m: m[1] for m in machines}
    clashing = lambda: [m for m in machines if sum(labels[n] == labels[m] for n in machines) > 1]
    for m in clashing():
        labels[m] = f"{m[0]}: {m[1]}"
    for m in clashing():
        if m[2]:
            labels[m] += f" (QEMU {m[2]})"
    for m in clashing():
        if m[3] != m[0]:
            labels[m] += f" (machine {m[3][:8]})"
    for c in columns:
        c.label = labels[c.machine]


def _columns(runs):
    by = {}
    for run in runs:
        machine = (run["host"], run["cpu"], run["accelerator"] or "", run["machine_id"] or run["host"])
        col = by.setdefault((machine, target_label(run)), Column(machine, target_label(run), emulation(run)))
        col.runs.append(run)
    columns = list(by.values())
    _label_machines(columns)
    columns.sort(key=lambda c: (c.emulation != "", c.label, c.target, c.host))
    return columns


def _meta(store, columns):
    """The metadata (order, families' words) of the newest run of each column, and the order of their ops."""
    metas = [store.meta(max(c.runs, key=lambda r: (r["time"] or "", r["id"]))["meta"]) for c in columns]
    return model.Meta.union([m for m, _ in metas]), list(dict.fromkeys(op for _, ops in metas for op in ops))


# the columns of `results` a cell is made of
FIELDS = ("run_id", "name", "family", "op", "width", "strategy", "param", "unit", "state", "bound", "ns", "ns_lo",
          "ns_hi", "disturbed")


def build(store, selection):
    """The Reference of the runs and benchmarks of a query.Selection of an open store."""
    from . import query
    runs = selection.runs
    columns = _columns(runs)
    if not columns:
        return Reference([], [], runs, None)
    meta, ops = _meta(store, columns)
    col_of = {run["key"]: i for i, c in enumerate(columns) for run in c.runs}
    run_of = {run["key"]: run for run in runs}
    members = {}                                      # (Key, column) -> [(result row, run row)]
    for r in query.results(store, selection, FIELDS):
        key = Key(r["family"], r["op"], r["width"], r["strategy"], r["param"])
        members.setdefault((key, col_of[r["run_id"]]), []).append((r, run_of[r["run_id"]]))
    units = {k.family: r["unit"] for (k, _), ms in members.items() for r, _ in ms[:1]}

    # Families that sweep a count or size get a section per op; the rest one per family.
    swept = {k.family for k, _ in members if k.param is not None}
    sections = {}
    for (key, col), ms in members.items():
        sections.setdefault((key.family, key.op if key.family in swept else None), {})[(key, col)] = cell(ms)
    out = []
    order = lambda k: (ops.index(k.op) if k.op in ops else len(ops), k.op, k.width or 0, meta.strategy_key(k.strategy),
                       k.param or 0)
    for (family, op), cells in sorted(sections.items(), key=lambda s: (meta.family_key(s[0][0]),
                                                                        order(Key(s[0][0], s[0][1] or "")))):
        shown = {kc for kc, cell in cells.items() if cell.state.timed}
        keys = {k for k, _ in cells}
        rows = sorted({k for k, _ in shown}, key=order)
        cols = sorted({c for _, c in shown})
        f = meta.families.get(family)
        out.append(Section(family, op, f.what if f else "", f.unit if f else units[family], rows, cols,
                           {kc: cell for kc, cell in cells.items() if kc[0] in rows and kc[1] in cols},
                           hidden=len(keys) - len(rows)))
    return Reference(columns, [s for s in out if s.rows], runs, meta)
