"""The store as a static site: the reference table to filter, sort and link, each cell's history, each machine's runs.

collect() is the one place that reads the store (the filters, the reference
table, the history of every cell) and gives plain dicts; write() turns them
into a folder that a browser opens from file:// with nothing fetched from the
network: three HTML pages, a stylesheet, a small hand-written script (both
beside this file, in site/) and data.js, the history the charts are drawn from.
The table is in the HTML itself, so it reads without the script; the script
filters and sorts it from the address (`index.html#family=copy&kind=hardware`)
and draws the history charts.

Cells are the reference table's (reference.build, the same medians as the
Markdown table); a family that moves bytes (param "size") reads in GB/s.  A
cell's colour is its place on a log scale within its section, hardware and
emulated columns on scales of their own, so the thousands of ns of a trapped
or TCG access do not flatten the differences between machines.
"""
import html
import json
import math
import os
import re
import shutil
from urllib.parse import quote

from regbench_base import folder, names
from regbench_base.model import Key
from regbench_base.state import State
from regbench_base.text import DISTURBED, md_safe, number

from . import history, reference, render
from .errors import ResultsError

ASSETS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "site")
FILES = ("index.html", "runs.html", "history.html", "data.js", "site.js", "site.css", "README.md")
# The site's folder is its own: a table's, a report's or history charts there are not (folder.Writer).
WRITER = folder.Writer("scripts/results site", "the site", lambda names: "index.html" in names and names <= set(FILES))
TITLE = "regbench: register access costs across machines"
# Runs of a regbench that did not record `arch` come from the one that measured x86_64 alone: the pages show them so
# (the --arch filter, the store's, matches only runs that recorded it).
DEFAULT_ARCH = "x86_64"


def _slug(text, taken):
    """A short id for the address (machine=..., col=...): lower-case words joined by '-', unique among taken."""
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    taken.add(slug)
    return slug


def _gbps(cell_ns, size):
    """ns per copy of `size` bytes as GB/s (bytes per ns)."""
    return size / cell_ns if cell_ns else None


def _figure(cell, size):
    """A reference.Cell as the site shows it: {text, value, lo, hi, bound} in the row's unit (GB/s where size, the
    bytes per unit, is given; value None below the timer's resolution, and bound None above it)."""
    value, lo, hi, bound = cell.value, cell.lo, cell.hi, cell.bound
    if size:
        value, lo, hi, bound = _gbps(value, size), _gbps(hi, size), _gbps(lo, size), _gbps(bound, size)
    if cell.state.figure:
        text = render.cell_text(reference.Cell(State.MEASURED, value, lo, hi, disturbed=cell.disturbed))
    elif cell.state.bound:
        # below one timer step of ns is above the GB/s of that step
        text = render.cell_text(cell) if not size else f"> {number(bound)}" if bound else "below res."
        text += f" {DISTURBED}" if size and cell.disturbed else ""
    else:
        text = render.cell_text(cell)
    return {"text": text, "value": value if cell.state.figure else None, "lo": lo, "hi": hi, "bound": bound}


def _tones(cells, emulation, higher_is_better):
    """Each cell's place (0 cheapest .. 1 costliest) on a log scale of its own group of columns: hardware, or one kind
    of emulation (TCG, trap), so that neither flattens the others' differences."""
    out = {}
    for group in sorted(set(emulation)):
        mine = {kc: f["value"] for kc, f in cells.items() if (f["value"] or 0) > 0 and emulation[kc[1]] == group}
        if not mine:
            continue
        lo, hi = math.log(min(mine.values())), math.log(max(mine.values()))
        for kc, v in mine.items():
            t = (math.log(v) - lo) / (hi - lo) if hi > lo else 0.0
            out[kc] = round(1 - t if higher_is_better else t, 2)
    return out


