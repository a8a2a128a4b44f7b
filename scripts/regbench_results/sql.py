"""The results store's SQL, the same for SQLite and PostgreSQL: the schema and every statement, in one place.

Statements use `?` placeholders (SQLite's); the PostgreSQL engine hands them to
psycopg2 as `%s`.  Types are those both engines read alike (TEXT, INTEGER,
BIGINT, DOUBLE PRECISION), and a run's id is the SHA-256 of its JSON, so no
engine-specific serial column is needed: the content is the identity, and a
run added twice is kept once (ON CONFLICT DO NOTHING, SQLite 3.24 and
PostgreSQL 9.5 on).
"""
from regbench_base.state import State

# One row per run: who ran it where (host, the CPU and the machine's facts), on what (the target), with which
# build and when; `json` is the file exactly as regbench wrote it, for anything the columns leave out.
RUNS = (
    ("id", "TEXT PRIMARY KEY"),                   # SHA-256 (hex) of the run's JSON, keys sorted: its identity
    ("host", "TEXT NOT NULL"),                    # context `host` (the fleet's inventory name), else host_name
    ("cpu", "TEXT NOT NULL"),                     # cpu_model tidied, with cpu_uarch in parentheses when known
    ("cpu_model", "TEXT"),
    ("cpu_uarch", "TEXT"),
    ("tsc_hz", "DOUBLE PRECISION"),               # the clock of every `cycles` of this run
    ("core_hz_estimate", "DOUBLE PRECISION"),
    ("kernel", "TEXT"),
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
    ("regbench_build_type", "TEXT"),
    ("date", "TEXT"),                             # when it ran (ISO 8601, as Google Benchmark wrote it)
    ("interrupted", "TEXT"),                      # the signal that stopped the run early (SIGINT, SIGTERM, SIGHUP, ...)
    ("added", "TEXT NOT NULL"),                   # when this store took it (UTC, ISO 8601)
    ("json", "TEXT NOT NULL"),
)

# One row per benchmark per run: what it is (the contract's fields), its state, and the medians over its
# repetitions; `_lo` and `_hi` are the lowest and highest repetition (the spread the medians come with).
RESULTS = (
    ("run_id", "TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE"),
    ("name", "TEXT NOT NULL"),
    ("family", "TEXT NOT NULL"),
    ("op", "TEXT NOT NULL"),
    ("width", "INTEGER"),                         # bits; NULL where the op has none (copies, barriers)
    ("strategy", "TEXT NOT NULL"),                # '' for barrier/
    ("param", "BIGINT"),                          # the _rep count or copy size; NULL where none
    ("space", "TEXT NOT NULL"),                   # mmio, pio, region
    ("unit", "TEXT NOT NULL"),                    # what one `cycles` is per: access, read, element, copy, ...
    ("state", "TEXT NOT NULL"),                   # measured, below_resolution, skipped, error
    ("reason", "TEXT NOT NULL"),
    ("bound", "DOUBLE PRECISION"),                # below_resolution: the timer step it is under, TSC cycles
    ("repetitions", "INTEGER"),
    ("cycles", "DOUBLE PRECISION"),               # TSC cycles per unit (the run's own TSC: see runs.tsc_hz)
    ("cycles_lo", "DOUBLE PRECISION"),
    ("cycles_hi", "DOUBLE PRECISION"),
    ("core_cycles", "DOUBLE PRECISION"),
    ("ns", "DOUBLE PRECISION"),                   # wall time per unit, one clock on every machine (a file without
                                                  # the counter: cycles at its TSC rate, as regbench computes it)
    ("ns_lo", "DOUBLE PRECISION"),
    ("ns_hi", "DOUBLE PRECISION"),
    ("bytes_per_second", "DOUBLE PRECISION"),
    ("disturbed", "INTEGER NOT NULL"),            # repetitions measured while the machine was disturbed
)


def _create(table, columns, extra=()):
    body = ",\n  ".join([f"{name} {kind}" for name, kind in columns] + list(extra))
    return f"CREATE TABLE IF NOT EXISTS {table} (\n  {body}\n)"


SCHEMA = (
    _create("runs", RUNS),
    _create("results", RESULTS, ["PRIMARY KEY (run_id, name)"]),
    "CREATE INDEX IF NOT EXISTS results_benchmark ON results (family, op, width, strategy, param)",
)


def _insert(table, columns, conflict=""):
    names = [name for name, _ in columns]
    return f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' for _ in names)}){conflict}"


RUN_FIELDS = tuple(name for name, _ in RUNS)
RESULT_FIELDS = tuple(name for name, _ in RESULTS)
# a run already there is left as it is: rowcount 0 says so, and its results are not added again
ADD_RUN = _insert("runs", RUNS, " ON CONFLICT (id) DO NOTHING")
ADD_RESULT = _insert("results", RESULTS)

# How many runs the store holds; an error from the engine where it has no tables (not a store yet).
PROBE = "SELECT COUNT(*) FROM runs"

# The runs without their JSON, oldest first, each with how many results it has and how many were measured.
LIST_RUNS = (f"SELECT {', '.join('r.' + f for f in RUN_FIELDS if f != 'json')}, "
             "(SELECT COUNT(*) FROM results s WHERE s.run_id = r.id), "
             f"(SELECT COUNT(*) FROM results s WHERE s.run_id = r.id AND s.state = '{State.MEASURED}') "
             "FROM runs r ORDER BY r.date, r.id")
LIST_FIELDS = tuple(f for f in RUN_FIELDS if f != "json") + ("results", "measured")

# Every result of every run, for the reference table (which orders them itself: the engines sort NULL apart).
ALL_RESULTS = f"SELECT {', '.join(RESULT_FIELDS)} FROM results"

RUN_JSON = "SELECT json FROM runs WHERE id = ?"
