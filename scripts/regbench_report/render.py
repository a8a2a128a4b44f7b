"""Writes a report folder: README.md, the SVG charts beside the tables they illustrate, the raw JSON.

The folder must read well on a code-hosting site and offline, so the README
links only to files inside the folder, and the JSON it was made from sits
beside it for anyone who wants other numbers than the tables quote.
"""
import os
import shutil

from regbench_base import folder, model
from regbench_base.text import md_safe

from . import answers, charts, markdown, replica, tables, verdicts

def _group(table):
    """Where charts sit: after the tables of their group, the first part of the table's key (an op, a family, or
    latency: tables.py), which each chart names (charts.Chart.group)."""
    return table.key.split("-")[0]


def _copy_json(runs, out_dir, staging):
    """Copies the sources into staging under distinct names (one already in out_dir stays); returns the names by run.

    A source read from a pipe (/dev/stdin, a shell's <(...)) is written from the text the report read, as
    stdin.json or 63.json: it cannot be read again.
    """
    files, out = set(), []
    for r in runs:
        out.append([])
        for p in r.paths:
            base = os.path.basename(p)
            if p in r.read_once and not base.endswith(".json"):
                base += ".json"
            name, i = base, 2
            while name in files or name in _RESERVED:
                stem, ext = os.path.splitext(base)
                name, i = f"{stem}-{i}{ext}", i + 1
            if p in r.read_once:
                with open(os.path.join(staging, name), "w", encoding="utf-8") as f:
                    f.write(r.read_once[p])
            elif os.path.abspath(p) != os.path.abspath(os.path.join(out_dir, name)):
                shutil.copyfile(p, os.path.join(staging, name))
            files.add(name)
            out[-1].append(name)
    return out


# Names the report gives its own files: a source JSON is never copied over them.
_RESERVED = {"README.md", "compare.json"}


def write(runs, out_dir, labels=None, title=None, command=None, force=False):
    """Renders runs (one: a report; several: a comparison against the first) into out_dir.

    Returns the path of the README.  command, when given, is the exact
    command line of a single run (scripts/run knows it; the JSON may not).
    out_dir may be new, empty, or hold an earlier report (its manifest says
    which files): other files stop it with folder.FolderError unless force.
    Everything is rendered aside and moved in at the end: on any failure or
    interruption the folder stays as it was.
    """
    sources = [p for r in runs for p in r.paths]
    folder.check(out_dir, force, sources)
    with folder.Staging(out_dir) as stage:
        path = _render(runs, out_dir, stage.path, labels, title, command)
        stage.commit(sources)
    return path


