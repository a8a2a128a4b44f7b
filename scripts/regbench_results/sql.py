"""The results store's SQL, the same for SQLite and PostgreSQL: the tables as one list of columns, and every statement.

Statements use `?` placeholders (SQLite's); the PostgreSQL engine hands them to
psycopg2 as `%s`.  Types are those both engines read alike (TEXT, INTEGER,
BIGINT, DOUBLE PRECISION) except the compressed JSON, a BLOB in SQLite and a
BYTEA in PostgreSQL (BINARY below).  A run's id is the SHA-256 of a canonical
form of its JSON, so no engine-specific serial column is needed: the content
is the identity, and a run added twice is kept once (ON CONFLICT DO NOTHING,
SQLite 3.24 and PostgreSQL 9.5 on).

Each column is declared once, in the tables below, with the schema that added
it and, for a run's column, where `add` takes its value from.  The statements
that create a store, the row runfile.run_row fills, the columns export and the
site show, and each upgrade's ADD COLUMN steps are all made from them.
"""
from typing import NamedTuple, Tuple

from regbench_base.state import State

# The schema this code writes.  1 is the store of the first release (no version table: runs.json held the text
# and the id hashed it with its numbers as written); 2 adds the version, labels, histograms, the machine's identity
# and firmware columns, the UTC time, and keeps each run's JSON compressed; 3 packs the repetitions and histograms,
# records each run's histogram grid and keeps each machine × target's lat/ histograms merged (`merged`); 4 keeps
# each reference table cell's counts (`cells`) and indexes each result by its cell and figure.
VERSION = 4
BINARY = {"sqlite": "BLOB", "postgresql": "BYTEA"}

# Where `add` takes a run's column from (Column.source): the context key of the column's name as text, or as a
# number; any other column runfile.run_row derives itself.
CONTEXT, NUMBER, DERIVED = "context", "number", ""
# Where a run's column is shown besides `list` (Column.shown): the csv and json exports, the site's runs page.
EXPORT, SITE = "export", "site"


class Column(NamedTuple):
    name: str
    type: str                   # both engines' type; {binary} is the engine's BINARY
    since: int = 0              # the schema that added it (0: its table's)
    source: str = DERIVED       # a run's column: CONTEXT, NUMBER or DERIVED
    shown: Tuple[str, ...] = ()


# One row per run: who ran it where (host, the machine, the CPU and its facts), on what (the target), with which
# build and when.  json_zlib is the file's JSON (zlib), for anything the columns leave out.
RUNS = (
    Column("id", "TEXT PRIMARY KEY", 1, shown=(EXPORT, SITE)),  # SHA-256 (hex) of the run's canonical JSON
    Column("key", "BIGINT NOT NULL UNIQUE", 2),   # its first 60 bits as a number: what the other tables refer to
    Column("meta", "TEXT NOT NULL REFERENCES metas (id)", 2),   # its families, strategies and orders (metas)
    Column("host", "TEXT NOT NULL", 1, shown=(EXPORT, SITE)),   # context `host` (the fleet's name), else host_name
    Column("machine_id", "TEXT", 2, CONTEXT, (EXPORT,)),        # a hash of what identifies the machine
    Column("cpu", "TEXT NOT NULL", 1, shown=(EXPORT, SITE)),    # cpu_model tidied, with cpu_uarch when known
    Column("cpu_model", "TEXT", 1, CONTEXT),
    Column("cpu_uarch", "TEXT", 1, CONTEXT),
    Column("arch", "TEXT", 2, CONTEXT, (EXPORT, SITE)),         # x86_64, aarch64
    Column("tsc_hz", "DOUBLE PRECISION", 1, NUMBER),            # the clock of every `cycles` of this run
    Column("core_hz_estimate", "DOUBLE PRECISION", 1, NUMBER),
    Column("lat_histograms", "INTEGER NOT NULL DEFAULT 0", 3),  # how many lat/ histograms it has
    Column("grid_step", "DOUBLE PRECISION", 3),   # their grid: the timer step in timer ticks (NULL: none, or no grid)
    Column("grid_sub_buckets", "INTEGER", 3),
    Column("target", "TEXT NOT NULL", 1, shown=(EXPORT, SITE)),  # the spec as given (ram, pci:1b36:0005/1, ...)
    Column("target_kind", "TEXT", 1, CONTEXT),                  # mmio, pio, region
    Column("target_mapping", "TEXT", 1, CONTEXT),               # wb, uc, wc, trap, port, pread
    Column("target_device", "TEXT", 1, CONTEXT),                # ids and slot of a PCI target
    Column("target_bar", "TEXT", 1, CONTEXT),
    Column("target_what", "TEXT", 1, CONTEXT),
    Column("accelerator", "TEXT", 1, CONTEXT, (EXPORT, SITE)),  # a QEMU guest's tcg or kvm (context `accelerator`)
    Column("kernel", "TEXT", 1, CONTEXT, (EXPORT, SITE)),
    Column("firmware", "TEXT", 2, CONTEXT, (EXPORT,)),          # the DMI BIOS version
    Column("microcode", "TEXT", 2, CONTEXT, (EXPORT,)),
    Column("env_vm", "TEXT", 1, CONTEXT),
    Column("topology", "TEXT", 1, CONTEXT),
    Column("regbench_version", "TEXT", 1, CONTEXT, (EXPORT, SITE)),
    Column("regbench_commit", "TEXT", 2, CONTEXT, (EXPORT,)),
    Column("regbench_build_type", "TEXT", 1, CONTEXT, (SITE,)),
    Column("date", "TEXT", 1, CONTEXT, (EXPORT, SITE)),         # when it ran (ISO 8601 with its offset, as written)
    Column("time", "TEXT", 2, shown=(EXPORT,)),   # the same instant in UTC (YYYY-MM-DDTHH:MM:SSZ): sorts, filters
    Column("interrupted", "TEXT", 1, CONTEXT, (SITE,)),         # the signal that stopped the run early
    Column("added", "TEXT NOT NULL", 1),          # when this store took it (UTC, ISO 8601)
    Column("results", "INTEGER NOT NULL DEFAULT 0", 3, shown=(SITE,)),   # how many benchmarks (rows of `results`)
    Column("measured", "INTEGER NOT NULL DEFAULT 0", 3, shown=(SITE,)),  # how many of them have figures (FIGURED)
    Column("json_zlib", "{binary} NOT NULL", 2),
)

