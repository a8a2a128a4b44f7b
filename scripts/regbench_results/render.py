"""Writes the reference table as a folder: README.md (a Markdown table per section) and an SVG per section.

The folder follows scripts/report's rules (regbench_base.folder): a
manifest of the files written, nothing else touched, everything rendered
aside and moved in at the end.  The SVG is the same table as a heat map
(colour: log of the ns, every cell's text as in the Markdown), for reading
across machines at a glance; emulated columns are named so in both.
"""
import math
import os
import textwrap

from regbench_base import folder, names, plot
from regbench_base.text import DISTURBED, bound_text, md_safe, md_table, number

from .reference import EMULATION

TITLE = "The reference table: register access costs across machines and targets"

# The most rows one SVG holds: a taller section (a sweep of thousands of _rep counts) is drawn as several images,
# each readable and within what a renderer takes (matplotlib refuses an image over 2^16 pixels a side).
ROWS_PER_IMAGE = 200


# The table's folder is its own (folder.Writer): a README and its SVGs, nothing else.
WRITER = folder.Writer("scripts/results table", "the table",
                       lambda names: "README.md" in names and all(n == "README.md" or n.endswith(".svg") for n in names))


def cell_text(cell):
    """A cell as the tables print it: `12.3 ±2.1%` (the median, the furthest repetition or run from it), `< 7.5`."""
    if cell is None:
        return "—"
    if cell.state.figure:
        text = number(cell.value)
        if cell.lo is not None and cell.hi is not None and cell.value:
            spread = max(cell.hi - cell.value, cell.value - cell.lo) / cell.value
            text += f" ±{spread:.0%}" if spread >= 0.1 or spread < 0.0005 else f" ±{spread:.1%}"
    elif cell.state.bound:
        text = bound_text(cell.bound) if cell.bound is not None else cell.state.cell
    else:
        return cell.state.cell
    return text + f" {DISTURBED}" if cell.disturbed else text


def column_head(col, sep):
    """A column's heading: machine, target and, for emulation, which (lines joined by sep)."""
    return sep.join([col.label, col.target] + ([f"({col.emulation} emulation)"] if col.emulation else []))


def section_title(s):
    what = f"{s.family}/{s.op}" if s.op else f"{s.family}/"
    return f"{what}: ns per {s.unit}"


def parts(s, taken):
    """The section's rows cut into images: [(file name, rows)], one part for a section of ROWS_PER_IMAGE or fewer;
    taken: the names the table's other images have (names.file_name keeps them apart)."""
    base = f"{s.family}-{s.op}" if s.op else s.family
    cuts = [s.rows[i:i + ROWS_PER_IMAGE] for i in range(0, len(s.rows), ROWS_PER_IMAGE)]
    return [(names.file_name(base if i == 0 else f"{base}-{i + 1}", ".svg", taken), rows)
            for i, rows in enumerate(cuts)]


def headline(ref):
    """One line for reports/README.md: what the table holds, and one dependent readl across it (hardware, emulated)."""
    machines = {c.machine for c in ref.columns}
    rows = {k for s in ref.sections for k in s.rows}
    text = (f"{len(ref.runs)} runs of {len(machines)} machines in {len(ref.columns)} machine × target columns, "
            f"{len(rows)} benchmarks, in ns")
    readl = ref.meta.kernel.get("single")
    for s in ref.sections:
        key = next((k for k in s.rows if (k.family, k.op, k.width, k.strategy) == ("chain", "read", 32, readl)), None)
        cells = [(s.cells[(key, c)].value, ref.columns[c]) for c in s.columns
                 if key and (key, c) in s.cells and s.cells[(key, c)].state.figure]
        parts = []
        for emulated, where in ((False, "on hardware"), (True, "emulated")):
            mine = sorted((v, f"{c.label} · {c.target}") for v, c in cells if bool(c.emulation) == emulated)
            if mine:
                span = [f"{number(v)} ns ({head})" for v, head in (mine[0], mine[-1])]
                parts.append(f"{' to '.join(dict.fromkeys(span))} {where}")
        if parts:
            text += f"; a dependent readl (`{names.label(key)}`): " + ", ".join(parts)
    return text


