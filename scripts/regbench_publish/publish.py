"""scripts/publish: the published reports (reports/) measured and rendered afresh, each replaced whole or not at all.

What is published is data: RUNS says how each run is measured (on this
machine, or in the one QEMU guest session) and REPORTS what each report is
made of (its runs, title and labels); everything else is the same for every
report.  Runs land in a staging folder inside OUTDIR (regbench_base.folder's,
which scripts/report stages in too); each report renders into a copy of its
folder there with scripts/report (the reference table with scripts/results),
so that the report's manifest decides exactly as it would in place; the
index is rewritten from a mirror of the folders as they will be, and the
reports that rendered move into place together, last, by renames.
"""
import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import dataclass
from typing import Optional, Tuple

from regbench_base import command, folder, model
from regbench_base.args import Parser, UsageError
from regbench_report import index

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(SCRIPTS)

# The guest's reads: each strategy of one access at the port widths, the _rep loops and the dispatch.
GUEST_READS = ("^(lat|chain|thrpt)/read(8|16|32)/(volatile|relaxed|barriered|fenced|locked)$"
               "|^rep/read(8|16|32)/(relaxed|barriered|string)/|^dispatch/read32/")
# The kernel's accessors that the regbench module times (readl, readl_relaxed, readsl, ioread32) and libiomap's
# replicas of them: the same filter on both targets, so every row has both sides.
KERNEL_READS = "^(lat|chain|thrpt)/read32/(ordered|relaxed)$|^rep/read32/(relaxed|string)/|^dispatch/read32/"
# ivshmem's copies name their sizes: the default ones (the cache levels of ram) leave only 4 KiB in its 64 KiB window.
IVSHMEM = ("--allow-write=0+65536", "--benchmark_filter=^copy/", "--sizes=64,256,4k,64k", "--benchmark_repetitions=3")
WC_COPIES = ("--target", "pci:1af4:1110/2,wc,len=64k", "--allow-write=0+65536", "--strategy=kernel,iowrite64-copy,simd-nt",
             "--benchmark_filter=^copy/toio/", "--sizes=8,64,256,1k,4k,16k,64k")


@dataclass(frozen=True)
class Run:
    """One regbench run a report is made of: where it runs (host: this machine; guest: the QEMU TCG session of the
    x86-64 build; guest-arm64: the arm64 build's, scripts/guest --arch arm64)."""
    where: str
    args: Tuple[str, ...]


def _kernel_vs_user(arch):
    """The runs of a kernel-vs-user report: user space and the kernel alternating, KERNEL_SIDES runs a side, so that
    the runs are the comparison's unit (with one run a side a verdict seldom says more than unclear)."""
    return tuple(f"edu-{side}{arch}{'' if i == 1 else f'-{i}'}" for i in range(1, KERNEL_SIDES + 1)
                 for side in ("user", "kernel"))


KERNEL_SIDES = 3
KIND = {"user": "pci", "kernel": "kernel"}     # a kernel-vs-user run's side: its target kind
RUNS = {
    "ram": Run("host", ("--benchmark_repetitions=5",)),
    "trap": Run("host", ("--target", "trap", "--benchmark_repetitions=3")),
    "copy": Run("host", ("--benchmark_filter=^copy/", "--benchmark_repetitions=9")),
    "testdev-mem": Run("guest", ("--target", "pci:1b36:0005/0", f"--benchmark_filter={GUEST_READS}",
                                 "--benchmark_repetitions=3")),
    "testdev-port": Run("guest", ("--target", "pci:1b36:0005/1", f"--benchmark_filter={GUEST_READS}",
                                  "--benchmark_repetitions=3")),
    "edu": Run("guest", ("--target", "pci:1234:11e8/0,len=4,widths=32", f"--benchmark_filter={GUEST_READS}",
                         "--benchmark_repetitions=3")),
    "ivshmem-uc": Run("guest", ("--target", "pci:1af4:1110/2,len=64k") + IVSHMEM),
    "ivshmem-wc": Run("guest", ("--target", "pci:1af4:1110/2,len=64k,wc") + IVSHMEM),
    "wc-copies": Run("guest", WC_COPIES),
    **{run: Run(where, ("--target", f"{KIND[run.split('-')[1]]}:1234:11e8/0,len=4,widths=32",
                        f"--benchmark_filter={KERNEL_READS}", "--benchmark_repetitions=5"))
       for where, arch in (("guest", ""), ("guest-arm64", "-arm64")) for run in _kernel_vs_user(arch)},
    "edu-arm64": Run("guest-arm64", ("--target", "pci:1234:11e8/0,len=4,widths=32",
                                     "--benchmark_filter=^(lat|chain|thrpt)/read32/(volatile|ordered|relaxed|barriered"
                                     "|fenced|acquire)$|^barrier/", "--benchmark_repetitions=9")),
}
ACCEL = "--benchmark_context=accelerator=$REGBENCH_ACCEL"     # the guest's shell fills in its accelerator

