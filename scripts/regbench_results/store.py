"""The results store: SQLite (a file) or PostgreSQL (a URL) behind the same calls, with the schema of sql.py.

Every engine error becomes a ResultsError naming the store (passwords left
out), so the command line prints one line and never a traceback.  The engines
differ only in how they connect, their placeholder, their binary type and how
a transaction is opened; the SQL is sql.py's for both.

Writers never lose one another's runs.  The schema is created or upgraded,
and runs are added, deleted or retagged, each in a transaction that one writer
at a time holds (SQLite's write lock, a PostgreSQL advisory lock): a change
reads and rewrites the merged histograms its runs belong to, which two
writers at once would each overwrite.  Runs go in in id order, and a
PostgreSQL serialization failure or deadlock is retried.  A new
SQLite store is built whole in a file of its own beside the path and linked
into place only when committed: a failed or killed add leaves no store behind,
and never removes one that another writer made meanwhile.
"""
import contextlib
import json
import os
import random
import re
import sqlite3
import time
import urllib.request
import zlib

from regbench_base import command

from . import merged, passwords, query, runfile, sql
from .passwords import masked
from .errors import ResultsError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT = os.path.join(ROOT, "results", "regbench.sqlite")
# The store when --db is not given: this variable's, else DEFAULT (the fleet playbook passes a URL this way, so
# that a password never stands on a command line that Ansible would print).
ENVIRONMENT = "REGBENCH_DB"
URL_FORM = "postgresql://[user[:password]@][host][:port][/database][?param=value&...]"
_POSTGRES = ("postgresql://", "postgres://")
# How long a command waits for another writer's transaction on an SQLite store (s).
BUSY_WAIT = 120
# PostgreSQL's codes for a transaction that lost a race and may simply be run again
_RETRY = ("40001", "40P01")


LEFT_OUT = "the server's message is left out: it quotes a part of the password"


def _first_line(e):
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


