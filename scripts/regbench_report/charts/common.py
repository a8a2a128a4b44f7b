"""What every chart of a report shares: the style, a colour per strategy, the footer, legends and verdict marks."""
import os
from dataclasses import dataclass

import matplotlib.pyplot as plt
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from regbench_base import model
from regbench_base.verdict import Verdict

from .. import markdown, tables

plt.rcParams.update({"svg.hashsalt": "regbench", "svg.fonttype": "path", "font.size": 10,
                     "axes.titlesize": 11, "axes.spines.top": False, "axes.spines.right": False,
                     "axes.grid": True, "grid.alpha": 0.3, "legend.fontsize": 9, "legend.framealpha": 0.9})

# Twenty distinct colours: tab10's, then their light twins (tab20's odd entries).
PALETTE = plt.get_cmap("tab10").colors + plt.get_cmap("tab20").colors[1::2]
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
    out = {s: PALETTE[i % len(PALETTE)] for i, s in enumerate(mine)}
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


def footer_text(runs, labels):
    """One line per run (one line in all for a single run): where each run's numbers come from."""
    if len(runs) == 1:
        r = runs[0]
        return f"{where(r)} · {r.ctx('cpu_model', '?')} · {str(r.ctx('date', ''))[:10]}"
    return "\n".join(f"{l}: {where(r)} · {str(r.ctx('date', ''))[:10]}" for r, l in zip(runs, labels))


def finish(fig, out_dir, file, title, runs, labels):
    fig.suptitle(title, fontsize=12, fontweight="bold", x=0.01, ha="left")
    footer = footer_text(runs, labels)
    lines = footer.count("\n") + 1
    fig.text(0.01, 0.005, footer, fontsize=8, color="0.35", ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.03 * lines, 1, 0.96))
    # "tight" keeps legends placed outside the axes inside the picture
    fig.savefig(os.path.join(out_dir, file), format=os.path.splitext(file)[1][1:], metadata={"Date": None},
                bbox_inches="tight", pad_inches=0.15)
    plt.close(fig)


def log_ticks(axis):
    """Plain numbers (0.5, 2, 50) at 1-2-5 steps on a log axis instead of bare powers of ten."""
    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: tables.number(v)))
    axis.set_minor_formatter(NullFormatter())


def run_legend(ax, labels, kind, loc="upper left", anchor=None, marks=False):
    """A second legend naming the runs by line style or hatch (comparisons only), and with marks what the
    verdict marks on the bars are (mark_legend).

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
        extra_handles = mark_legend(labels)
        handles += extra_handles
        texts += [h.get_label() for h in extra_handles]
    extra = {"bbox_to_anchor": anchor} if anchor else {}
    legend = Legend(ax, handles, texts, title="run", loc=loc, **extra)
    ax.add_artist(legend)
    legend.set_clip_on(False)      # add_artist clips to the axes; this legend may sit outside them


def drawn_strategies(runs, pred):
    """The strategies of the benchmarks pred(Result) picks in any run, in display order."""
    return sorted({res.strategy for r in runs for res in r.results.values() if pred(res)},
                  key=model.meta(runs).strategy_key)


def size_axis(ax, values, fmt):
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(values))
    ax.set_xticklabels([fmt(v) for v in sorted(values)])
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.xaxis.set_minor_locator(LogLocator(base=2, subs=()))



# --- verdicts on the bars of a comparison ---------------------------------------------

# How a later run's bar shows its verdict against the first run's (the tables' verdict, tables.compare_in): the
# verdicts that have a mark (Verdict.mark, .colour, .marker).
MARKED = tuple(v for v in Verdict if v.mark)


def mark(ax, runs, ri, key, counter, x, top):
    """Writes the verdict of run ri against the first above a vertical bar (comparisons, later runs only);
    True when it wrote one."""
    if ri == 0:
        return False
    v = tables.compare_in(runs[0], runs[ri], key, counter)
    if not v.verdict.mark:
        return False
    ax.text(x, top * 1.08, v.verdict.mark, ha="center", va="bottom", fontsize=7, color=v.verdict.colour,
            clip_on=False)
    return True


def mark_legend(labels):
    """Legend entries saying what the marks on the bars are."""
    return [Line2D([], [], linestyle="none", marker=v.marker, color=v.colour, markersize=7,
                   label=v.legend.format(label=labels[0])) for v in MARKED]


def mark_caption(runs, labels, marked):
    return (f" Above each bar of a later run, its verdict against {labels[0]} (▲ slower, ▼ faster, ≈ the same, as "
            "the tables decide it; none where it cannot be told)." if marked else "")


def clock_words(runs, family):
    """The words of the clock a family's chart is in (its first counter)."""
    return tables.CLOCKS[tables.first_counter(runs, family)]


# --- axes -------------------------------------------------------------------------------

def axis_ticks(axis, lo, hi, log):
    """Readable ticks: plain numbers; on a log axis 1-2-5 steps over up to three decades, else decades."""
    if log:
        subs = (1.0, 2.0, 5.0) if hi / lo <= 1e3 else (1.0,)
        axis.set_major_locator(LogLocator(base=10, subs=subs))
        axis.set_minor_formatter(NullFormatter())
    axis.set_major_formatter(FuncFormatter(lambda v, _: tables.number(v)))
