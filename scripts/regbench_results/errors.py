"""The one kind of failure the results command reports: a line `what: why (what to try)`."""
from regbench_base.text import printable


class ResultsError(Exception):
    """A file, store or argument the command cannot use; str() is the line to print (after `results: `).

    Built from what, why and what to try, or from a whole line made elsewhere
    (model's line about a file).  Control characters from names and messages
    are shown escaped, so the line stays one line.  code is the engine's
    error code where it gave one (PostgreSQL's SQLSTATE), so that a lost race
    can be retried.
    """
    code = None
    status = None          # the exit status it ends the command with (None: the command's failure status, 1)

    def __init__(self, what, why=None, hint=None):
        super().__init__(printable(what if why is None else f"{what}: {why} ({hint})"))


class NothingChosen(ResultsError):
    """The store holds no run, or the filters or benchmark patterns name none: nothing to work on.  alerts exits
    with a status of its own for it (nothing to compare is not a regression)."""
