"""SVG charts of a report: one idea per chart, units on every axis, readable without the text.

Every chart draws all runs it is given: colour is the strategy (the same
colour in every chart), and in a comparison the run is the line style or
the bar hatch.  Each function returns a Chart (file name and caption) or
None when the runs hold nothing for it, so reports of partial runs simply
have fewer charts.  common.py holds what they share (style, colours,
footer, legends, verdict marks); each kind of chart is a module of its own.
"""
from regbench_base import plot

plot.pyplot()      # the Agg backend and literal text, before any module of the package imports pyplot

from .bars import barrier_chart, port_mmio_chart, port_mmio_rows          # noqa: E402
from .common import MARKED, Chart, where                                    # noqa: E402
from .histogram import histogram_charts                                    # noqa: E402
from .latency import latency_chart, latency_panels, throughput_chart       # noqa: E402
from .sizes import copy_chart, rep_chart                                   # noqa: E402

# One module per kind of chart; the names the report and its tests use are these.
__all__ = ["MARKED", "Chart", "all_charts", "barrier_chart", "copy_chart", "histogram_charts", "latency_chart",
           "latency_panels", "port_mmio_chart", "port_mmio_rows", "rep_chart", "throughput_chart", "where"]


def all_charts(runs, labels, out_dir):
    """Every chart the runs have data for, written into out_dir."""
    charts = [latency_chart(runs, labels, out_dir, "read"), latency_chart(runs, labels, out_dir, "write"),
              throughput_chart(runs, labels, out_dir)]
    charts += histogram_charts(runs, labels, out_dir)
    charts += [rep_chart(runs, labels, out_dir, op) for op in ("read", "write")]
    charts += [copy_chart(runs, labels, out_dir, d) for d in ("fromio", "toio", "set")]
    charts += [barrier_chart(runs, labels, out_dir), port_mmio_chart(runs, labels, out_dir)]
    return [c for c in charts if c]
