"""Horizontal bars: what each barrier costs, and port I/O against MMIO for the same operation."""
import matplotlib.pyplot as plt
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from regbench_base import model, names

from .. import tables
from .common import (HATCHES, PALETTE, TSC, Chart, axis_ticks, clock_words, finish, mark_caption, mark_legend)


def _hbars(ax, rows, runs, key_of, counter):
    """Horizontal bars, a group per row (key_of(row): its benchmark) and a bar per run, each later run's verdict
    against the first after its value; True when a verdict was written."""
    step = 0.8 / len(runs)
    marked = False
    for i, row in enumerate(rows):
        for ri, run in enumerate(runs):
            m = run.measure(key_of(row), counter)
            y = i - 0.4 + step * (ri + 0.5)
            if m.state.figure:
                ax.barh(y, m.value, step * 0.9, color=PALETTE[ri % 10],
                        hatch=HATCHES[ri % 4] or None)
                v = tables.compare_in(runs[0], run, key_of(row), counter) if ri else None
                glyph, shade = (v.verdict.mark, v.verdict.colour) if v else ("", None)
                ax.text(m.value, y, " " + tables.number(m.value), va="center", fontsize=8)
                if glyph:
                    ax.annotate(glyph, (m.value, y), xytext=(6 + 5.5 * len(tables.number(m.value)), 0),
                                textcoords="offset points", va="center", fontsize=8, color=shade)
                    marked = True
            else:
                ax.text(0, y, " " + tables.cell_text(m) + (" (below timer resolution)" if m.state.bound else ""),
                        va="center", fontsize=8, color="0.35")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows)
    ax.invert_yaxis()
    return marked


def barrier_chart(runs, labels, out_dir):
    """What each ordering primitive costs alone, in the family's first clock (linear: costs add up)."""
    by_row = {res.strategy or res.op: res.key for r in runs for res in r.results.values() if res.family == "barrier"}
    counter = tables.first_counter(runs, "barrier")     # the clock drawn is the clock sorted by
    rows = sorted(by_row, key=lambda b: min((r.measure(by_row[b], counter).value or 0 for r in runs)))
    if not any(r.measure(by_row[b], counter).state.figure for r in runs for b in rows):
        return None
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(rows) * len(runs) + 1.6))
    marked = _hbars(ax, rows, runs, by_row.get, counter)
    ax.set_xlabel(f"{clock_words(runs, 'barrier')} per {model.meta(runs).families['barrier'].unit}")
    ax.margins(x=0.15)
    if len(runs) > 1:
        ax.legend(handles=[Patch(color=PALETTE[i % 10], hatch=HATCHES[i % 4], label=l) for i, l in enumerate(labels)]
                  + (mark_legend(labels) if marked else []), title="run", loc="upper right")
    finish(fig, out_dir, "barriers.svg", "Ordering primitives alone: cost per barrier", runs, labels)
    return Chart("barriers.svg", f"The cost of each barrier by itself ({clock_words(runs, 'barrier')}, linear)."
                 + mark_caption(runs, labels, marked).replace("Above each bar", "Beside each bar"), "barrier")


def _port_counter(runs, family):
    """The counter a port-vs-MMIO panel compares: p50 where the family has percentiles, else cycles."""
    return "p50" if any(res.family == family and "p50" in res.counters
                        for r in runs for res in r.results.values()) else "cycles"


def port_mmio_rows(runs, labels):
    """[(panel, row, series, kind, Measure)] for every operation measured on port I/O and on MMIO.

    Within a run: each benchmark that ran in port space beside MMIO against
    the MMIO benchmark the file pairs it with (`pair`: rep insX/outsX against
    the relaxed loop, the port cookie against the MMIO cookie).  Across runs:
    the same single access (same family, op, width, strategy) run in port
    space and in MMIO space, a series per run.  Panels are families in
    display order, rows come in reading order (op, width, count, strategy);
    a row is kept only when it has both a port and an MMIO value.
    """
    meta = model.meta(runs)
    cells = {}          # (panel, sort key, row) -> {series: (kind, Measure)}
    for run, label in zip(runs, labels):
        tag = f" ({label})" if len(runs) > 1 else ""
        by_name = {res.name: res for res in run.results.values()}
        for res in run.results.values():
            other = by_name.get(res.pair)
            if res.space != "pio" or not res.state.figure or not other or other.space != "mmio" or not other.state.figure:
                continue
            param = "" if res.param is None else " " + tables.param_text(meta.families[res.family])(res.param)
            row = names.opw(res.op, res.width) + param
            sort = (res.op, res.width or 0, res.param or 0, meta.strategy_key(res.strategy))
            counter = _port_counter(runs, res.family)
            port, mmio = res.measure(counter), other.measure(counter)
            if not port.state.figure or not mmio.state.figure:
                continue        # measured, but without this counter (regbench leaves out one that is not a number)
            cell = cells.setdefault((res.family, sort, row), {})
            cell[f"port I/O: {res.strategy}{tag}"] = ("port", port)
            cell[f"MMIO: {other.strategy}{tag}"] = ("mmio", mmio)
    singles = set(tables.access_families(runs, "read")) | set(tables.access_families(runs, "write"))
    keys = {}           # Key -> [(series, kind, Measure)] in run order
    for run, label in zip(runs, labels):
        for key, res in run.results.items():
            if key.family in singles and key.param is None and res.state.figure:
                side = "port" if res.space == "pio" else "mmio"
                keys.setdefault(key, []).append((f"{'port I/O' if side == 'port' else 'MMIO'}: {label}", side,
                                                 res.measure(_port_counter(runs, key.family))))
    for key, series in keys.items():
        if {side for _, side, m in series if m.state.figure} != {"port", "mmio"}:
            continue
        ordered = sorted(series, key=lambda s: s[1] != "port")     # port runs first, as the legend reads
        sort = (key.op, key.width or 0, 0, meta.strategy_key(key.strategy))
        cells.setdefault((key.family, sort, f"{names.opw(key.op, key.width)} {key.strategy}"), {}).update(
            {name: (side, m) for name, side, m in ordered if m.state.figure})
    out = []
    for (panel, _, row), series in sorted(cells.items(), key=lambda kv: (meta.family_key(kv[0][0]), kv[0][1])):
        if {k for k, _ in series.values()} == {"port", "mmio"}:
            out += [(panel, row, name, k, m) for name, (k, m) in series.items()]
    return out