def guest_line(r, quote=lambda a: re.sub(r"=(.*[\^$|()].*)", r'="\1"', a)):
    """The guest's command line of run r, its arguments quoted by quote (by default as a report shows them: a
    pattern in double quotes, inside the single quotes of sh -c)."""
    return " ".join(["regbench", *map(quote, RUNS[r].args), ACCEL, f"--benchmark_out={r}.json"])


_TCG = "QEMU guest under TCG (emulation costs, not hardware): "


@dataclass(frozen=True)
class Report:
    """A published report: its folder, what it says it is (help), its runs, and scripts/report's title and labels.

    made_of: runs (RUNS, measured by this publish), cpus (every CPU's ram run) or published (every other report's runs).
    """
    name: str
    what: str
    runs: Tuple[str, ...] = ()
    title: Optional[str] = None
    labels: Tuple[str, ...] = ()          # a comparison's labels, one per run
    command: Optional[str] = None         # the command line the report shows, where it is not the run's own
    made_of: str = "runs"
    store: Tuple[str, ...] = ()           # made of published runs: the scripts/results command that renders them


REPORTS = (
    Report("ram", "build/bench/regbench, the default suite on ram, 5 repetitions, into ram-on-CPU/ (CPU: this "
           "machine's microarchitecture, e.g. ram-on-zen5): a folder per CPU, each measured only on its own kind of "
           "CPU", ("ram",)),
    Report("ram-across-cpus", "every ram-on-CPU/ run compared, one CPU a side", made_of="cpus",
           title="The default suite on ram across CPUs: one run of each (TSC cycles: each CPU's own TSC)"),
    Report("trap", "the default suite on --target trap, 3 repetitions", ("trap",)),
    Report("ram-vs-trap", "this machine's ram run and the trap run compared", ("ram", "trap"), labels=("ram", "trap"),
           title="What a trapped access costs: the trap target against ram, per family"),
    Report("copy-strategies", "^copy/ on ram, 9 repetitions", ("copy",),
           title="Which memcpy_toio / memcpy_fromio / memset_io strategy at which size, on ram"),
    Report("guest-tcg-port-vs-mmio", "reads of pci-testdev BAR0 (MMIO) and BAR1 (ports) and edu BAR0, in the guest",
           ("testdev-mem", "testdev-port", "edu"), labels=("testdev BAR0", "testdev BAR1", "edu BAR0"),
           title=_TCG + "pci-testdev port I/O (BAR1) against MMIO (BAR0), and edu's MMIO BAR0"),
    Report("guest-tcg-uc-vs-wc", "copies into ivshmem BAR2 through UC and WC mappings (64 B to 64 KiB), in the guest",
           ("ivshmem-uc", "ivshmem-wc"), labels=("UC", "WC"),
           title=_TCG + "ivshmem BAR2 copies through UC and WC mappings"),
    Report("guest-tcg-wc-memcpy-toio", "memcpy_toio into ivshmem's WC BAR by size, in the guest", ("wc-copies",),
           title="memcpy_toio into a write-combining BAR by size: the kernel's (rep movsl) vs __iowrite64_copy vs AVX2 "
                 "non-temporal — QEMU TCG guest, ivshmem BAR2 through resource2_wc: emulation costs, not hardware",
           command="REGBENCH_GUEST_ACCEL=tcg scripts/guest --out DIR -- sh -c '" + guest_line("wc-copies") + "'"),
    Report("guest-tcg-arm64", "edu BAR0 reads in each strategy and arm64's barriers, in the arm64 guest (scripts/guest "
           "--arch arm64, of build-arm64/)", ("edu-arm64",),
           title="arm64 QEMU guest under TCG (emulation costs, not hardware): edu BAR0 32-bit reads in each strategy "
                 "(readl against readl_relaxed) and arm64's barriers",
           command="REGBENCH_GUEST_ACCEL=tcg scripts/guest --arch arm64 --out DIR -- sh -c '"
                   + guest_line("edu-arm64") + "'"),
    Report("guest-tcg-kernel-vs-user", "edu BAR0 reads by the kernel's own accessors in the regbench module "
           "(--target kernel:) against libiomap's replicas (--target pci:), three runs a side, in the guest",
           _kernel_vs_user(""), labels=("libiomap", "kernel") * KERNEL_SIDES,
           title=_TCG + "the kernel's readl, readl_relaxed, readsl and ioread32 in the kernel against libiomap's "
                        "replicas in user space, edu BAR0"),
    Report("guest-tcg-arm64-kernel-vs-user", "the same in the arm64 guest (scripts/guest --arch arm64)",
           _kernel_vs_user("-arm64"), labels=("libiomap", "kernel") * KERNEL_SIDES,
           title="arm64 QEMU guest under TCG (emulation costs, not hardware): the kernel's readl, readl_relaxed, "
                 "readsl and ioread32 in the kernel against libiomap's replicas in user space, edu BAR0"),
    # last: it is made of the others' runs, as this publish leaves them
    Report("reference", "no runs of its own: every run of the reports above (their JSON, as this publish leaves them) "
           "added to a temporary store and rendered by scripts/results table, the cross-machine table (a column per "
           "machine and target, ns)", made_of="published", store=("table",),
           title="The reference table: every published run, a column per machine and target (ns)"),
    Report("site", "the same runs as a static site by scripts/results site (index.html: the table with filters and "
           "sorting, each cell's history, each machine's runs)", made_of="published", store=("site",),
           title="The reference site: every published run, a column per machine and target"),
)
BY_NAME = {r.name: r for r in REPORTS}