# What a run says of its families and strategies (the regbench object without its benchmarks), once for all the
# runs that say the same: what the tables and merges order and describe their rows by, without reading a run.
METAS = (
    Column("id", "TEXT PRIMARY KEY"),             # SHA-256 (hex) of the text
    Column("regbench", "{binary} NOT NULL"),      # zlib of the JSON: contract, families, strategies, order, ops
)

# The run's --benchmark_context pairs that the contract does not declare (host, accelerator, baseline=yes, ...).
LABELS = (
    Column("run_id", "BIGINT NOT NULL REFERENCES runs (key) ON DELETE CASCADE"),
    Column("key", "TEXT NOT NULL"),
    Column("value", "TEXT NOT NULL"),
)

# One row per benchmark per run: what it is (the contract's fields), its state, and the medians over its
# repetitions; `_lo` and `_hi` are the lowest and highest repetition (the spread the medians come with).  X: the
# columns the csv and json exports show beside the run's.
X = (EXPORT,)
RESULTS = (
    Column("run_id", "BIGINT NOT NULL REFERENCES runs (key) ON DELETE CASCADE", 1),
    Column("name", "TEXT NOT NULL", 1, shown=X),
    Column("family", "TEXT NOT NULL", 1, shown=X),
    Column("op", "TEXT NOT NULL", 1, shown=X),
    Column("width", "INTEGER", 1, shown=X),               # bits; NULL where the op has none (copies, barriers)
    Column("strategy", "TEXT NOT NULL", 1, shown=X),      # '' for barrier/
    Column("param", "BIGINT", 1, shown=X),                # the _rep count or copy size; NULL where none
    Column("space", "TEXT NOT NULL", 1, shown=X),         # mmio, pio, region
    Column("unit", "TEXT NOT NULL", 1, shown=X),          # what one `cycles` is per: access, read, element, copy, ...
    Column("state", "TEXT NOT NULL", 1, shown=X),         # measured, below_resolution, skipped, error, not_run
    Column("reason", "TEXT NOT NULL", 1, shown=X),
    Column("bound", "DOUBLE PRECISION", 1, shown=X),      # below_resolution: the timer step it is under, timer ticks
    Column("repetitions", "INTEGER", 1, shown=X),
    Column("cycles", "DOUBLE PRECISION", 1, shown=X),     # timer ticks per unit (the run's own timer: see runs.tsc_hz)
    Column("cycles_lo", "DOUBLE PRECISION", 1, shown=X),
    Column("cycles_hi", "DOUBLE PRECISION", 1, shown=X),
    Column("core_cycles", "DOUBLE PRECISION", 1, shown=X),
    Column("ns", "DOUBLE PRECISION", 1, shown=X),         # wall time per unit, one clock on every machine (a
                                                          # file without the counter: cycles at its TSC rate)
    Column("ns_lo", "DOUBLE PRECISION", 1, shown=X),
    Column("ns_hi", "DOUBLE PRECISION", 1, shown=X),
    Column("bytes_per_second", "DOUBLE PRECISION", 1, shown=X),
    Column("disturbed", "INTEGER NOT NULL", 1, shown=X),  # repetitions measured while the machine was disturbed
    Column("reps", "{binary}", 3),                        # the repetitions' cycles (verdicts test them): pack_reps
    Column("cell", "INTEGER", 4),                         # its reference table cell's id (in `cells`)
)