def port_panel_title(runs, family):
    """What a port-vs-MMIO panel shows, from the family's own description and unit."""
    f = model.meta(runs).families[family]
    p50 = "p50, " if _port_counter(runs, family) == "p50" else ""
    return f"{family}/: {f.what}; {p50}TSC cycles per {f.unit}"


def port_mmio_chart(runs, labels, out_dir):
    """Port I/O beside MMIO for the same operation: a dot per series on each row, a panel per family."""
    rows = port_mmio_rows(runs, labels)
    if not rows:
        return None
    panels = list(dict.fromkeys(r[0] for r in rows))
    series = []
    for _, _, name, kind, _ in rows:
        if (name, kind) not in series:
            series.append((name, kind))
    ports = [n for n, k in series if k == "port"]
    mmios = [n for n, k in series if k == "mmio"]
    style = {}
    for i, n in enumerate(ports):
        style[n] = dict(color=plt.get_cmap("Oranges")(0.75 - 0.35 * i / max(1, len(ports) - 1)), marker="o^sD"[i % 4])
    for i, n in enumerate(mmios):
        # hollow, so that a port dot at the same value shows through
        style[n] = dict(color=plt.get_cmap("Blues")(0.85 - 0.3 * i / max(1, len(mmios) - 1)), marker="sDo^"[i % 4],
                        markerfacecolor="none", markeredgewidth=1.8)
    counts = [len(dict.fromkeys(r[1] for r in rows if r[0] == p)) for p in panels]
    fig, axes = plt.subplots(len(panels), 1, figsize=(10, 0.28 * sum(counts) + 1.1 * len(panels) + 0.8),
                             squeeze=False, gridspec_kw={"height_ratios": [c + 2 for c in counts]})
    for ax, panel in zip(axes[:, 0], panels):
        mine = [r for r in rows if r[0] == panel]
        names_ = list(dict.fromkeys(r[1] for r in mine))
        values = [m.value for *_, m in mine]
        for y, row in enumerate(names_):
            vs = [m.value for p, r, _, _, m in mine if r == row]
            ax.plot([min(vs), max(vs)], [y, y], color="0.75", linewidth=2, zorder=1)
        for _, row, name, _, m in mine:
            ax.plot(m.value, names_.index(row), linestyle="none", markersize=7, zorder=2, **style[name])
        ax.set_yticks(range(len(names_)))
        ax.set_yticklabels(names_, fontsize=9)
        ax.set_ylim(len(names_) - 0.5, -0.5)
        lo, hi = min(values), max(values)
        log = lo > 0 and hi / lo > 10      # a cost of 0 (a p50 below the timer's overhead) has no place on a log axis
        if log:
            ax.set_xscale("log")
            ax.set_xlim(lo / 1.5, hi * 1.5)
        else:
            ax.set_xlim(min(lo, 0), max(hi, 0) * 1.08 or 1)
        axis_ticks(ax.xaxis, lo, hi, log)
        ax.set_title(port_panel_title(runs, panel) + (" (log scale)" if log else ""), fontsize=10, loc="left")
    handles = [Line2D([], [], linestyle="none", markersize=7, label=n, **style[n]) for n, _ in series]
    axes[0][0].legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="series")
    finish(fig, out_dir, "port-vs-mmio.svg", "Port I/O against MMIO for the same operation", runs, labels)
    return Chart("port-vs-mmio.svg", f"Port I/O (orange dots) and MMIO (blue outlines) for the same operation, a row "
                 f"each; the grey bar spans the gap ({TSC}).", "port")
