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

from regbench_base import distribution, model, names     # noqa: E402
from regbench_base.model import Key                      # noqa: E402

from . import headlines, markdown, tables               # noqa: E402

plt.rcParams.update({"svg.hashsalt": "regbench", "svg.fonttype": "path", "font.size": 10,
                     "axes.titlesize": 11, "axes.spines.top": False, "axes.spines.right": False,
                     "axes.grid": True, "grid.alpha": 0.3, "legend.fontsize": 9, "legend.framealpha": 0.9})

# Twenty distinct colours: tab10's, then their light twins (tab20's odd entries).
_PALETTE = plt.get_cmap("tab10").colors + plt.get_cmap("tab20").colors[1::2]
LINESTYLES = ["-", "--", ":", "-."]
HATCHES = ["", "///", "...", "xxx"]
MARKERS = ["o", "s", "^", "D"]
TSC = "TSC cycles"


@dataclass
class Chart:
    file: str
    caption: str
    group: str       # which table section it belongs beside: read, write, latency, rep, copy, barrier, port


def strategy_colors(runs, copies=False):
    """{strategy: colour} for one kind of chart: copies (families that sweep a size) or the others.

    Every accessor strategy that has benchmarks of that kind in any run gets
    a colour of its own, in display order, so no two strategies of a chart
    share one (a copy chart has thirteen) and a strategy keeps its colour in
    every chart of its kind; the reference (libc) is black.
    """
    meta = model.meta(runs)
    sized = lambda family: family in meta.families and meta.families[family].param == "size"
    kinds = {res.strategy: meta.kinds.get(res.strategy) for r in runs for res in r.results.values()
             if sized(res.family) == copies}
    # accessors first: a family's own variant rows (dispatch/'s) are never drawn by colour, but a file may say so
    mine = sorted((s for s, kind in kinds.items() if kind != "reference"),
                  key=lambda s: (kinds[s] != "accessor", meta.strategy_key(s)))
    out = {s: _PALETTE[i % len(_PALETTE)] for i, s in enumerate(mine)}
    out.update({s: "black" for s, kind in kinds.items() if kind == "reference"})
    return out


def where(run):
    """Where a run's numbers come from, for a chart's footer: target, mapping, kind, and what a QEMU guest's are."""
    kind = markdown.KINDS.get(run.ctx("target_kind"), run.ctx("target_kind", "kind not recorded"))
    text = f"{run.ctx('target', '?')} ({run.ctx('target_mapping', '?')}, {kind})"
    acc = run.ctx("accelerator")
    if acc == "tcg":
        text += " · QEMU tcg: EMULATION COSTS, not hardware"
    elif acc:
        text += f" · QEMU {acc}"
    return text


def _footer(runs, labels):
    """One line per run (one line in all for a single run): where each run's numbers come from."""
    if len(runs) == 1:
        r = runs[0]
        return f"{where(r)} · {r.ctx('cpu_model', '?')} · {str(r.ctx('date', ''))[:10]}"
    return "\n".join(f"{l}: {where(r)} · {str(r.ctx('date', ''))[:10]}" for r, l in zip(runs, labels))


def _finish(fig, out_dir, file, title, runs, labels):
    fig.suptitle(title, fontsize=12, fontweight="bold", x=0.01, ha="left")
    footer = _footer(runs, labels)
    lines = footer.count("\n") + 1
    fig.text(0.01, 0.005, footer, fontsize=8, color="0.35", ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.03 * lines, 1, 0.96))
    # "tight" keeps legends placed outside the axes inside the picture
    fig.savefig(os.path.join(out_dir, file), format=os.path.splitext(file)[1][1:], metadata={"Date": None},
                bbox_inches="tight", pad_inches=0.15)
    plt.close(fig)


def _log_ticks(axis):
    """Plain numbers (0.5, 2, 50) at 1-2-5 steps on a log axis instead of bare powers of ten."""
    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: tables.number(v)))
    axis.set_minor_formatter(NullFormatter())


