#!/usr/bin/python3
"""A benchmark of the results store's operations (a script, not a test): a store filled with synthetic runs, then each
command timed as a user runs it.

    scripts/tests/results_store_bench.py [--postgresql] [--base RUN.json] [--machines M] [--repeat R] N [N...]

One store grows through the counts given (ascending): an SQLite file in a
temporary folder, or with --postgresql a database of a server it starts as
the tests do.  The runs are made from one real run (default
reports/ram-on-zen5/ram.json: 406 benchmarks), spread over M machines a day
apart.

The store is filled in bulk, in this process, through the store's own
Store.add: the base run is read once, and each synthetic run is its rows with
the host, machine, date and id changed and every figure (medians, ranges,
repetitions) scaled by a random factor; its stored JSON is the base file with
its context changed, compressed as `add` compresses it, so each run takes the
bytes on disk a real one does.  Adding 10,000 files through the command line
would take hours here (the reader validates each file).

At each count it times, as separate processes of scripts/results: list, table
(^chain/), latency --json, history --json (^chain/read32/), alerts, and then
the add of 10 more synthetic files (distinct JSON files, read, validated and
hashed as any run is), whose time per run it prints.  Each is timed --repeat
times (the median is printed; each repeated add adds 10 files more), as wall
time, and on a second line (cpu) as the CPU seconds the command used, which a
busy machine disturbs less.  load is the 1-minute load average before the
count's commands.  The bytes per run are the store's size over its runs
before the adds.  The stores are removed at the end.  Figures move with the
machine: docs/PERFORMANCE.md says where they came from.
"""
import argparse
import hashlib
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RESULTS = os.path.join(ROOT, "scripts", "results")
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from regbench_results import runfile, store  # noqa: E402  (after the path above)

SCALED = ("cycles", "cycles_lo", "cycles_hi", "core_cycles", "ns", "ns_lo", "ns_hi")


def context(i, machines):
    """Run i's machine and date."""
    m = i % machines
    return {"host": f"machine{m}", "machine_id": f"{m:032x}",
            "date": f"20{26 + i // 336}-{1 + i // 28 % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:00:00+00:00"}


def synthetic_file(base, i, machines, rng):
    """Run i of the series as a result file's document: its context changed, every figure scaled."""
    doc = json.loads(json.dumps(base))
    doc["context"].update(context(i, machines))
    factor = rng.uniform(0.97, 1.03)
    for b in doc["benchmarks"]:
        for k in ("cycles", "ns", "real_time", "cpu_time"):
            if isinstance(b.get(k), float):
                b[k] *= factor
    return doc


def synthetic_rows(base_rows, data, i, machines, rng):
    """Run i of the series as Store.add takes it: the base run's rows, changed as synthetic_file changes a file."""
    ctx = context(i, machines)
    # the base file with its context's date replaced and the host and machine added: the run's own JSON, compressed
    # as add compresses it (the base has neither a host nor a machine_id key)
    date = json.dumps({"date": base_rows["run"]["date"]})[1:-1].encode()
    text = data.replace(date, json.dumps(ctx)[1:-1].encode(), 1)
    if text == data:
        sys.exit(f"results_store_bench: --base: its context's date is not written as {date.decode()} (give a file "
                 "regbench wrote)")
    run_id = hashlib.sha256(text).hexdigest()
    key = runfile.key(run_id)
    run = dict(base_rows["run"], id=run_id, key=key, json_zlib=zlib.compress(text, 6), time=runfile.utc(ctx["date"]),
               **ctx)
    factor = rng.uniform(0.97, 1.03)
    results = []
    for r in base_rows["results"]:
        r = dict(r, run_id=key, **{k: r[k] * factor for k in SCALED if r[k] is not None})
        if r["reps"]:
            r["reps"] = runfile.pack_reps([float(f"{x * factor:.6g}") for x in runfile.reps_of(r["reps"])])
        results.append(r)
    return {"meta": base_rows["meta"], "run": run, "results": results,
            "labels": [dict(r, run_id=key) for r in base_rows["labels"]],
            "histograms": [dict(r, run_id=key) for r in base_rows["histograms"]]}


def fill(db, start, end, base_rows, data, machines, rng):
    """Runs start..end-1 added in bulk, a hundred per transaction."""
    for first in range(start, end, 100):
        batch = [synthetic_rows(base_rows, data, i, machines, rng) for i in range(first, min(end, first + 100))]
        store.add(db, batch)