def _history(all_series, size_of):
    """Per column and benchmark (the table's rows), each run's figure in its unit: [run, value, lo, hi, state, text,
    figure]; value is the bound for a figure below the timer's resolution, and figure says which it is (State's
    answer, so the page never compares state words)."""
    out = {}
    for s in all_series:
        for p in s.points:
            r = p.result
            name = names.label(Key(r["family"], r["op"], r["width"], r["strategy"], r["param"]))
            if name not in size_of:
                continue
            cell = reference.cell([(r, p.run)])      # one run's figure, as the table has a column of one run
            f = _figure(cell, size_of[name])
            point = [p.run["index"], _round(f["value"] if cell.state.figure else f["bound"]),
                     _round(f["lo"] if cell.state.figure else None), _round(f["hi"] if cell.state.figure else None),
                     cell.state.cell, f["text"], cell.state.figure]
            out.setdefault(p.run["column"], {}).setdefault(name, []).append(point)
    for column in out.values():
        for points in column.values():
            points.sort(key=lambda point: point[0])
    return out


def _round(v):
    return None if v is None else float(f"{v:.4g}")


def collect(store, selection):
    """Everything the site shows, as plain dicts and lists, from an open store and a query.Selection of it.

    The one function that reads the store: the reference table (reference.build) and the history of every cell
    (history.series).  Raises ResultsError for a pattern that names no benchmark.
    """
    ref = reference.build(store, selection)
    if not ref.columns:
        raise ResultsError(store.where, "no runs in the store", "add some first: scripts/results add RUN.json")
    runs = selection.runs
    for r in runs:
        r["arch"] = r["arch"] or DEFAULT_ARCH

    machines, columns, taken = {}, [], set()
    for c in ref.columns:
        if c.machine not in machines:
            machines[c.machine] = {"id": _slug(c.label, taken), "label": c.label, "host": c.host, "cpu": c.cpu,
                                   "accelerator": c.machine[2], "runs": []}
        columns.append({"id": _slug(f"{c.label} {c.target}", taken), "machine": machines[c.machine]["id"],
                        "label": c.label, "target": c.target, "emulation": c.emulation,
                        "arch": ", ".join(sorted({r["arch"] for r in c.runs}))})
    out_runs, col_of = [], {run["id"]: j for j, c in enumerate(ref.columns) for run in c.runs}
    for i, run in enumerate(runs):                 # oldest first, as the selection holds them
        col = col_of[run["id"]]
        run.update(index=i, column=columns[col]["id"])
        machines[ref.columns[col].machine]["runs"].append(i)
        out_runs.append({k: run[k] for k in ("id", "date", "host", "cpu", "target", "accelerator", "kernel",
                                            "regbench_version", "regbench_build_type", "results", "measured",
                                            "arch", "column", "interrupted")})

    sections, size_of = [], {}          # size_of: each row's bytes per unit where it reads in GB/s, else None
    for s in ref.sections:
        family = ref.meta.families.get(s.family)
        by_size = bool(family and family.param == "size")
        figures = {}
        for (key, c), cell in s.cells.items():
            figures[(key, c)] = _figure(cell, key.param if by_size else None)
        tones = _tones(figures, [col.emulation for col in ref.columns], by_size)
        rows = []
        for key in s.rows:
            name = names.label(key)
            size_of[name] = key.param if by_size else None
            cells = {columns[c]["id"]: {"text": figures[(key, c)]["text"], "tone": tones.get((key, c)),
                                        "value": _round(figures[(key, c)]["value"]),
                                        "timed": s.cells[(key, c)].state.timed}
                     for c in s.columns if (key, c) in figures}
            rows.append({"name": name, "family": key.family, "width": key.width, "strategy": key.strategy,
                         "cells": cells})
        unit = f"GB/s (bytes per ns; higher is better), a {s.unit} of N bytes" if by_size else f"ns per {s.unit}"
        sections.append({"title": f"{s.family}/{s.op}" if s.op else f"{s.family}/", "what": s.what, "unit": unit,
                         "hidden": s.hidden, "rows": rows})
    return {"machines": list(machines.values()), "columns": columns, "runs": out_runs, "sections": sections,
            "history": _history(history.series(store, selection), size_of),
            "emulation": {k: v for k, v in reference.EMULATION.items() if any(c["emulation"] == k for c in columns)}}


