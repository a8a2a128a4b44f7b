#!/usr/bin/python3
"""A benchmark of the results store's operations (a script, not a test): synthetic runs added, then each command timed.

    scripts/tests/results_store_bench.py [--postgresql] [--base RUN.json] [--machines M] N [N...]

For each N it fills a new store (an SQLite file in a temporary folder, or with
--postgresql a new database of a server it starts as the tests do) with N runs made from one real
run (default reports/ram-on-zen5/ram.json: 406 benchmarks): spread over M
machines, a day apart, every figure scaled by a random factor so that each run
is distinct.  It prints the seconds each command took and the store's bytes per
run.  Figures move with the machine: docs/PERFORMANCE.md says where they came from.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RESULTS = os.path.join(ROOT, "scripts", "results")


def synthetic(base, i, machines, rng):
    """Run i of a series made from a real run's document: its machine, date and figures changed."""
    doc = json.loads(json.dumps(base))
    m = i % machines
    doc["context"].update(host=f"machine{m}", machine_id=f"{m:016x}", date=f"2026-{1 + i // 28 % 12:02d}-"
                          f"{1 + i % 28:02d}T{i % 24:02d}:00:00+00:00")
    factor = rng.uniform(0.97, 1.03)
    for b in doc["benchmarks"]:
        for k in ("cycles", "ns", "real_time", "cpu_time"):
            if isinstance(b.get(k), float):
                b[k] *= factor
    return doc


def timed(*args):
    t = time.monotonic()
    p = subprocess.run([RESULTS, *args], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"results_store_bench: {' '.join(args[:1])}: {p.stderr.strip()}")
    return time.monotonic() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("counts", nargs="+", type=int, metavar="N")
    ap.add_argument("--postgresql", action="store_true", help="a PostgreSQL server of its own, else SQLite files")
    ap.add_argument("--base", default=os.path.join(ROOT, "reports", "ram-on-zen5", "ram.json"))
    ap.add_argument("--machines", type=int, default=4)
    args = ap.parse_args()
    with open(args.base, encoding="utf-8") as f:
        base = json.load(f)
    rng = random.Random(1)
    folder = tempfile.mkdtemp(prefix="regbench-store-bench-")
    server = None
    if args.postgresql:
        sys.path.insert(0, HERE)
        from test_results_postgresql import Server, server_binaries, server_user
        server = Server(server_binaries(), server_user())
        server.start()
    try:
        run_all(args, base, rng, folder, server)
    finally:
        if server:
            server.stop()


def size_of(db, server):
    """The store's bytes on disk: the SQLite file, or the PostgreSQL database's relations."""
    if server is None:
        return os.path.getsize(db)
    import psycopg2
    with psycopg2.connect(db) as conn, conn.cursor() as cur:
        cur.execute("SELECT pg_database_size(current_database()) - (SELECT pg_database_size('template1'))")
        size = cur.fetchone()[0]
    conn.close()
    return size


def run_all(args, base, rng, folder, server):
    print("runs  add s/run  bytes/run  list s  table s  latency s  history s  alerts s")
    for n in args.counts:
        db = server.database(f"bench{n}") if server else os.path.join(folder, f"store{n}.sqlite")
        add = 0.0
        for start in range(0, n, 10):
            files = []
            for i in range(start, min(n, start + 10)):
                files.append(os.path.join(folder, f"run{i}.json"))
                with open(files[-1], "w", encoding="utf-8") as f:
                    json.dump(synthetic(base, i, args.machines, rng), f)
            add += timed("add", "--db", db, *files)
        size = size_of(db, server)
        out = os.path.join(folder, f"table{n}")
        row = [n, add / n, size / n, timed("list", "--db", db),
               timed("table", "--db", db, "-o", out, "--force", "^chain/"),
               timed("latency", "--db", db, "--json"), timed("history", "--db", db, "--json", "^chain/read32/"),
               timed("alerts", "--db", db)]
        print(f"{row[0]:>4}  {row[1]:9.3f}  {row[2]:9.0f}  {row[3]:6.2f}  {row[4]:7.2f}  {row[5]:9.2f}  "
              f"{row[6]:9.2f}  {row[7]:8.2f}", flush=True)


if __name__ == "__main__":
    main()
