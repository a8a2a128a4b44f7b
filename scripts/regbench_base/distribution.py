"""lat/ histograms as distributions: the bucket a percentile lies in, the tail above it, runs added up.

regbench bins every lat/ sample on a grid that follows from the timer's step
alone (bench/estimate.h, rb_hist_bucket; the JSON's `grid`), so the
histograms of runs on one machine lie on the same edges and add up bucket by
bucket into one distribution.  A percentile read off a histogram is a
bucket, [lo, hi): the sample is in it, never more exactly (a bucket is one
timer step wide at first, then at most 1/sub_buckets of its lower edge).
Histograms of files older than the grid have bins of their own: they are
read the same way, but never merged.
"""
from typing import List, Optional, Tuple

from .model import Histogram


def total(h):
    return sum(h.counts)


def bucket_of(h, p):
    """The index of the bucket holding the p-quantile (0..1) sample: the sample of rank floor(p * n), counted from
    the smallest, as regbench takes its percentiles (rb_percentile); None for an empty histogram."""
    n = total(h)
    if n <= 0:
        return None
    rank = min(int(p * n), n - 1)
    seen = 0
    for i, c in enumerate(h.counts):
        seen += c
        if seen > rank:
            return i
    return len(h.counts) - 1


def percentile(h, p) -> Optional[Tuple[float, float]]:
    """The bucket [lo, hi) the p-quantile sample lies in, or None for an empty histogram."""
    i = bucket_of(h, p)
    return None if i is None else (h.edges[i], h.edges[i + 1])


def split_tail(h, p=0.999):
    """(edges, counts, tail): the buckets up to the one holding the p-quantile, and the rest apart.

    tail is (samples, from, to) for the buckets above, or None when there are
    none or they are empty: one preempted sample thousands of times slower
    than the rest must not stretch a chart's axis over six decades.
    """
    i = bucket_of(h, p)
    if i is None or i + 1 >= len(h.counts) or not sum(h.counts[i + 1:]):
        return h.edges, h.counts, None
    return h.edges[:i + 2], h.counts[:i + 1], (sum(h.counts[i + 1:]), h.edges[i + 1], h.edges[-1])


class MergeError(ValueError):
    """Histograms that do not lie on one grid; str() says why."""


def merge(hists: List[Histogram]) -> Histogram:
    """The histograms of several runs of one machine as one: bucket by bucket, on their common grid.

    Every histogram must carry the same grid (regbench's, with the same timer
    step); a bucket one run has and another lacks is an empty bucket of the
    other.  Buckets that no run has, between the runs' spans, become one
    empty bucket.  Raises MergeError when a histogram has no grid, the grids
    differ, or the edges contradict one grid.
    """
    if not hists:
        raise MergeError("no histograms")
    grids = {h.grid for h in hists}
    if None in grids:
        raise MergeError("a histogram without a grid (written by a regbench older than the fixed grid)")
    if len(grids) > 1:
        raise MergeError("histograms on different grids: " + ", ".join(
            f"step {step:g}, {sub} per power of two" for step, sub in sorted(grids)))
    buckets = {}                 # lower edge -> [upper edge, samples]
    for h in hists:
        for lo, hi, c in zip(h.edges, h.edges[1:], h.counts):
            b = buckets.setdefault(lo, [hi, 0])
            if b[0] != hi:
                raise MergeError(f"two histograms disagree on the bucket from {lo:g}: to {b[0]:g} or to {hi:g}")
            b[1] += c
    edges, counts = [], []
    for lo in sorted(buckets):
        hi, c = buckets[lo]
        if edges and lo < edges[-1]:
            raise MergeError(f"buckets overlap at {lo:g}: not one grid")
        if edges and lo > edges[-1]:
            counts.append(0)         # the gap between two runs' spans: buckets neither has
            edges.append(lo)
        elif not edges:
            edges.append(lo)
        counts.append(c)
        edges.append(hi)
    first = hists[0]
    return Histogram(first.unit, edges, counts, first.grid)