def _intro(ref):
    rates = sorted({round(r["tsc_hz"] / 1e9, 2) for r in ref.runs if r["tsc_hz"]})
    clocks = (f" (here {', '.join(f'{x:.2f}' for x in rates)} GHz)" if len(rates) > 1 else "")
    return [
        "Every run in the store side by side: a column per machine and target, a row per benchmark. A cell is "
        "**nanoseconds** per unit (access, read, element, copy: the family's unit), the median over the run's "
        "repetitions, or the median of the runs' medians where a column holds several runs; ±N% is how far the "
        "furthest repetition (or run) lay from it. Nanoseconds because wall time is the one clock machines share: "
        f"`cycles` are ticks of each machine's own TSC{clocks}, and core cycles are an estimate where a machine has "
        "no counters.",
        "",
        f"{DISTURBED}: some repetition ran while the machine was disturbed (the host stole time, or other work "
        "shared the core). `< N`: below the timer's resolution, one step of the TSC (N ns). `skipped`, `error`: the "
        "run could not measure it (its own report says why). —: no run of that column has it. "
        + " ".join(f"**{k}**: {v}." for k, v in EMULATION.items() if any(c.emulation == k for c in ref.columns)),
    ]


def _columns_table(ref):
    rows = []
    for c in ref.columns:
        first = c.runs[0]
        tsc = sorted({f"{r['tsc_hz'] / 1e9:.2f} GHz" for r in c.runs if r["tsc_hz"]})
        dates = sorted(str(r["date"] or "")[:10] for r in c.runs)
        rows.append([column_head(c, " · "), c.host, c.cpu, ", ".join(tsc) or "?", f"`{first['target']}`",
                     first["target_what"] or "", c.emulation or "no",
                     len(c.runs), dates[0] if dates[0] == dates[-1] else f"{dates[0]} to {dates[-1]}"])
    return md_table(["column", "host", "CPU", "TSC", "target", "what", "emulated", "runs", "dates"], rows)


def images(ref):
    """parts() of every section, in order: the same file names for the README and the images."""
    taken = {"README.md"}
    return [parts(s, taken) for s in ref.sections]


def _section_md(ref, s, cut):
    head = ["benchmark"] + [column_head(ref.columns[c], "<br>") for c in s.columns]
    rows = [[f"`{names.label(k)}`"] + [cell_text(s.cells.get((k, c))) for c in s.columns] for k in s.rows]
    out = [f"## {section_title(s)}", ""]
    if s.what:
        out += [f"{s.what}.", ""]
    out += [md_table(head, rows), ""]
    if s.hidden:
        out += [f"{s.hidden} more benchmark{'s' if s.hidden > 1 else ''} of this table no column measured (skipped "
                "or failed in every run: each run's report says why).", ""]
    for i, (name, rows) in enumerate(cut):
        part = f" (rows {i * ROWS_PER_IMAGE + 1} to {i * ROWS_PER_IMAGE + len(rows)})" if len(cut) > 1 else ""
        out += [f"![{section_title(s)}{part}]({name})", ""]
    return out


def _runs_table(ref):
    rows = [[f"`{r['id'][:12]}`", r["host"], r["cpu"], f"`{r['target']}`", r["accelerator"] or "—",
             r["date"] or "—", f"{r['regbench_version'] or '?'} {r['regbench_build_type'] or ''}".strip(),
             f"{r['measured']} of {r['results']}"] for r in sorted(ref.runs, key=lambda r: (r["date"] or "", r["id"]))]
    return md_table(["run", "host", "CPU", "target", "accelerator", "date", "regbench", "measured"], rows)


def readme(ref, title):
    md = [f"# {title or TITLE}", "", f"> **Headline:** {headline(ref)}", ""] + _intro(ref) + [""]
    md += ["## Columns", "", _columns_table(ref), ""]
    for s, cut in zip(ref.sections, images(ref)):
        md += _section_md(ref, s, cut)
    md += ["## Runs", "", "Each run's id is the start of the SHA-256 of its JSON's content (`scripts/results list` "
           "shows the same); the store keeps the JSON itself.", "", _runs_table(ref), "",
           "## Reproduce", "", "```sh", "scripts/results add --db STORE RUN.json...    # each run, from any machine",
           "scripts/results table --db STORE -o DIR", "```", ""]
    return "\n".join(md).rstrip() + "\n"


