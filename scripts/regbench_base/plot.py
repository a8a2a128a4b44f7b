"""matplotlib as every chart here uses it: no display, and a run's text drawn as text, never as a formula.

Text in a chart may come from a run file (a host, a benchmark, a family's
unit): it is drawn literally (no $...$ mathtext, which a stray pair of
dollars would parse and fail on), so log axes and colour bars write their
powers in plain text (10², 2×10⁻³) rather than in mathtext.  A glyph the font
lacks is drawn as a box without a warning on stderr (a command's output there
is its one line), and so is every other warning of matplotlib's: a run's
figures may be anything the contract allows (all zero: "cannot be
log-scaled"), and the chart is drawn all the same.
"""
import re
import warnings

_SUPERSCRIPT = str.maketrans("0123456789-.", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻·")


def plain_power(label):
    """A tick label matplotlib writes in mathtext ($\\mathdefault{2\\times10^{-3}}$) as plain text (2×10⁻³)."""
    m = re.fullmatch(r"\$\\mathdefault\{(.*)\}\$", label)
    if not m:
        return label
    text = m.group(1).replace(r"\times", "×").replace(r"\mathdefault", "")
    return re.sub(r"\^\{([-0-9.]+)\}", lambda e: e.group(1).translate(_SUPERSCRIPT), text)


def pyplot():
    """matplotlib.pyplot on the Agg backend, with the settings above."""
    import matplotlib
    matplotlib.use("Agg")
    # matplotlib says what it cannot draw as asked with a UserWarning (a glyph the font lacks, a log scale over
    # nothing positive), attributed to the caller's module: every one of them, since nothing else here raises one
    warnings.filterwarnings("ignore", category=UserWarning)
    import matplotlib.pyplot as plt
    from matplotlib import scale, ticker
    plt.rcParams["text.parse_math"] = False

    class PlainPowers(ticker.LogFormatterSciNotation):
        def __call__(self, x, pos=None):
            return plain_power(super().__call__(x, pos))

    class LogScale(scale.LogScale):
        """The log scale with its powers in plain text; registered under the name "log", so that every log axis
        (set_xscale("log"), a colour bar's LogNorm) has them."""
        def set_default_locators_and_formatters(self, axis):
            super().set_default_locators_and_formatters(axis)
            axis.set_major_formatter(PlainPowers(self.base))
            axis.set_minor_formatter(PlainPowers(self.base, labelOnlyBase=(self.subs is not None)))

    if scale._scale_mapping.get("log") is scale.LogScale:         # once, whoever calls first
        scale.register_scale(LogScale)
    return plt
