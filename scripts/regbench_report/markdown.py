"""The report's README.md: machine and target, headline tables, what did not run, how to reproduce.

One run and a comparison share every section; a comparison only adds a
column per run and the ratio columns.  Every number printed here is read
from the JSON through model and tables; the wording around it is fixed.
"""
import math
import re
import statistics

from regbench_base import model, names
from regbench_base.model import Key
from regbench_base.state import unmeasured
from regbench_base.text import DISTURBED, md_table
from regbench_base.verdict import Verdict

from regbench_base import stats

from . import headlines, tables, verdicts

MAPPINGS = {"wb": "WB (write-back, cached)", "uc": "UC (uncached)", "wc": "WC (write-combining)",
            "trap": "trap (each access faults and is emulated)", "port": "port I/O",
            "pread": "pread/pwrite of a vfio region (each access a system call)"}
KINDS = {"mmio": "MMIO", "pio": "port I/O", "region": "a device file's region (vfio)"}
COMMAND_KEYS = ("command_line", "regbench_command", "command")


def _ghz(hz):
    return f"{hz / 1e9:.3f} GHz" if hz else None


def _caches(run):
    caches = run.context.get("caches")
    if not isinstance(caches, list) or not caches:
        return None
    out = []
    for c in caches:
        try:
            kind = {"Data": "d", "Instruction": "i"}.get(c.get("type"), "")
            share = f" shared by {c['num_sharing']}" if c.get("num_sharing", 1) > 1 else ""
            out.append(f"L{c['level']}{kind} {names.size_text(int(c['size']))}{share}")
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return ", ".join(out) or None


