"""How figures are written for a reader: numbers, bounds, ratios, and Markdown tables of them.

The report and the store write the same figures, so they write them with
these functions: a bound always reads `< N` rounded up, never down, and a
ratio always has the digits a reader compares.  md_safe() is the last step of
every Markdown file written: a run's text in it is never markup.  printable()
keeps a run's text on one line wherever it is shown (model.from_document
passes every text of a run file through it).
"""
import math
import re

# The mark beside a figure some repetition of which ran while the machine was disturbed.
DISTURBED = "†"


def number(v, up=False):
    """A value with as many digits as a reader needs: 1234, 123, 12.3, 1.23, 0.123, 0.000076; up: rounded up at
    the last digit shown, never down (a bound: bound_text)."""
    if v is None or not math.isfinite(v):
        return "NaN"
    a = abs(v)
    if a == 0:
        return "0"
    if a < 1e-12:
        return f"{v:.2g}"
    if a >= 100 or v == int(v) and a >= 1:
        decimals = 0
    elif a >= 0.01:
        decimals = 1 if a >= 10 else 2 if a >= 1 else 3
    else:
        # two significant digits written out, as the console writes its bounds: 0.00008, not 8e-05
        decimals = 1 - math.floor(math.log10(a))
    if up:
        # a billionth of the last digit's unit: a bound of exactly 21 or 0.1 is not raised by binary noise
        scaled = v * 10 ** decimals
        return number(math.ceil(scaled - 1e-9 * max(1.0, abs(scaled))) / 10 ** decimals)
    text = f"{v:.{decimals}f}"
    return text.rstrip("0") if a < 0.01 else text


def bound_text(bound):
    """A figure's upper bound as every table and sentence writes it: '< 21', '< 0.000081'."""
    return f"< {number(bound, up=True)}"


def ratio_text(x):
    """A ratio of two figures: 0.50×, 1.52×, 12.3×, 123×, 0.0047×."""
    if x >= 100:
        return f"{x:.0f}×"
    return f"{x:.1f}×" if x >= 10 else f"{x:.2f}×" if x >= 0.01 else f"{number(x)}×"


def printable(text):
    """Text as one line: each control or format character (a newline, an escape sequence, a NUL, a right-to-left
    override) written as its escape, as Python writes it in a string (\\n, \\x1b, \\u202e)."""
    text = str(text)
    return text if text.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


# The only HTML a report writes itself; any other tag in a Markdown file came from a run's text.
_OWN_TAGS = r"/?(?:details|summary|br)>"
_TAG = re.compile(rf"<(?!{_OWN_TAGS})(?=[A-Za-z/!?])")
# The only links and images a report writes itself go to files beside it (a chart, the raw JSON, ../reference/); a
# link or image to anywhere else (a script, a scheme, an entity, another host) came from a run's text.
_OWN_LINK = r"(?:\.\./)*[\w.][\w.-]*(?:/[\w.-]+)*/?\)"
_LINK = re.compile(rf"\]\((?!{_OWN_LINK})")
# a link reference definition ([name]: target) at the start of a line
_DEFINITION = re.compile(r"^( {0,3})\[(?=[^\]\n]*\]:)", re.M)


def md_safe(md):
    """A Markdown document whose texts from run files cannot act as markup: a `<` that would open a tag other than
    the report's own (details, summary, br) written as `&lt;`, and a link, image or link definition to anything but
    a file beside the document written as text (a run's host may be `<img src=x onerror=...>`,
    `[x](javascript:...)` or `![x](https://tracker.example/)`; a Markdown viewer shows them as written).  A run's
    text holds no line break by then (printable), so it cannot open a heading or a list of its own."""
    md = _TAG.sub("&lt;", md)
    return _DEFINITION.sub(lambda m: m.group(1) + "\\[", _LINK.sub("]\\(", md))


def md_table(head, rows):
    """A GitHub Markdown table; | inside cells is escaped, a line break or other control character is a space."""
    esc = lambda s: re.sub(r"[\x00-\x1f\x7f]", " ", str(s).replace("|", "\\|"))
    lines = ["| " + " | ".join(map(esc, head)) + " |", "|" + "|".join("---" for _ in head) + "|"]
    lines += ["| " + " | ".join(map(esc, r)) + " |" for r in rows]
    return "\n".join(lines)
