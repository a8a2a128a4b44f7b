"""SVG charts of a report: one idea per chart, units on every axis, readable without the text.

Every chart draws all runs it is given: colour is the strategy (the same
colour in every chart), and in a comparison the run is the line style or
the bar hatch.  Each function returns a Chart (file name and caption) or
None when the runs hold nothing for it, so reports of partial runs simply
have fewer charts.
"""
import math
import os
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt                      # noqa: E402  (after the backend is chosen)
from matplotlib.patches import Patch                 # noqa: E402
from matplotlib.lines import Line2D                  # noqa: E402
from matplotlib.legend import Legend                 # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter  # noqa: E402

from . import names, tables                          # noqa: E402

plt.rcParams.update({"svg.hashsalt": "regbench", "svg.fonttype": "path", "font.size": 10,
                     "axes.titlesize": 11, "axes.spines.top": False, "axes.spines.right": False,
                     "axes.grid": True, "grid.alpha": 0.3, "legend.fontsize": 9, "legend.framealpha": 0.9})

_PALETTE = plt.get_cmap("tab10").colors + plt.get_cmap("Dark2").colors
LINESTYLES = ["-", "--", ":", "-."]
HATCHES = ["", "///", "...", "xxx"]
MARKERS = ["o", "s", "^", "D"]
TSC = "TSC cycles"
# The first word of every chart file name this module writes (render removes stale ones).
FILE_STEMS = {"latency", "throughput", "histogram", "rep", "copy", "barriers", "port"}


@dataclass
class Chart:
    file: str
    caption: str
    group: str       # which table section it belongs beside: read, write, latency, rep, copy, barrier, port


def color(strategy):
    """The colour of a strategy, the same in every chart; libc, the reference, is black."""
    if strategy == "libc":
        return "black"
    key = names.strategy_key(strategy)
    return _PALETTE[key[1] % len(_PALETTE)] if not key[2] else _PALETTE[sum(map(ord, key[2])) % len(_PALETTE)]


def _subtitle(runs, labels):
    r = runs[0]
    if len(runs) == 1:
        return f"{r.ctx('target', '?')} ({r.ctx('target_mapping', '?')}) · {r.ctx('cpu_model', '?')} · " \
               f"{str(r.ctx('date', ''))[:10]}"
    return " vs ".join(labels)


def _finish(fig, out_dir, file, title, runs, labels):
    fig.suptitle(title, fontsize=12, fontweight="bold", x=0.01, ha="left")
    fig.text(0.01, 0.005, _subtitle(runs, labels), fontsize=8, color="0.35", ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.03, 1, 0.96))
    # "tight" keeps legends placed outside the axes inside the picture
    fig.savefig(os.path.join(out_dir, file), format=os.path.splitext(file)[1][1:], metadata={"Date": None},
                bbox_inches="tight", pad_inches=0.15)
    plt.close(fig)


def _log_ticks(axis):
    """Plain numbers (0.5, 2, 50) at 1-2-5 steps on a log axis instead of bare powers of ten."""
    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: tables.number(v)))
    axis.set_minor_formatter(NullFormatter())


def _run_legend(ax, labels, kind, loc="upper left", anchor=None):
    """A second legend naming the runs by line style or hatch (comparisons only).

    Added as an artist of its own so that it does not replace the strategy legend.
    """
    if len(labels) < 2:
        return
    if kind == "line":
        handles = [Line2D([], [], color="0.3", linestyle=LINESTYLES[i % 4], marker=MARKERS[i % 4])
                   for i in range(len(labels))]
    else:
        handles = [Patch(facecolor="white", edgecolor="0.3", hatch=HATCHES[i % 4]) for i in range(len(labels))]
    extra = {"bbox_to_anchor": anchor} if anchor else {}
    legend = Legend(ax, handles, labels, title="run", loc=loc, **extra)
    ax.add_artist(legend)
    legend.set_clip_on(False)      # add_artist clips to the axes; this legend may sit outside them


def _strategies(runs, pred):
    return sorted({res.name.strategy for r in runs for res in r.results.values() if pred(res.name)},
                  key=names.strategy_key)


def _size_axis(ax, values, fmt):
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(values))
    ax.set_xticklabels([fmt(v) for v in sorted(values)])
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.xaxis.set_minor_locator(LogLocator(base=2, subs=()))


# --- latency and throughput bars --------------------------------------------------------