# --- the pages ---------------------------------------------------------------------------------------------------

e = html.escape


def _counts(site):
    n = lambda count, what: f"{count} {what}{'' if count == 1 else 's'}"
    benchmarks = sum(len(s["rows"]) for s in site["sections"])
    return (f"{n(len(site['runs']), 'run')} of {n(len(site['machines']), 'machine')} in "
            f"{n(len(site['columns']), 'machine × target column')}, {n(benchmarks, 'benchmark')}")


def _dates(site):
    dates = sorted((r["date"] or "")[:10] for r in site["runs"] if r["date"])
    if not dates:
        return "undated"
    return f"on {dates[0]}" if dates[0] == dates[-1] else f"from {dates[0]} to {dates[-1]}"


def headline(site):
    return (f"{_counts(site)}, measured {_dates(site)}: the reference table to filter, sort and link to, each "
            "cell's history and each machine's runs (open index.html in a browser; it needs no network)")


# What a page may load and run: its own script files and stylesheet, nothing inline and nothing from elsewhere, so
# that markup a run's text might still smuggle in could not run (the text is escaped first; this is the second wall).
CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "base-uri 'none'; form-action 'none'")


def _page(title, page, body, scripts=("site.js",)):
    tags = "".join(f'<script src="{s}"></script>' for s in scripts)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{e(title)}</title>\n'
            f'<link rel="stylesheet" href="site.css">\n</head>\n<body data-page="{page}">\n'
            f'<header><nav><a href="index.html">Reference table</a> <a href="runs.html">Runs</a></nav>'
            f'<h1>{e(title)}</h1></header>\n<main>\n{body}\n</main>\n{tags}\n</body>\n</html>\n')


def _options(name, label, values, all_text):
    opts = "".join(f'<option value="{e(str(v))}">{e(str(t))}</option>' for v, t in values)
    return (f'<label>{label} <select name="{name}"><option value="">{all_text}</option>{opts}</select></label>')


def _controls(site):
    rows = [r for s in site["sections"] for r in s["rows"]]
    distinct = lambda vals: list(dict.fromkeys(v for v in vals if v not in (None, "")))
    columns = site["columns"]
    return ('<form id="filters" autocomplete="off">'
            '<label>benchmark <input name="filter" type="search" placeholder="e.g. chain/read32/ordered"></label>'
            + _options("family", "family", [(v, v) for v in distinct(r["family"] for r in rows)], "all")
            + _options("width", "width", [(v, f"{v} bits") for v in sorted(distinct(r["width"] for r in rows))], "all")
            + _options("strategy", "strategy", [(v, v) for v in sorted(distinct(r["strategy"] for r in rows))], "all")
            + _options("machine", "machine", [(m["id"], m["label"]) for m in site["machines"]], "all")
            + _options("target", "target", [(v, v) for v in distinct(c["target"] for c in columns)], "all")
            + _options("arch", "architecture", [(v, v) for v in sorted(distinct(c["arch"] for c in columns))], "all")
            + _options("kind", "measured on", [("hardware", "hardware"), ("emulated", "emulation")], "both")
            + ' <a id="clear" href="#">clear</a> <output id="shown"></output></form>')


def _head(c, machine):
    emu = f'<span class="emu">{e(c["emulation"])} emulation</span>' if c["emulation"] else ""
    return (f'<th class="col{" emulated" if c["emulation"] else ""}" data-col="{c["id"]}" data-machine="{machine}" '
            f'data-target="{e(c["target"])}" data-arch="{e(c["arch"])}" '
            f'data-kind="{"emulated" if c["emulation"] else "hardware"}">'
            f'<a href="runs.html#machine={machine}" title="this machine\'s runs">{e(c["label"])}</a>'
            f'<span class="target">{e(c["target"])}</span>{emu}'
            f'<button type="button" class="sort" data-sort="{c["id"]}" title="sort by this column">⇅</button></th>')