# One row per lat/ histogram per run, so that merging never reads the runs' JSON.
HISTOGRAMS = (
    Column("run_id", "BIGINT NOT NULL REFERENCES runs (key) ON DELETE CASCADE"),
    Column("name", "TEXT NOT NULL"),
    Column("step", "DOUBLE PRECISION"),           # the grid: the timer step in timer ticks (NULL: no grid, older run)
    Column("sub_buckets", "INTEGER"),
    Column("buckets", "{binary} NOT NULL"),       # its edges and counts: runfile.pack
)

# The lat/ histograms of every run of one machine × target (host, CPU and target as the reference table names them)
# on one grid, added up: what `latency` reads when it merges whole machines, whatever the number of runs.  add,
# delete, prune and retag keep them in step in their own transaction (merged.py).
MERGED = (
    Column("host", "TEXT NOT NULL"),
    Column("cpu", "TEXT NOT NULL"),
    Column("target", "TEXT NOT NULL"),            # runfile.target_label of the runs
    Column("step", "DOUBLE PRECISION NOT NULL"),
    Column("sub_buckets", "INTEGER NOT NULL"),
    Column("name", "TEXT NOT NULL"),
    Column("runs", "INTEGER NOT NULL"),           # how many runs are added up
    Column("buckets", "{binary} NOT NULL"),       # each bucket's edges, samples and runs: merged.pack
)
MERGED_GROUP = ("host", "cpu", "target", "step", "sub_buckets")

# The reference table's cells, one row per column (host, machine, CPU, accelerator and target as the reference table
# tells them apart): each cell of the column (a benchmark: its name and the contract's fields) with its id and the counts of its
# runs' results by what they say, packed (cells.pack), so that a change of runs rewrites one row per column.  What a
# cell shows that counts cannot keep (the median and range of its figures) the index results_cell gives.  add, delete,
# prune and retag keep them in step in their own transaction (cells.py).
CELLS = (
    Column("host", "TEXT NOT NULL"),
    Column("machine", "TEXT NOT NULL"),           # runfile.machine: its machine_id, else its host
    Column("cpu", "TEXT NOT NULL"),
    Column("accelerator", "TEXT NOT NULL"),       # '' for none
    Column("target", "TEXT NOT NULL"),            # runfile.target_label of the runs
    Column("cells", "{binary} NOT NULL"),         # each cell's id (what results.cell refers to), benchmark and counts
)
CELL_COLUMN = ("host", "machine", "cpu", "accelerator", "target")

STORE = (Column("key", "TEXT PRIMARY KEY"), Column("value", "TEXT NOT NULL"))  # the store's own facts: schema_version

# Each table: its columns, the schema that made it and what its rows are keyed by beside the columns.  results has no
# primary key: a run's benchmark names are unique in its file, and the index on the run alone is what most queries
# use (a key over run and name would double the table's size on disk).
TABLES = {
    "regbench_store": (STORE, 2, ()),
    "metas": (METAS, 2, ()),
    "runs": (RUNS, 1, ()),
    "labels": (LABELS, 2, ("PRIMARY KEY (run_id, key)",)),
    "results": (RESULTS, 1, ()),
    "histograms": (HISTOGRAMS, 2, ("PRIMARY KEY (run_id, name)",)),
    "merged": (MERGED, 3, (f"PRIMARY KEY ({', '.join(MERGED_GROUP)}, name)",)),
    "cells": (CELLS, 4, (f"PRIMARY KEY ({', '.join(CELL_COLUMN)})",)),
}