def _bar_value(run, op, width, strategy):
    """(height, p99 or None, how): lat/ p50 where measured, chain/ for reads below resolution, else the bound."""
    lat = f"lat/{op}{width}/{strategy}"
    m = run.measure(lat, "p50")
    if m.state == "ok":
        p99 = run.measure(lat, "p99")
        return m.value, (p99.value if p99.state == "ok" else None), "lat"
    if op == "read":
        c = run.measure(f"chain/read{width}/{strategy}")
        if c.state == "ok":
            return c.value, None, "chain"
    b = run.measure(lat)
    if b.state == "below" and b.bound:
        return b.bound, None, "below"
    return None, None, None


def latency_chart(runs, labels, out_dir, op):
    """Per-strategy latency by width: bars at lat/ p50 with a p99 whisker (chain/ or the bound otherwise)."""
    strategies = _strategies(runs, lambda n: n.family == "lat" and n.op == op)
    widths = sorted({res.name.width for r in runs for res in r.results.values()
                     if res.name.family == "lat" and res.name.op == op and res.name.width})
    vals = {(i, s, w): _bar_value(r, op, w, s) for i, r in enumerate(runs) for s in strategies for w in widths}
    if not any(v[0] for v in vals.values()):
        return None
    fig, ax = plt.subplots(figsize=(11, 4.8))
    n = len(strategies) * len(runs)
    step = 0.8 / n
    kinds = set()
    for si, s in enumerate(strategies):
        for ri, run in enumerate(runs):
            for wi, w in enumerate(widths):
                h, p99, how = vals[(ri, s, w)]
                if not h:
                    continue
                kinds.add(how)
                x = wi - 0.4 + step * (si * len(runs) + ri + 0.5)
                style = {"lat": dict(color=color(s)), "chain": dict(color=color(s), alpha=0.45),
                         "below": dict(facecolor="none", edgecolor=color(s), linestyle="--")}[how]
                ax.bar(x, h, step * 0.92, hatch=HATCHES[ri % 4] or None, linewidth=1, **style)
                if n * len(widths) <= 24 and how != "below":
                    # inside the bar's top: a p99 whisker may rise from the same point
                    ax.text(x, h * 0.96, tables.number(h), ha="center", va="top", fontsize=7, color="0.1")
                if p99 and p99 > h:
                    ax.plot([x, x], [h, p99], color="black", linewidth=1)
                    ax.plot([x - step * 0.3, x + step * 0.3], [p99, p99], color="black", linewidth=1)
    ax.set_yscale("log")
    # bars on a log axis grow from the bottom edge: keep it well below the smallest bar
    ax.set_ylim(bottom=min(v[0] for v in vals.values() if v[0]) / 4)
    _log_ticks(ax.yaxis)
    ax.set_xticks(range(len(widths)))
    ax.set_xticklabels([f"{op}{w}" for w in widths])
    ax.set_xlabel("access width")
    ax.set_ylabel(f"{TSC} per access (log scale)")
    handles = [Patch(color=color(s), label=s) for s in strategies]
    how_text = {"lat": "solid: lat/ p50, whisker to p99",
                "chain": "faded: chain/ (lat/ below timer resolution)",
                "below": "dashed: below timer resolution (the value is under the bar)"}
    how_patch = {"lat": dict(color="0.4"), "chain": dict(color="0.4", alpha=0.45),
                 "below": dict(facecolor="none", edgecolor="0.4", linestyle="--")}
    handles += [Patch(label=how_text[k], **how_patch[k]) for k in ("lat", "chain", "below") if k in kinds]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    _run_legend(ax, labels, "bar", loc="lower left", anchor=(1.0, 0.0))
    file = f"latency-{op}.svg"
    verb = "Read" if op == "read" else "Write"
    _finish(fig, out_dir, file, f"{verb} latency by width and strategy", runs, labels)
    return Chart(file, f"{verb} latency: one bar per strategy at each width ({TSC}, log scale).", op)