_HELP = """Regenerates the published reports in OUTDIR (default reports/) from scratch: builds (scripts/build), runs the
regbench commands each report is made of, renders each report with scripts/report (its title, its runs and their
labels) and rewrites the index (as scripts/report --index OUTDIR does). The guest runs share one scripts/guest
session, under TCG (REGBENCH_GUEST_ACCEL=tcg): those reports are about emulation costs. The whole publish takes a
few minutes.

Everything is measured and rendered in a staging folder inside OUTDIR and moved into place at the end: a report is
replaced only when every run it needs completed (regbench exited 0) and it rendered. scripts/report's manifest
(.report-files) says which files in a folder are the report's: a folder holding others is refused and left alone,
as scripts/report refuses it. A failed run or report leaves that report as it was and makes the exit status 1;
Ctrl-C stops at once and leaves every report and the index as they were (unless it comes while the reports are
moved into place: that ends first); bad arguments: one line, exit status 2. Environment: BUILD_DIR (default build),
REGBENCH_GUEST_TIMEOUT (default here 1800 s).

The reports:
""" + "\n".join(textwrap.fill(r.what, 116, initial_indent=f"  {r.name:<26}", subsequent_indent=" " * 28)
                for r in REPORTS)


def parser():
    p = Parser(prog="publish", usage="scripts/publish [--render-only] [--only NAME[,NAME...]] [OUTDIR]",
               description=_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("outdir", nargs="?", default="reports", metavar="OUTDIR", help="the published reports' folder")
    p.add_argument("--render-only", action="store_true",
                   help="re-render each report from the JSON already in its folder (ram: every ram-on-CPU/ folder): "
                        "no build, no runs (after a change in scripts/report)")
    p.add_argument("--only", action="append", metavar="LIST",
                   help="only these reports (names below, comma-separated); their runs are measured afresh")
    return p


def say(line):
    print(f"publish: {line}", flush=True)


def _tree(pid):
    """pid and every process below it (read before any is signalled, while the tree is whole)."""
    kids = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout.split()
    return [pid] + [p for k in kids for p in _tree(int(k))]


def call(cmd, **kw):
    """The exit status of cmd; a signal to publish stops it and everything it started (a QEMU guest runs in a process
    group of its own) before publish stops."""
    child = subprocess.Popen(cmd, **kw)
    try:
        return child.wait()
    except BaseException:
        pids = _tree(child.pid)
        for _ in range(2):          # a second signal stops regbench at once instead of after its benchmark
            for p in pids:
                try:
                    os.kill(p, signal.SIGTERM)
                except ProcessLookupError:
                    pass
            time.sleep(0.2)
        child.wait()
        raise


def last_line(path, replace=()):
    """The last non-empty line of a log, a tool's `name: ` taken off and paths replaced as (old, new) pairs."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = [l.strip() for l in f if l.strip()]
    except FileNotFoundError:
        return ""
    line = lines[-1] if lines else ""
    for old, new in replace:
        line = line.replace(old, new)
    return re.sub(r"^(report|results): ", "", line)


class Publish:
    """One publish: its options, the staging folder and what became of each run and report."""

    def __init__(self, args, stage):
        self.out, self.shown, self.render_only = os.path.abspath(args.outdir), args.outdir, args.render_only
        self.stage = stage.path
        self.build = os.environ.get("BUILD_DIR") or "build"
        self.failures = []
        self.this_cpu = None
        for d in ("runs", "logs", "cpus", "index"):
            os.mkdir(os.path.join(self.stage, d))

    def failed(self, name, why, hint):
        line = f"{self.shown}/{name}: {why} ({hint})"
        print(f"publish: {line}", file=sys.stderr, flush=True)
        self.failures.append(name)

    # --- measuring ---------------------------------------------------------------------------------------------

    def measure(self, reports):
        wanted = list(dict.fromkeys(r for rep in reports for r in rep.runs))
        say(f"building ({self.build})")
        if call([os.path.join(ROOT, "scripts", "build")]):
            raise SystemExit("publish: build: scripts/build failed (the output above says why)")
        runs = os.path.join(self.stage, "runs")
        if any(RUNS[r].where == "host" for r in wanted) and not os.path.isabs(self.build):
            # regbench records its command line: from a folder where build/ is the build it is the one to type
            link = os.path.join(runs, self.build)
            os.makedirs(os.path.dirname(link), exist_ok=True)
            os.symlink(os.path.join(ROOT, self.build), link)
        for r in (r for r in wanted if RUNS[r].where == "host"):
            cmd = [os.path.join(self.build, "bench", "regbench"), *RUNS[r].args, f"--benchmark_out={r}.json",
                   "--benchmark_out_format=json"]
            say(f"{r}: {' '.join(cmd)} (console table in the log; progress below)")
            t0 = time.time()
            with open(os.path.join(self.stage, "logs", f"{r}.txt"), "w") as log:
                st = call(cmd, cwd=runs, stdout=log)
            self._landed(r, st, os.path.join(runs, f"{r}.json"), f"regbench exited {st}", t0)
        for where, arch in (("guest", "x86_64"), ("guest-arm64", "arm64")):
            guest = [r for r in wanted if RUNS[r].where == where]
            if guest:
                self._guest(guest, arch)
        ram = os.path.join(runs, "ram.json")
        if os.path.isfile(ram):
            self.this_cpu = "ram-on-" + cpu_tag(ram)

    def _landed(self, r, st, path, why, t0):
        """Keeps a run that completed as runs/RUN.json; otherwise notes why in runs/RUN.failed."""
        dest = os.path.join(self.stage, "runs", f"{r}.json")
        if st == 0 and os.path.isfile(path) and os.path.getsize(path):
            os.replace(path, dest)
            say(f"{r}: done in {time.time() - t0:.0f} s")
            return
        if os.path.exists(dest):
            os.remove(dest)
        with open(os.path.join(self.stage, "runs", f"{r}.failed"), "w") as f:
            f.write(why)

    def _guest(self, runs, arch):
        lines = ["run() {", '\tn=$1', "\tshift", '\techo "== $n: regbench $*"', '\tregbench "$@" >"$n.txt" 2>&1',
                 "\ts=$?", '\techo "$s" >"$n.status"', '\techo "== $n: exit $s"', "}"]
        lines += [f"run {r} {guest_line(r, shlex.quote)[len('regbench '):]}" for r in runs] + ["exit 0"]
        say(f"guest: one {arch} QEMU TCG session for {' '.join(runs)} (a boot, then the runs: a minute or more)")
        env = dict(os.environ, REGBENCH_GUEST_ACCEL="tcg",
                   REGBENCH_GUEST_TIMEOUT=os.environ.get("REGBENCH_GUEST_TIMEOUT") or "1800")
        out = os.path.join(self.stage, f"guest-{arch}")
        t0 = time.time()
        with open(os.path.join(self.stage, "logs", f"guest-{arch}.txt"), "w") as log:
            st = 0
            if arch != "x86_64":
                # the other architecture's build, in its own folder (build-ARCH/), which that guest boots with
                env.pop("BUILD_DIR", None)
                st = call([os.path.join(ROOT, "scripts", "build"), "--arch", arch], stdout=log, stderr=log, env=env)
            if st == 0:
                st = call([os.path.join(ROOT, "scripts", "guest"), "--arch", arch, "--out", out, "--", "sh", "-c",
                           "\n".join(lines)], stdout=log, env=env)
        res = os.path.join(out, "results")
        for r in runs:
            try:
                with open(os.path.join(res, f"{r}.status")) as f:
                    rs = int(f.read().strip() or -1)
            except (OSError, ValueError):
                why = f"the guest session did not run it (scripts/guest exited {st})"
                rs = None
            else:
                why = f"regbench in the guest exited {rs}: {last_line(os.path.join(res, f'{r}.txt'))}"
            self._landed(r, rs, os.path.join(res, f"{r}.json"), why, t0)

    # --- what each report is made of ---------------------------------------------------------------------------

    def folders(self, rep):
        """The folders a report renders: ram's is this CPU's (measuring) or every CPU's with its run (rendering)."""
        if rep.name != "ram":
            return [rep.name]
        if not self.render_only:
            return [self.this_cpu or "ram-on-this-cpu"]
        return [d for d in self._published() if d.startswith("ram-on-") and os.path.isfile(os.path.join(self.out, d,
                                                                                                         "ram.json"))]

    def _published(self):
        return sorted(d for d in os.listdir(self.out) if not d.startswith(".") and os.path.isdir(os.path.join(self.out,
                                                                                                                d)))

    @staticmethod
    def _runs_in(d):
        """The run files of a report folder: its JSON, compare.json (verdicts, not a run) aside."""
        return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".json") and f != "compare.json"
                      and os.path.isfile(os.path.join(d, f)))

    def cpu_runs(self, dest):
        """ram-across-cpus' runs, as TAG.json: each ram-on-TAG/ram.json, this CPU's fresh run in place of its
        published one; rendering only, the TAG.json files its folder already holds."""
        if self.render_only:
            return self._runs_in(dest) if os.path.isdir(dest) else []
        cpus = os.path.join(self.stage, "cpus")
        for d in self._published():
            if d.startswith("ram-on-") and os.path.isfile(os.path.join(self.out, d, "ram.json")):
                shutil.copyfile(os.path.join(self.out, d, "ram.json"), os.path.join(cpus, d[len("ram-on-"):] + ".json"))
        if self.this_cpu:
            shutil.copyfile(os.path.join(self.stage, "runs", "ram.json"),
                            os.path.join(cpus, self.this_cpu[len("ram-on-"):] + ".json"))
        return self._runs_in(cpus)

    def reference_runs(self, ready):
        """Every other report folder's runs as this publish leaves it (its new rendering, else OUTDIR's)."""
        return [f for d in self._published() if BY_NAME.get(d, REPORTS[0]).made_of != "published"
                for f in self._runs_in(os.path.join(self.stage, d) if d in ready else os.path.join(self.out, d))]

    def missing(self, rep, n, dest, ready):
        """(why, what to try) when the report lacks a run it needs, else None."""
        kind = "ram" if n.startswith("ram-on-") else n
        if rep.made_of == "cpus" and len(self.cpu_runs(dest)) < 2:
            return ("fewer than two CPUs have a ram run, left as it was",
                    "publish ram on another kind of CPU: scripts/publish --only ram")
        if rep.made_of == "published" and not self.reference_runs(ready):
            return "no published run to put in it, left as it was", "publish the other reports first: scripts/publish"
        src = dest if self.render_only else os.path.join(self.stage, "runs")
        for r in rep.runs:
            if os.path.isfile(os.path.join(src, f"{r}.json")):
                continue
            if self.render_only:
                return f"no {r}.json in its folder, left as it was", f"measure it: scripts/publish --only {kind}"
            try:
                with open(os.path.join(self.stage, "runs", f"{r}.failed")) as f:
                    why = f.read()
            except FileNotFoundError:
                why = ""
            return (f"run {r} failed ({why}), left as it was",
                    f"the output above says more; retry with scripts/publish --only {kind}")
        return None

    # --- rendering ---------------------------------------------------------------------------------------------

    def render(self, rep, n, dest, ready):
        """Renders one report into dest; the exit status and the log of the tool that rendered it."""
        src = dest if self.render_only else os.path.join(self.stage, "runs")
        log = os.path.join(self.stage, "logs", f"report-{n}.txt")
        report, results = os.path.join(SCRIPTS, "report"), os.path.join(SCRIPTS, "results")
        if rep.made_of == "published":
            db = os.path.join(self.stage, f"{n}.sqlite")
            cmds = [[results, "add", "--db", db, *self.reference_runs(ready)],
                    [results, *rep.store, "--db", db, "-o", dest] + (["--title", rep.title] if rep.title else [])]
        else:
            files = self.cpu_runs(dest) if rep.made_of == "cpus" else [os.path.join(src, f"{r}.json") for r in rep.runs]
            labels = [os.path.basename(f)[:-len(".json")] for f in files] if rep.made_of == "cpus" else rep.labels
            cmd = [report] + (["--compare", "--names", ",".join(labels)] if labels else [])
            cmd += (["--title", rep.title] if rep.title else []) + (["--command", rep.command] if rep.command else [])
            cmds = [cmd + files + ["-o", dest]]
        with open(log, "w") as f:
            for cmd in cmds:
                st = call(cmd, stdout=subprocess.DEVNULL, stderr=f)
                if st:
                    break
        return st, log

    def index(self, ready):
        """Writes the index of the folders as they will be into the staging folder's README.md; the line why not."""
        mirror = os.path.join(self.stage, "index")
        if os.path.isfile(os.path.join(self.out, "README.md")):
            shutil.copy2(os.path.join(self.out, "README.md"), os.path.join(mirror, "README.md"))
        for d in set(os.listdir(self.out)) | set(ready):
            readme = os.path.join(self.stage if d in ready else self.out, d, "README.md")
            if not d.startswith(folder.STAGING) and os.path.isfile(readme):
                os.mkdir(os.path.join(mirror, d))
                shutil.copy2(readme, os.path.join(mirror, d, "README.md"))
        try:
            index.write(mirror)
        except index.NotAnIndex as e:
            return str(e).replace(mirror, self.shown)
        os.replace(os.path.join(mirror, "README.md"), os.path.join(self.stage, "README.md"))
        return None