def _run_legend(ax, labels, kind, loc="upper left", anchor=None, marks=False):
    """A second legend naming the runs by line style or hatch (comparisons only), and with marks what the
    verdict marks on the bars are (_mark_legend).

    Added as an artist of its own so that it does not replace the strategy legend.
    """
    if len(labels) < 2:
        return
    if kind == "line":
        handles = [Line2D([], [], color="0.3", linestyle=LINESTYLES[i % 4], marker=MARKERS[i % 4])
                   for i in range(len(labels))]
    else:
        handles = [Patch(facecolor="white", edgecolor="0.3", hatch=HATCHES[i % 4]) for i in range(len(labels))]
    texts = list(labels)
    if marks:
        extra_handles = _mark_legend(labels)
        handles += extra_handles
        texts += [h.get_label() for h in extra_handles]
    extra = {"bbox_to_anchor": anchor} if anchor else {}
    legend = Legend(ax, handles, texts, title="run", loc=loc, **extra)
    ax.add_artist(legend)
    legend.set_clip_on(False)      # add_artist clips to the axes; this legend may sit outside them


def _strategies(runs, pred):
    """The strategies of the benchmarks pred(Result) picks in any run, in display order."""
    return sorted({res.strategy for r in runs for res in r.results.values() if pred(res)},
                  key=model.meta(runs).strategy_key)


def _size_axis(ax, values, fmt):
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(values))
    ax.set_xticklabels([fmt(v) for v in sorted(values)])
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.xaxis.set_minor_locator(LogLocator(base=2, subs=()))


# --- latency and throughput bars --------------------------------------------------------

def latency_panels(runs, op):
    """[(family, {(run index, strategy, width): (height, p99 or None, how)})]: a panel per way of measuring latency.

    Heights are in the family's first clock (tables.first_counter): lat/ in
    TSC cycles, chain/ in core cycles for a single run that has them.

    lat/ (one serialized access: p50 with a whisker to p99, or the
    resolution bound drawn dashed when below it) and, for reads, chain/
    (dependent reads, in bulk) are different methods with different
    resolutions, so they never share an axis: a chain/ figure beside a lat/
    p50 that moves in timer steps would read as a width or strategy effect.
    """
    out = []
    for family in ("lat", "chain") if op == "read" else ("lat",):
        vals = {}
        for ri, run in enumerate(runs):
            for res in run.results.values():
                if res.family != family or res.op != op or not res.width or res.param is not None:
                    continue
                key = (ri, res.strategy, res.width)
                main = res.measure("p50" if family == "lat" else tables.first_counter(runs, family))
                if main.state.figure:
                    p99 = res.measure("p99") if family == "lat" else None
                    vals[key] = (main.value, p99.value if p99 and p99.state.figure else None, main.state)
                elif main.state.bound and main.bound:
                    vals[key] = (main.bound, None, main.state)
        if any(h for h, _, state in vals.values() if state.figure):
            out.append((family, vals))
    return out


