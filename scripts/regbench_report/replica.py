"""In short, for a comparison of a run in user space with one in the kernel: each kernel accessor against its replica.

A kernel: target times the kernel's own readl, readl_relaxed, ... in the
regbench module; any other target times libiomap's replicas of them.  A
driver author comparing the two wants one answer per accessor: does the
replica cost what the kernel's accessor costs on this device?  The verdicts
are the comparison's own (verdicts.results), so this says nothing the tables
do not; it only gathers them by accessor.
"""
from regbench_base import names

from . import tables, verdicts

_SUFFIX = {8: "b", 16: "w", 32: "l", 64: "q"}
_ROLES = ("serialized", "latency", "issue")   # the families that time one access at a time (model.Family.role)


def _where(run):
    return "in the kernel" if run.ctx("runs_in") == "kernel" else "libiomap's replica"


def _accessor(run, key):
    """The kernel's name of the accessor key times (readl, readl_relaxed, inl), or None for another strategy."""
    kernel = run.meta.kernel
    if key.width not in _SUFFIX or key.strategy not in (kernel.get("single"), kernel.get("relaxed")):
        return None
    if run.ctx("pio"):
        return ("in" if key.op == "read" else "out") + _SUFFIX[key.width]
    return key.op + _SUFFIX[key.width] + ("_relaxed" if key.strategy == kernel.get("relaxed") else "")


def lines(runs, labels):
    """Markdown lines, one per kernel accessor both runs measured, or [] where the two runs do not run in
    different places (or there are not exactly two)."""
    if len(runs) != 2 or _where(runs[0]) == _where(runs[1]):
        return []
    by_accessor = {}
    for key, counter, _, v in verdicts.results(runs)[0]:
        name = _accessor(runs[1], key)
        fam = runs[1].meta.families.get(key.family)
        if name and fam and fam.role in _ROLES and v.verdict.figures:
            by_accessor.setdefault((name, names.opw(key.op, key.width), key.strategy), []).append(
                f"{key.family}/ {v.verdict.cell(tables.ratio_text(v.ratio))}")
    if not by_accessor:
        return []
    head = (f"Each kernel accessor, {labels[1]} ({_where(runs[1])}) against {labels[0]} ({_where(runs[0])}): the "
            "ratio of medians per family and its verdict, as under *Verdicts*.")
    return [head, ""] + [f"- `{name}` (`{opw}/{strategy}`): " + ", ".join(cells)
                         for (name, opw, strategy), cells in by_accessor.items()]
