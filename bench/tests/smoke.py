#!/usr/bin/python3
"""smoke.py: the checks of smoke.sh on the file and console of one regbench --quick run, through the one reader.

    smoke.py RESULT.json CONSOLE TARGET        TARGET: ram or trap

The file is read twice: as the contract's reader sees it (model.loads, which
validates it against the schema and refuses NaN and Infinity) and as the
raw document, for what the reader folds away (Google Benchmark's repetitions
and aggregates).  Each check prints `ok: what` or `FAIL: what:` and its
offenders; the exit status is 1 when any failed.
"""
import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "scripts"))

from regbench_base import contract, model     # noqa: E402
from regbench_base.state import State          # noqa: E402

MAPPINGS = {"ram": "wb", "trap": "trap"}
CONTEXT_KEYS = ("target", "target_kind", "target_mapping", "target_device", "target_bar", "tsc_hz", "tsc_hz_source",
                "invariant_tsc", "core_hz_estimate", "cpu", "cpu_model", "kernel", "timer", "timer_overhead_cycles",
                "timer_resolution_cycles", "regbench_build_type", "regbench_version")
ENV_KEYS = ("env_governor", "env_boost", "env_vm", "env_warnings", "topology", "core_cycles_source")
COUNTERS = ("cycles", "core_cycles", "ns", "bytes_per_second", "min", "p50", "p90", "p99", "p999", "max", "outliers",
            "below_overhead")
PERCENTILES = ("min", "p50", "p90", "p99", "p999", "max")


def name_of(m):
    """A benchmark's name as its fields spell it: family/op+width/strategy[/param]."""
    parts = [m["family"], m["op"] + str(m["width"] or ""), m["strategy"], str(m["param"] or "")]
    return "/".join(p for p in parts if p)


def width(step, sub, e):
    """The width of the grid's bucket starting at e timer steps (bench/estimate.h, rb_hist_bucket)."""
    return 1 if e < 2 * sub else 2 ** (math.floor(math.log2(e)) - int(math.log2(sub)))


