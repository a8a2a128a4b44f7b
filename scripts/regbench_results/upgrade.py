"""An older results store brought to sql.VERSION in place, inside the transaction that holds the schema (Store.prepare).

A store of the first release is rebuilt: its runs are added again from their
JSON.  From schema 2 on, each later schema's tables, columns and indexes are
made as sql.py declares them (sql.steps), a run's new column that its context
fills is filled from each run's kept JSON, and what a schema changed beyond
new columns is done by its step below (_BEFORE before the new columns, _AFTER
once they all exist, oldest schema first), before the new indexes are built.
"""
import json
import zlib

from . import cells, merged, runfile, sql


def upgrade(store, found):
    """A store of schema `found` to sql.VERSION; returns how many runs it holds."""
    if found == 1:
        _rebuild(store)
    else:
        versions = range(found + 1, sql.VERSION + 1)
        indexes, context = [], []
        for version in versions:
            if version in _BEFORE:
                _BEFORE[version](store)
            statements, made, filled = sql.steps(version, store.engine)
            for statement in statements:
                store._execute(statement)
            indexes += made
            context += filled
        _fill_context(store, context)
        for version in versions:
            if version in _AFTER:
                _AFTER[version](store)
        for statement in indexes:
            store._execute(statement)
        store._execute(sql.SET_VERSION, (str(sql.VERSION),))
    return store._execute(sql.PROBE).fetchone()[0]


def _rebuild(store):
    """Schema 1: each run of the old tables added again (new id, new columns, compressed JSON; copies the old ids told
    apart become one run)."""
    for table in ("results", "runs"):
        store._execute(f"ALTER TABLE {table} RENAME TO {table}_v1")
    store._execute("DROP INDEX IF EXISTS results_benchmark")
    for statement in sql.schema(store.engine):
        store._execute(statement)
    prepared = []
    for run_id, text, added in store._execute("SELECT id, json, added FROM runs_v1 ORDER BY id").fetchall():
        data = text.encode("utf-8")
        prepared.append(runfile.rows_of(runfile.parse(data, f"{store.where} (run {run_id[:12]})"), data))
        prepared[-1]["run"]["added"] = added
    store._insert_all(prepared)
    for table in ("results_v1", "runs_v1"):
        store._execute(f"DROP TABLE {table}")


def _fill_context(store, columns):
    """The runs' new columns that their context fills, from each run's kept JSON."""
    if not columns:
        return
    keys = [k for k, in store._execute("SELECT key FROM runs").fetchall()]
    sets = ", ".join(f"{c.name} = ?" for c in columns)
    for key in keys:
        (blob,), = store._execute("SELECT json_zlib FROM runs WHERE key = ?", (key,)).fetchall()
        values = runfile.context_columns(runfile.context_of(zlib.decompress(bytes(blob))), columns)
        store._execute(f"UPDATE runs SET {sets} WHERE key = ?", (*(values[c.name] for c in columns), key))


def _before_3(store):
    """Schema 3 packs the repetitions into a column of another type: the old one is kept aside until then."""
    store._execute("ALTER TABLE results RENAME COLUMN reps TO reps_v2")


def _after_3(store):
    """Schema 3: the runs' counts and grids filled, the repetitions and histograms packed, `merged` filled."""
    store._execute("UPDATE runs SET results = (SELECT COUNT(*) FROM results s WHERE s.run_id = runs.key), "
                   f"measured = (SELECT COUNT(*) FROM results s WHERE s.run_id = runs.key AND s.{sql.FIGURED})")
    if store.engine == "sqlite":
        store.conn.create_function("regbench_reps", 1, lambda text: runfile.pack_reps(json.loads(text)))
        store._execute("UPDATE results SET reps = regbench_reps(reps_v2) WHERE reps_v2 IS NOT NULL")
    else:
        # the same big-endian floats as pack_reps, made by the server (float4send writes network order)
        store._execute("UPDATE results SET reps = (SELECT string_agg(float4send(x::float8::real), ''::bytea "
                       "ORDER BY i) FROM json_array_elements_text(reps_v2::json) WITH ORDINALITY AS t(x, i)) "
                       "WHERE reps_v2 IS NOT NULL")
    store._execute("ALTER TABLE results DROP COLUMN reps_v2")
    fields = ("key", "host", "cpu", "target", "target_device", "target_mapping", "target_bar")
    runs = [dict(zip(fields, r)) for r in store._execute(f"SELECT {', '.join(fields)} FROM runs").fetchall()]
    q = f"SELECT {', '.join(sql.HISTOGRAM_FIELDS)} FROM histograms WHERE run_id = ?"
    changes = []
    for run in runs:
        hists = []
        for values in store._execute(q, (run["key"],)).fetchall():
            row = dict(zip(sql.HISTOGRAM_FIELDS, values))
            old = json.loads(zlib.decompress(bytes(row["buckets"])))
            row["buckets"] = runfile.pack(edges=old["edges"], counts=old["counts"])
            store._execute("UPDATE histograms SET buckets = ? WHERE run_id = ? AND name = ?",
                           (row["buckets"], row["run_id"], row["name"]))
            hists.append((row["name"], runfile.histogram_of(row)))
        run["lat_histograms"], (run["grid_step"], run["grid_sub_buckets"]) = runfile.grid_of([h for _, h in hists])
        store._execute("UPDATE runs SET lat_histograms = ?, grid_step = ?, grid_sub_buckets = ? WHERE key = ?",
                       (run["lat_histograms"], run["grid_step"], run["grid_sub_buckets"], run["key"]))
        changes.append((run, hists, 1))
        if len(changes) == 100:         # a hundred runs' histograms at a time in memory
            merged.change(store._execute, changes)
            changes = []
    merged.change(store._execute, changes)


def _after_4(store):
    """Schema 4: each result's cell given, and each cell's counts made, a hundred runs at a time (an index over run
    and name, for this step alone, finds each result to give its cell)."""
    store._execute("CREATE INDEX results_upgrade ON results (run_id, name)")
    fields = ("key", "host", "machine_id", "cpu", "accelerator", "tsc_hz", "target", "target_device", "target_mapping", "target_bar")
    runs = [dict(zip(fields, r)) for r in store._execute(f"SELECT {', '.join(fields)} FROM runs").fetchall()]
    q = f"SELECT {', '.join(cells.FIELDS)} FROM results WHERE run_id IN"
    for part in range(0, len(runs), 100):
        chosen = runs[part:part + 100]
        by_key = {r["key"]: (r, []) for r in chosen}
        for values in store._execute(f"{q} ({', '.join('?' for _ in chosen)})", tuple(by_key)).fetchall():
            row = dict(zip(cells.FIELDS, values))
            by_key[row["run_id"]][1].append(row)
        changes = [(run, rows, 1) for run, rows in by_key.values()]
        cells.change(store._execute, changes)
        store._set_cells([(row["cell"], row["run_id"], row["name"]) for _, rows, _ in changes for row in rows])
    store._execute("DROP INDEX results_upgrade")


_BEFORE = {3: _before_3}
_AFTER = {3: _after_3, 4: _after_4}
