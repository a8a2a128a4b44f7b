"""The frame every command line runs in (scripts/report, scripts/results, scripts/publish): signals, exit statuses, one line.

A command is stopped by SIGINT, SIGTERM or SIGHUP at any instant, and the
signal raises Interrupted in the main thread, so that whatever the command
was changing is rolled back by the code that was changing it (a staging
folder removed, a transaction rolled back).  Two kinds of moment differ:

- held(): a change that must not be cut in two (moving a finished report
  into place, committing a transaction).  A signal that comes then waits
  for the end of the change, and is raised after it unless finished() was
  called meanwhile.
- finished(): what the command set out to change is changed; what is left
  is saying so.  A signal then has nothing to stop, and the command ends
  by itself a moment later with the status of its work.

A command may wait in C code that a Python handler cannot interrupt (an
SQLite store locked by another writer, a PostgreSQL query): it registers
the call that cuts the wait short (interrupting(conn.cancel)), which a
thread makes when a signal comes outside held().

run() is the rest of the frame: a UsageError is exit status 2, the
command's own errors 1 (or their .status), a signal 128 + its number, and
anything unexpected one line too, never a traceback (REGBENCH_TRACEBACK=1
shows it, for a bug report).

Where the handler's Interrupted lands in code whose exceptions Python only
prints and drops (a weakref callback or a __del__: an import's module lock
has one), the signal is sent again a millisecond later instead of being lost.
"""
import contextlib
import importlib
import os
import signal
import sys
import threading
import traceback

from . import text
from .args import UsageError

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Interrupted(KeyboardInterrupt):
    """SIGINT, SIGTERM or SIGHUP stopped the command; signo says which."""

    def __init__(self, signo):
        super().__init__(signal.Signals(signo).name)
        self.signo = signo


_hold = 0            # > 0 while a change that must not be cut in two is under way
_pending = None      # the signal that waits for the end of it
_done = False        # the command's change is made: a signal has nothing left to stop
_installed = None    # the handlers replaced by catch_signals, put back by restore()
_installed_hook = None   # sys.unraisablehook as catch_signals found it, put back by restore()
_cuts = []           # calls that cut short a wait in C (a store's interrupt or cancel)
_wakeup = None       # the pipe the C-level handler writes each signal's number into
_scrubbers = []      # what a failure's line goes through before it is printed (a store's password taken out)


def _on_signal(signo, frame):
    global _pending
    if _done:
        return
    if _hold:
        _pending = _pending or signo
        return
    raise Interrupted(signo)


def _on_unraisable(unraisable):
    """Interrupted raised where Python can only print and drop it (a weakref callback or a __del__, as an import's
    module lock runs one): the signal is sent again a moment later, to land in the command's own code; not printed."""
    exc = unraisable.exc_value
    if isinstance(exc, Interrupted):
        threading.Timer(0.001, os.kill, (os.getpid(), exc.signo)).start()
        return
    (_installed_hook or sys.__unraisablehook__)(unraisable)


def _watch(fd):
    """The thread that cuts a wait in C short when a signal comes: the main thread's handler runs only after it."""
    while True:
        try:
            data = os.read(fd, 64)
        except OSError:
            return
        if not data:
            return
        if _hold or _done:
            continue
        for cut in list(_cuts):
            with contextlib.suppress(Exception):
                cut()


def catch_signals():
    """Makes SIGINT, SIGTERM and SIGHUP raise Interrupted (in the main thread; see the module's doc); returns restore.

    Called again (the command line's script calls it before its imports, run() after them), it only
    resets the state: the handlers stay installed once.
    """
    global _hold, _pending, _done, _installed, _installed_hook, _wakeup
    _hold, _pending, _done = 1, None, False      # a signal while the handlers are set up waits for the end of it
    _cuts.clear()
    _scrubbers.clear()
    if _installed is None:
        _installed = {s: signal.signal(s, _on_signal) for s in SIGNALS}
        _installed_hook = sys.unraisablehook
        sys.unraisablehook = _on_unraisable
        if threading.current_thread() is threading.main_thread() and _wakeup is None:
            r, w = os.pipe()
            os.set_blocking(w, False)
            try:
                signal.set_wakeup_fd(w, warn_on_full_buffer=False)
            except ValueError:
                os.close(r)
                os.close(w)
            else:
                _wakeup = (r, w)
                threading.Thread(target=_watch, args=(r,), name="regbench-signals", daemon=True).start()
    _release()
    return restore


def _release():
    """The end of a change held from signals: the signal that came meanwhile is raised now."""
    global _hold, _pending
    _hold -= 1
    if not _hold and _pending and not _done:
        signo, _pending = _pending, None
        raise Interrupted(signo)


def restore():
    """Puts back the handlers catch_signals replaced."""
    global _installed
    if _installed is not None:
        for s, h in _installed.items():
            signal.signal(s, h)
        sys.unraisablehook = _installed_hook
        _installed = None


