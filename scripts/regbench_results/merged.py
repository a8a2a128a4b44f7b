"""Each machine × target's lat/ histograms kept added up in the store (the table `merged`), so that `latency` reads
one row per benchmark and machine, whatever the number of runs.

A merged row is one benchmark of one group (host, CPU, the target as the
reference table names it, and the grid: what latency.build groups runs by).
It holds each bucket's edges, its samples and how many runs have the bucket,
so that taking a run out (delete, prune, the old host of a retag) leaves
exactly what adding up the other runs gives: a bucket no run has any more
goes.  The writes happen inside the transaction of the change that calls
them (Store.add, Store.remove, Store.retag), which one writer at a time holds.
"""
import array
import sys
import zlib

from regbench_base import distribution, model

from . import runfile, sql
from .errors import ResultsError


def group(run):
    """The merged group of a run (a row of `runs`), or None when its lat/ histograms are none or have no grid."""
    if run["grid_step"] is None:
        return None
    return run["host"], run["cpu"], runfile.target_label(run), run["grid_step"], run["grid_sub_buckets"]


WHERE = " AND ".join(f"{c} = ?" for c in sql.MERGED_GROUP)
READ = f"SELECT name, runs, buckets FROM merged WHERE {WHERE}"


def pack(buckets):
    """A merged row's buckets as bytes: four arrays of doubles (lower edges, upper edges, samples, runs), zlib.  Not
    the runs' compact JSON (runfile.pack): a merged row is rewritten by every change of its machine, and there are
    few of them, so packing fast counts and its bytes do not."""
    lows = sorted(buckets)
    values = array.array("d", lows + [buckets[lo][i] for i in range(3) for lo in lows])
    return zlib.compress(_little(values).tobytes(), 1)


def _little(values):
    """Doubles in little-endian order whatever the machine's (a PostgreSQL store is shared by several)."""
    if sys.byteorder == "big":
        values.byteswap()
    return values


def buckets_of(blob):
    """{lower edge: [upper edge, samples, runs]} of a merged row's buckets (pack's)."""
    values = _little(array.array("d", zlib.decompress(bytes(blob))))
    n = len(values) // 4
    lo, hi, c, runs = (values[i * n:(i + 1) * n] for i in range(4))
    return {lo[i]: [hi[i], c[i], runs[i]] for i in range(n)}


def change(execute, changes):
    """Adds (sign 1) or takes out (sign -1) runs' histograms: changes are (run row, [(name, model.Histogram)], sign).
    execute(statement, params) runs a statement in the caller's transaction."""
    by_group = {}
    for run, hists, sign in changes:
        key = group(run)
        if key is not None and hists:
            by_group.setdefault(key, []).append((run, hists, sign))
    for key, items in by_group.items():
        names = {name for _, hists, _ in items for name, _ in hists}
        rows = {name: (runs, buckets_of(blob)) for name, runs, blob in execute(READ, key).fetchall() if name in names}
        for run, hists, sign in items:
            for name, h in hists:
                runs, buckets = rows.get(name, (0, {}))
                rows[name] = (runs + sign, _added(buckets, h, sign, key, name))
        marks = ", ".join("?" for _ in names)
        execute(f"DELETE FROM merged WHERE {WHERE} AND name IN ({marks})", key + tuple(sorted(names)))
        for name, (runs, buckets) in sorted(rows.items()):
            if runs > 0:
                execute(sql.ADD_MERGED, key + (name, runs, pack(buckets)))


def _added(buckets, h, sign, key, name):
    """buckets with a histogram's added (sign 1) or taken out (-1); a bucket no run has any more is dropped."""
    for lo, hi, c in zip(h.edges, h.edges[1:], h.counts):
        b = buckets.setdefault(lo, [hi, 0, 0])
        if b[0] != hi:
            raise ResultsError(f"{key[0]} {key[2]} {name}", f"two histograms disagree on the bucket from {lo:g}: to "
                               f"{b[0]:g} or to {hi:g}", "the run's histograms are not regbench's; re-run it")
        b[1] += sign * c
        b[2] += sign
        if b[2] <= 0:
            del buckets[lo]
    return buckets


def histogram(key, buckets):
    """The model.Histogram of a merged row's buckets: what distribution.merge gives of the runs themselves (the same
    edges, a gap between spans as one empty bucket)."""
    grid = (key[3], key[4])
    return distribution.merge([model.Histogram("cycles", [lo, b[0]], [b[1]], grid) for lo, b in buckets.items()])