def latency_chart(runs, labels, out_dir, op):
    """Per-strategy latency by width, a panel per method (lat/ p50 with a p99 whisker; chain/ for reads)."""
    meta = model.meta(runs)
    panels = latency_panels(runs, op)
    if not panels:
        return None
    strategies = sorted({s for _, vals in panels for _, s, _ in vals}, key=meta.strategy_key)
    # tall enough for the strategy legend above the run legend (runs and verdict marks) beside the last panel
    entries = len(strategies) + 3 + (len(runs) + 5 if len(runs) > 1 else 0)
    fig, axes = plt.subplots(1, len(panels), figsize=(6.5 * len(panels) + 2.5, max(4.8, 0.21 * entries + 1.4)),
                             squeeze=False)
    colors = strategy_colors(runs)
    below = marked = False
    for ax, (family, vals) in zip(axes[0], panels):
        mine = [s for s in strategies if any(k[1] == s for k in vals)]
        widths = sorted({w for _, _, w in vals})
        n = len(mine) * len(runs)
        step = 0.8 / n
        for si, s in enumerate(mine):
            for ri in range(len(runs)):
                for wi, w in enumerate(widths):
                    if (ri, s, w) not in vals:
                        continue
                    h, p99, state = vals[(ri, s, w)]
                    x = wi - 0.4 + step * (si * len(runs) + ri + 0.5)
                    style = dict(color=colors[s]) if state.figure else \
                        dict(facecolor="none", edgecolor=colors[s], linestyle="--")
                    below |= state.bound
                    ax.bar(x, h, step * 0.92, hatch=HATCHES[ri % 4] or None, linewidth=1, **style)
                    if n * len(widths) <= 24 and state.figure:
                        # inside the bar's top: a p99 whisker may rise from the same point
                        ax.text(x, h * 0.96, tables.number(h), ha="center", va="top", fontsize=7, color="0.1")
                    if p99 and p99 > h:
                        ax.plot([x, x], [h, p99], color="black", linewidth=1)
                        ax.plot([x - step * 0.3, x + step * 0.3], [p99, p99], color="black", linewidth=1)
                    key = Key(family, op, w, s)
                    marked |= _mark(ax, runs, ri, key, tables.first_counter(runs, family), x, max(h, p99 or 0))
        ax.set_yscale("log")
        # bars on a log axis grow from the bottom edge: keep it well below the smallest bar
        ax.set_ylim(bottom=min(h for h, _, _ in vals.values()) / 4)
        _log_ticks(ax.yaxis)
        ax.set_xticks(range(len(widths)))
        ax.set_xticklabels([names.opw(op, w) for w in widths])
        ax.set_xlabel("access width")
        f = meta.families[family]
        if family == "lat":
            steps = sorted({r.ctx_float("timer_resolution_cycles") for r in runs} - {None})
            how = "p50, whisker to p99" + (f"; moves in timer steps of {'/'.join(map(tables.number, steps))}"
                                            if steps else "")
        else:
            how = "in bulk: not limited by the timer's step"
        ax.set_title(f"{family}/: {f.what}\n({how})", fontsize=9, loc="left")
        ax.set_ylabel(f"{_clock(runs, family)} per {f.unit} (log scale)")
    handles = [Patch(color=colors[s], label=s) for s in strategies]
    if below:
        handles.append(Patch(facecolor="none", edgecolor="0.4", linestyle="--",
                             label="dashed: below timer resolution (the value is under the bar)"))
    axes[0][-1].legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    _run_legend(axes[0][-1], labels, "bar", loc="lower left", anchor=(1.0, 0.0), marks=marked)
    file = f"latency-{op}.svg"
    verb = "Read" if op == "read" else "Write"
    methods = " and ".join(f"{fam}/" for fam, _ in panels)
    _finish(fig, out_dir, file, f"{verb} latency by width and strategy" +
            (f": {methods} apart, each on its own axis" if len(panels) > 1 else ""), runs, labels)
    clocks = ", ".join(f"{fam}/ in {_clock(runs, fam)}" for fam, _ in panels)
    return Chart(file, f"{verb} latency: one bar per strategy at each width, a panel per method ({clocks}; "
                 "log scale); compare bars within a panel only." + _mark_caption(runs, labels, marked), op)