COLOUR_FLOOR = 1e-12      # ns


def heatmap(ref, s, rows, path):
    """Rows of the section as an SVG heat map: a row per benchmark, a column per machine and target, each cell's
    text; the colour scale is the whole section's, so that the parts of a cut section read alike."""
    plt = plot.pyplot()
    from matplotlib.colors import LogNorm

    value = lambda c: c.value if c and c.state.figure and c.value > 0 else math.nan
    cells = [[s.cells.get((k, c)) for c in s.columns] for k in rows]
    values = [[value(c) for c in row] for row in cells]
    finite = [v for v in map(value, s.cells.values()) if not math.isnan(v)]
    rc = {"svg.hashsalt": "regbench", "svg.fonttype": "none", "font.size": 7, "font.family": "DejaVu Sans"}
    with plt.rc_context(rc):
        fig, ax = plt.subplots(figsize=(2.8 + 1.45 * len(s.columns), 1.6 + 0.19 * len(rows)))
        cmap = plt.get_cmap("viridis").copy()
        cmap.set_bad("white")
        # matplotlib draws no log colour scale near the double's floor (about 1e-290), and no machine times anything
        # shorter than a zeptosecond (1e-12 ns): a figure below that (a run file can hold 1e-300) takes the lowest colour
        lo = max(min(finite), COLOUR_FLOOR) if finite else None
        norm = LogNorm(lo, max(max(finite), lo) * 1.0001) if finite else None
        image = ax.imshow(values, aspect="auto", cmap=cmap, norm=norm, interpolation="nearest")
        for i, row in enumerate(cells):
            for j, c in enumerate(row):
                v = values[i][j]
                shade = "0.35" if math.isnan(v) else "white" if sum(cmap(norm(v))[:3]) < 1.5 else "black"
                ax.text(j, i, cell_text(c), ha="center", va="center", color=shade, fontsize=6.5)
        heads = ["\n".join(textwrap.fill(line, 24) for line in column_head(ref.columns[c], "\n").split("\n"))
                 for c in s.columns]
        ax.set_xticks(range(len(s.columns)), heads, fontsize=7)
        ax.xaxis.tick_top()
        for tick, c in zip(ax.xaxis.get_major_ticks(), s.columns):
            if ref.columns[c].emulation:
                tick.label2.set_color("darkred")
        ax.set_yticks(range(len(rows)), [names.label(k) for k in rows], fontsize=7, family="DejaVu Sans Mono")
        ax.set_xticks([x - 0.5 for x in range(1, len(s.columns))], minor=True)
        ax.set_yticks([y - 0.5 for y in range(1, len(rows))], minor=True)
        ax.grid(which="minor", color="white", linewidth=0.8)
        ax.tick_params(which="minor", length=0)
        for side in ax.spines.values():
            side.set_visible(False)
        if finite:
            bar = fig.colorbar(image, ax=ax, fraction=0.04, pad=0.02, aspect=40)
            bar.set_label(f"ns per {s.unit} (log scale)")
        ax.set_title(f"{section_title(s)}: median ({DISTURBED} disturbed, < below the timer's resolution)",
                     loc="left", fontsize=9, fontweight="bold", pad=12)
        fig.savefig(path, format=os.path.splitext(path)[1][1:], metadata={"Date": None}, bbox_inches="tight",
                    pad_inches=0.15)
        plt.close(fig)


def write(ref, out_dir, title=None, force=False):
    """Renders ref into out_dir (new, or holding an earlier table: folder's rules); returns the README's path."""
    folder.check(out_dir, force, writer=WRITER)
    with folder.Staging(out_dir, WRITER) as stage:
        for s, cut in zip(ref.sections, images(ref)):
            for name, rows in cut:
                heatmap(ref, s, rows, os.path.join(stage.path, name))
        with open(os.path.join(stage.path, "README.md"), "w", encoding="utf-8") as f:
            f.write(md_safe(readme(ref, title)))
        stage.commit()
    return os.path.join(out_dir, "README.md")
