"""lat/ histograms: where one access's samples fall, a panel per width, the tail above p99.9 apart."""
import matplotlib.pyplot as plt

from regbench_base import distribution, model, names

from .. import tables
from .common import TSC, Chart, axis_ticks, finish, strategy_colors


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
            axis_ticks(ax.xaxis, lo, hi, log)
            unit = mine[0][2]
            ax.set_xlabel(f"latency ({TSC if unit == 'cycles' else unit}{', log scale' if log else ''})")
            if len(panels) > 1:
                ax.set_title(labels[ri])
            ax.legend(title="strategy (▸ tail above p99.9)", loc="upper right", fontsize=8, title_fontsize=8)
        axes[0][0].set_ylabel("samples per timer step (log scale)")
        # set, not autoscaled: down to the sparsest bucket (one sample spread over a wide one), two decades of
        # headroom above to keep the legend clear of the steps
        axes[0][0].set_ylim(min(0.6, min(lows) / 2), max(max(tops), 1) * 100)
        file = names.file_name(f"histogram-{opw}", ".svg")
        finish(fig, out_dir, file, f"lat/{opw}: distribution of single-access latency", runs, labels)
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