def throughput_chart(runs, labels, out_dir):
    """What ordering costs in a stream: thrpt/ cycles per access by strategy, reads and writes side by side."""
    ops = [op for op in ("read", "write") if any(res.family == "thrpt" and res.op == op and
                                                  res.state.figure for r in runs for res in r.results.values())]
    if not ops:
        return None
    widths = sorted({res.width for r in runs for res in r.results.values() if res.family == "thrpt" and res.width})
    counter = tables.first_counter(runs, "thrpt")
    fig, axes = plt.subplots(1, len(ops), figsize=(10, 4.6), sharey=True, squeeze=False)
    shades = plt.get_cmap("viridis")
    marked = False
    for ax, op in zip(axes[0], ops):
        strategies = _strategies(runs, lambda res: res.family == "thrpt" and res.op == op)
        n = len(widths) * len(runs)
        step = 0.8 / n
        for wi, w in enumerate(widths):
            for ri, run in enumerate(runs):
                for si, s in enumerate(strategies):
                    m = run.measure(Key("thrpt", op, w, s), counter)
                    if not m.state.figure:
                        continue
                    x = si - 0.4 + step * (wi * len(runs) + ri + 0.5)
                    ax.bar(x, m.value, step * 0.92, color=shades(wi / max(1, len(widths) - 1) * 0.85),
                           hatch=HATCHES[ri % 4] or None, edgecolor="white" if ri == 0 else "0.2", linewidth=0.5)
                    marked |= _mark(ax, runs, ri, Key("thrpt", op, w, s), counter, x, m.value)
        ax.set_xticks(range(len(strategies)))
        ax.set_xticklabels(strategies, rotation=20)
        ax.set_title(f"{op}s")
        ax.set_yscale("log")
        _log_ticks(ax.yaxis)
    axes[0][0].set_ylabel(f"{_clock(runs, 'thrpt')} per access (log scale)")
    # both legends outside the last panel: inside, they cover bars (and each other with one panel)
    axes[0][-1].legend(handles=[Patch(color=shades(i / max(1, len(widths) - 1) * 0.85), label=f"{w}-bit")
                                for i, w in enumerate(widths)], title="width", loc="upper left",
                       bbox_to_anchor=(1.02, 1.0))
    _run_legend(axes[0][-1], labels, "bar", loc="lower left", anchor=(1.02, 0.0), marks=marked)
    _finish(fig, out_dir, "throughput.svg", "Back-to-back accesses (thrpt/): what each ordering strategy costs",
            runs, labels)
    return Chart("throughput.svg", f"Cost per access in a stream of independent accesses, by strategy "
                 f"({_clock(runs, 'thrpt')}, log scale)." + _mark_caption(runs, labels, marked), "write")


# --- verdicts on the bars of a comparison ---------------------------------------------

# How a later run's bar shows its verdict against the first run's: the tables' verdict (tables.compare_in).
MARKS = {"slower": ("▲", "#c0392b"), "faster": ("▼", "#1e8449"), "same": ("≈", "0.35")}


def _mark(ax, runs, ri, key, counter, x, top):
    """Writes the verdict of run ri against the first above a vertical bar (comparisons, later runs only);
    True when it wrote one."""
    if ri == 0:
        return False
    v = tables.compare_in(runs[0], runs[ri], key, counter)
    if v.verdict not in MARKS:
        return False
    glyph, shade = MARKS[v.verdict]
    ax.text(x, top * 1.08, glyph, ha="center", va="bottom", fontsize=7, color=shade, clip_on=False)
    return True


def _mark_legend(labels):
    """Legend entries saying what the marks on the bars are."""
    shapes = {"slower": "^", "faster": "v", "same": r"$\approx$"}
    return [Line2D([], [], linestyle="none", marker=shapes[verdict], color=shade, markersize=7,
                   label=f"{verdict} than {labels[0]}" if verdict != "same" else f"the same as {labels[0]}")
            for verdict, (_, shade) in MARKS.items()]


def _mark_caption(runs, labels, marked):
    return (f" Above each bar of a later run, its verdict against {labels[0]} (▲ slower, ▼ faster, ≈ the same, as "
            "the tables decide it; none where it cannot be told)." if marked else "")


def _clock(runs, family):
    """The words of the clock a family's chart is in (its first counter)."""
    return tables.CLOCKS[tables.first_counter(runs, family)]


# --- distributions and curves ------------------------------------------------------------

