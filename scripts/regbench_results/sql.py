"""The results store's SQL, the same for SQLite and PostgreSQL: the schema, its version, and every fixed statement.

Statements use `?` placeholders (SQLite's); the PostgreSQL engine hands them to
psycopg2 as `%s`.  Types are those both engines read alike (TEXT, INTEGER,
BIGINT, DOUBLE PRECISION) except the compressed JSON, a BLOB in SQLite and a
BYTEA in PostgreSQL (BINARY below).  A run's id is the SHA-256 of a canonical
form of its JSON, so no engine-specific serial column is needed: the content
is the identity, and a run added twice is kept once (ON CONFLICT DO NOTHING,
SQLite 3.24 and PostgreSQL 9.5 on).
"""
from regbench_base.state import State

# The schema this code writes.  1 is the store of the first release (no version table: runs.json held the text
# and the id hashed it with its numbers as written); 2 adds the version, labels, histograms, the machine's identity
# and firmware columns, the UTC time, and keeps each run's JSON compressed; 3 packs the repetitions and histograms,
# records each run's histogram grid and keeps each machine × target's lat/ histograms merged (`merged`).
VERSION = 3
BINARY = {"sqlite": "BLOB", "postgresql": "BYTEA"}

# One row per run: who ran it where (host, the machine, the CPU and its facts), on what (the target), with which
# build and when.  json_zlib is the file's JSON (zlib), for anything the columns leave out.
RUNS = (
    ("id", "TEXT PRIMARY KEY"),                   # SHA-256 (hex) of the run's canonical JSON: its identity
    ("key", "BIGINT NOT NULL UNIQUE"),            # its first 60 bits as a number: what the other tables refer to
    ("meta", "TEXT NOT NULL REFERENCES metas (id)"),   # the run's families, strategies and orders (metas)
    ("host", "TEXT NOT NULL"),                    # context `host` (the fleet's inventory name), else host_name
    ("machine_id", "TEXT"),                       # a hash of what identifies the machine (regbench's context)
    ("cpu", "TEXT NOT NULL"),                     # cpu_model tidied, with cpu_uarch in parentheses when known
    ("cpu_model", "TEXT"),
    ("cpu_uarch", "TEXT"),
    ("arch", "TEXT"),                             # x86_64, aarch64
    ("tsc_hz", "DOUBLE PRECISION"),               # the clock of every `cycles` of this run
    ("core_hz_estimate", "DOUBLE PRECISION"),
    ("lat_histograms", "INTEGER NOT NULL DEFAULT 0"),   # how many lat/ histograms it has
    ("grid_step", "DOUBLE PRECISION"),            # their grid: the timer step in timer ticks (NULL: none, or no grid)
    ("grid_sub_buckets", "INTEGER"),
    ("kernel", "TEXT"),
    ("firmware", "TEXT"),                         # the DMI BIOS version
    ("microcode", "TEXT"),
    ("env_vm", "TEXT"),
    ("topology", "TEXT"),
    ("target", "TEXT NOT NULL"),                  # the spec as given (ram, trap, pci:1b36:0005/1, ...)
    ("target_kind", "TEXT"),                      # mmio, pio, region
    ("target_mapping", "TEXT"),                   # wb, uc, wc, trap, port, pread
    ("target_device", "TEXT"),                    # ids and slot of a PCI target
    ("target_bar", "TEXT"),
    ("target_what", "TEXT"),
    ("accelerator", "TEXT"),                      # a QEMU guest's tcg or kvm (context `accelerator`)
    ("regbench_version", "TEXT"),
    ("regbench_commit", "TEXT"),
    ("regbench_build_type", "TEXT"),
    ("date", "TEXT"),                             # when it ran (ISO 8601 with its offset, as Google Benchmark wrote it)
    ("time", "TEXT"),                             # the same instant in UTC (YYYY-MM-DDTHH:MM:SSZ): what sorts and filters
    ("interrupted", "TEXT"),                      # the signal that stopped the run early (SIGINT, SIGTERM, SIGHUP, ...)
    ("added", "TEXT NOT NULL"),                   # when this store took it (UTC, ISO 8601)
    ("results", "INTEGER NOT NULL DEFAULT 0"),    # how many benchmarks it has (rows of `results`)
    ("measured", "INTEGER NOT NULL DEFAULT 0"),   # how many of them have figures (FIGURED)
    ("json_zlib", "{binary} NOT NULL"),
)