def finished():
    """From now on a signal has nothing to stop: the command's change is made, or it is stopping."""
    global _done
    _done = True


def is_finished():
    return _done


@contextlib.contextmanager
def held():
    """A change that a signal does not cut short: the signal is raised after it (unless finished() was called meanwhile)."""
    global _hold
    _hold += 1
    try:
        yield
    finally:
        _release()


def on_signal(cut):
    """From now on a signal also calls cut() (from a thread): a store's connection's interrupt or cancel, which ends a
    statement waiting in C code so that the handler runs."""
    _cuts.append(cut)


@contextlib.contextmanager
def interrupting(cut):
    """While the block runs, a signal also calls cut() (from a thread) to end a wait in C that holds the handler back."""
    _cuts.append(cut)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            _cuts.remove(cut)


def scrubbing(scrub):
    """Every line the frame prints from now on goes through scrub(line) first (a store's password taken out)."""
    _scrubbers.append(scrub)


# Text as one line (a newline in a host name, an escape sequence shown escaped): the cli's lines go through it.
printable = text.printable


def _drop_stdout():
    """Points stdout at /dev/null, so that Python's flush at exit has nothing left to fail on."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.stdout = open(os.devnull, "w", encoding="utf-8")


def _fail(tool, line, status):
    for scrub in _scrubbers:
        line = scrub(line)
    print(f"{tool}: {printable(line)}", file=sys.stderr)
    return status


def _interruption(e):
    """The KeyboardInterrupt behind e, where Python wrapped the signal's in another exception (a class body's
    __set_name__ that it cut short is a RuntimeError caused by it), else None."""
    seen = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, KeyboardInterrupt):
            return e
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return None


def _interrupted(tool, e, interrupted):
    signo = getattr(e, "signo", signal.SIGINT)
    by = "" if signo == signal.SIGINT else f" by {signal.Signals(signo).name}"
    return _fail(tool, f"interrupted{by}" + (f" ({interrupted})" if interrupted else ""), 128 + signo)


def launch(tool, module, early=()):
    """What a command line's script runs: the handlers first, then `module` imported and its main() run.

    A signal while Python imports the package is then the command's signal like any other; early holds the
    signals that came before (the script keeps them from its first line), which stop it here.
    """
    try:
        catch_signals()
        if early:
            raise Interrupted(early[0])
        main = importlib.import_module(module).main
    except BaseException as e:
        if not (stop := _interruption(e)):
            raise
        return _interrupted(tool, stop, "")
    status = main()
    # the command is done and has said so: leave now, without the interpreter's finalization, during which a
    # signal would find the default handlers back and kill the process that already succeeded
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(status if isinstance(status, int) else 1)


def run(tool, body, errors=(), interrupted="", broken_pipe=1, failure=lambda: 1):
    """body()'s exit status, as the command line `tool` (report, results, publish) ends with it.

    errors: the command's own exception classes, whose str() is the line to print (status 1, or the
    exception's .status); interrupted: what a signal leaves as it was, said after "interrupted";
    broken_pipe: the status when the reader of stdout went away (| head); failure(): the status of a failure that
    is not the command's own error (a file, stdout; 1 unless the command gives 1 a meaning).  The handlers are put back
    at the end where run() installed them (a test calling main()); a script's (launch) stay, so that a
    signal while the process exits has nothing to stop.
    """
    owner = _installed is None
    fail = lambda line, status: _fail(tool, line, status)
    try:
        try:
            catch_signals()
            status = body()
            sys.stdout.flush()
            return status
        finally:
            finished()
    except UsageError as e:
        return fail(str(e), 2)
    except errors as e:
        return fail(str(e), getattr(e, "status", None) or failure())
    except KeyboardInterrupt as e:
        return _interrupted(tool, e, interrupted)
    except BrokenPipeError:
        _drop_stdout()
        return broken_pipe if broken_pipe != 1 else failure()
    except OSError as e:
        if e.filename is None:
            # writing to stdout failed (a full disk, a closed file): what was printed is incomplete
            _drop_stdout()
            return fail(f"standard output: {e.strerror or e} (the output is incomplete; write it where there is "
                        "room)", failure())
        return fail(f"{e.filename}: {e.strerror or e} (check the path)", failure())
    except Exception as e:      # noqa: BLE001 - the last resort: one line, never a traceback
        if stop := _interruption(e):
            return _interrupted(tool, stop, interrupted)
        if os.environ.get("REGBENCH_TRACEBACK"):
            traceback.print_exc()
        where = traceback.extract_tb(e.__traceback__)[-1]
        return fail(f"unexpected {type(e).__name__}: {str(e) or '-'} at {os.path.basename(where.filename)}:"
                    f"{where.lineno} (an input it does not expect, or a bug: report it with the command line; "
                    "REGBENCH_TRACEBACK=1 shows where)", 70)
    finally:
        if owner:
            restore()