def checks(doc, run, console, target):
    """(what, offenders) of every check, in order."""
    rb, ctx = doc["regbench"], doc["context"]
    meta, its = rb["benchmarks"], [e for e in doc["benchmarks"] if e.get("run_type") == "iteration"]
    reps = {}
    for e in its:
        reps.setdefault(e["run_name"], []).append(e)
    res = {r.name: r for r in run.results.values()}
    yield "every GB benchmark has its entry in the regbench object, and no entry is extra", \
        [f"no metadata: {n}" for n in sorted(set(reps) - set(meta))] + \
        [f"metadata only: {n}" for n in sorted(set(meta) - set(reps))]
    yield "every family of the order is present", sorted(set(rb["order"]["families"]) - {m["family"] for m in meta.values()})
    yield "each name is made of its fields: family/op+width/strategy[/param]", [n for n, m in meta.items()
                                                                               if n != name_of(m)]
    yield "every field of the contract has a value of its kind", [
        f"{r.name}: {r.state} space {r.space} reason '{r.reason}' bound {r.bound}" for r in res.values()
        if r.space not in ("mmio", "pio") or r.family not in rb["order"]["families"]
        or (r.strategy and r.strategy not in rb["order"]["strategies"])
        or r.state.figure != (meta[r.name]["reason"] == "") or r.state.bound != (meta[r.name].get("bound") is not None)]
    yield "the context has every key", [k for k in CONTEXT_KEYS if k not in ctx]
    # x86-64's TSC ticks at 100 MHz or more and its rdtsc costs ticks; arm64's generic counter ticks at
    # 1 MHz or more (1 GHz from Armv8.6, 62.5 MHz under QEMU), where a timer read may cost under one tick.
    arm64 = ctx.get("arch") == "aarch64"
    overhead = run.ctx_float("timer_overhead_cycles")
    yield f"the context describes {target}", [] if (
        run.ctx("target") == target and run.ctx("target_kind") == "mmio" and run.ctx("target_mapping") == MAPPINGS[target]
        and (run.ctx_float("tsc_hz") or 0) >= (1e6 if arm64 else 1e8)
        and overhead is not None and (overhead >= 0 if arm64 else overhead > 0)) else [str(ctx)]

    def ended(n, es):
        """Whether the state says how the benchmark ended (below_resolution when most repetitions were below)."""
        state, failed = res[n].state, any(e.get("error_occurred") for e in es)
        below = sum(str(e.get("label") or "").startswith("below timer resolution") for e in es)
        return failed == (not state.timed) and (state is not State.SKIPPED or all(
            str(e.get("error_message") or "").startswith("skipped: ") for e in es)) \
            and (failed or (below * 2 > len(es)) == state.bound)
    yield "the state says how each benchmark ended, as Google Benchmark reported its repetitions", [
        f"{n}: {res[n].state} {sorted({str(e.get('error_message') or e.get('label') or '') for e in es})}"
        for n, es in reps.items() if n in res and not ended(n, es)]
    yield "every measured repetition has cycles > 0 and ns > 0", [
        e["name"] for e in its if not e.get("label") and not e.get("error_occurred")
        and not (e.get("cycles", 0) > 0 and e.get("ns", 0) > 0)]
    yield "no counter is negative", [f"{e['name']} {c}" for e in doc["benchmarks"] for c in COUNTERS if e.get(c, 0) < 0]
    yield "lat results carry min <= p50 <= p90 <= p99 <= max", [
        e["name"] for e in its if meta[e["run_name"]]["family"] == "lat" and "cycles" in e
        and [e[p] for p in PERCENTILES] != sorted(e[p] for p in PERCENTILES)]
    yield "every skipped benchmark carries a reason", [f"{r.name}: {r.reason}" for r in res.values()
                                                       if r.state is State.SKIPPED and len(r.reason) < 10]
    yield "the copy family has the reference row beside each strategy", [] if any(
        r.family == "copy" and run.meta.is_reference(r.strategy) for r in res.values()) else ["no reference row"]
    single = run.meta.kernel["single"]
    yield "the 64-bit read and write of the kernel's strategy are measured", [
        f"{f}/{op}64/{single}: {r.state.value if r else 'absent'} {r.reason if r else ''}"
        for f, op in (("thrpt", "read"), ("thrpt", "write"), ("chain", "read"))
        for r in [run.find(f, op, 64, single)] if not (r and r.state.figure)]
    yield "core cycles come with every TSC figure", [e["name"] for e in its if "cycles" in e
                                                     and not e.get("core_cycles", 0) > 0]
    thrpt = next((r.name for r in res.values() if r.family == "thrpt" and r.state.figure), None)
    aggregates = {e.get("aggregate_name") for e in doc["benchmarks"] if e.get("run_name") == thrpt}
    yield "repetitions give a median and a coefficient of variation", [a for a in ("median", "cv") if a not in aggregates]
    hists = rb.get("histograms", {})
    yield "every lat/ benchmark that ran has a histogram", [r.name for r in res.values() if r.family == "lat"
                                                            and r.state.timed and r.name not in hists]
    yield "histogram edges rise, there is one more edge than counts, no bin lies below 0", [
        n for n, h in hists.items() if len(h["edges"]) != len(h["counts"]) + 1 or h["edges"] != sorted(h["edges"])
        or sum(h["counts"]) <= 0 or h["edges"][0] < 0]
    step = run.ctx_float("timer_resolution_cycles")

    def off_grid(h):
        g, v = h["grid"], [x / step for x in h["edges"]]
        return g["step"] != step or any(v[i + 1] - v[i] != width(step, g["sub_buckets"], v[i])
                                        or v[i] % width(step, g["sub_buckets"], v[i]) for i in range(len(v) - 1))
    yield "histograms lie on the grid of the timer's step, bucket after bucket (estimate.h: rb_hist_bucket)", [
        f"{n}: {h.get('grid')}, edges {h['edges'][:4]} (step {step})" for n, h in hists.items() if off_grid(h)]
    yield "a histogram holds every repetition: each one's min and max lie in its span", [
        f"{e['name']}: min {e['min']}, max {e['max']}, span {hists[e['run_name']]['edges'][0]} to "
        f"{hists[e['run_name']]['edges'][-1]}" for e in its if meta[e["run_name"]]["family"] == "lat" and "min" in e
        and (e["min"] < hists[e["run_name"]]["edges"][0] or e["max"] >= hists[e["run_name"]]["edges"][-1])]
    yield "the environment check is in the context", [k for k in ENV_KEYS if k not in ctx]
    yield "Google Benchmark's time is the cost per unit: real_time is the ns counter (manual time)", [
        f"{e['name']}: {e['real_time']} vs {e['ns']}" for e in its if "ns" in e
        and abs(e["real_time"] - e["ns"]) > 1e-6 * e["ns"]]
    disturbed = sum(r.disturbed > 0 for r in res.values())
    yield "every benchmark counts its disturbed repetitions; the context counts the benchmarks with any", [
        f"{n}: disturbed {m.get('disturbed')}" for n, m in meta.items()
        if not isinstance(m.get("disturbed"), int) or m["disturbed"] < 0] + (
        [] if run.ctx_float("disturbed_benchmarks") == disturbed else
        [f"context disturbed_benchmarks {ctx.get('disturbed_benchmarks')}, {disturbed} benchmarks"])

    # the console: one line per benchmark, a skip or a result below resolution once, counters without SI suffixes
    lines = console.splitlines()
    first = [l.split()[0] for l in lines if l.split() and re.match(r"(lat|chain|thrpt|flush|rep|copy|barrier|dispatch)/",
                                                                     l.split()[0])]
    yield "console: each benchmark is one line", sorted({n for n in first if first.count(n) > 1})
    yield "console: no ERROR OCCURRED and no SI suffix on a figure", [
        l for l in lines if "ERROR OCCURRED" in l or re.search(r"[0-9][kmMGTun]( |$)", l)]
    for state, want in ((State.SKIPPED, "skipped: "), (State.BELOW_RESOLUTION, "below timer resolution")):
        for r in [r for r in res.values() if r.state is state][:3]:
            n = sum(1 for l in lines if l.split() and l.split()[0] == r.name and want in l)
            yield f"console: {r.name} says '{want}' once", [] if n == 1 else [f"{r.name}: {n} lines"]

    if target == "trap" and arm64:
        yield "arm64 has no I/O instructions: no port window, no benchmark in port space, and the header says so", [
            r.name for r in res.values() if r.space == "pio"] + (
            [] if "no ports (this architecture has no I/O instructions)" in console else ["the header does not say"])
    elif target == "trap":
        yield "the port window runs rep insX/outsX and the port cookie, each paired with its MMIO form", [
            f"no measured port {f} benchmark with an MMIO pair" for f in ("rep", "dispatch")
            if not any(r.family == f and r.space == "pio" and r.state.figure and r.pair and res[r.pair].space == "mmio"
                       for r in res.values())]
        yield "every accessor copy strategy is measured on the copy window", [
            f"{r.name}: {r.state} {r.reason}" for r in res.values() if r.family == "copy"
            and run.meta.kinds.get(r.strategy) == "accessor" and not r.state.figure
            and not re.search("CPU|AVX|signal frame", r.reason)]
        yield "the reference copy row is skipped with the reason", [
            r.name for r in res.values() if r.family == "copy" and run.meta.is_reference(r.strategy)
            and (r.state is not State.SKIPPED or "outside libiomap" not in r.reason)]


def main(argv):
    if len(argv) != 3 or argv[2] not in MAPPINGS:
        print("usage: smoke.py RESULT.json CONSOLE ram|trap", file=sys.stderr)
        return 2
    path, console_path, target = argv
    with open(path, "rb") as f:
        data = f.read()
    with open(console_path, encoding="utf-8", errors="replace") as f:
        console = f.read()
    try:
        run = model.loads(data, path)
    except model.ReportError as e:
        print(f"FAIL: the file keeps the contract: {e}")
        return 1
    print("ok: the file keeps the contract (no NaN or Inf, every field of its kind)")
    failed = 0
    for what, offenders in checks(contract.parse(data.decode("utf-8")), run, console, target):
        if offenders:
            failed = 1
            print(f"FAIL: {what}:" + "".join(f"\n  {o}" for o in offenders[:20]))
        else:
            print(f"ok: {what}")
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
