"""matplotlib as every chart here uses it: no display, and a run's text drawn as text, never as a formula.

Text in a chart may come from a run file (a host, a benchmark, a family's
unit): it is drawn literally (no $...$ mathtext, which a stray pair of
dollars would parse and fail on) and a glyph the font lacks is drawn as a box
without a warning on stderr (a command's output there is its one line).
"""
import warnings


def pyplot():
    """matplotlib.pyplot on the Agg backend, with the settings above."""
    import matplotlib
    matplotlib.use("Agg")
    warnings.filterwarnings("ignore", message=r"Glyph \d+ ", category=UserWarning)
    warnings.filterwarnings("ignore", message=r"Matplotlib currently does not support ", category=UserWarning)
    import matplotlib.pyplot as plt
    plt.rcParams["text.parse_math"] = False
    return plt
