import os, subprocess, sys, hostile, fixture
R = os.path.join(fixture.SCRIPTS, "results")
files = [hostile.hostile(f, start=i * 100) for i, f in enumerate(("answers.json", "reps.json", "single.json", "port.json"))]
d = fixture.tmpdir()
db = os.path.join(d, "h.sqlite")
def run(*a):
    p = subprocess.run([R, *a], capture_output=True, text=True)
    print("$", " ".join(x[:30] for x in a[:3]), "->", p.returncode, repr(p.stderr[-600:]), repr(p.stdout[:300]))
    return p
run("add", "--db", db, *files)
run("list", "--db", db)
run("site", "--db", db, "-o", os.path.join(d, "site"))
run("table", "--db", db, "-o", os.path.join(d, "table"))
run("latency", "--db", db)
run("history", "--db", db, "-o", os.path.join(d, "hist"), ".")
run("alerts", "--db", db)
run("export", "--db", db, "--format", "csv")
run("export", "--db", db, "--format", "json")
run("export", "--db", db, "--format", "bmf", "--host", "x")
print(d)