def _render(runs, out_dir, staging, labels, title, command):
    labels = labels or model.label_runs(runs)
    compare = len(runs) > 1
    files = _copy_json(runs, out_dir, staging)
    made = charts.all_charts(runs, labels, staging)
    head = runs[0]
    if not title:
        title = (f"regbench comparison: {' vs '.join(labels)}" if compare else
                 f"regbench on {head.ctx('target', '?')}: {head.ctx('cpu_model', 'unknown CPU')}"
                 + (" (QEMU tcg: emulation costs)" if head.ctx("accelerator") == "tcg" else ""))
    md = [f"# {title}", ""] + markdown.cached_note(runs, labels)
    md += [f"> **Headline:** {markdown.headline(runs, labels)}", ""]
    if compare:
        md += [markdown.md_table(["run", "files", "target", "date", "regbench"],
                                 [[l, ", ".join(f"[{f}]({f})" for f in fs), r.ctx("target", "?"),
                                   r.ctx("date", "?") + (f" (first of {r.runs} runs)" if r.runs > 1 else ""),
                                   r.ctx("regbench_version", "?")] for l, r, fs in zip(labels, runs, files)]), ""]
        short = replica.lines(runs, labels)
        if short:
            md += ["## In short", ""] + short + [""]
    else:
        md += [f"Measured {head.ctx('date', 'on an unrecorded date')} with regbench "
               f"{head.ctx('regbench_version', '(version not recorded)')}; raw results: "
               + ", ".join(f"[{f}]({f})" for f in files[0]) + ".", ""]
        short = answers.lines(head)
        if short:
            md += ["## In short", ""] + short + [""]
    for r, l in zip(runs, labels):
        if r.ctx("interrupted"):
            md += [f"**Interrupted** ({r.ctx('interrupted')}){f' — {l}' if compare else ''}: regbench stopped "
                   "before the end of the run; what it did not run is listed as not run under *Not measured*.", ""]
    md += ["## Machine", "", markdown.context_table(runs, labels, markdown.machine_rows), "",
           "## Target", "", markdown.context_table(runs, labels, markdown.target_rows), ""]
    warn = [(l, w) for r, l in zip(runs, labels) for w in markdown.warnings(r)]
    if warn:
        md += ["**Environment warnings** recorded by regbench:", ""]
        md += [f"- {(l + ': ') if compare else ''}{w}" for l, w in warn] + [""]
    md += ["## Results", ""]
    if compare:
        md += [f"Each table has a column per side (a run, or runs of one build) and the ratio of each later side's "
               f"median to **{labels[0]}**'s. "
               + markdown.verdict_rule(runs) + " Smaller is better for cycles, larger for GB/s; `compare.json` lists "
               "every verdict with its p, its values and what decided it.", ""]
    md += [markdown.noise_summary(r) if not compare else f"- {l}: " + markdown.noise_summary(r)
           for r, l in zip(runs, labels)] + [""]
    clocks = markdown.tsc_rates_differ(runs, labels)
    if clocks:
        md += [clocks, ""]
    if compare:
        fams = markdown.family_ratios(runs)
        fam_names = list(dict.fromkeys(f for per in fams for f, _, _ in per))
        if fam_names:
            md += ["### Summary by family", "",
                   f"The median, over each family's results, of each run's cost divided by **{labels[0]}**'s "
                   "(time per operation: cycles, or for copies the inverse of GB/s), with how many results "
                   "it is taken over.", ""]
            rows = [[f"`{f}/`", *(next((f"{tables.ratio_text(x)} ({n})" for g, x, n in per if g == f), "—")
                                  for per in fams)] for f in fam_names]
            md += [markdown.md_table(["family", *(f"{l} / {labels[0]}" for l in labels[1:])], rows), ""]
        md += ["### Verdicts", ""] + markdown.verdict_section(runs, labels)
    ticks, counters = tables.ticks(runs), {r.timer_counter() for r in runs}
    fixed = ("the fixed-rate time-stamp counter" if counters == {"TSC"} else
             f"the fixed-rate {counters.pop()} the timer reads" if len(counters) == 1 else
             "the fixed-rate counter each run's timer reads (the TSC on x86-64, the generic counter on arm64)")
    md += [f"Cells: a number is the median; `< N` is below the timer's resolution of N {ticks}; `skipped` and "
           "`error` are explained under *Not measured*; — means the run has no such benchmark. Each table's heading "
           f"names its clock: {ticks} are ticks of {fixed}, core cycles the core's own "
           "(see the core clock above); the same table in the other clock is folded under it (*The same in ...*).",
           ""]
    placed = set()
    tabs = tables.headline_tables(runs)
    for i, t in enumerate(tabs):
        md += [markdown.render_table(t, runs, labels), ""]
        group = _group(t)
        last_of_group = i + 1 == len(tabs) or _group(tabs[i + 1]) != group
        if last_of_group:
            for c in made:
                if c.group == group and c.file not in placed:
                    md += [f"![{c.caption}]({c.file})", "", f"*{c.caption}*", ""]
                    placed.add(c.file)
    rest = [c for c in made if c.file not in placed]
    if rest:
        md += ["### More charts", ""]
        for c in rest:
            md += [f"![{c.caption}]({c.file})", "", f"*{c.caption}*", ""]
    md += ["## Not measured", ""]
    for r, l in zip(runs, labels):
        if compare:
            md += [f"### {l}", ""]
        md += markdown.not_measured(r) + [""]
    md += ["## Reproduce", ""]
    for r, l in zip(runs, labels):
        cmd, exact = markdown.command(r, command if not compare else None)
        md += ([f"{l}:", ""] if compare else []) + ["```sh", cmd, "```", ""]
        if not exact:
            md += ["Reconstructed from the JSON context (target, pinned CPU, repetitions): regbench did not record "
                   "its command line, so flags that leave no trace in the results (`--quick`, `--strategy`, "
                   "`--benchmark_filter`, `--benchmark_min_time`) may be missing.", ""]
    names = (f"--names {','.join(l for l, fs in zip(labels, files) for _ in fs)} "
             if any(r.runs > 1 for r in runs) else "")
    md += ["Render this report again with `scripts/report " + ("--compare " if compare else "") + names
           + " ".join(f for fs in files for f in fs) + " -o DIR` (see the project README, *Reading a report*).", ""]
    with open(os.path.join(staging, "README.md"), "w", encoding="utf-8") as f:
        f.write(md_safe("\n".join(md).rstrip() + "\n"))
    if compare:
        verdicts.write(os.path.join(staging, "compare.json"), runs, labels, files)
    return os.path.join(out_dir, "README.md")