def _cell(c, row, cell):
    if cell is None:
        return f'<td data-col="{c["id"]}" class="none">—</td>'
    link = f'history.html#col={c["id"]}&amp;bench={quote(row["name"], safe="/")}'
    attrs = f' style="--t:{cell["tone"]}"' if cell["tone"] is not None else ""
    attrs += f' data-v="{cell["value"]}"' if cell["value"] is not None else ""
    # timed: the cell says a figure or the bound it is under (State.timed); the page counts and styles cells by
    # that, never by a state's word
    classes = " ".join(["timed" if cell["timed"] else "untimed"] + (["emulated"] if c["emulation"] else []))
    return f'<td data-col="{c["id"]}" class="{classes}"{attrs}><a href="{link}">{e(cell["text"])}</a></td>'


def index_html(site, title):
    columns = site["columns"]
    body = [f'<p class="lede">{e(_counts(site))}, measured {e(_dates(site))}.</p>', _legend(site), _controls(site),
            '<table id="reference"><thead><tr><th class="name"><button type="button" class="sort" data-sort="name" '
            'title="sort by name">benchmark ⇅</button></th>' + "".join(_head(c, c["machine"]) for c in columns)
            + "</tr></thead><tbody>"]
    for i, s in enumerate(site["sections"]):
        what = f' <span class="what">{e(s["what"])}</span>' if s["what"] else ""
        more = (f' <span class="what">({s["hidden"]} more benchmarks no column measured)</span>' if s["hidden"] else "")
        body.append(f'<tr class="section" data-section="{i}"><th colspan="{len(columns) + 1}">{e(s["title"])}: '
                    f'{e(s["unit"])}{what}{more}</th></tr>')
        for r in s["rows"]:
            attrs = " ".join(f'data-{k}="{e("" if r[k] is None else str(r[k]))}"'
                             for k in ("name", "family", "width", "strategy"))
            body.append(f'<tr {attrs} data-section="{i}"><th>{e(r["name"])}</th>'
                        + "".join(_cell(c, r, r["cells"].get(c["id"])) for c in columns) + "</tr>")
    body.append('</tbody></table><p id="nothing" hidden>No benchmark matches these filters. '
                '<a href="#">Show everything.</a></p>')
    return _page(title, "index", "\n".join(body))


def _legend(site):
    emulation = " ".join(f"<b>{e(k)}</b>: {e(v)}." for k, v in site["emulation"].items())
    return ('<details class="legend" open><summary>How to read it</summary><p>A cell is the median over a run\'s '
            "repetitions (the median of the runs' medians where a column holds several runs), in nanoseconds per "
            "unit, or GB/s for copies; ±N% is how far the furthest repetition or run lay from it. "
            f"{DISTURBED}: a repetition ran while the machine was disturbed. &lt; N: below the timer's resolution. "
            "Colour: cheap <span class=\"swatch\" style=\"--t:0\"></span> to costly "
            "<span class=\"swatch\" style=\"--t:1\"></span> on a log scale within each table and group of columns: "
            "hardware columns on one scale, each kind of emulation (marked in red) on its own, so that emulation's "
            "thousands of ns do not flatten the differences between machines. Click a cell for its history, a "
            "machine for its runs, ⇅ to sort; "
            f"the address keeps the filters and the order, so a view can be linked. {emulation}</p></details>")