def throughput_chart(runs, labels, out_dir):
    """What ordering costs in a stream: thrpt/ cycles per access by strategy, reads and writes side by side."""
    ops = [op for op in ("read", "write") if any(res.name.family == "thrpt" and res.name.op == op and
                                                  res.state == "ok" for r in runs for res in r.results.values())]
    if not ops:
        return None
    widths = sorted({res.name.width for r in runs for res in r.results.values()
                     if res.name.family == "thrpt" and res.name.width})
    fig, axes = plt.subplots(1, len(ops), figsize=(10, 4.6), sharey=True, squeeze=False)
    shades = plt.get_cmap("viridis")
    for ax, op in zip(axes[0], ops):
        strategies = _strategies(runs, lambda n: n.family == "thrpt" and n.op == op)
        n = len(widths) * len(runs)
        step = 0.8 / n
        for wi, w in enumerate(widths):
            for ri, run in enumerate(runs):
                for si, s in enumerate(strategies):
                    m = run.measure(f"thrpt/{op}{w}/{s}")
                    if m.state != "ok":
                        continue
                    x = si - 0.4 + step * (wi * len(runs) + ri + 0.5)
                    ax.bar(x, m.value, step * 0.92, color=shades(wi / max(1, len(widths) - 1) * 0.85),
                           hatch=HATCHES[ri % 4] or None, edgecolor="white" if ri == 0 else "0.2", linewidth=0.5)
        ax.set_xticks(range(len(strategies)))
        ax.set_xticklabels(strategies, rotation=20)
        ax.set_title(f"{op}s")
        ax.set_yscale("log")
        _log_ticks(ax.yaxis)
    axes[0][0].set_ylabel(f"{TSC} per access (log scale)")
    axes[0][-1].legend(handles=[Patch(color=shades(i / max(1, len(widths) - 1) * 0.85), label=f"{w}-bit")
                                for i, w in enumerate(widths)], title="width", loc="upper left")
    _run_legend(axes[0][0], labels, "bar")
    _finish(fig, out_dir, "throughput.svg", "Back-to-back accesses (thrpt/): what each ordering strategy costs",
            runs, labels)
    return Chart("throughput.svg", f"Cost per access in a stream of independent accesses, by strategy ({TSC}, "
                 "log scale).", "write")


# --- distributions and curves ------------------------------------------------------------

def histogram_charts(runs, labels, out_dir):
    """One chart per op+width: the lat/ sample histograms of every strategy, counts on a log scale."""
    by_opw = {}
    for ri, r in enumerate(runs):
        for key, h in r.histograms.items():
            n = names.parse(key)
            by_opw.setdefault(n.opw, []).append((ri, n.strategy, h))
    out = []
    for opw, items in sorted(by_opw.items(), key=lambda kv: (names.parse("x/" + kv[0]).op,
                                                             names.parse("x/" + kv[0]).width or 0)):
        fig, ax = plt.subplots(figsize=(8, 4.4))
        lo = min(max(e[0], 0.5) for _, _, h in items for e in [h.edges])
        hi = max(h.edges[-1] for _, _, h in items)
        for ri, s, h in sorted(items, key=lambda it: (names.strategy_key(it[1]), it[0])):
            ax.stairs([max(c, 0) for c in h.counts], [max(e, lo) for e in h.edges], color=color(s),
                      linestyle=LINESTYLES[ri % 4], linewidth=1.4, label=s if ri == 0 else None)
        ax.set_yscale("log")
        if hi / lo > 50:
            ax.set_xscale("log")
            _log_ticks(ax.xaxis)
        unit = items[0][2].unit
        ax.set_xlabel(f"latency ({'TSC cycles' if unit == 'cycles' else unit}{', log scale' if hi / lo > 50 else ''})")
        ax.set_ylabel("samples (log scale)")
        ax.legend(title="strategy", loc="upper right")
        _run_legend(ax, labels, "line", loc="lower left", anchor=(1.0, 0.0))
        file = f"histogram-{opw}.svg"
        _finish(fig, out_dir, file, f"lat/{opw}: distribution of single-access latency", runs, labels)
        out.append(Chart(file, f"Every lat/{opw} sample, binned: the tail the percentiles summarise.", "latency"))
    return out


def _curves(ax, runs, pick, strategies):
    """Lines of pick(run, strategy) -> [(x, y)] per strategy and run; returns the x values drawn."""
    xs = set()
    for s in strategies:
        for ri, run in enumerate(runs):
            pts = sorted(pick(run, s))
            if not pts:
                continue
            xs.update(x for x, _ in pts)
            ax.plot([x for x, _ in pts], [y for _, y in pts], color=color(s), linestyle=LINESTYLES[ri % 4],
                    marker=MARKERS[ri % 4], markersize=4, linewidth=2.2 if s == "libc" else 1.6,
                    label=s if ri == 0 else None)
    return xs