class Store:
    """An open store.  rows() and the writes take and give dicts by column name (sql.RUNS, sql.RESULTS)."""

    def __init__(self, conn, engine, where, errors, writable=True, db=None):
        self.conn, self.engine, self.where = conn, engine, where
        self._db = db                  # the name as given (a URL with its password), for scrubbing messages
        self._errors = errors          # the engine's base exception class
        self.writable = writable
        self.upgraded = None           # (from, to, runs) when this open upgraded an older store

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
        why = passwords.scrub(_first_line(e), self._db) or LEFT_OUT
        if "file is not a database" in why:
            return ResultsError(self.where, "not an SQLite database", "give the store's file, or a new path for a "
                                "new store")
        if "readonly" in why and self.engine == "sqlite":
            return ResultsError(self.where, f"{doing}: it is read-only to this user (a write cut short leaves a "
                                "journal that only a writer can roll back)", "run it as the store's owner")
        error = ResultsError(self.where, f"{doing}: {why}", hint)
        error.code = getattr(e, "pgcode", None)
        return error

    def _execute(self, statement, params=()):
        """A statement run; on SQLite a store another writer holds is waited for here, in Python, a little at a time
        (SQLite's own wait is C code that no signal handler can cut short), up to BUSY_WAIT seconds."""
        cur = self.conn.cursor()
        if self.engine != "sqlite":
            cur.execute(self._sql(statement), params)
            return cur
        deadline = time.monotonic() + BUSY_WAIT
        while True:
            try:
                cur.execute(statement, params)
                return cur
            except sqlite3.OperationalError as e:
                # inside a transaction only COMMIT may be tried again: another statement's failure ends it
                again = not self.conn.in_transaction or statement == "COMMIT"
                if "locked" not in str(e) or not again or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)

    def _tables(self):
        if self.engine == "sqlite":
            q = "SELECT name FROM sqlite_master WHERE type = 'table'"
        else:
            q = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        return {name for name, in self._execute(q).fetchall()}

    def version(self):
        """The store's schema version: 1 for the first release's (no version table), None for no store at all."""
        tables = self._tables()
        if "regbench_store" in tables:
            row = self._execute(sql.VERSION_OF).fetchone()
            try:
                return int(row[0])
            except (TypeError, ValueError):
                raise ResultsError(self.where, "its schema version is " + ("missing" if row is None else
                                   f"{row[0]!r}, not a number"), "another program changed the store's regbench_store "
                                   "table: restore the store from a copy") from None
        return 1 if "runs" in tables else None

    @contextlib.contextmanager
    def _locked(self, final=False):
        """A transaction that one writer at a time holds: a schema created or upgraded, runs added or changed (final:
        the change the command is for)."""
        self._execute("BEGIN IMMEDIATE" if self.engine == "sqlite" else sql.PG_LOCK)
        try:
            yield
        except BaseException:
            self._rollback()
            raise
        # a signal waits for the commit's end: the change is then in, and what is left is saying so (settled), or
        # (a failed commit) it is not, and the signal stops the command with the store as it was
        with command.held():
            self._commit()
            if final:
                command.settled()

    def _commit(self):
        if self.engine == "sqlite":
            self._execute("COMMIT")
        else:
            self.conn.commit()

    def prepare(self, create=False):
        """Makes the store one of this VERSION: creates it (create) or upgrades an older one in place.

        Raises ResultsError for no store (without create), a newer store, or an
        older one this user cannot write to.
        """
        with self._engine("cannot read it", "check the store"):
            found = self.version()
            self._rollback()
        if found == sql.VERSION:
            return
        if found is None and not create:
            raise ResultsError(self.where, "not a regbench store (it has no runs table)",
                               f"add runs to it first: scripts/results add --db {self.where} RUN.json")
        if found is not None and found > sql.VERSION:
            raise ResultsError(self.where, f"a store of schema {found}, newer than this regbench's {sql.VERSION}",
                               "use the regbench that wrote it, or a newer one")
        if not self.writable:
            raise ResultsError(self.where, f"a store of schema {found}, older than this regbench's {sql.VERSION}, "
                               "and read-only to this user", "run this once as its owner: it upgrades the store")
        with self._engine("cannot create or upgrade its tables", "check that it is writable; nothing was changed"):
            with self._locked():
                found = self.version()          # another writer may have done it meanwhile
                if found is None:
                    for statement in sql.schema(self.engine):
                        self._execute(statement)
                elif found < sql.VERSION:
                    self.upgraded = (found, sql.VERSION, self._upgrade(found))

    def _upgrade(self, found):
        """An older schema to this VERSION, in the schema's transaction; returns how many runs remain."""
        if found == 1:
            self._upgrade_1()
        else:
            self._upgrade_2()
            self._execute(sql.SET_VERSION, (str(sql.VERSION),))
        return self._execute(sql.PROBE).fetchone()[0]

    def _upgrade_1(self):
        """Schema 1: each run of the old tables added again (new id, new columns, compressed JSON; copies the old ids
        told apart become one run)."""
        for table in ("results", "runs"):
            self._execute(f"ALTER TABLE {table} RENAME TO {table}_v1")
        self._execute("DROP INDEX IF EXISTS results_benchmark")
        for statement in sql.schema(self.engine):
            self._execute(statement)
        prepared = []
        for run_id, text, added in self._execute("SELECT id, json, added FROM runs_v1 ORDER BY id").fetchall():
            data = text.encode("utf-8")
            prepared.append(rows_of(runfile.parse(data, f"{self.where} (run {run_id[:12]})"), data))
            prepared[-1]["run"]["added"] = added
        self._insert_all(prepared)
        for table in ("results_v1", "runs_v1"):
            self._execute(f"DROP TABLE {table}")

    def _upgrade_2(self):
        """Schema 2: the runs' new columns filled, the repetitions and histograms packed, `merged` made."""
        declared = dict(sql.RUNS)
        for column in sql.RUNS_SINCE_3:
            self._execute(f"ALTER TABLE runs ADD COLUMN {column} {declared[column]}")
        self._execute("UPDATE runs SET results = (SELECT COUNT(*) FROM results s WHERE s.run_id = runs.key), "
                      f"measured = (SELECT COUNT(*) FROM results s WHERE s.run_id = runs.key AND s.{sql.FIGURED})")
        self._execute("ALTER TABLE results RENAME COLUMN reps TO reps_v2")
        self._execute(f"ALTER TABLE results ADD COLUMN reps {sql.BINARY[self.engine]}")
        if self.engine == "sqlite":
            self.conn.create_function("regbench_reps", 1, lambda text: runfile.pack_reps(json.loads(text)))
            self._execute("UPDATE results SET reps = regbench_reps(reps_v2) WHERE reps_v2 IS NOT NULL")
        else:
            # the same big-endian floats as pack_reps, made by the server (float4send writes network order)
            self._execute("UPDATE results SET reps = (SELECT string_agg(float4send(x::float8::real), ''::bytea "
                          "ORDER BY i) FROM json_array_elements_text(reps_v2::json) WITH ORDINALITY AS t(x, i)) "
                          "WHERE reps_v2 IS NOT NULL")
        self._execute("ALTER TABLE results DROP COLUMN reps_v2")
        self._execute(sql.tables(self.engine)["merged"])
        fields = ("key", "host", "cpu", "target", "target_device", "target_mapping", "target_bar")
        runs = [dict(zip(fields, r)) for r in self._execute(f"SELECT {', '.join(fields)} FROM runs").fetchall()]
        q = f"SELECT {', '.join(sql.HISTOGRAM_FIELDS)} FROM histograms WHERE run_id = ?"
        changes = []
        for run in runs:
            hists = []
            for values in self._execute(q, (run["key"],)).fetchall():
                row = dict(zip(sql.HISTOGRAM_FIELDS, values))
                old = json.loads(zlib.decompress(bytes(row["buckets"])))
                row["buckets"] = runfile.pack(edges=old["edges"], counts=old["counts"])
                self._execute("UPDATE histograms SET buckets = ? WHERE run_id = ? AND name = ?",
                              (row["buckets"], row["run_id"], row["name"]))
                hists.append((row["name"], runfile.histogram_of(row)))
            run["lat_histograms"], (run["grid_step"], run["grid_sub_buckets"]) = runfile.grid_of([h for _, h in hists])
            self._execute("UPDATE runs SET lat_histograms = ?, grid_step = ?, grid_sub_buckets = ? WHERE key = ?",
                          (run["lat_histograms"], run["grid_step"], run["grid_sub_buckets"], run["key"]))
            changes.append((run, hists, 1))
            if len(changes) == 100:         # a hundred runs' histograms at a time in memory
                merged.change(self._execute, changes)
                changes = []
        merged.change(self._execute, changes)

    def _insert(self, rows):
        """Inserts one run's rows (rows_of()); False when it was already there."""
        self._execute(sql.ADD_META, tuple(rows["meta"][f] for f in sql.META_FIELDS))
        cur = self._execute(sql.ADD_RUN, tuple(rows["run"][f] for f in sql.RUN_FIELDS))
        if cur.rowcount == 0:
            return False
        for statement, fields, key in ((sql.ADD_RESULT, sql.RESULT_FIELDS, "results"),
                                       (sql.ADD_LABEL, sql.LABEL_FIELDS, "labels"),
                                       (sql.ADD_HISTOGRAM, sql.HISTOGRAM_FIELDS, "histograms")):
            values = [tuple(r[f] for f in fields) for r in rows[key]]
            if self.engine == "sqlite":
                self.conn.executemany(statement, values)
            elif values:
                from psycopg2.extras import execute_values
                head = statement.split(" VALUES ")[0]
                execute_values(cur, head + " VALUES %s", values, page_size=1000)
        return True

    def add(self, prepared):
        """Adds prepared runs in one transaction (all or none), their histograms to `merged` with them; a list of
        which were new, in the order given."""
        order = sorted(range(len(prepared)), key=lambda i: prepared[i]["run"]["id"])
        new = [False] * len(prepared)
        with self._engine("cannot add to it", "nothing was added; check that it is writable"):
            with self._locked(final=True):
                new_in_order = self._insert_all([prepared[i] for i in order])
        for i, fresh in zip(order, new_in_order):
            new[i] = fresh
        return new

    def _insert_all(self, prepared):
        """Inserts runs' rows (rows_of()) in the order given, and their histograms into `merged`; which were new."""
        new = [self._insert(rows) for rows in prepared]
        merged.change(self._execute, [(rows["run"], [(h["name"], h["histogram"]) for h in rows["histograms"]], 1)
                                      for rows, fresh in zip(prepared, new) if fresh])
        return new

    def remove(self, runs):
        """Deletes runs (rows of query.all_runs) with their results, labels and histograms, and takes them out of
        `merged`: one transaction.  A run given twice is deleted once."""
        runs = list({r["id"]: r for r in runs}.values())
        with self._engine("cannot change it", "nothing was changed; check that it is writable"):
            with self._locked(final=True):
                merged.change(self._execute, [(run, hists, -1) for run, hists in self._histograms(runs)])
                for part in query.chunks([r["id"] for r in runs]) if runs else []:
                    self._execute(f"DELETE FROM runs WHERE id IN ({', '.join('?' for _ in part)})", tuple(part))

    def retag(self, run, host):
        """Gives a run (a row of query.all_runs) another host, and moves its histograms in `merged` with it."""
        with self._engine("cannot change it", "nothing was changed; check that it is writable"):
            with self._locked(final=True):
                ((_, hists),) = self._histograms([run])
                merged.change(self._execute, [(run, hists, -1), (dict(run, host=host), hists, 1)])
                self._execute("UPDATE runs SET host = ? WHERE id = ?", (host, run["id"]))

    def _histograms(self, runs):
        """[(run, [(name, model.Histogram)])] of runs, from `histograms`, in the transaction under way."""
        by_key = {r["key"]: [] for r in runs}
        for part in query.chunks(list(by_key)) if runs else []:
            q = f"SELECT {', '.join(sql.HISTOGRAM_FIELDS)} FROM histograms WHERE run_id IN ({', '.join('?' for _ in part)})"
            for values in self._execute(q, tuple(part)).fetchall():
                row = dict(zip(sql.HISTOGRAM_FIELDS, values))
                by_key[row["run_id"]].append((row["name"], runfile.histogram_of(row)))
        return [(r, by_key[r["key"]]) for r in runs]

    def _rollback(self):
        try:
            if self.engine == "sqlite":
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
            else:
                self.conn.rollback()
        except self._errors:
            pass        # a connection already gone has rolled back on the server's side

    def rows(self, statement, fields, params=()):
        """The rows of a query as dicts by the given field names."""
        with self._engine("cannot read it", "check the store"):
            try:
                return [dict(zip(fields, r)) for r in self._execute(statement, params).fetchall()]
            finally:
                self._rollback()

    def count(self):
        """How many runs the store holds."""
        return self.rows(sql.PROBE, ("runs",))[0]["runs"]

    def json(self, run_id):
        """The run's JSON as it was added (bytes)."""
        return zlib.decompress(bytes(self.rows(sql.RUN_JSON, ("json",), (run_id,))[0]["json"]))

    def meta(self, meta_id):
        """(model.Meta, op order) of a row of `metas`."""
        return runfile.meta_of(self.rows(sql.META_OF, ("regbench",), (meta_id,))[0]["regbench"])

    def close(self):
        self._rollback()
        self.conn.close()