def cpu_tag(path):
    """ram-on-TAG's TAG: the microarchitecture regbench names (cpu_uarch: "Zen 5" gives zen5), else the CPU model."""
    try:
        run = model.load(path)
        name = run.ctx("cpu_uarch") or run.ctx("cpu_model") or "unknown"
    except model.ReportError:
        name = "unknown"
    return re.sub(r"[^a-z0-9]", "", re.sub(r"\([^)]*\)", "", str(name).lower()))[:40]


def _selected(only):
    if not only:
        return list(REPORTS)
    names = [n for arg in only for n in arg.split(",") if n]
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        raise UsageError(f"--only: no report '{unknown[0]}' (the reports: {', '.join(BY_NAME)})")
    if not names:
        raise UsageError("--only: no report named (e.g. --only ram,trap)")
    return [r for r in REPORTS if r.name in names]


def _run(args):
    reports = _selected(args.only)
    if os.path.exists(args.outdir) and not os.path.isdir(args.outdir):
        raise UsageError(f"{args.outdir}: not a folder (give the folder of the published reports)")
    if args.render_only and not os.path.isdir(args.outdir):
        print(f"publish: {args.outdir}: no such folder (give the folder of the published reports)", file=sys.stderr)
        return 1
    began = time.time()
    with folder.Staging(args.outdir) as stage:
        p = Publish(args, stage)
        if not args.render_only:
            p.measure(reports)
        ready, listing = [], {}
        for rep in reports:
            for n in p.folders(rep):
                dest, here = os.path.join(p.stage, n), os.path.join(p.out, n)
                if os.path.isdir(here):
                    shutil.copytree(here, dest, symlinks=True)
                    listing[n] = sorted(os.listdir(here))
                gap = p.missing(rep, n, dest, ready)
                if gap:
                    p.failed(n, *gap)
                    continue
                say(f"{n}: rendering")
                st, log = p.render(rep, n, dest, ready)
                if st == 0:
                    ready.append(n)
                else:
                    tool = "scripts/results" if rep.made_of == "published" else "scripts/report"
                    why = last_line(log, [(dest, f"{p.shown}/{n}")]) or f"exit {st}"
                    p.failed(n, "not rendered, left as it was", f"{tool}: {why}")
        changed = [n for n in ready if n in listing and sorted(os.listdir(os.path.join(p.out, n))) != listing[n]]
        for n in changed:
            p.failed(n, "changed while publishing, left as it is", f"run scripts/publish --only {n} again")
        ready = [n for n in ready if n not in changed]
        if ready:
            why = p.index(ready)
            if why:
                print(f"publish: {p.shown}/README.md: the index cannot be rewritten, nothing was moved into place "
                      f"({why})", file=sys.stderr)
                return 1
            stage.swap(ready + ["README.md"])
            took = int(time.time() - began)
            say(f"regenerated {' '.join(ready)} in {p.shown} in {took // 60} min {took % 60} s; index: "
                f"{p.shown}/README.md")
    if p.failures:
        print(f"publish: {len(p.failures)} of {len(reports)} reports not regenerated "
              "(the lines above say why)", file=sys.stderr)
        return 1
    return 0


def main(argv=None):
    return command.run("publish", lambda: _run(parser().parse_args(argv)), errors=folder.FolderError,
                       interrupted="the reports are as they were: nothing was moved into place")
