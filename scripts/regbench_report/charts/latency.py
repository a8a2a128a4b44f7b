"""Latency and throughput bars: a bar per strategy and width, a panel per method, a hatch per run."""
import matplotlib.pyplot as plt
from matplotlib.patches import Patch

from regbench_base import model, names
from regbench_base.model import Key

from .. import tables
from .common import (HATCHES, Chart, clock_words, drawn_strategies, finish, log_ticks, mark, mark_caption, run_legend,
                     strategy_colors)


def latency_panels(runs, op):
    """[(family, {(run index, strategy, width): (height, p99 or None, State)})]: a panel per way of measuring latency.

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
                    marked |= mark(ax, runs, ri, key, tables.first_counter(runs, family), x, max(h, p99 or 0))
        ax.set_yscale("log")
        # bars on a log axis grow from the bottom edge: keep it well below the smallest bar
        ax.set_ylim(bottom=min(h for h, _, _ in vals.values()) / 4)
        log_ticks(ax.yaxis)
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
        ax.set_ylabel(f"{clock_words(runs, family)} per {f.unit} (log scale)")
    handles = [Patch(color=colors[s], label=s) for s in strategies]
    if below:
        handles.append(Patch(facecolor="none", edgecolor="0.4", linestyle="--",
                             label="dashed: below timer resolution (the value is under the bar)"))
    axes[0][-1].legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    run_legend(axes[0][-1], labels, "bar", loc="lower left", anchor=(1.0, 0.0), marks=marked)
    file = names.file_name(f"latency-{op}", ".svg")
    verb = "Read" if op == "read" else "Write"
    methods = " and ".join(f"{fam}/" for fam, _ in panels)
    finish(fig, out_dir, file, f"{verb} latency by width and strategy" +
            (f": {methods} apart, each on its own axis" if len(panels) > 1 else ""), runs, labels)
    clocks = ", ".join(f"{fam}/ in {clock_words(runs, fam)}" for fam, _ in panels)
    return Chart(file, f"{verb} latency: one bar per strategy at each width, a panel per method ({clocks}; "
                 "log scale); compare bars within a panel only." + mark_caption(runs, labels, marked), op)


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
        strategies = drawn_strategies(runs, lambda res: res.family == "thrpt" and res.op == op)
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
                    marked |= mark(ax, runs, ri, Key("thrpt", op, w, s), counter, x, m.value)
        ax.set_xticks(range(len(strategies)))
        ax.set_xticklabels(strategies, rotation=20)
        ax.set_title(f"{op}s")
        ax.set_yscale("log")
        log_ticks(ax.yaxis)
    axes[0][0].set_ylabel(f"{clock_words(runs, 'thrpt')} per access (log scale)")
    # both legends outside the last panel: inside, they cover bars (and each other with one panel)
    axes[0][-1].legend(handles=[Patch(color=shades(i / max(1, len(widths) - 1) * 0.85), label=f"{w}-bit")
                                for i, w in enumerate(widths)], title="width", loc="upper left",
                       bbox_to_anchor=(1.02, 1.0))
    run_legend(axes[0][-1], labels, "bar", loc="lower left", anchor=(1.02, 0.0), marks=marked)
    finish(fig, out_dir, "throughput.svg", "Back-to-back accesses (thrpt/): what each ordering strategy costs",
            runs, labels)
    return Chart("throughput.svg", f"Cost per access in a stream of independent accesses, by strategy "
                 f"({clock_words(runs, 'thrpt')}, log scale)." + mark_caption(runs, labels, marked), "write")