def rows_of(run, data):
    """The rows of one run (a model.Run and its file's bytes) as Store.add takes them."""
    run_id, doc = runfile.canonical(data)
    key = runfile.key(run_id)
    meta = runfile.meta_row(doc, run)
    results = runfile.result_rows(run, key)
    return {"meta": meta, "run": runfile.run_row(run, data, run_id, meta["id"], results), "results": results,
            "labels": runfile.label_rows(run, key), "histograms": runfile.histogram_rows(run, key)}


def _retrying(store, prepared):
    """store.add, run again when PostgreSQL reports a lost race (a serialization failure, a deadlock)."""
    for attempt in range(8):
        try:
            return store.add(prepared)
        except ResultsError as e:
            if getattr(e, "code", None) not in _RETRY or attempt == 7:
                raise
            time.sleep(random.uniform(0.01, 0.1) * (attempt + 1))
    raise AssertionError("unreachable")


def db_of(db):
    """The store named by --db, else by $REGBENCH_DB, else None (DEFAULT)."""
    return db if db is not None else os.environ.get(ENVIRONMENT) or None


def add(db, prepared):
    """Adds prepared runs to the store at db, creating it if need be: (the Store, closed, with .total runs in it
    after the add; which runs were new).

    A new SQLite store is made whole in a private file beside its path and
    linked into place when committed; when another writer made the store
    meanwhile, the runs are added to that one instead.
    """
    db = db_of(db)
    path = None if db is not None and db.startswith(_POSTGRES) else (db or DEFAULT)
    if path is not None and not os.path.lexists(path):
        made = _new_sqlite(path, prepared, default=db is None)
        if made:
            return made
    s = open_store(db, create=True)
    try:
        s.prepare(create=True)
        new = _retrying(s, prepared)
        s.total = s.count()
        return s, new
    finally:
        s.close()