def timed(*args):
    """(wall seconds, CPU seconds: user and system) of one command."""
    t, used = time.monotonic(), _children()
    p = subprocess.run([RESULTS, *args], capture_output=True, text=True)
    if p.returncode not in ((0, 1) if args[0] == "alerts" else (0,)):      # alerts exits 1 when it finds one
        sys.exit(f"results_store_bench: {' '.join(args[:1])}: {p.stderr.strip()}")
    return time.monotonic() - t, _children() - used


def _children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def median_of(repeat, command):
    """(median wall, median CPU) of command() run repeat times."""
    times = [command() for _ in range(repeat)]
    return tuple(statistics.median(t[i] for t in times) for i in (0, 1))


def size_of(db, server):
    """The store's bytes on disk: the SQLite file, or the PostgreSQL database's growth over an empty one."""
    if server is None:
        return os.path.getsize(db)
    import psycopg2
    with psycopg2.connect(db) as conn, conn.cursor() as cur:
        cur.execute("SELECT pg_database_size(current_database()) - (SELECT pg_database_size('template1'))")
        size = cur.fetchone()[0]
    conn.close()
    return size


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("counts", nargs="+", type=int, metavar="N")
    ap.add_argument("--postgresql", action="store_true", help="a PostgreSQL server of its own, else SQLite files")
    ap.add_argument("--base", default=os.path.join(ROOT, "reports", "ram-on-zen5", "ram.json"))
    ap.add_argument("--machines", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=1, help="time each command this many times: the median is printed")
    args = ap.parse_args()
    if args.counts != sorted(args.counts) or args.counts[0] < 1:
        ap.error("give the counts of runs in ascending order, each 1 or more")
    with open(args.base, "rb") as f:
        data = f.read()
    base_rows = runfile.rows_of(runfile.parse(data, args.base), data)
    folder = tempfile.mkdtemp(prefix="regbench-store-bench-")
    server = None
    try:
        if args.postgresql:
            sys.path.insert(0, HERE)
            from test_results_postgresql import Server, server_binaries, server_user
            server = Server(server_binaries(), server_user())
            server.start()
        run_all(args, json.loads(data), base_rows, data, folder, server)
    finally:
        if server:
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def run_all(args, base, base_rows, data, folder, server):
    rng = random.Random(1)
    db = server.database("bench") if server else os.path.join(folder, "store.sqlite")
    print("runs  load  fill s/run  bytes/run  list s  table s  latency s  history s  alerts s  add s/run", flush=True)
    there = 0
    for n in args.counts:
        t = time.monotonic()
        fill(db, there, n, base_rows, data, args.machines, rng)
        filled = (time.monotonic() - t) / max(1, n - there)
        there = n
        size = size_of(db, server)
        load = os.getloadavg()[0]
        out = os.path.join(folder, "table")
        commands = [("list", "--db", db), ("table", "--db", db, "-o", out, "--force", "^chain/"),
                    ("latency", "--db", db, "--json"), ("history", "--db", db, "--json", "^chain/read32/"),
                    ("alerts", "--db", db)]
        times = [median_of(args.repeat, lambda c=c: timed(*c)) for c in commands]

        def add():
            nonlocal there
            files = []
            for i in range(there, there + 10):
                files.append(os.path.join(folder, f"run{i}.json"))
                with open(files[-1], "w", encoding="utf-8") as f:
                    json.dump(synthetic_file(base, i, args.machines, rng), f)
            wall, cpu = timed("add", "--db", db, *files)
            there += 10
            for path in files:
                os.remove(path)
            return wall / 10, cpu / 10
        times.append(median_of(args.repeat, add))
        wall, cpu = ([t[i] for t in times] for i in (0, 1))
        print(f"{n:>5}  {load:4.1f}  {filled:10.3f}  {size / n:9.0f}  {wall[0]:6.2f}  {wall[1]:7.2f}  {wall[2]:9.2f}  "
              f"{wall[3]:9.2f}  {wall[4]:8.2f}  {wall[5]:9.3f}", flush=True)
        print(f"{'cpu':>5}  {'':4}  {'':10}  {'':9}  {cpu[0]:6.2f}  {cpu[1]:7.2f}  {cpu[2]:9.2f}  {cpu[3]:9.2f}  "
              f"{cpu[4]:8.2f}  {cpu[5]:9.3f}", flush=True)


if __name__ == "__main__":
    main()
