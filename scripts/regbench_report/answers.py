"""The first screen of a single-run report: a driver author's questions, answered in sentences with the run's figures.

What does one readl cost, dependent and back to back?  What does
readl_relaxed save against it here?  What does ioread32's cookie cost over a
direct readl?  What does each ordering add to an access?  Which memcpy_toio
(and memcpy_fromio) strategy is fastest at each size?  Each answer is one
line; every figure in it is read from the run, in the clock its family's
table shows first (tables.first_counter), and every "the same", "saves" or
"+N" is the verdict of the report's own statistics between two benchmarks
of the run (tables.compare_results).  A benchmark the run has without a
figure is said to be so (skipped, below the timer's resolution, failed); an
answer whose families the run did not run at all is left out.
"""
from regbench_base import names
from regbench_base.model import Key

from regbench_base import stats

from . import headlines, tables

DISTURBED = "†"


class _Answers:
    """One run as the answers read it: each benchmark's figure as text, in its family's first clock."""

    def __init__(self, run):
        self.run = run
        self.disturbed = False          # a figure quoted was measured (partly) on a disturbed machine

    def has(self, *families):
        return any(res.family in families for res in self.run.results.values())

    def counter(self, key):
        return tables.first_counter([self.run], key.family)

    def unit(self, family):
        return tables.CLOCKS[tables.first_counter([self.run], family)]

    def value(self, key):
        """The figure of a benchmark in its first clock, or None."""
        m = self.run.measure(key, self.counter(key))
        return m.value if m.state.figure else None

    def mark(self, key):
        """† after a figure measured on a disturbed machine."""
        res = self.run.results.get(key)
        if res and res.disturbed:
            self.disturbed = True
            return f" {DISTURBED}"
        return ""

    def why_not(self, key):
        """Why a benchmark has no figure: 'below the timer's resolution (< 21 TSC cycles)', 'skipped (...)', ..."""
        res = self.run.results.get(key)
        if res is None:
            return "not in this run"
        if not res.state.figure:
            return res.state.said.format(reason=res.reason, bound=tables.bound_text(res.bound))
        return "without a figure in the file"

    def num(self, key):
        """'4.01' (and † where disturbed), or why there is no figure."""
        v = self.value(key)
        return self.why_not(key) if v is None else tables.number(v) + self.mark(key)

    def figure(self, key, unit=True):
        """'4.01 core cycles (1.09 ns)' (and †; without the clock's name when unit is false), or why there is no
        figure."""
        v = self.value(key)
        if v is None:
            return self.why_not(key)
        t = self.run.measure(key, "ns")
        return (tables.number(v) + (f" {self.unit(key.family)}" if unit else "")
                + (f" ({tables.number(t.value)} ns)" if t.state.figure else "") + self.mark(key))

    def against(self, base, other):
        """The verdict of benchmark other against base, |difference| in their first clock and, for no verdict,
        why; None when either has no figure: (the Verdict, '3.77', why)."""
        a, b = self.value(base), self.value(other)
        if a is None or b is None:
            return None
        v = tables.compare_results(self.run, base, other, self.counter(base))
        # a sentence has room for how far an unclear verdict's interval reaches; compare.json has the rest
        why = v.why if not v.verdict.undecided else (
            f"within ±{stats.pct(v.margin_needed)}, not shown within ±{stats.pct(v.margin)}" if v.margin_needed
            else f"too few repetitions to show it within ±{stats.pct(v.margin)}")
        return v.verdict, tables.number(abs(b - a)), why


def _readl(r, readl):
    if not r.has("chain", "thrpt", "lat"):
        return None
    chain, thrpt, lat = (Key(f, "read", 32, readl) for f in ("chain", "thrpt", "lat"))
    # only the ways this run measured it: a port target's run has lat/ alone; a sentence per clock
    bulk = {}
    for k, how in ((chain, "when each read waits for the last"), (thrpt, "back to back")):
        if k in r.run.results:
            bulk.setdefault(r.unit(k.family), []).append(f"{r.figure(k, unit=False)} {how} (`{names.label(k)}`)")
    said = [f"in {unit}, " + ", and ".join(ways) for unit, ways in bulk.items()]
    res, p50 = r.run.results.get(lat), r.run.measure(lat, "p50")
    alone = f"alone between two timer reads (`{names.label(lat)}`), in TSC cycles,"
    if res and res.state.bound:
        said.append(f"{alone} it is below the timer's step ({tables.bound_text(res.bound)})"
                    + (", which is why those two measure it in bulk" if sum(map(len, bulk.values())) == 2 else ""))
    elif p50.state.figure:
        said.append(f"{alone} it takes p50 {tables.number(p50.value)}, p99 "
                    f"{tables.cell_text(r.run.measure(lat, 'p99'))}{r.mark(lat)}")
    elif res:
        said.append(f"alone between two timer reads (`{names.label(lat)}`) it is {r.why_not(lat)}")
    if not said:
        return None
    first, rest = said[0], said[1:]
    return (f"**One `readl`** (`{readl}`, the kernel's) costs, {first}." if bulk else
            f"**One `readl`** (`{readl}`, the kernel's), {first}.") + "".join(
        f" {w[0].upper()}{w[1:]}." for w in rest)


