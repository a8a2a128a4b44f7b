"""The results store: SQLite (a file) or PostgreSQL (a URL) behind the same calls, with the schema of sql.py.

Every engine error becomes a ResultsError naming the store (a URL's password
left out), so the command line prints one line and never a traceback.  The
engines differ only in how they connect, their placeholder and how a
transaction is opened and closed; the SQL is sql.py's for both.
"""
import contextlib
import os
import re
import sqlite3
import urllib.request

from . import sql
from .errors import ResultsError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT = os.path.join(ROOT, "results", "regbench.sqlite")
URL_FORM = "postgresql://[user[:password]@][host][:port][/database][?param=value&...]"
_POSTGRES = ("postgresql://", "postgres://")


def shown(db):
    """The store as messages name it: a URL without its password."""
    return re.sub(r"^(\w+://[^/@:]*):[^/@]*@", r"\1:***@", db)


def _first_line(e):
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


class Store:
    """An open store.  rows() and the writes take and give dicts by column name (sql.RUNS, sql.RESULTS)."""

    def __init__(self, conn, engine, where, errors, created=None):
        self.conn, self.engine, self.where = conn, engine, where
        self._errors = errors          # the engine's base exception class
        self._created = created        # an SQLite file this open created, removed again unless committed

    def _sql(self, statement):
        return statement if self.engine == "sqlite" else statement.replace("?", "%s")

    @contextlib.contextmanager
    def _engine(self, doing, hint):
        """Turns the engine's errors into one line: what the store said while doing what."""
        try:
            yield
        except self._errors as e:
            raise self._error(e, doing, hint) from None

    def _error(self, e, doing, hint):
        why = _first_line(e)
        if "file is not a database" in why:
            return ResultsError(self.where, "not an SQLite database", "give the store's file, or a new path for a "
                                "new store")
        return ResultsError(self.where, f"{doing}: {why}", hint)

    def _execute(self, statement, params=()):
        cur = self.conn.cursor()
        cur.execute(self._sql(statement), params)
        return cur

    def check(self):
        """Raises ResultsError when the store has no tables yet (nothing was ever added to it)."""
        try:
            self._execute(sql.PROBE).fetchall()
        except self._errors as e:
            self._rollback()
            raise self._error(e, "not a regbench store", f"add runs to it first: scripts/results add --db "
                              f"{self.where} RUN.json") from None

    @contextlib.contextmanager
    def transaction(self):
        """Everything inside is written together or not at all (an error or Ctrl-C rolls it back)."""
        with self._engine("cannot write to it", "check that it is writable and not locked by another writer"):
            if self.engine == "sqlite":
                self.conn.execute("BEGIN IMMEDIATE")
            for statement in sql.SCHEMA:
                self._execute(statement)
        try:
            yield self
        except BaseException:
            self._rollback()
            raise
        with self._engine("cannot commit", "nothing was added; try again"):
            if self.engine == "sqlite":
                self.conn.execute("COMMIT")
            else:
                self.conn.commit()
        self._created = None

    def _rollback(self):
        try:
            if self.engine == "sqlite":
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
            else:
                self.conn.rollback()
        except self._errors:
            pass        # a connection already gone has rolled back on the server's side

    def add(self, run_row, result_rows):
        """Adds a run and its results inside a transaction; False when the run was already there."""
        with self._engine("cannot add a run", "nothing was added"):
            cur = self._execute(sql.ADD_RUN, tuple(run_row[f] for f in sql.RUN_FIELDS))
            if cur.rowcount == 0:
                return False
            rows = [tuple(r[f] for f in sql.RESULT_FIELDS) for r in result_rows]
            if self.engine == "sqlite":
                self.conn.executemany(sql.ADD_RESULT, rows)
            else:
                from psycopg2.extras import execute_batch
                execute_batch(cur, self._sql(sql.ADD_RESULT), rows, page_size=1000)
        return True

    def rows(self, statement, fields, params=()):
        """The rows of a query as dicts by the given field names."""
        with self._engine("cannot read it", "check the store"):
            return [dict(zip(fields, r)) for r in self._execute(statement, params).fetchall()]

    def count(self):
        """How many runs the store holds."""
        return self.rows(sql.PROBE, ("runs",))[0]["runs"]

    def runs(self):
        """Every run without its JSON (sql.LIST_FIELDS), oldest first."""
        return self.rows(sql.LIST_RUNS, sql.LIST_FIELDS)

    def results(self):
        """Every result of every run (sql.RESULT_FIELDS)."""
        return self.rows(sql.ALL_RESULTS, sql.RESULT_FIELDS)

    def json(self, run_id):
        """The run's JSON as it was added."""
        return self.rows(sql.RUN_JSON, ("json",), (run_id,))[0]["json"]

    def close(self):
        try:
            self._rollback()
            self.conn.close()
        finally:
            if self._created:
                with contextlib.suppress(OSError):
                    os.remove(self._created)


def open_store(db=None, create=False):
    """The store at db (a path, a postgresql:// URL, or None: DEFAULT); create: make an SQLite file not there yet.

    Raises ResultsError for a URL it cannot use, a server it cannot reach,
    a file that is not there (without create) or cannot be opened.
    """
    if db is not None and db.startswith(_POSTGRES):
        return _postgresql(db)
    if db is not None and re.match(r"^[A-Za-z][\w+.-]*://", db):
        raise ResultsError(f"--db {shown(db)}", "not a store this command can open",
                           f"give an SQLite file's path or a PostgreSQL URL, {URL_FORM}")
    if db == "":
        raise ResultsError("--db", "empty", "give an SQLite file's path or a PostgreSQL URL")
    return _sqlite(db or DEFAULT, create, default=db is None)


def _sqlite(path, create, default):
    if os.path.isdir(path):
        raise ResultsError(path, "a folder, not a store", "give the path of the store's file, e.g. "
                           f"{os.path.join(path, 'regbench.sqlite')}")
    exists = os.path.exists(path)
    if not exists and not create:
        raise ResultsError(path, "no store there", "add runs first: scripts/results add "
                           + ("" if default else f"--db {path} ") + "RUN.json")
    if not exists and default:
        os.makedirs(os.path.dirname(path), exist_ok=True)
    uri = "file:" + urllib.request.pathname2url(os.path.abspath(path)) + ("?mode=rwc" if create else "?mode=ro")
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=60, isolation_level=None)
    except sqlite3.Error as e:
        raise ResultsError(path, f"cannot open it: {_first_line(e)}",
                           "give a path in a folder that exists and that you can write to") from None
    return Store(conn, "sqlite", path, sqlite3.Error, None if exists else os.path.abspath(path))


def _postgresql(url):
    where = shown(url)
    try:
        import psycopg2
    except ImportError:
        raise ResultsError(where, "this Python has no psycopg2 (PostgreSQL's client library)",
                           "apt-get install python3-psycopg2, or run scripts/setup as root") from None
    extra = {} if "connect_timeout=" in url else {"connect_timeout": 10}
    try:
        conn = psycopg2.connect(url, **extra)
    except psycopg2.Error as e:
        why = _first_line(e).replace(url, where)       # the client may quote the URL, password and all
        if why.startswith(("connection to server", "could not connect", "could not translate", "timeout expired")):
            raise ResultsError(where, f"cannot connect: {why}", "is the server running? check the URL's host, port "
                               "and database") from None
        raise ResultsError(f"--db {where}", f"not a URL the PostgreSQL client takes: {why}",
                           f"write it as {URL_FORM}") from None
    return Store(conn, "postgresql", where, psycopg2.Error)