def rep_chart(runs, labels, out_dir, op):
    """Cycles per element against _rep count (log x), one panel per width, a line per strategy."""
    items = [res.name for r in runs for res in r.results.values()
             if res.name.family == "rep" and res.name.op == op and res.state == "ok"]
    if not items:
        return None
    widths = sorted({n.width for n in items})
    strategies = sorted({n.strategy for n in items}, key=names.strategy_key)
    cols = min(2, len(widths))
    rows = math.ceil(len(widths) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(9, 3.0 * rows + 0.8), sharex=True, sharey=True, squeeze=False)
    for ax, w in zip(axes.flat, widths):
        def pick(run, s, w=w):
            return [(res.name.param, res.counters["cycles"]) for res in run.results.values()
                    if res.name.family == "rep" and res.name.op == op and res.name.width == w
                    and res.name.strategy == s and res.state == "ok" and math.isfinite(res.counters.get("cycles", math.nan))]
        xs = _curves(ax, runs, pick, strategies)
        ax.set_title(f"{op}{w}_rep")
        _size_axis(ax, xs, str)
        ax.set_yscale("log")
        _log_ticks(ax.yaxis)
    for ax in axes.flat[len(widths):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("elements per call (log scale)")
    for ax in axes[:, 0]:
        ax.set_ylabel(f"{TSC} per element")
    axes[0][-1].legend(title="strategy", loc="upper left", bbox_to_anchor=(1.02, 1.0))
    _run_legend(axes[-1][-1], labels, "line", loc="lower left", anchor=(1.02, 0.0))
    file = f"rep-{op}.svg"
    _finish(fig, out_dir, file, f"{op}_rep on one register: cost per element against count", runs, labels)
    return Chart(file, f"How the per-element cost of {op}_rep falls with the count ({TSC}, log scales).", "rep")


def copy_chart(runs, labels, out_dir, direction):
    """Copy bandwidth against size (log x, log y), a line per strategy, libc as the black reference."""
    def pick(run, s):
        return [(res.name.param, res.counters["bytes_per_second"] / 1e9) for res in run.results.values()
                if res.name.family == "copy" and res.name.op == direction and res.name.strategy == s
                and res.state == "ok" and math.isfinite(res.counters.get("bytes_per_second", math.nan))]
    strategies = _strategies(runs, lambda n: n.family == "copy" and n.op == direction)
    if not any(pick(r, s) for r in runs for s in strategies):
        return None
    fig, ax = plt.subplots(figsize=(9, 4.8))
    xs = _curves(ax, runs, pick, strategies)
    _size_axis(ax, xs, names.size_text)
    ax.set_yscale("log")
    _log_ticks(ax.yaxis)
    ax.set_xlabel("bytes per call (log scale)")
    ax.set_ylabel("GB/s (10^9 bytes/s, log scale)")
    ax.legend(title="strategy", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    _run_legend(ax, labels, "line", loc="lower left", anchor=(1.0, 0.0))
    what = {"fromio": "memcpy_fromio", "toio": "memcpy_toio", "set": "memset_io"}.get(direction, direction)
    file = f"copy-{direction}.svg"
    _finish(fig, out_dir, file, f"{what}: bandwidth against size, per strategy", runs, labels)
    return Chart(file, f"{what} bandwidth by size; libc (black) is glibc on the same window.", "copy")


# --- costs of barriers, and port against MMIO -------------------------------------------

def _hbars(ax, rows, runs, value):
    """Horizontal bars, a group per row and a bar per run; value(run, row) -> Measure."""
    step = 0.8 / len(runs)
    for i, row in enumerate(rows):
        for ri, run in enumerate(runs):
            m = value(run, row)
            y = i - 0.4 + step * (ri + 0.5)
            if m.state == "ok":
                ax.barh(y, m.value, step * 0.9, color=_PALETTE[ri % 10],
                        hatch=HATCHES[ri % 4] or None)
                ax.text(m.value, y, " " + tables.number(m.value), va="center", fontsize=8)
            else:
                ax.text(0, y, " " + tables.cell_text(m) + (" (below timer resolution)" if m.state == "below" else ""),
                        va="center", fontsize=8, color="0.35")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows)
    ax.invert_yaxis()


def barrier_chart(runs, labels, out_dir):
    """What each ordering primitive costs alone, in TSC cycles (linear: costs add up)."""
    rows = sorted({res.name.op for r in runs for res in r.results.values() if res.name.family == "barrier"},
                  key=lambda b: min((r.measure(f"barrier/{b}").value or 0 for r in runs)))
    if not any(r.measure(f"barrier/{b}").state == "ok" for r in runs for b in rows):
        return None
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(rows) * len(runs) + 1.6))
    _hbars(ax, rows, runs, lambda run, b: run.measure(f"barrier/{b}"))
    ax.set_xlabel(f"{TSC} per barrier")
    ax.margins(x=0.15)
    if len(runs) > 1:
        ax.legend(handles=[Patch(color=_PALETTE[i % 10], hatch=HATCHES[i % 4], label=l) for i, l in enumerate(labels)],
                  title="run", loc="upper right")
    _finish(fig, out_dir, "barriers.svg", "Ordering primitives alone: cost per barrier", runs, labels)
    return Chart("barriers.svg", f"The cost of each barrier by itself ({TSC}, linear).", "barrier")