def _axis_ticks(axis, lo, hi, log):
    """Readable ticks: plain numbers; on a log axis 1-2-5 steps over up to three decades, else decades."""
    if log:
        subs = (1.0, 2.0, 5.0) if hi / lo <= 1e3 else (1.0,)
        axis.set_major_locator(LogLocator(base=10, subs=subs))
        axis.set_minor_formatter(NullFormatter())
    axis.set_major_formatter(FuncFormatter(lambda v, _: tables.number(v)))


def histogram_charts(runs, labels, out_dir):
    """One chart per op+width: the lat/ sample histograms of every strategy, a panel per run, on log scales.

    Buckets are of unequal width (a timer step each at first, then 32 per
    power of two), so the height is samples per timer step: a bucket one step
    wide shows its count, a wider one its count spread over its steps.  The
    x axis spans the buckets up to the one holding p99.9; the tail above it
    is a marker at the right edge, and the legend says how many samples it
    holds and how far it reaches, so one preempted sample does not stretch
    the axis over six decades.
    """
    meta = model.meta(runs)
    by_opw = {}
    for ri, r in enumerate(runs):
        for res in r.results.values():
            if res.histogram and distribution.total(res.histogram) > 0:
                by_opw.setdefault((res.op, res.width or 0), []).append((ri, res.strategy, res.histogram))
    out = []
    for (op, width), items in sorted(by_opw.items()):
        opw = names.opw(op, width)
        panels = sorted({ri for ri, _, _ in items})
        fig, axes = plt.subplots(1, len(panels), figsize=(4.2 + 4.2 * len(panels), 4.4), sharey=True, squeeze=False)
        colors = strategy_colors(runs)
        tops, lows = [], []
        for ax, ri in zip(axes[0], panels):
            step = _hist_step(runs[ri], [h for r, _, h in items if r == ri])
            mine = sorted(((s, distribution.split_tail(h), h.unit) for r, s, h in items if r == ri),
                          key=lambda it: meta.strategy_key(it[0]))
            lo = min(e[0] for _, (e, _, _), _ in mine)
            hi = max(e[-1] for _, (e, _, _), _ in mine)
            log = lo > 0 and hi / lo > 8
            res = runs[ri].ctx_float("timer_resolution_cycles")
            if res and lo < res:
                ax.axvspan(lo, min(res, hi), color="0.85", alpha=0.6, linewidth=0,
                           label=f"below timer resolution ({tables.bound_text(res)})")
            for k, (s, (edges, counts, tail), _) in enumerate(mine):
                label = s
                if tail:
                    label += f" (+{tables.number(tail[0])} above p99.9, up to {tables.number(tail[2])})"
                density = [max(c, 0) / ((b - a) / step) for c, a, b in zip(counts, edges, edges[1:])]
                tops.append(max(density))
                lows.append(min((d for d in density if d > 0), default=1))
                ax.stairs(density, edges, color=colors[s], linewidth=1.4, label=label)
                if tail:
                    # at the right edge, one above the other: the tail's count is in the legend, not on this axis
                    ax.plot([1.0], [0.06 + 0.07 * k], marker=">", markersize=7, color=colors[s], linestyle="none",
                            transform=ax.transAxes, clip_on=False)
            ax.set_yscale("log")
            if log:
                ax.set_xscale("log")
            ax.set_xlim(lo, hi)
            _axis_ticks(ax.xaxis, lo, hi, log)
            unit = mine[0][2]
            ax.set_xlabel(f"latency ({TSC if unit == 'cycles' else unit}{', log scale' if log else ''})")
            if len(panels) > 1:
                ax.set_title(labels[ri])
            ax.legend(title="strategy (▸ tail above p99.9)", loc="upper right", fontsize=8, title_fontsize=8)
        axes[0][0].set_ylabel("samples per timer step (log scale)")
        # set, not autoscaled: down to the sparsest bucket (one sample spread over a wide one), two decades of
        # headroom above to keep the legend clear of the steps
        axes[0][0].set_ylim(min(0.6, min(lows) / 2), max(max(tops), 1) * 100)
        file = f"histogram-{opw}.svg"
        _finish(fig, out_dir, file, f"lat/{opw}: distribution of single-access latency", runs, labels)
        out.append(Chart(file, f"Every lat/{opw} sample, binned up to p99.9 (samples per timer step: the buckets "
                         "widen with the latency); ▸ at the right edge marks the tail above p99.9, counted in the "
                         "legend: the shape the percentiles summarise.", "latency"))
    return out


