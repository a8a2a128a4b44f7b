"""The scripts/summary command line: a run's headline results as a short table on the terminal.

It reads the file through model.load (the contract's one reader) and shows
the rows headlines.choose() picks: medians of the repetitions, their CV
flagged above 5%, each result's state, then the counts of every state, what
failed, what was measured on a disturbed machine and whether the run was
interrupted.  Every failure is one line, `summary: what: why (what to try)`:
2 for a command line or a file it cannot use, 130 when interrupted.
"""
import collections
import math
import statistics
import sys

from regbench_base import command, contract, model
from regbench_base.args import Parser as BaseParser, UsageError
from regbench_base.state import State

from . import headlines, tables

NOISY = 0.05
USAGE = "scripts/summary [-h] [--kept | --cv] [--] RESULT.json"


class Parser(BaseParser):
    """The base parser, whose complaint about a dashed word says that a file with such a name goes after --."""
    argv = ()

    def error(self, message):
        dashed = next((a for a in self.argv if a.startswith("-") and a not in ("-h", "--help", "--")), None)
        if dashed:
            raise UsageError(f"{message} (a file whose name starts with - goes after --: scripts/summary -- {dashed})")
        super().error(message)


def parser():
    p = Parser(prog="summary", usage=USAGE,
               description="Print the headline results of a regbench result file: the kernel's readl and writel "
                           "strategy in each family, the copies at the largest size measured (the kernel's, libc's "
                           "and the fastest), every barrier and dispatch; medians of the repetitions with their CV. "
                           "Then how many benchmarks ended in each state, what failed, what was measured while the "
                           "machine was disturbed. A file whose name starts with - goes after --.")
    only = p.add_mutually_exclusive_group()
    only.add_argument("--kept", action="store_true",
                   help="print only how many benchmarks the run reached (measured, below timer resolution or failed): "
                        "what an interrupted run kept")
    only.add_argument("--cv", action="store_true",
                   help="print only each family's median CV of `cycles` over its measured benchmarks, a line "
                        "FAMILY PERCENT BENCHMARKS per family (what scripts/bench-suite compares across runs)")
    p.add_argument("file", metavar="RESULT.json", help="a regbench --benchmark_out file (results/regbench-DATE.json)")
    return p


def _num(v, decimals=None):
    """A figure as the table prints it: one decimal from 100 up, three below (or decimals), no trailing zeros."""
    if v is None:
        return "-"
    if not math.isfinite(v) or abs(v) >= 1e15:
        return f"{v:.6g}"       # beyond the whole digits a reader counts; rounding it could overflow
    if decimals is None:
        decimals = 1 if abs(v) >= 100 else 3
    r = math.floor(v * 10 ** decimals + 0.5) / 10 ** decimals       # half away from zero, as people round
    return str(int(r)) if r == int(r) else repr(r)


def _percent(cv):
    return "-" if cv is None else f"{_num(cv * 100, 1)}%"


def _ghz(hz, digits):
    return "?" if hz is None else _num(hz / 1e9, digits)


def _row(cells):
    name, tsc, core, ns, gbs, cv, note = cells
    return f"{name:<30} {tsc:>10} {core:>10} {ns:>9} {gbs:>8} {cv:>7}  {note}".rstrip()


def _note(res, least):
    """A row's note: its state or label, its lat/ interval, its noise, repetitions beyond the run's least (adaptive
    ones), how many were disturbed, regbench's note."""
    if res.state.figure:
        parts = [res.reason]
        if res.interval:
            parts.append(f"95% interval {_num(res.interval[0])} to {_num(res.interval[1])}")
    elif res.state.bound or res.state is State.NOT_RUN:
        parts = [res.reason]
    else:
        parts = [f"{res.state}: {res.reason}"]
    cv = res.noise.get("cycles") if res.state.figure else None
    if cv is not None and cv > NOISY:
        parts.append("NOISY: CV above 5%")
    if res.state.figure and res.repetitions > least:
        parts.append(f"{res.repetitions} repetitions")
    if res.disturbed:
        parts.append(f"DISTURBED: {res.disturbed} of {res.out_of} repetitions")
    parts.append(res.note)
    return "; ".join(p for p in parts if p)


