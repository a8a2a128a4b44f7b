"""Curves against a count or a size: _rep cycles per element, copy bandwidth, a line per strategy."""
import math

import matplotlib.pyplot as plt

from regbench_base import model, names

from .. import headlines, tables
from .common import (LINESTYLES, MARKERS, Chart, clock_words, drawn_strategies, finish, log_ticks, run_legend,
                     size_axis, strategy_colors)


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
        size_axis(ax, xs, str)         # counts: plain numbers on the axis
        ax.set_yscale("log")
        log_ticks(ax.yaxis)
    for ax in axes.flat[len(widths):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("elements per call (log scale)")
    for ax in axes[:, 0]:
        ax.set_ylabel(f"{clock_words(runs, 'rep')} per element")
    axes[0][-1].legend(title="strategy", loc="upper left", bbox_to_anchor=(1.02, 1.0))
    # on the last panel drawn: with an odd number of widths the grid's last cell is hidden
    run_legend(axes.flat[len(widths) - 1], labels, "line", loc="lower left", anchor=(1.02, 0.0))
    file = names.file_name(f"rep-{op}", ".svg")
    finish(fig, out_dir, file, f"{op}_rep on one register: cost per element against count", runs, labels)
    return Chart(file, f"How the per-element cost of {op}_rep falls with the count ({clock_words(runs, 'rep')}, log "
                 "scales).", "rep")


def copy_chart(runs, labels, out_dir, direction):
    """Copy bandwidth against size (log x, log y), a line per strategy, the reference (libc) in black."""
    def pick(run, s):
        return [(res.param, res.counters["bytes_per_second"] / 1e9) for res in run.results.values()
                if res.family == "copy" and res.op == direction and res.strategy == s
                and res.state.figure and math.isfinite(res.counters.get("bytes_per_second", math.nan))]
    strategies = drawn_strategies(runs, lambda res: res.family == "copy" and res.op == direction)
    if not any(pick(r, s) for r in runs for s in strategies):
        return None
    fig, ax = plt.subplots(figsize=(9, 4.8))
    xs = _curves(ax, runs, pick, strategies, strategy_colors(runs, copies=True))
    size_axis(ax, xs, tables.param_text(model.meta(runs).families["copy"]))
    ax.set_yscale("log")
    log_ticks(ax.yaxis)
    ax.set_xlabel("bytes per call (log scale)")
    ax.set_ylabel("GB/s (10^9 bytes/s, log scale)")
    ax.legend(title="strategy", loc="upper left", bbox_to_anchor=(1.0, 1.0))
    run_legend(ax, labels, "line", loc="lower left", anchor=(1.0, 0.0))
    what = headlines.COPY_OPS.get(direction, direction)
    file = names.file_name(f"copy-{direction}", ".svg")
    finish(fig, out_dir, file, f"{what}: bandwidth against size, per strategy", runs, labels)
    meta = model.meta(runs)
    refs = [f"{s} (black) is {meta.help[s]}" for s in strategies if meta.is_reference(s)]
    return Chart(file, f"{what} bandwidth by size" + "".join(f"; {r}" for r in refs) + ".", "copy")