def _relaxed(r, readl, relaxed):
    if not r.has("chain", "thrpt"):
        return None
    if not relaxed or relaxed == readl:
        # model._meta: a file written before kernel_strategies.relaxed names it only where readl was another
        if readl == "relaxed" or relaxed == readl:
            return (f"**`readl_relaxed`**: in this file `readl` is `{readl}`, which is `readl_relaxed` too (a "
                    "regbench older than `kernel_strategies.relaxed`, whose readl had no compiler barrier): "
                    "nothing to set against each other.")
        return ("**`readl_relaxed`**: this file does not say which strategy is `readl_relaxed` (a regbench older "
                "than `kernel_strategies.relaxed`); the tables below have every strategy.")
    parts, same, differs = [], True, False
    for family, how in (("chain", "dependent"), ("thrpt", "back to back")):
        base, other = Key(family, "read", 32, readl), Key(family, "read", 32, relaxed)
        if base not in r.run.results and other not in r.run.results:
            continue
        d = r.against(base, other)
        both = f"{how} {r.num(other)} against {r.num(base)} {r.unit(family)}"
        same &= bool(d) and d[0].same
        differs |= bool(d) and d[0].differs
        if d is None:
            parts.append(f"{how}, `{names.label(other)}` {r.figure(other)}, `{names.label(base)}` {r.figure(base)}")
        elif d[0].differs and not d[0].costlier:
            parts.append(f"{both}: it saves {d[1]} per read")
        elif d[0].costlier:
            parts.append(f"{both}: it costs {d[1]} more per read")
        elif d[0].same:
            parts.append(both)
        else:
            parts.append(f"{both}, {d[1]} apart, {d[0]}: {d[2]}")
    if not parts:
        return None
    # the same everywhere is said first and plainly; otherwise each way says its own verdict
    lead = f"the same, within ±{stats.pct(stats.MARGIN)} ({'; '.join(parts)})" if same else "; ".join(parts)
    help_ = r.run.meta.help
    issue = (f"both issue one `mov` (`{readl}` is \"{help_.get(readl, '?')}\", `{relaxed}` "
             f"\"{help_.get(relaxed, '?')}\"); the compiler barrier only keeps the compiler from moving other "
             "memory accesses across the read, and the ordering a driver relies on comes from x86's memory model "
             "(loads are not reordered with other loads, nor stores with other stores), not from an instruction "
             "`readl` adds")
    if r.run.ctx("arch") == "aarch64":
        why = _arm64_relaxed(r, readl, relaxed)
    else:
        why = (f"On x86 that is what to expect: {issue}." if same else
               f"On x86 {issue}: a difference comes from the code the compiler may move around the read, not from "
               "the CPU." if differs else f"On x86 {issue}.")
    return f"**`readl_relaxed`** (`{relaxed}`) against `readl` on this machine: {lead}. {why}"


def _arm64_relaxed(r, readl, relaxed):
    """What readl_relaxed saves on arm64: the barrier readl puts after its load, measured alone where the run has it."""
    help_ = r.run.meta.help
    barrier = next((k for k in r.run.results if k.family == "barrier" and k.op == "dmb_oshld"), None)
    cost = (f"alone (`{names.label(barrier)}`) it measured {r.figure(barrier)}" if barrier
            else "this run did not measure it alone (`barrier/dmb_oshld`)")
    emulated = (" These figures come from an emulator: its barriers cost what it makes of them, not what a core's "
                "do, so measure on a board before choosing." if r.run.ctx("accelerator") in ("tcg", "qemu-user") else "")
    return (f"On arm64 the two differ by instructions (`{readl}` is \"{help_.get(readl, '?')}\", `{relaxed}` "
            f"\"{help_.get(relaxed, '?')}\"): what `readl_relaxed` saves per read is the `dmb oshld` and the "
            f"dependency on the value after the load; {cost}.{emulated}")


def _cookie(r):
    if not r.has("dispatch"):
        return None
    direct = Key("dispatch", "read", 32, "direct")
    if direct not in r.run.results:
        return f"**`ioread32`'s cookie**: this run has no direct `readl` (`{names.label(direct)}`) to set it against."
    same, parts = [], []
    for k in sorted((k for k in r.run.results if k.family == "dispatch" and k != direct),
                    key=lambda k: r.run.meta.strategy_key(k.strategy)):
        d = r.against(direct, k)
        text = f"`{k.strategy}` ({r.run.meta.help.get(k.strategy, '')}) {r.num(k)}"
        if d and d[0].same:
            same.append(text)
            continue
        if d:
            text += (f", {d[1]} more" if d[0].costlier else f", {d[1]} less" if d[0].differs else
                     f", {d[1]} apart, unclear: {d[2]}" if d[0].undecided else f", {d[1]} apart: {d[2]}")
        parts.append(text)
    # the ones the same as a direct readl are said first, plainly
    if same:
        parts.insert(0, f"the same within ±{stats.pct(stats.MARGIN)}: " + ", ".join(same))
    return (f"**`ioread32`'s cookie**, in {r.unit('dispatch')} per read back to back, against a direct `readl`, "
            f"`{names.label(direct)}`, at {r.figure(direct)}: " + "; ".join(parts) + ".")