def _new_sqlite(path, prepared, default):
    """The runs in a new SQLite store at path, or None when another writer created path first."""
    folder = os.path.dirname(os.path.abspath(path))
    if default:
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as e:
            raise ResultsError(folder, f"cannot make the store's folder: {e.strerror}",
                               "remove or rename what is in the way, or give --db PATH") from None
    if os.path.isdir(path):
        raise ResultsError(path, "a folder, not a store", "give the path of the store's file")
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.{random.randrange(1 << 30):x}.new")
    try:
        s = _sqlite(tmp, create=True, name=path)
        try:
            s.prepare(create=True)
            new = s.add(prepared)
            s.total = s.count()
        finally:
            s.close()
        try:
            os.link(tmp, path)
        except FileExistsError:
            return None
        except OSError as e:
            raise ResultsError(path, f"cannot create it: {e.strerror}", "give a path you can write to") from None
        return s, new
    finally:
        for leftover in (tmp, tmp + "-journal"):
            with contextlib.suppress(OSError):
                os.remove(leftover)


def open_store(db=None, create=False):
    """The store at db (a path, a postgresql:// URL; None: $REGBENCH_DB or DEFAULT), not yet checked (prepare).

    Raises ResultsError for a URL it cannot use, a server it cannot reach,
    a file that is not there (without create) or cannot be opened.
    """
    db = db_of(db)
    if db is not None and db.startswith(_POSTGRES):
        return _postgresql(db)
    if db is not None and re.match(r"^[A-Za-z][\w+.-]*://", db):
        raise ResultsError(f"--db {masked(db)}", "not a store this command can open",
                           f"give an SQLite file's path or a PostgreSQL URL, {URL_FORM}")
    if db == "":
        raise ResultsError("--db", "empty", "give an SQLite file's path or a PostgreSQL URL")
    path = db or DEFAULT
    if os.path.isdir(path):
        raise ResultsError(path, "a folder, not a store", "give the path of the store's file, e.g. "
                           f"{os.path.join(path, 'regbench.sqlite')}")
    if os.path.exists(path) and not os.path.isfile(path):
        # SQLite would open /dev/null, a pipe or a socket, and leave its journal beside it (/dev/null-journal)
        raise ResultsError(path, "not a regular file (a device, a pipe or a socket)", "give the store's file, or a "
                           "new path for a new store")
    if not os.path.exists(path) and not create:
        raise ResultsError(path, "no store there", "add runs first: scripts/results add "
                           + ("" if db is None else f"--db {path} ") + "RUN.json")
    return _sqlite(path, create)