# What a run says of its families and strategies (the regbench object without its benchmarks), once for all the
# runs that say the same: what the tables and merges order and describe their rows by, without reading a run.
METAS = (
    ("id", "TEXT PRIMARY KEY"),                   # SHA-256 (hex) of the text
    ("regbench", "{binary} NOT NULL"),            # zlib of the JSON: contract, families, strategies, order, ops
)

# The run's --benchmark_context pairs that the contract does not declare (host, accelerator, baseline=yes, ...).
LABELS = (
    ("run_id", "BIGINT NOT NULL REFERENCES runs (key) ON DELETE CASCADE"),
    ("key", "TEXT NOT NULL"),
    ("value", "TEXT NOT NULL"),
)

# One row per benchmark per run: what it is (the contract's fields), its state, and the medians over its
# repetitions; `_lo` and `_hi` are the lowest and highest repetition (the spread the medians come with).
RESULTS = (
    ("run_id", "BIGINT NOT NULL REFERENCES runs (key) ON DELETE CASCADE"),
    ("name", "TEXT NOT NULL"),
    ("family", "TEXT NOT NULL"),
    ("op", "TEXT NOT NULL"),
    ("width", "INTEGER"),                         # bits; NULL where the op has none (copies, barriers)
    ("strategy", "TEXT NOT NULL"),                # '' for barrier/
    ("param", "BIGINT"),                          # the _rep count or copy size; NULL where none
    ("space", "TEXT NOT NULL"),                   # mmio, pio, region
    ("unit", "TEXT NOT NULL"),                    # what one `cycles` is per: access, read, element, copy, ...
    ("state", "TEXT NOT NULL"),                   # measured, below_resolution, skipped, error, not_run
    ("reason", "TEXT NOT NULL"),
    ("bound", "DOUBLE PRECISION"),                # below_resolution: the timer step it is under, timer ticks
    ("repetitions", "INTEGER"),
    ("cycles", "DOUBLE PRECISION"),               # timer ticks per unit (the run's own timer: runs.tsc_hz)
    ("cycles_lo", "DOUBLE PRECISION"),
    ("cycles_hi", "DOUBLE PRECISION"),
    ("core_cycles", "DOUBLE PRECISION"),
    ("ns", "DOUBLE PRECISION"),                   # wall time per unit, one clock on every machine (a file without
                                                  # the counter: cycles at its timer's rate, as regbench computes it)
    ("ns_lo", "DOUBLE PRECISION"),
    ("ns_hi", "DOUBLE PRECISION"),
    ("bytes_per_second", "DOUBLE PRECISION"),
    ("disturbed", "INTEGER NOT NULL"),            # repetitions measured while the machine was disturbed
    ("reps", "{binary}"),                         # the repetitions' cycles (what verdicts test): runfile.pack_reps
)

# One row per lat/ histogram per run, so that merging never reads the runs' JSON.
HISTOGRAMS = (
    ("run_id", "BIGINT NOT NULL REFERENCES runs (key) ON DELETE CASCADE"),
    ("name", "TEXT NOT NULL"),
    ("step", "DOUBLE PRECISION"),                 # the grid: the timer step in timer ticks (NULL: no grid, older run)
    ("sub_buckets", "INTEGER"),
    ("buckets", "{binary} NOT NULL"),             # its edges and counts: runfile.pack
)