def _once(signature):
    """A hypervisor's CPUID signature as a name: its 12 bytes repeat the name ("KVMKVMKVM", "bhyve bhyve "), which
    files of a regbench before it said the name once hold as they are."""
    for unit in range(1, len(signature) // 2 + 1):
        if all(c == signature[i % unit] for i, c in enumerate(signature)):
            return signature[:unit].strip()
    return signature.strip()


def _vm(run):
    for key in ("hypervisor", "virtualization", "vm", "env_vm"):
        if run.ctx(key):
            return re.sub(r"^yes \((.*)\)$", lambda m: f"yes ({_once(m.group(1))})", str(run.ctx(key)))
    if run.ctx("accelerator"):
        return f"yes: a QEMU guest ({run.ctx('accelerator')})"
    if "hypervisor" in str(run.ctx("tsc_hz_source", "")).lower():
        return "yes (the TSC frequency came from the hypervisor leaf)"
    return "not recorded in the JSON"


def _governor(run):
    for key in ("governor", "env_governor"):
        if run.ctx(key):
            boost = run.ctx("env_boost")
            return str(run.ctx(key)) + (f"; boost {boost}" if boost else "")
    scaling = run.context.get("cpu_scaling_enabled")
    if isinstance(scaling, bool):
        return f"not recorded; frequency scaling {'enabled' if scaling else 'disabled'} (Google Benchmark's check)"
    return "not recorded in the JSON"


def machine_rows(run):
    """(field, text) rows describing where a run was measured; fields the JSON lacks are left out."""
    tsc, core, counter = run.ctx_float("tsc_hz"), run.ctx_float("core_hz_estimate"), run.timer_counter()
    rows = [("host", run.ctx("host_name")),
            ("CPU", run.ctx("cpu_model") and run.ctx("cpu_model") + (f" ({run.ctx('cpu_uarch')} cores)"
                                                                     if run.ctx("cpu_uarch") else "")),
            ("CPUs", " ".join(x for x in (f"{run.ctx('num_cpus')} online;" if run.ctx("num_cpus") else "",
                                           f"pinned to CPU {run.ctx('cpu')}" if run.ctx("cpu") else "") if x) or None),
            ("topology", run.ctx("topology")),
            ("caches", _caches(run)),
            (counter, _ghz(tsc) and f"{_ghz(tsc)}, {'invariant' if run.ctx('invariant_tsc') == 'true' else 'NOT invariant'}"
             f" — {run.ctx('tsc_hz_source', 'source not recorded')}"),
            ("core clock", _ghz(core) and f"{_ghz(core)}" + (f" ({core / tsc:.2f} × {counter})" if tsc else "")
             + f" — {run.ctx('core_hz_source', 'source not recorded')}"),
            ("core cycles", run.ctx("core_cycles_source")),
            ("timer", run.ctx("timer") and f"{run.ctx('timer')}: overhead {run.ctx('timer_overhead_cycles', '?')}, "
             f"resolution {run.ctx('timer_resolution_cycles', '?')} {tables.ticks([run])}"),
            ("kernel", run.ctx("kernel")),
            ("virtual machine", _vm(run)),
            ("governor", _governor(run)),
            ("load average", isinstance(run.context.get("load_avg"), list)
             and " ".join(f"{x:.2f}" for x in run.context["load_avg"]) + " (at the start; other work slows results)"),
            ("other CPUs busy", run.ctx("env_others_busy") and f"{run.ctx('env_others_busy')} (fraction, at the start)"
             + (f"; SMT sibling {run.ctx('env_sibling_busy')}" if run.ctx("env_smt_siblings") else "")),
            *((f"disturbance ({k})", str(v)) for k, v in sorted(run.context.items()) if k.startswith("disturb") and v),
            ("build", run.ctx("regbench_build_type") and f"regbench {run.ctx('regbench_version', '?')} "
             f"{run.ctx('regbench_build_type')}; Google Benchmark library {run.ctx('library_build_type', '?')}"),
            ("date", run.ctx("date"))]
    return [(k, str(v)) for k, v in rows if v]


def target_rows(run):
    """(field, text) rows describing what a run measured."""
    acc = run.ctx("accelerator")
    acc_text = acc and (f"{acc}: QEMU's emulation, timings are emulation costs, not hardware" if acc == "tcg"
                        else f"{acc}: a QEMU guest with hardware virtualization")
    rows = [("spec", run.ctx("target") and f"`{run.ctx('target')}`"),
            ("what", run.ctx("target_what")),
            ("kind", KINDS.get(run.ctx("target_kind"), run.ctx("target_kind"))),
            ("mapping", MAPPINGS.get(run.ctx("target_mapping"), run.ctx("target_mapping"))),
            ("device", run.ctx("target_device")),
            ("BAR", run.ctx("target_bar")),
            ("window", run.ctx("target_len") and f"{run.ctx('target_len')} bytes"),
            ("IOMMU", {"type1": "type-1 (vfio container)", "noiommu": "none: vfio's no-IOMMU mode, no DMA isolation"}
             .get(run.ctx("target_iommu"), run.ctx("target_iommu"))),
            ("first read", run.ctx("target_first_read") and f"`{run.ctx('target_first_read')}` (the first "
             "value read from the register)"),
            ("device lost", run.ctx("target_lost") and f"stopped answering during the run: {run.ctx('target_lost')}"),
            ("accelerator", acc_text)]
    return [(k, str(v)) for k, v in rows if v]


def context_table(runs, labels, rows_of):
    """Rows from rows_of(run) with one column per run (a field absent in a run shows —)."""
    per = [dict(rows_of(r)) for r in runs]
    fields = []
    for r in runs:
        fields += [k for k, _ in rows_of(r) if k not in fields]
    head = ["", *labels] if len(runs) > 1 else ["", ""]
    return md_table(head, [[f, *(p.get(f, "—") for p in per)] for f in fields])


def warnings(run):
    """Environment warnings as text lines: regbench's env_warnings ("; "-separated) when present.

    The other env_* keys are readings (load, sibling busy, ...), shown in the
    machine table; older files without env_warnings list every env_* key.
    """
    if "env_warnings" in run.context:
        return [w.strip() for w in str(run.context["env_warnings"] or "").split("; ") if w.strip()]
    return [f"{k[4:]}: {v}" for k, v in sorted(run.context.items()) if k.startswith("env_") and v]


def tsc_rates_differ(runs, labels):
    """A warning when the runs' timers tick at different rates (runs on different machines): their ratios of timer
    ticks then compare two clocks, not two costs; "" when they agree within 1% or a rate is unknown."""
    rates = [r.ctx_float("tsc_hz") for r in runs]
    if len(runs) < 2 or None in rates or max(rates) <= min(rates) * 1.01:
        return ""
    each = ", ".join(f"{l} {_ghz(hz)}" for l, hz in zip(labels, rates))
    counters = {r.timer_counter() for r in runs}
    clocks = "The TSCs" if counters == {"TSC"} else "The timers' counters"
    return (f"**{clocks} tick at different rates** ({each}): a ratio of {tables.ticks(runs)} compares two clocks as "
            "well as two costs. Compare the core-cycle tables (each core's own cycles, folded under each table: *The "
            "same in core cycles*) or ns (wall time) instead.")


def command(run, override=None):
    """The command line that reproduces a run, and whether it is exact."""
    if override:
        return override, True
    for key in COMMAND_KEYS:
        if run.ctx(key):
            return str(run.ctx(key)), True
    parts = [run.ctx("executable", "regbench")]
    if run.ctx("target"):
        parts.append(f"--target={run.ctx('target')}")
    if run.ctx("cpu"):
        parts.append(f"--cpu={run.ctx('cpu')}")
    if run.repetitions > 1:
        parts.append(f"--benchmark_repetitions={run.repetitions}")
    parts += ["--benchmark_out=RESULT.json", "--benchmark_out_format=json"]
    return " ".join(parts), False


# --- headline tables ---------------------------------------------------------------------

def _cell(run, key, counter, scale):
    """A value cell: the Measure as text, marked when a repetition was measured on a disturbed machine."""
    text = tables.cell_text(run.measure(key, counter), scale)
    res = run.results.get(key)
    return text + f" {DISTURBED}" if res and res.disturbed and res.state.timed else text


def table_notes(t, runs, labels):
    """What the reader must know about the benchmarks in a table: failures with their reason, disturbed
    repetitions, failed repetitions of a result that stands, and regbench's notes (one line per note)."""
    keys = list(dict.fromkeys(t.cell(row, c)[0] for row in t.rows for c in t.cols if t.cell(row, c)))
    out = []
    for r, label in zip(runs, labels):
        tag = f"{label}: " if len(runs) > 1 else ""
        noted = {}
        for key in keys:
            res = r.results.get(key)
            if not res:
                continue
            if res.state.failed:
                out.append(f"{tag}`{names.label(key)}` failed: {res.reason or 'no reason recorded'}")
            elif res.failed:
                out.append(f"{tag}`{names.label(key)}`: {len(res.failed)} of {res.out_of} repetitions failed "
                           f"({res.failed[0]}); the figure is of the others")
            if res.disturbed and res.state.timed:
                out.append(f"{tag}{DISTURBED} `{names.label(key)}`: {res.disturbed} of {res.out_of} repetitions "
                           "measured while the machine was disturbed")
            if res.note and res.state.figure:
                noted.setdefault(res.note, []).append(key)
        out += [tag + ", ".join(f"`{p}`" for p in names.compact(ks)) + f": {note}" for note, ks in noted.items()]
        out += coarse_timer(r, t.family, [r.results[k] for k in keys if k in r.results], tag)
    return out


def coarse_timer(run, family, results, tag=""):
    """Where the timer's step left results of a sampled family below it: the step in ticks and ns, how many,
    and what to read instead (the family's own words)."""
    below = sum(res.state.bound for res in results)
    f = run.meta.families.get(family)
    step, hz = run.ctx_float("timer_resolution_cycles"), run.ctx_float("tsc_hz")
    if not below or not f or not f.sampled or not step:
        return []
    ns = f" ({step / hz * 1e9:.1f} ns)" if hz else ""
    counted = sum(res.state.timed for res in results)
    counter = run.timer_counter()
    return [f"{tag}{counter[0].upper()}{counter[1:]} steps of {tables.number(step)} ticks{ns}: {below} of {counted} "
            f"`{family}/` results here are below one step" + (f"; {f.below_step}" if f.below_step else "")]


def _cells(t, runs, labels):
    """A headline table's Markdown table: rows x columns for one run; one row per cell and a column per run
    otherwise, with each later run's ratio to the first and its verdict."""
    if len(runs) == 1:
        rows = [[t.row_text(row), *(_cell(runs[0], *t.cell(row, c), t.scale) if t.cell(row, c) else "—"
                                    for c in t.cols)] for row in t.rows]
        return md_table([t.row_head, *map(t.col_text, t.cols)], rows)
    head = [t.row_head, t.col_head, *labels, *(f"{l} / {labels[0]}" for l in labels[1:])]
    rows = []
    for row in t.rows:
        for c in t.cols:
            if not t.cell(row, c):
                continue
            ratios = [tables.verdict_text(tables.compare_in(runs[0], r, *t.cell(row, c), t.higher_is_better))
                      for r in runs[1:]]
            rows.append([t.row_text(row), t.col_text(c), *(_cell(r, *t.cell(row, c), t.scale) for r in runs),
                         *ratios])
    return md_table(head, rows)


def render_table(t, runs, labels):
    """A headline table under its heading, its notes, and the same cells in the other clock in a <details> block
    (open it to read them: a table per family, never the same table twice in full)."""
    out = [f"### {t.title}", "", f"`{t.family}/`: {t.what}." + (f" Unit: {t.unit}." if t.unit else ""), "",
           _cells(t, runs, labels)]
    out += [f"\n{n}." for n in t.notes]
    notes = table_notes(t, runs, labels)
    if notes:
        out += [""] + [f"- {n}" for n in notes]
    if t.other:
        out += ["", f"<details><summary>The same in {t.other.unit}</summary>", "", _cells(t.other, runs, labels),
                "", "</details>"]
    return "\n".join(out)


def _main_cells(runs):
    """(Key, counter) of every headline cell that holds its table's main counter (cycles; GB/s for copies)."""
    return {c for t in tables.headline_tables(runs) for c in t.cells.values() if c[1] == t.main}


def cached_note(runs, labels):
    """The lines a report on cached memory opens with: what its figures are not (a device register's cost)."""
    cached = [l for r, l in zip(runs, labels) if r.ctx("target_mapping") == "wb"]
    if not cached:
        return []
    which = "These are" if len(cached) == len(runs) else f"The figures of {', '.join(cached)} are"
    return [f"> **Cached memory, not a device.** {which} costs on write-back memory that the CPU caches: what each "
            "strategy costs the CPU itself. A device register is uncached and across a bus (PCIe, an SoC "
            "interconnect), and one access to it costs orders of magnitude more; run on a `pci:` or `vfio:` "
            "target for those.", ""]


def verdict_rule(runs):
    """How this comparison decides slower, faster, same and unclear, with the figures the code uses."""
    n, eff, alpha = stats.values_needed(), stats.MIN_EFFECT, f"{stats.ALPHA:g}"
    step = f"and by one timer step for {tables.sampled_families(runs)}, whose values move in steps"
    margin = stats.pct(stats.MARGIN)
    same = (f"≈ marks a result shown the **same**: the 90% interval of its ratio (two one-sided tests) lies within "
            f"±{margin} (±one timer step where that is more)")
    unclear = (f"? marks one **unclear**: not shown different, and its interval reaches beyond ±{margin}; *Verdicts* "
               "below says how far and how many runs a side would tell")
    if all(r.runs >= 2 for r in runs):
        return (f"Each side is several runs of one build (the same `--names` label) and each run's median is one "
                f"value: a ratio in **bold** is a difference the data shows, the runs of the two sides separate (an exact "
                f"two-sided Mann-Whitney U test, p ≤ {alpha}) and the medians differ by at least {eff['run']:.0%} "
                f"({step}); with fewer than {n} runs of each, only none. {same}; {unclear}.")
    calm = ", ".join(f"{f}/ {e:.0%}" for f, e in sorted(verdicts.spreads(runs).items(), key=lambda x: x[1]))
    return (f"With one run a side, a ratio in **bold** needs the repetitions of the two runs to separate (an exact "
            f"two-sided Mann-Whitney U test, p ≤ {alpha}) and the medians to differ by at least the run-to-run "
            f"spread of the result's family, measured on back-to-back runs of one build on two development VMs (Ice Lake, AMD Zen 5): "
            f"{calm} where neither run was measured on a disturbed machine, {eff['repetition']:.0%} where either "
            f"was (†: a host sharing the core moves whole runs by that much, which repetitions within a run cannot "
            f"show) ({step}). {same}, after that spread is added to it, since the repetitions of one run cannot show "
            f"it; {unclear}. For smaller differences and for sameness give "
            f"{n} runs of each build, each with its label repeated (`--names a,a,a,b,b,b`): the runs are then the "
            f"test's unit and {eff['run']:.0%} counts.")


def verdict_section(runs, labels):
    """The verdicts counted for each later side, and what the unclear ones would need, family by family."""
    out = []
    for label, mine in zip(labels[1:], verdicts.results(runs)):
        counts = {v: sum(x.verdict is v for *_, x in mine) for v in Verdict}
        out.append(f"**{label} against {labels[0]}**: " + ", ".join(f"{n} {v}" for v, n in counts.items() if n) + ".")
        rows = []
        fams = sorted({k.family for k, _, _, v in mine if v.verdict.undecided}, key=runs[0].meta.family_key)
        for f in fams:
            these = [v for k, _, _, v in mine if k.family == f and v.verdict.undecided]
            reach = sorted(v.margin_needed for v in these if v.margin_needed is not None)
            need = [v.runs_needed for v in these if v.runs_needed]
            rows.append([f"`{f}/`", str(len(these)),
                         f"±{stats.pct(statistics.median(reach))}" if reach else "no interval",
                         f"{min(need)}–{max(need)}" if need and min(need) != max(need) else
                         str(need[0]) if need else "—",
                         str(len(these) - len(need))])
        if rows:
            out += ["", f"The unclear ones, by family: how far their 90% interval reaches (the median over the family; "
                    f"a same needs ±{stats.pct(stats.MARGIN)}), how many runs a side would bring them within it, and "
                    f"how many no count of runs up to {stats.RUNS_LIMIT} would (their medians lie about ±"
                    f"{stats.pct(stats.MARGIN)} apart, or their spread is too wide); each one's reason is in "
                    "`compare.json` (`why`, `margin_needed`, `runs_needed`).", "",
                    md_table(["family", "unclear", "interval reaches", "runs a side", "not by runs"], rows)]
        out.append("")
    return out


def comparison_counts(runs):
    """For each run after the first: ({verdict: count}, largest (ratio, Key, counter) among faster and slower)."""
    out = []
    for mine in verdicts.results(runs):
        counts = {v: 0 for v in Verdict}
        largest = None
        for key, counter, _, v in mine:
            counts[v.verdict] += 1
            if v.verdict.differs and (largest is None
                                                      or abs(math.log(v.ratio)) > abs(math.log(largest[0]))):
                largest = (v.ratio, key, counter)
        out.append((counts, largest))
    return out


def family_ratios(runs):
    """For each run after the first: [(family, median cost ratio to the first run, results compared)].

    Cost is the main counter (cycles; for copies the time per copy, the
    inverse of GB/s), so every ratio reads "this run takes N times as long".
    """
    cells = _main_cells(runs)
    m = model.meta(runs)
    out = []
    for r in runs[1:]:
        by = {}
        for key, counter in cells:
            a, b = runs[0].measure(key, counter), r.measure(key, counter)
            if a.state.figure and b.state.figure and a.value and b.value:
                ratio = b.value / a.value
                by.setdefault(key.family, []).append(1 / ratio if counter == "bytes_per_second" else ratio)
        out.append([(f, statistics.median(v), len(v)) for f, v in sorted(by.items(), key=lambda kv: m.family_key(kv[0]))])
    return out


def headline(runs, labels):
    """One line saying what the report found; the index quotes it."""
    if len(runs) > 1:
        parts = []
        for label, (counts, largest) in zip(labels[1:], comparison_counts(runs)):
            total = sum(counts.values())
            # every verdict counted, n/a only where there is one
            text = f"{label} vs {labels[0]}: of {total} results " + ", ".join(
                v.counted.format(n=n) for v, n in counts.items() if n or v.figures)
            if largest:
                text += f"; most {names.label(largest[1])} ({largest[2]}) at {tables.number(largest[0])}×"
            parts.append(text)
        if len(runs) == 2:
            fams = family_ratios(runs)[0]
            if fams:
                parts.append("median cost ratio by family: " + ", ".join(f"{f}/ {tables.ratio_text(x)}" for f, x, _ in fams))
        return "; ".join(parts)
    run = runs[0]
    mapping = str(run.ctx('target_mapping', '?'))
    where = str(run.ctx('target', '?')) + ("" if mapping == run.ctx('target') else f" ({mapping.upper()})")
    h = headlines.choose(run)
    ref = h.reference
    aside = f"; {ref} aside" if ref else ""
    if h.copy_only:
        winners = [w for w in (copy_winners(run, d) for d in headlines.COPY_OPS) if w]
        if winners:
            return f"{where}: " + "; ".join(winners) + f" (fastest, or within the noise of the fastest{aside})"
    bits = [where]
    first = lambda key: tables.first_counter(runs, key.family)
    thrpt, chain = run.measure(h.thrpt, first(h.thrpt)), run.measure(h.chain, first(h.chain))
    lat = run.measure(h.latency, "p50")
    if lat.state.figure:
        bits.append(f"readl p50 {tables.number(lat.value)} {tables.ticks(runs)}, p99 "
                    f"{tables.cell_text(run.measure(h.latency, 'p99'))}")
    elif chain.state.figure:
        bits.append(f"readl {tables.number(chain.value)} {tables.clock_name(runs, first(h.chain))} dependent"
                    + (f", {tables.number(thrpt.value)} back-to-back" if thrpt.state.figure else ""))
    mf = run.measure(h.barrier, first(h.barrier))
    if mf.state.figure:
        bits.append(f"mfence {tables.number(mf.value)} {tables.clock_name(runs, first(h.barrier))}")
    toio = h.copies.get("toio")
    if toio and toio.fastest:
        gbs = lambda s: run.measure(Key(headlines.copies(run), "toio", None, s, toio.size), "bytes_per_second")
        best = toio.fastest.strategy
        text = f"{names.size_text(toio.size)} memcpy_toio fastest with {best} ({tables.number(gbs(best).value / 1e9)} GB/s"
        v = tables.compare_results(run, toio.reference, toio.fastest, "bytes_per_second", higher_is_better=True) \
            if ref and toio.reference else None
        if v and v.ratio:
            text += (f", the same as {ref} within ±{stats.pct(v.margin)}" if v.verdict.same else
                     f", {v.ratio:.2f}× {ref}" if v.verdict.differs else f", {v.ratio:.2f}× {ref}, unclear")
        bits.append(text + ")")
    return "; ".join(bits)


def copy_winners(run, direction):
    """'memcpy_toio simd-512 at 64 B–64 KiB (30–111 GB/s)': which strategy to use at which size, the reference aside.

    At each size the winners are the fastest strategy and those within its
    noise (headlines.copy_places); neighbouring sizes that share a winner form
    one span, named after the winners common to all its sizes.  None when
    nothing was measured.
    """
    spans = []          # [common winners, first size, last size, [GB/s of the fastest at each size]]
    for p in headlines.copy_places(run, direction):
        tied = {p.fastest, *p.tied}
        if spans and spans[-1][0] & tied:
            spans[-1][0] &= tied
            spans[-1][2] = p.size
            spans[-1][3].append(p.gbs / 1e9)
        else:
            spans.append([tied, p.size, p.size, [p.gbs / 1e9]])
    if not spans:
        return None

    def span(winners, a, b, rates):
        size = names.size_text(a) if a == b else f"{names.size_text(a)}–{names.size_text(b)}"
        lo, hi = tables.number(min(rates)), tables.number(max(rates))
        return f"{'/'.join(sorted(winners, key=run.meta.strategy_key))} at {size} " \
               f"({lo if lo == hi else lo + '–' + hi} GB/s)"
    return f"{headlines.COPY_OPS.get(direction, direction)} " + ", ".join(span(*sp) for sp in spans)


# --- what was not measured ---------------------------------------------------------------

def not_measured(run):
    """Markdown lines: skipped benchmarks grouped by reason, failed ones, and those below resolution."""
    groups = {}
    for key, res in run.results.items():
        if not res.state.figure:
            reason = f"{tables.bound_text(res.bound)} {tables.ticks([run])}" if res.state.bound and res.bound is not None \
                else res.reason
            groups.setdefault((res.state, reason), []).append(key)
    if not groups:
        return ["Every benchmark in the file has numbers."]
    out = []
    for state in unmeasured():
        items = sorted((reason, keys) for (s, reason), keys in groups.items() if s is state)
        if not items:
            continue
        out.append(f"**{state.heading}** ({sum(len(k) for _, k in items)}):")
        for reason, keys in items:
            out.append(f"- {reason} — {len(keys)}: " + ", ".join(f"`{p}`" for p in names.compact(keys)))
        out.append("")
    if any(s.bound for s, _ in groups):
        bulk = [f"`{f}/`" for f in map(run.meta.family_of, ("latency", "issue")) if f]
        out.append("A result below the timer's resolution is not a number to quote: the access is cheaper than "
                   f"one step of the serialized {run.timer_counter()} read."
                   + (f" {' and '.join(bulk)} measure such accesses in bulk." if bulk else ""))
    return out


def noise_summary(run):
    """One line on the spread of the `cycles` counters (across repetitions, or a group's runs), or why there is none."""
    cvs = [(res.noise.get("cycles"), names.label(key)) for key, res in run.results.items()
           if res.state.figure and res.noise.get("cycles") is not None]
    if not cvs:
        return ("Noise: unknown — the run had no repetitions (run with `--benchmark_repetitions=5` to measure it); "
                "tables quote single measurements.")
    cvs.sort()
    mid = cvs[len(cvs) // 2][0]
    worst = cvs[-1]
    if run.runs > 1:
        return (f"Noise: {run.runs} runs of {run.repetitions_text}; tables quote the median of the runs' "
                f"medians. Spread (CV) of `cycles` across the runs: median {mid:.1%} over {len(cvs)} benchmarks, "
                f"largest {worst[0]:.1%} (`{worst[1]}`).")
    return (f"Noise: {run.repetitions_text}; tables quote medians. Spread (CV) of `cycles` across "
            f"repetitions: median {mid:.1%} over {len(cvs)} benchmarks, largest {worst[0]:.1%} (`{worst[1]}`).")