def runs_html(site, title):
    by_id = {c["id"]: c for c in site["columns"]}
    body = ['<p class="lede">Every run the site was made from, by machine, oldest first. A run\'s id is the start '
            "of the SHA-256 of its JSON, as <code>scripts/results list</code> shows it.</p>"]
    head = ["run", "date", "target", "arch", "kernel", "regbench", "benchmarks measured", "table column"]
    for m in site["machines"]:
        rows = []
        for i in m["runs"]:
            r = site["runs"][i]
            col = by_id[r["column"]]
            # the store is input too (a hand-edited row): every value is escaped, numbers included
            cells = [f"<code>{e(str(r['id'])[:12])}</code>", e(r["date"] or "undated"), f"<code>{e(r['target'])}</code>",
                     e(r["arch"]), e(r["kernel"] or "?"),
                     e(f"{r['regbench_version'] or '?'} {r['regbench_build_type'] or ''}".strip()),
                     e(f"{r['measured']} of {r['results']}") + (f" (interrupted: {e(r['interrupted'])})"
                                                              if r["interrupted"] else ""),
                     f'<a href="index.html#machine={m["id"]}&amp;target={quote(col["target"])}">'
                     f'{e(col["target"])}{" (" + e(col["emulation"]) + " emulation)" if col["emulation"] else ""}</a>']
            rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        accel = f", QEMU {e(m['accelerator'])}" if m["accelerator"] else ""
        body.append(f'<section class="machine" data-machine="{m["id"]}"><h2 id="{m["id"]}">{e(m["label"])}</h2>'
                    f'<p>host <code>{e(m["host"])}</code>, CPU {e(m["cpu"])}{accel}; '
                    f'<a href="index.html#machine={m["id"]}">its columns in the table</a></p>'
                    '<table class="runs"><thead><tr>' + "".join(f"<th>{h}</th>" for h in head)
                    + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table></section>")
    return _page(f"{title}: runs", "runs", "\n".join(body))


def history_html(site, title):
    body = ('<p class="lede" id="what">Pick a cell in the <a href="index.html">reference table</a>: this page draws '
            "its history, one point per run of that machine and target.</p>"
            '<figure id="chart"></figure><p class="lede">A filled point is a run\'s median, its bar the range of its '
            "repetitions; a hollow one lies below the timer's resolution and is drawn at that bound.</p>"
            '<table id="points" class="runs" hidden></table>')
    return _page(f"{title}: history", "history", body, scripts=("data.js", "site.js"))


def data_js(site):
    """The history and what the chart labels need, as a script (a browser reads no JSON file from file://)."""
    keep = {"runs": site["runs"], "columns": site["columns"], "history": site["history"],
            "units": {r["name"]: s["unit"] for s in site["sections"] for r in s["rows"]}}
    return "window.REGBENCH_SITE = " + json.dumps(keep, separators=(",", ":"), sort_keys=True) + ";\n"


def readme(site, title):
    return (f"# {title}\n\n> **Headline:** {headline(site)}\n\nA static site made by `scripts/results site`: open "
            "[index.html](index.html) in a browser (from the file system is enough; nothing is fetched from the "
            "network). The same figures as the [reference table](../reference/) in Markdown, with filters in the "
            "address, sortable columns, a history chart behind every cell and the runs of every machine.\n")


def write(site, out_dir, title=None, force=False):
    """Writes the site into out_dir (new, or holding an earlier site: folder's rules); returns index.html's path."""
    title = title or TITLE
    folder.check(out_dir, force, writer=WRITER)
    with folder.Staging(out_dir, WRITER) as stage:
        pages = {"index.html": index_html(site, title), "runs.html": runs_html(site, title),
                 "history.html": history_html(site, title), "data.js": data_js(site), "README.md": md_safe(readme(site, title))}
        for name, text in pages.items():
            with open(os.path.join(stage.path, name), "w", encoding="utf-8") as f:
                f.write(text)
        for name in ("site.js", "site.css"):
            shutil.copyfile(os.path.join(ASSETS, name), os.path.join(stage.path, name))
        stage.commit()
    return os.path.join(out_dir, "index.html")