# The lat/ histograms of every run of one machine × target (host, CPU and target as the reference table names them)
# on one grid, added up: what `latency` reads when it merges whole machines, whatever the number of runs.  add,
# delete, prune and retag keep them in step in their own transaction (merged.py).
MERGED = (
    ("host", "TEXT NOT NULL"),
    ("cpu", "TEXT NOT NULL"),
    ("target", "TEXT NOT NULL"),                  # reference.target_label of the runs
    ("step", "DOUBLE PRECISION NOT NULL"),
    ("sub_buckets", "INTEGER NOT NULL"),
    ("name", "TEXT NOT NULL"),
    ("runs", "INTEGER NOT NULL"),                 # how many runs are added up
    ("buckets", "{binary} NOT NULL"),             # each bucket's edges, samples and runs: merged.pack
)
MERGED_GROUP = ("host", "cpu", "target", "step", "sub_buckets")

STORE = (("key", "TEXT PRIMARY KEY"), ("value", "TEXT NOT NULL"))       # the store's own facts: schema_version


def _create(table, columns, extra=()):
    body = ",\n  ".join([f"{name} {kind}" for name, kind in columns] + list(extra))
    return f"CREATE TABLE {table} (\n  {body}\n)"


# The columns filters use are indexed; results and histograms by their run through their primary keys.
INDEXED = ("host", "machine_id", "cpu", "target", "arch", "time")


def tables(engine):
    """{table: the statement that creates it} of this VERSION on an engine (sqlite, postgresql)."""
    typed = lambda columns: tuple((n, k.format(binary=BINARY[engine])) for n, k in columns)
    # results has no primary key: a run's benchmark names are unique in its file, and the index on the run alone is
    # what every query uses (a key over run and name would double the table's size on disk)
    return {"regbench_store": _create("regbench_store", STORE), "metas": _create("metas", typed(METAS)),
            "runs": _create("runs", typed(RUNS)), "labels": _create("labels", LABELS, ["PRIMARY KEY (run_id, key)"]),
            "results": _create("results", typed(RESULTS)),
            "histograms": _create("histograms", typed(HISTOGRAMS), ["PRIMARY KEY (run_id, name)"]),
            "merged": _create("merged", typed(MERGED), [f"PRIMARY KEY ({', '.join(MERGED_GROUP)}, name)"])}


def schema(engine):
    """The statements that create an empty store of this VERSION on an engine."""
    return (*tables(engine).values(),
            "CREATE INDEX results_run ON results (run_id)",
            "CREATE INDEX labels_pair ON labels (key, value)",
            *(f"CREATE INDEX runs_{c} ON runs ({c})" for c in INDEXED),
            f"INSERT INTO regbench_store (key, value) VALUES ('schema_version', '{VERSION}')")


# The columns of runs that schema 3 added (an upgrade from 2 adds them as RUNS declares them).
RUNS_SINCE_3 = ("results", "measured", "lat_histograms", "grid_step", "grid_sub_buckets")


def _insert(table, columns, conflict=""):
    names = [name for name, _ in columns]
    return f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' for _ in names)}){conflict}"


def fields(columns):
    return tuple(name for name, _ in columns)


RUN_FIELDS, RESULT_FIELDS, LABEL_FIELDS, HISTOGRAM_FIELDS, META_FIELDS, MERGED_FIELDS = map(
    fields, (RUNS, RESULTS, LABELS, HISTOGRAMS, METAS, MERGED))
# a run already there is left as it is: rowcount 0 says so, and its rows are not added again
ADD_RUN = _insert("runs", RUNS, " ON CONFLICT (id) DO NOTHING")
ADD_RESULT = _insert("results", RESULTS)
ADD_LABEL = _insert("labels", LABELS)
ADD_HISTOGRAM = _insert("histograms", HISTOGRAMS)
ADD_META = _insert("metas", METAS, " ON CONFLICT (id) DO NOTHING")
ADD_MERGED = _insert("merged", MERGED)
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