def lines(run):
    """The summary of one run (model.Run) as lines of text."""
    h = headlines.choose(run)
    c = run.ctx
    core_source = str(c("core_cycles_source", "?")).split(":")[0]
    out = [f"target {c('target', '?')} ({c('target_what', '?')}), {c('cpu_model', '?')}, "
           f"{run.timer_counter()} {_ghz(run.ctx_float('tsc_hz'), 3)} GHz, "
           f"core ~{_ghz(run.ctx_float('core_hz_estimate'), 2)} GHz ({core_source})", "",
           _row(["benchmark", tables.ticks([run]), "core cyc.", "ns", "GB/s", "CV", "note"])]
    least = min((r.repetitions for r in run.results.values() if r.state.figure), default=1)
    skipped = []         # skipped rows in a row with one reason (another architecture's barriers): one line

    def fold():
        if skipped:
            first, last = skipped[0], skipped[-1]
            note = _note(first, least) if len(skipped) == 1 else \
                f"{len(skipped)} skipped, {first.name} to {last.name}: {first.reason}"
            out.append(_row([first.name, "-", "-", "-", "-", "-", note]))
            skipped.clear()
    for key in h.rows:
        res = run.results[key]
        if res.state is State.SKIPPED and not res.disturbed:
            if skipped and skipped[-1].reason != res.reason:
                fold()
            skipped.append(res)
            continue
        fold()
        get = lambda counter: res.counters.get(counter) if res.state.figure else None
        gbs, cv = get("bytes_per_second"), res.noise.get("cycles") if res.state.figure else None
        out.append(_row([res.name, _num(get("cycles")), _num(get("core_cycles")), _num(get("ns")),
                         _num(gbs / 1e9) if gbs else "-", _percent(cv), _note(res, least)]))
    fold()
    results = sorted(run.results.values(), key=lambda r: run.meta.display_key(r.key))
    count = lambda state: sum(r.state == state for r in results)
    noisy = [r for r in results if r.state.figure and (r.noise.get("cycles") or 0) > NOISY]
    noisiest = "the noisiest " + ", ".join(f"{r.name} {_percent(r.noise['cycles'])}" for r in
                                          sorted(noisy, key=lambda r: -r.noise["cycles"])[:3])
    out += ["", f"{len(results)} benchmarks: {count(State.MEASURED)} measured, {count(State.BELOW_RESOLUTION)} below timer resolution, "
                f"{count(State.SKIPPED)} skipped (reason in the JSON), {count(State.ERROR)} failed"
            + (f", {count(State.NOT_RUN)} not run" if count(State.NOT_RUN) else "")]
    if noisy:
        out.append(f"CV above 5% (noisy; rerun or check the environment notes): {_names(noisy, noisiest)}")
    elif count(State.MEASURED):
        out.append("every measured benchmark has a CV of at most 5% over its repetitions")
    out += [f"failed: {r.name}: {r.reason}" for r in results if r.state.failed]
    # those with a figure: one the run stopped in has nothing to rerun apart from the rest
    disturbed = [r for r in results if r.disturbed and r.state.timed]
    if disturbed:
        out.append("measured while the machine was disturbed (rerun them on a quiet machine): "
                   + _names(disturbed, "scripts/report marks each with †",
                          lambda r: f" ({r.disturbed} of {r.out_of})"))
    out += [f"disturbance: {k} {v}" for k, v in run.context.items() if k.startswith("disturb")]
    if c("env_warnings"):
        out.append(f"environment: {c('env_warnings')}")
    if c("interrupted"):
        out.append(f"INTERRUPTED ({c('interrupted')}): the run stopped early; these are the benchmarks it finished")
    return out


def cv_medians(run):
    """{family: (the median CV of `cycles` over its measured benchmarks, how many)}, families in display order; a
    family without repetitions has no CV and no entry."""
    cvs = {}
    for r in sorted(run.results.values(), key=lambda r: run.meta.display_key(r.key)):
        cv = r.noise.get("cycles") if r.state.figure else None
        if cv is not None:
            cvs.setdefault(r.family, []).append(cv)
    return {f: (statistics.median(v), len(v)) for f, v in cvs.items()}


def _names(results, where, detail=lambda r: "", most=8):
    """A few benchmarks by name (and detail(result)); many as a count per family, and where each is named (the
    table above has the headline benchmarks only)."""
    if len(results) <= most:
        return " ".join(r.name + detail(r) for r in results)
    families = collections.Counter(r.key.family for r in results)
    return f"{len(results)} benchmarks (" + ", ".join(f"{f}/ {n}" for f, n in families.items()) + f"; {where})"


def _run(argv):
    p = parser()
    p.argv = sys.argv[1:] if argv is None else argv
    args = p.parse_args(argv)
    missing = contract.unavailable()
    if missing:
        print(f"summary: {missing}", file=sys.stderr)
        return 2
    try:
        run = model.load(args.file)
    except model.ReportError as e:
        print(f"summary: {e}", file=sys.stderr)
        return 2
    if args.cv:
        for f, (cv, n) in cv_medians(run).items():
            print(f"{f} {cv * 100:.4f} {n}")
    else:
        print(sum(r.state.ran for r in run.results.values()) if args.kept else "\n".join(lines(run)))
    return 0


def main(argv=None):
    # `scripts/summary FILE | head`: a reader that has what it wanted is no failure
    return command.run("summary", lambda: _run(argv), broken_pipe=0)