# The columns filters use are indexed; results and histograms by their run through their primary keys, results by
# their cell and figure too (a cell's median and range are read off it).
INDEXES = (
    ("results_run", "results", "run_id", 2),
    ("labels_pair", "labels", "key, value", 2),
    *((f"runs_{c}", "runs", c, 2) for c in ("host", "machine_id", "cpu", "target", "arch", "time")),
    ("results_cell", "results", "cell, ns", 4),
)


def since(table, column):
    """The schema that added a column."""
    columns, made, _ = TABLES[table]
    return column.since or made


def typed(columns, engine):
    return tuple((c.name, c.type.format(binary=BINARY[engine])) for c in columns)


def create(table, engine):
    """The statement that creates a table of this VERSION on an engine (sqlite, postgresql)."""
    columns, _, extra = TABLES[table]
    body = ",\n  ".join([f"{name} {kind}" for name, kind in typed(columns, engine)] + list(extra))
    return f"CREATE TABLE {table} (\n  {body}\n)"


def index(name):
    (_, table, columns, _), = (i for i in INDEXES if i[0] == name)
    return f"CREATE INDEX {name} ON {table} ({columns})"


def schema(engine):
    """The statements that create an empty store of this VERSION on an engine."""
    return (*(create(t, engine) for t in TABLES), *(index(i[0]) for i in INDEXES),
            f"INSERT INTO regbench_store (key, value) VALUES ('schema_version', '{VERSION}')")


def steps(version, engine):
    """What an upgrade to `version` does that the tables say: (the statements that create the tables it made and add
    the columns it added to older tables, those that create the indexes it made, the runs' columns it added that the
    context fills: sql.CONTEXT or sql.NUMBER)."""
    added = [(t, c) for t, (columns, made, _) in TABLES.items() if made < version
             for c in columns if since(t, c) == version]
    return ([create(t, engine) for t, (_, made, _) in TABLES.items() if made == version]
            + [f"ALTER TABLE {t} ADD COLUMN {c.name} {c.type.format(binary=BINARY[engine])}" for t, c in added],
            [index(name) for name, _, _, made in INDEXES if made == version],
            [c for t, c in added if t == "runs" and c.source in (CONTEXT, NUMBER)])


def fields(columns):
    return tuple(c.name for c in columns)


def shown(where, columns=RUNS):
    """The columns of a table (the runs') shown in one place (EXPORT, SITE), in the table's order."""
    return tuple(c.name for c in columns if where in c.shown)


def _insert(table, columns, conflict=""):
    names = fields(columns)
    return f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' for _ in names)}){conflict}"


RUN_FIELDS, RESULT_FIELDS, LABEL_FIELDS, HISTOGRAM_FIELDS, META_FIELDS, MERGED_FIELDS, CELL_FIELDS = map(
    fields, (RUNS, RESULTS, LABELS, HISTOGRAMS, METAS, MERGED, CELLS))
# a run already there is left as it is: rowcount 0 says so, and its rows are not added again
ADD_RUN = _insert("runs", RUNS, " ON CONFLICT (id) DO NOTHING")
ADD_RESULT = _insert("results", RESULTS)
ADD_LABEL = _insert("labels", LABELS)
ADD_HISTOGRAM = _insert("histograms", HISTOGRAMS)
ADD_META = _insert("metas", METAS, " ON CONFLICT (id) DO NOTHING")
ADD_MERGED = _insert("merged", MERGED)
ADD_CELL = _insert("cells", CELLS)
META_OF = "SELECT regbench FROM metas WHERE id = ?"

# The version of a store, and how to tell the first release's store (no version table) from no store at all.
VERSION_OF = "SELECT value FROM regbench_store WHERE key = 'schema_version'"
SET_VERSION = "UPDATE regbench_store SET value = ? WHERE key = 'schema_version'"
PROBE = "SELECT COUNT(*) FROM runs"
# Serializes PostgreSQL writers: schema changes, and changes of runs with their merged histograms (an arbitrary key:
# "regbench" as a number).
PG_LOCK = "SELECT pg_advisory_xact_lock(7453298661)"

# The states whose benchmarks have figures, as State says, for a WHERE clause (the states are the contract's words).
FIGURED = f"state IN ({', '.join(repr(str(s)) for s in State if s.figure)})"

# The runs without their JSON.
LIST_FIELDS = tuple(f for f in RUN_FIELDS if f != "json_zlib")
LIST_RUNS = f"SELECT {', '.join(LIST_FIELDS)} FROM runs"

RUN_JSON = "SELECT json_zlib FROM runs WHERE id = ?"