def _ordering(r, relaxed):
    if not r.has("thrpt") or not relaxed:
        return None
    parts = []
    for op in ("read", "write"):
        base = Key("thrpt", op, 32, relaxed)
        if r.value(base) is None:
            if base in r.run.results:
                parts.append(f"per {op}, `{names.label(base)}` is {r.why_not(base)}: nothing to set the others against")
            continue
        same, adds = [], []
        for k in sorted((k for k in r.run.results if k.family == "thrpt" and k.op == op and k.width == 32
                         and k.strategy != relaxed and r.run.meta.kinds.get(k.strategy) == "accessor"
                         and r.value(k) is not None), key=lambda k: r.run.meta.strategy_key(k.strategy)):
            d = r.against(base, k)
            if d[0].same:
                same.append(f"`{k.strategy}`")
                continue
            adds.append(f"`{k.strategy}` " + (f"+{d[1]}{r.mark(k)}" if d[0].costlier else
                                              f"−{d[1]}{r.mark(k)}" if d[0].differs else
                                              f"{d[1]} apart, unclear ({d[2]})" if d[0].undecided else
                                              f"{d[1]} apart ({d[2]})"))
        said = ([f"the same within ±{stats.pct(stats.MARGIN)}: " + ", ".join(same)] if same else []) + \
            ([", ".join(adds)] if adds else [])
        parts.append(f"per {op}, against `{relaxed}` at {r.num(base)}: " + "; ".join(said))
    if not parts:
        return None
    return (f"**What each ordering adds** to a 32-bit access back to back (`thrpt/`, {r.unit('thrpt')}; "
            "`regbench --help` says what each strategy issues): " + "; ".join(parts) + ".")


def _copies(r, direction):
    what = headlines.COPY_OPS[direction]
    places = headlines.copy_places(r.run, direction)
    if not places:
        if any(res.family == "copy" and res.op == direction for res in r.run.results.values()):
            return f"**`{what}`**: no strategy has a figure in this run (see *Not measured*)."
        return None
    kernel = r.run.meta.kernel.get("copy")
    parts = []
    for p in places:
        text = (f"{names.size_text(p.size)} `{p.fastest}` {tables.number(p.gbs / 1e9)} GB/s"
                + r.mark(Key("copy", direction, None, p.fastest, p.size)))
        if p.tied:
            text += " (as fast: " + ", ".join(f"`{s}`" for s in p.tied) + ")"
        k = Key("copy", direction, None, kernel, p.size)
        if kernel and kernel != p.fastest and kernel not in p.tied and k in r.run.results:
            m = r.run.measure(k, "bytes_per_second")
            text += f", the kernel's `{kernel}` " + (f"{tables.number(m.value / 1e9)} GB/s" if m.state.figure
                                                      else r.why_not(k))
        parts.append(text)
    return f"**`{what}`**, the fastest strategy at each size in GB/s (and those the same within ±" \
        f"{stats.pct(stats.MARGIN)}): " + \
        "; ".join(parts) + "."


def lines(run):
    """The answers as Markdown lines (a bullet each, then how to read them); [] when the run holds none of the
    families they come from."""
    r = _Answers(run)
    readl, relaxed = run.meta.kernel["single"], run.meta.kernel.get("relaxed")
    found = [a for a in (_readl(r, readl), _relaxed(r, readl, relaxed), _cookie(r), _ordering(r, relaxed),
                         _copies(r, "toio"), _copies(r, "fromio")) if a]
    if not found:
        return []
    reps = f"Medians of {run.repetitions} repetitions" if run.repetitions > 1 else "One repetition each"
    note = (f"{reps}. Whether two figures differ is the report's own test of "
            f"their repetitions (an exact rank test at p ≤ {stats.ALPHA:g} and a difference of at least "
            f"{stats.MIN_EFFECT['run']:.0%}); the same means the 90% interval of their ratio lies within "
            f"±{stats.pct(stats.MARGIN)}, and unclear neither (docs/METHOD.md).")
    if r.disturbed:
        note += (f" {DISTURBED}: some repetitions measured while the machine was disturbed; there only a difference "
                 f"of {stats.MIN_EFFECT['repetition']:.0%} counts.")
    return [f"- {a}" for a in found] + ["", note]