def _sqlite(path, create, name=None):
    """An open SQLite store; name: what messages call it (the path it will have, for a new store's private file)."""
    # a reader opens read-write where it may, so that a transaction cut short (its hot journal) is rolled back
    writable = create or os.access(path, os.W_OK)
    uri = "file:" + urllib.request.pathname2url(os.path.abspath(path)) + ("?mode=rwc" if create else
                                                                        "?mode=rw" if writable else "?mode=ro")
    try:
        # SQLite waits a twentieth of a second for another writer, Store._execute the rest in Python
        conn = sqlite3.connect(uri, uri=True, timeout=0.05, isolation_level=None)
        conn.execute("PRAGMA foreign_keys = ON")
        command.on_signal(conn.interrupt)   # a signal ends a long statement (a wait for the lock is Store._execute's)
    except sqlite3.Error as e:
        why = _first_line(e)
        if "file is not a database" in why:
            why, hint = "not an SQLite database", "give the store's file, or a new path for a new store"
        else:
            why, hint = f"cannot open it: {why}", "give a path in a folder that exists and that you can write to"
        raise ResultsError(name or path, why, hint) from None
    return Store(conn, "sqlite", name or path, sqlite3.Error, writable)


def _postgresql(url):
    where = masked(url)
    try:
        import psycopg2
    except ImportError:
        raise ResultsError(where, "this Python has no psycopg2 (PostgreSQL's client library)",
                           "apt-get install python3-psycopg2, or run scripts/setup as root") from None
    extra = {} if "connect_timeout=" in url else {"connect_timeout": 10}
    try:
        conn = psycopg2.connect(url, **extra)
    except psycopg2.Error as e:
        # the client may quote the URL, password and all, or a piece of a password it split elsewhere
        why = passwords.scrub(_first_line(e).replace(url, where), url) or LEFT_OUT
        if why.startswith(("connection to server", "could not connect", "could not translate", "timeout expired")):
            raise ResultsError(where, f"cannot connect: {why}", "is the server running? check the URL's host, port "
                               "and database") from None
        raise ResultsError(f"--db {where}", f"not a URL the PostgreSQL client takes: {why}",
                           f"write it as {URL_FORM}") from None
    command.on_signal(conn.cancel)      # a signal ends a query the server is running, or a wait for its lock
    return Store(conn, "postgresql", where, psycopg2.Error, db=url)
