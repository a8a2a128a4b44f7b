"""Curating the store: deleting runs, pruning old ones, retagging a run's host; each change one transaction.

Runs are named by their id or the start of it, as `list` shows them (12
characters); a start that names no run, or several, is an error, and nothing
is changed.  A run's results, labels and histograms go with it (foreign keys
with ON DELETE CASCADE, enforced on SQLite too).
"""
from . import history, query, reference, runfile
from regbench_base.args import UsageError

from .errors import ResultsError


# The longest host name retag gives (a DNS name is at most 253 characters): a name goes into lines and file names.
HOST_LIMIT = 253


def resolve(store, starts):
    """The runs (rows of query.all_runs) named by ids or starts of ids, in the order given, each once (two starts of
    one id name one run: deleting it twice would take its histograms out of `merged` twice)."""
    runs = query.all_runs(store)
    out = []
    for start in starts:
        found = [r for r in runs if r["id"].startswith(start.lower())] if start else []
        if len(found) != 1:
            why = "no run in the store has an id starting so" if not found else f"{len(found)} runs' ids start so"
            raise ResultsError(start or "''", why, "give the id as `scripts/results list` shows it")
        if found[0] not in out:
            out.append(found[0])
    return out


def delete(store, runs):
    """Removes the runs, their results, labels and histograms, in one transaction (Store.remove)."""
    store.remove(runs)


def to_prune(selection, before=None, keep=None):
    """The runs of a selection that prune removes: those that ran before a date (UTC text), or all but the newest
    keep of each machine × target."""
    if before is None and keep is None:
        raise UsageError("prune: nothing says which runs to remove (give --before DATE or --keep N)")
    groups = {}
    for run in selection.runs:
        groups.setdefault((history.machine(run), reference.target_label(run)), []).append(run)
    out = []
    for runs in groups.values():
        old = [r for r in runs if before and r["time"] and r["time"] < before]
        # all but the newest `keep` (runs[:-keep] would keep every run for --keep 0)
        extra = runs[:len(runs) - keep] if keep is not None and keep < len(runs) else []
        out += [r for r in runs if r in old or r in extra]
    return out


def retag(store, run, host):
    """Gives a run another host (the store's column; the JSON keeps what the run said)."""
    if not host.strip():
        raise UsageError("--host: empty (give the host's name as the run should be listed)")
    if not host.isprintable():
        raise UsageError("--host: holds a control character, a newline or a tab (give the host's name on one line)")
    if len(host) > HOST_LIMIT:
        raise UsageError(f"--host: {len(host)} characters, more than a host name's {HOST_LIMIT} (give the host's name)")
    store.retag(run, runfile.text(host))
