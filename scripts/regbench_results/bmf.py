"""Bencher Metric Format: `{benchmark: {measure: {value, lower_value, upper_value}}}` of one run.

The measure is `cycles`: the median TSC cycles per unit over the
repetitions (the run's own TSC, `tsc_hz` in its context), with the lowest
and highest repetition as the bounds.  Only measured benchmarks are
exported: one below the timer's resolution has a bound, not a value, and a
skipped or failed one has neither.
"""
MEASURE = "cycles"


def document(run):
    """The BMF object of a model.Run, benchmarks by their names in the file, in the run's order."""
    out = {}
    for res in run.results.values():
        m = res.measure(MEASURE)
        if m.state.figure:
            out[res.name] = {MEASURE: {"value": m.value, "lower_value": min(m.reps), "upper_value": max(m.reps)}}
    return out