def _hist_step(run, hists):
    """The width the histograms' heights are per: the grid's timer step, else the run's, else one TSC cycle."""
    steps = {h.grid[0] for h in hists if h.grid}
    if len(steps) == 1:
        return steps.pop()
    return run.ctx_float("timer_resolution_cycles") or 1.0


def _curves(ax, runs, pick, strategies, colors):
    """Lines of pick(run, strategy) -> [(x, y)] per strategy and run, each strategy in colors[strategy]; returns the
    x values drawn."""
    meta = model.meta(runs)
    xs = set()
    for s in strategies:
        labelled = False
        for ri, run in enumerate(runs):
            pts = sorted(pick(run, s))
            if not pts:
                continue
            xs.update(x for x, _ in pts)
            # the legend names each strategy once, from whichever run has it first
            ax.plot([x for x, _ in pts], [y for _, y in pts], color=colors[s], linestyle=LINESTYLES[ri % 4],
                    marker=MARKERS[ri % 4], markersize=4, linewidth=2.2 if meta.is_reference(s) else 1.6,
                    label=None if labelled else s)
            labelled = True
    return xs


def rep_chart(runs, labels, out_dir, op):
    """Cycles per element against _rep count (log x), one panel per width, a line per strategy."""
    items = [res for r in runs for res in r.results.values() if res.family == "rep" and res.op == op and res.state.figure]
    if not items:
        return None
    widths = sorted({res.width for res in items})
    strategies = sorted({res.strategy for res in items}, key=model.meta(runs).strategy_key)
    cols = min(2, len(widths))
    rows = math.ceil(len(widths) / cols)
    counter, colors = tables.first_counter(runs, "rep"), strategy_colors(runs)
    fig, axes = plt.subplots(rows, cols, figsize=(9, 3.0 * rows + 0.8), sharex=True, sharey=True, squeeze=False)
    for ax, w in zip(axes.flat, widths):
        def pick(run, s, w=w):
            return [(res.param, res.counters[counter]) for res in run.results.values()
                    if res.family == "rep" and res.op == op and res.width == w and res.strategy == s
                    and res.state.figure and math.isfinite(res.counters.get(counter, math.nan))]
        xs = _curves(ax, runs, pick, strategies, colors)
        ax.set_title(f"{op}{w}_rep")
        _size_axis(ax, xs, str)         # counts: plain numbers on the axis
        ax.set_yscale("log")
        _log_ticks(ax.yaxis)
    for ax in axes.flat[len(widths):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("elements per call (log scale)")
    for ax in axes[:, 0]:
        ax.set_ylabel(f"{_clock(runs, 'rep')} per element")
    axes[0][-1].legend(title="strategy", loc="upper left", bbox_to_anchor=(1.02, 1.0))
    # on the last panel drawn: with an odd number of widths the grid's last cell is hidden
    _run_legend(axes.flat[len(widths) - 1], labels, "line", loc="lower left", anchor=(1.02, 0.0))
    file = f"rep-{op}.svg"
    _finish(fig, out_dir, file, f"{op}_rep on one register: cost per element against count", runs, labels)
    return Chart(file, f"How the per-element cost of {op}_rep falls with the count ({_clock(runs, 'rep')}, log "
                 "scales).", "rep")


def copy_chart(runs, labels, out_dir, direction):
    """Copy bandwidth against size (log x, log y), a line per strategy, the reference (libc) in black."""
    def pick(run, s):
        return [(res.param, res.counters["bytes_per_second"] / 1e9) for res in run.results.values()
                if res.family == "copy" and res.op == direction and res.strategy == s
                and res.state.figure and math.isfinite(res.counters.get("bytes_per_second", math.nan))]
    strategies = _strategies(runs, lambda res: res.family == "copy" and res.op == direction)
    if not any(pick(r, s) for r in runs for s in strategies):
        return None
    fig, ax = plt.subplots(figsize=(9, 4.8))
    xs = _curves(ax, runs, pick, strategies, strategy_colors(runs, copies=True))
    _size_axis(ax, xs, tables.param_text(model.meta(runs).families["copy"]))
    ax.set_yscale("log")
    _log_ticks(ax.yaxis)
    ax.set_xlabel("bytes per call (log scale)")
    ax.set_ylabel("GB/s (10^9 bytes/s, log scale)")
    ax.legend(title="strategy", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    _run_legend(ax, labels, "line", loc="lower left", anchor=(1.0, 0.0))
    what = headlines.COPY_OPS.get(direction, direction)
    file = f"copy-{direction}.svg"
    _finish(fig, out_dir, file, f"{what}: bandwidth against size, per strategy", runs, labels)
    meta = model.meta(runs)
    refs = [f"{s} (black) is {meta.help[s]}" for s in strategies if meta.is_reference(s)]
    return Chart(file, f"{what} bandwidth by size" + "".join(f"; {r}" for r in refs) + ".", "copy")


# --- costs of barriers, and port against MMIO -------------------------------------------

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
                ax.barh(y, m.value, step * 0.9, color=_PALETTE[ri % 10],
                        hatch=HATCHES[ri % 4] or None)
                v = tables.compare_in(runs[0], run, key_of(row), counter) if ri else None
                glyph, shade = MARKS.get(v.verdict if v else "", ("", None))
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
    ax.set_xlabel(f"{_clock(runs, 'barrier')} per {model.meta(runs).families['barrier'].unit}")
    ax.margins(x=0.15)
    if len(runs) > 1:
        ax.legend(handles=[Patch(color=_PALETTE[i % 10], hatch=HATCHES[i % 4], label=l) for i, l in enumerate(labels)]
                  + (_mark_legend(labels) if marked else []), title="run", loc="upper right")
    _finish(fig, out_dir, "barriers.svg", "Ordering primitives alone: cost per barrier", runs, labels)
    return Chart("barriers.svg", f"The cost of each barrier by itself ({_clock(runs, 'barrier')}, linear)."
                 + _mark_caption(runs, labels, marked).replace("Above each bar", "Beside each bar"), "barrier")


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
        _axis_ticks(ax.xaxis, lo, hi, log)
        ax.set_title(port_panel_title(runs, panel) + (" (log scale)" if log else ""), fontsize=10, loc="left")
    handles = [Line2D([], [], linestyle="none", markersize=7, label=n, **style[n]) for n, _ in series]
    axes[0][0].legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="series")
    _finish(fig, out_dir, "port-vs-mmio.svg", "Port I/O against MMIO for the same operation", runs, labels)
    return Chart("port-vs-mmio.svg", f"Port I/O (orange dots) and MMIO (blue outlines) for the same operation, a row "
                 f"each; the grey bar spans the gap ({TSC}).", "port")


def all_charts(runs, labels, out_dir):
    """Every chart the runs have data for, written into out_dir."""
    charts = [latency_chart(runs, labels, out_dir, "read"), latency_chart(runs, labels, out_dir, "write"),
              throughput_chart(runs, labels, out_dir)]
    charts += histogram_charts(runs, labels, out_dir)
    charts += [rep_chart(runs, labels, out_dir, op) for op in ("read", "write")]
    charts += [copy_chart(runs, labels, out_dir, d) for d in ("fromio", "toio", "set")]
    charts += [barrier_chart(runs, labels, out_dir), port_mmio_chart(runs, labels, out_dir)]
    return [c for c in charts if c]