def port_mmio_pairs(runs, labels):
    """[(operation, port Measure, MMIO Measure)] wherever the runs measured both sides.

    Within a run: _rep as rep insX/outsX on the port window against the relaxed
    loop on MMIO, and the cookie ioread32 of each kind.  Across runs: the same
    benchmark on a port target and on an MMIO one.
    """
    pairs = []
    for run, label in zip(runs, labels):
        tag = f" ({label})" if len(runs) > 1 else ""
        kind = run.ctx("target_kind")
        for key, res in sorted(run.results.items()):
            n = res.name
            if kind == "pio" or not n.on_port(kind) or res.state != "ok":
                continue
            other = {"rep": f"rep/{n.opw}/relaxed/{n.param}", "dispatch": f"dispatch/{n.opw}/cookie-mmio"}.get(n.family)
            if other and run.measure(other).state == "ok":
                what = f"{n.opw}_rep ×{n.param}" if n.family == "rep" else f"ioread32 cookie"
                pairs.append((what + tag, run.measure(key), run.measure(other)))
    ports = [(r, l) for r, l in zip(runs, labels) if r.ctx("target_kind") == "pio"]
    mmios = [(r, l) for r, l in zip(runs, labels) if r.ctx("target_kind") == "mmio"]
    for (p, pl), (m, ml) in ((p, m) for p in ports for m in mmios):
        for key in sorted(set(p.results) & set(m.results)):
            if names.parse(key).family in ("thrpt", "lat", "chain") and p.measure(key).state == "ok" \
                    and m.measure(key).state == "ok":
                pairs.append((f"{key} ({pl} / {ml})" if len(ports) * len(mmios) > 1 else key,
                              p.measure(key), m.measure(key)))
    return pairs


def port_mmio_chart(runs, labels, out_dir):
    """Port I/O beside MMIO for the same operation, where both were measured."""
    pairs = port_mmio_pairs(runs, labels)
    if not pairs:
        return None
    fig, ax = plt.subplots(figsize=(9, 0.5 * len(pairs) + 1.8))
    for i, (what, p, m) in enumerate(pairs):
        for j, (meas, col, lab) in enumerate(((p, _PALETTE[1], "port I/O"), (m, _PALETTE[0], "MMIO"))):
            ax.barh(i - 0.2 + 0.4 * j, meas.value, 0.38, color=col, label=lab if i == 0 else None)
            ax.text(meas.value, i - 0.2 + 0.4 * j, " " + tables.number(meas.value), va="center", fontsize=8)
    ax.set_yticks(range(len(pairs)))
    ax.set_yticklabels([w for w, _, _ in pairs])
    ax.invert_yaxis()
    ax.set_xscale("log")
    _log_ticks(ax.xaxis)
    ax.set_xlabel(f"{TSC} per access or element (log scale)")
    ax.legend(loc="lower right")
    _finish(fig, out_dir, "port-vs-mmio.svg", "Port I/O against MMIO for the same operation", runs, labels)
    return Chart("port-vs-mmio.svg", f"Port I/O and MMIO side by side ({TSC}, log scale).", "port")


def all_charts(runs, labels, out_dir):
    """Every chart the runs have data for, written into out_dir."""
    charts = [latency_chart(runs, labels, out_dir, "read"), latency_chart(runs, labels, out_dir, "write"),
              throughput_chart(runs, labels, out_dir)]
    charts += histogram_charts(runs, labels, out_dir)
    charts += [rep_chart(runs, labels, out_dir, op) for op in ("read", "write")]
    charts += [copy_chart(runs, labels, out_dir, d) for d in ("fromio", "toio", "set")]
    charts += [barrier_chart(runs, labels, out_dir), port_mmio_chart(runs, labels, out_dir)]
    return [c for c in charts if c]
