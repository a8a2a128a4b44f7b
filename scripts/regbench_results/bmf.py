"""Bencher Metric Format: `{benchmark: {measure: {value, lower_value, upper_value}}}` of one run (one testbed).

Three measures per measured benchmark, each the median over the repetitions
with the lowest and highest repetition as the bounds: `cycles`, timer ticks
per unit (the run's own timer: its TSC or generic counter, `tsc_hz` in its
context); Bencher's own
`latency`, the same in ns; and Bencher's own `throughput`, units (accesses,
elements, copies) per second.  Only measured benchmarks are exported: one
below the timer's resolution has a bound, not a value, and a skipped or
failed one has neither.
"""
from regbench_base.state import State


def _measure(value, lo, hi):
    return {"value": value, "lower_value": lo, "upper_value": hi}


def document(rows):
    """The BMF object of one run's results rows (runfile.result_rows, or the store's), in their order."""
    out = {}
    for r in rows:
        if not State(r["state"]).figure or r["cycles"] is None:
            continue
        doc = {"cycles": _measure(r["cycles"], r["cycles_lo"], r["cycles_hi"])}
        if r["ns"]:
            doc["latency"] = _measure(r["ns"], r["ns_lo"], r["ns_hi"])
            doc["throughput"] = _measure(1e9 / r["ns"], 1e9 / r["ns_hi"] if r["ns_hi"] else None,
                                         1e9 / r["ns_lo"] if r["ns_lo"] else None)
        out[r["name"]] = doc
    return out
