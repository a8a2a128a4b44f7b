"""History charts: one SVG per series (a benchmark on one machine and target), the median ns of each run over time.

Each run is a point at its place in time order (runs are irregular in time,
so the axis counts them and names their dates), its bar the repetitions'
range; a point the report's verdict calls slower than the one before is red.
The folder follows scripts/report's rules (regbench_base.folder).
"""
import os

from regbench_base import folder, names, plot


# history -o's folder is its own (folder.Writer): SVGs alone, no README (a table's has one).
WRITER = folder.Writer("scripts/results history", "history -o", lambda names: bool(names) and all(n.endswith(".svg") for n in names))


def file_name(s, taken=None):
    """A series' SVG name: its benchmark, host and target (and the machine's id where it is not the host: two machines
    may share a name) made one safe file name."""
    machine = f"--{s.machine[:12]}" if s.machine != s.host else ""
    return names.file_name(f"{s.name}--{s.host}--{s.target}{machine}", ".svg", taken)


def chart(s, path):
    plt = plot.pyplot()
    points = [p for p in s.points if p.result["ns"] is not None]
    rc = {"svg.hashsalt": "regbench", "svg.fonttype": "none", "font.size": 8, "font.family": "DejaVu Sans"}
    with plt.rc_context(rc):
        fig, ax = plt.subplots(figsize=(max(4.0, 0.35 * len(points) + 2), 3.2))
        xs = list(range(len(points)))
        ys = [p.result["ns"] for p in points]
        # a median Google Benchmark wrote may lie a rounding outside the repetitions' range: no bar is negative
        lo = [max(0.0, y - (p.result["ns_lo"] if p.result["ns_lo"] is not None else y)) for y, p in zip(ys, points)]
        hi = [max(0.0, (p.result["ns_hi"] if p.result["ns_hi"] is not None else y) - y) for y, p in zip(ys, points)]
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="-o", color="tab:blue", markersize=3, capsize=2, linewidth=1)
        slower = [i for i, p in enumerate(points) if p.verdict and p.verdict.verdict.costlier]
        ax.plot([xs[i] for i in slower], [ys[i] for i in slower], "o", color="tab:red", label="slower than the run before")
        ax.set_xticks(xs, [str(p.run["date"] or "")[:10] for p in points], rotation=60, ha="right", fontsize=6)
        ax.set_ylabel("ns (median, repetitions' range)")
        ax.set_title(f"{s.name} · {s.host} · {s.target}", loc="left", fontsize=9)
        if slower:
            ax.legend(fontsize=7)
        fig.savefig(path, format="svg", metadata={"Date": None}, bbox_inches="tight")
        plt.close(fig)


def write(all_series, out_dir, force=False):
    """An SVG per series into out_dir, all or nothing; returns the files' names."""
    try:
        folder.check(out_dir, force, writer=WRITER)
        with folder.Staging(out_dir, WRITER) as stage:
            written, taken = [], set()
            for s in all_series:
                written.append(file_name(s, taken))
                chart(s, os.path.join(stage.path, written[-1]))
            stage.commit()
    except folder.FolderError as e:
        from .errors import ResultsError
        raise ResultsError(str(e)) from None
    return written
