#!/usr/bin/python3
"""The host's checks of the result files the QEMU guest brought back, read through the one reader (model.load).

scripts/guest-test runs this for a section (edu, testdev, vfio, lost,
ivshmem, kernel, json) after the guest's own checks: each check prints
`ok: SECTION (host): what (FILE)` or `FAIL: SECTION (host): what (FILE): the
offenders`, and the exit status is the number of failures (at most 100).  A
check finds benchmarks by the fields the file declares (family, op, width,
strategy, param), never by their names, and says what is wrong as the
benchmark's name, state and reason.

    guest_results.py SECTION RESULTS-DIR ACCELERATOR
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from regbench_base import model             # noqa: E402
from regbench_base.state import State       # noqa: E402

# The timer each guest's CPU gets: x86-64's boots with -cpu max,-rdtscp (the lfence sequence), arm64's reads the
# generic counter (REGBENCH_GUEST_ARCH, set by ctest, says which guest this is).
TIMERS = {"x86_64": "lfence;rdtsc .. lfence;rdtsc;lfence", "arm64": "isb;mrs cntvct_el0 .. dsb ld;isb;mrs cntvct_el0"}
GUEST_ARCH = os.environ.get("REGBENCH_GUEST_ARCH") or "x86_64"
GUEST_TIMER = TIMERS[GUEST_ARCH]
# Read strategies of one access that every memory mapping measures, and those port I/O measures.
MMIO_READS = ("volatile", "relaxed", "barriered", "fenced", "locked")
PORT_READS = ("relaxed", "barriered", "fenced", "locked")
EDU_ID = "0x010000ed"


def say(res, what):
    """What is wrong with a benchmark: absent, or its name, state and reason."""
    return f"{what}: absent" if res is None else f"{res.name}: {res.state} {res.reason}".rstrip()


def _what(family, op, width, strategy, param):
    return " ".join(str(x) for x in (family, f"{op}{width or ''}", strategy, param) if x is not None)


def measured(run, family, op, width, strategy, param=None):
    """[] when the benchmark has a figure or a bound, else what is wrong with it."""
    res = run.find(family, op, width, strategy, param)
    return [] if res and res.state.timed else [say(res, _what(family, op, width, strategy, param))]


def skipped(run, family, op, width, strategy, why, param=None):
    """[] when the benchmark is skipped with a reason starting with why, else what is wrong with it."""
    res = run.find(family, op, width, strategy, param)
    ok = res and res.state is State.SKIPPED and res.reason.startswith(why)
    return [] if ok else [say(res, _what(family, op, width, strategy, param))]


def context(run, kind, mapping):
    """[] when the target is of this kind and mapping and the accelerator is labelled, else what it is."""
    c = run.context
    if c.get("target_kind") == kind and c.get("target_mapping") == mapping \
            and re.fullmatch(r"tcg|kvm", str(run.ctx("accelerator") or "")):
        return []
    return [f"kind {c.get('target_kind')}, mapping {c.get('target_mapping')}, "
            f"accelerator {run.ctx('accelerator', 'none')}"]


def ctx_is(run, key, want):
    """[] when the context's key holds want, else what it holds."""
    got = run.context.get(key, (run.context.get("labels") or {}).get(key))
    return [] if got == want else [f"{key} {'absent' if got is None else got}, wanted {want}"]


def every(run, families, op, widths, strategies, param=None):
    """measured() of each family x width x strategy."""
    return [o for f in families for w in widths for s in strategies for o in measured(run, f, op, w, s, param)]


def spaces(run, space, families=None):
    """The measured benchmarks (of families, all but barrier/ when None) that ran outside space."""
    return [f"{r.name}: measured in {r.space}" for r in run.results.values() if r.state.figure
            and r.space != space and (r.family in families if families else r.family != "barrier")]


def edu(load):
    read, write = load("edu-read.json"), load("edu-write.json")
    yield "edu BAR0: uc mmio, accelerator labelled, first read edu's ID", read, lambda r: (
        context(r, "mmio", "uc") + ctx_is(r, "target_first_read", EDU_ID) + ctx_is(r, "target_iommu", ""))
    yield "every 32-bit read strategy measured (thrpt, chain, lat)", read, lambda r: every(
        r, ("thrpt", "chain", "lat"), "read", (32,), MMIO_READS)
    yield "the cookie ioread32 and readl measured", read, lambda r: every(
        r, ("dispatch",), "read", (32,), ("cookie-mmio", "direct"))
    yield "8-bit skipped for widths=32, writes skipped as read-only", read, lambda r: (
        skipped(r, "thrpt", "read", 8, "relaxed", "the target allows only 32-bit")
        + skipped(r, "thrpt", "write", 32, "relaxed", "the target is read-only"))
    yield "with --allow-write=4+4 the write families on 0x04 measured", write, lambda r: every(
        r, ("thrpt", "lat", "flush"), "write", (32,), ("relaxed", "barriered", "locked"))


def testdev(load):
    port, mem = load("testdev-port.json"), load("testdev-mem.json")
    yield "BAR1: pio through ports", port, lambda r: context(r, "pio", "port")
    yield "port reads in every port strategy and width measured, in port space", port, lambda r: (
        every(r, ("thrpt", "chain", "lat"), "read", (8, 16, 32), PORT_READS) + spaces(r, "pio"))
    yield "rep insb/insl and the port loops measured; cookie-pio and inl measured", port, lambda r: (
        measured(r, "rep", "read", 32, "string", 8) + measured(r, "rep", "read", 8, "string", 64)
        + measured(r, "rep", "read", 32, "relaxed", 64) + every(r, ("dispatch",), "read", (32,), ("cookie-pio", "direct")))
    yield "what ports cannot do is skipped with the reason", port, lambda r: (
        skipped(r, "thrpt", "read", 64, "relaxed", "x86 has no 64-bit port I/O instruction")
        + skipped(r, "lat", "read", 32, "volatile", "C cannot dereference a port")
        + skipped(r, "dispatch", "read", 32, "cookie-mmio", "needs an MMIO target"))
    yield "BAR0: uc mmio, the same reads measured", mem, lambda r: (
        context(r, "mmio", "uc") + every(r, ("thrpt",), "read", (8, 16, 32), PORT_READS)
        + measured(r, "dispatch", "read", 32, "cookie-mmio"))
    yield "port:0xc000+256 measured", load("testdev-ports.json"), lambda r: (
        context(r, "pio", "port") + measured(r, "thrpt", "read", 32, "relaxed") + measured(r, "rep", "read", 32, "string", 8))
    yield "rep outsb/w/l and out measured with --allow-write", load("testdev-outs.json"), lambda r: (
        every(r, ("rep",), "write", (8, 16, 32), ("string",), 8) + every(r, ("thrpt", "flush"), "write", (8, 16, 32),
                                                                         ("relaxed",)))


def vfio(load):
    edu_map, edu_pread = load("vfio-edu.json"), load("vfio-edu-pread.json")
    testdev_vfio, port = load("vfio-testdev.json"), load("testdev-port.json")
    yield "edu BAR0 through vfio: mmapped (uc mmio), type-1 IOMMU, first read edu's ID", edu_map, lambda r: (
        context(r, "mmio", "uc") + ctx_is(r, "target_iommu", "type1") + ctx_is(r, "target_first_read", EDU_ID))
    yield "reads and the dispatch measured through the mapping", edu_map, lambda r: (
        every(r, ("thrpt", "chain", "lat"), "read", (32,), ("relaxed",)) + measured(r, "thrpt", "read", 32, "barriered")
        + measured(r, "dispatch", "read", 32, "cookie-mmio"))
    yield "edu BAR0 through the region's pread: region, first read edu's ID", edu_pread, lambda r: (
        context(r, "region", "pread") + ctx_is(r, "target_iommu", "type1") + ctx_is(r, "target_first_read", EDU_ID))
    yield "reads measured in region space; _rep skipped with the reason", edu_pread, lambda r: (
        every(r, ("thrpt", "chain", "lat"), "read", (32,), ("relaxed",)) + measured(r, "thrpt", "read", 32, "barriered")
        + [f"{x.name}: measured in {x.space}" for x in r.results.values() if x.state.figure and x.space != "region"]
        + skipped(r, "rep", "read", 32, "relaxed", "vfio-pci has no call that repeats one register", 8))
    yield ("writes through the mapping landed: 0x5a5a5a5a written, 0x04 first read its inverse",
           load("vfio-edu-write.json"), lambda r: (
               measured(r, "thrpt", "write", 32, "relaxed") + measured(r, "flush", "write", 32, "relaxed")
               + ctx_is(r, "target_first_read", "0xa5a5a5a5")))
    yield ("writes through pwrite landed: 0x04 first read 0xa5a5a5a5 (it held 0x0f0f0f0f)",
           load("vfio-edu-pwrite.json"), lambda r: (
               context(r, "region", "pread") + measured(r, "thrpt", "write", 32, "relaxed")
               + measured(r, "flush", "write", 32, "relaxed") + ctx_is(r, "target_first_read", "0xa5a5a5a5")))
    yield "pci-testdev BAR1 through vfio: region, port widths measured", testdev_vfio, lambda r: (
        context(r, "region", "pread") + every(r, ("thrpt", "chain", "lat"), "read", (8, 16, 32), ("relaxed",))
        + ([] if re.fullmatch(r"0x[0-9a-f]{8}", str(r.context.get("target_first_read")))
           else [f"target_first_read {r.context.get('target_first_read')}"]))
    yield "what a region cannot do is skipped with the reason", testdev_vfio, lambda r: (
        skipped(r, "thrpt", "read", 64, "relaxed", "the target allows only 8+16+32-bit")
        + skipped(r, "dispatch", "read", 32, "cookie-pio", "it reads through a mapping or a port cookie")
        + skipped(r, "lat", "read", 32, "volatile", "through a region every access is a pread/pwrite"))

    def same_names(r):
        other = testdev_vfio()
        direct = {x.name for x in r.results.values() if x.state.figure}
        return [f"{x.name}: only through vfio" for x in other.results.values() if x.state.figure
                and x.name not in direct]
    yield "the same port reads direct (in/out) have the names the vfio run has", port, same_names


def lost(load):
    yield "the context says the device stopped answering", load("lost.json"), lambda r: (
        [] if str(r.context.get("target_lost") or "").startswith("memory decoding is off in the command register")
        else [f"target_lost {r.context.get('target_lost') or 'absent'}"])

    def in_order(r):
        states = [x.state for x in r.results.values() if x.state is not State.SKIPPED]     # in run order
        cut = next((i for i, s in enumerate(states) if s.failed), None)
        ok = cut and all(s.timed for s in states[:cut]) and len(states) > cut + 1 \
            and all(s is State.NOT_RUN for s in states[cut + 1:])
        return [] if ok else [" ".join(map(str, states))]
    yield "in run order: measured until the device stopped, one error, the rest not run", load("lost.json"), in_order
    yield "the error names the cause", load("lost.json"), lambda r: [
        f"{x.name}: {x.reason}" for x in r.results.values() if x.state.failed
        and not x.reason.startswith("the device stopped answering: memory decoding is off")]


def ivshmem(load):
    yield "BAR2 through resource2: uc", load("ivshmem-uc.json"), lambda r: context(r, "mmio", "uc")
    yield "BAR2 through resource2_wc: wc", load("ivshmem-wc.json"), lambda r: context(r, "mmio", "wc")

    def copies(r):
        """Every copy strategy of the file at 4 KiB, the kernel's and the reference among them, in each direction."""
        out = []
        for op in ("fromio", "toio", "set"):
            mine = {x.strategy: x for x in r.results.values() if x.family == "copy" and x.op == op and x.param == 4096}
            want = {r.meta.kernel["copy"]} | {s for s in r.meta.kinds if r.meta.is_reference(s)}
            out += [f"copy {op} {s} 4096: absent" for s in sorted(want - set(mine))]
            # skipped for a feature this CPU lacks, or as another architecture's instructions (pair, neon on x86-64)
            out += [say(x, "") for x in mine.values() if not x.state.figure
                    and not x.reason.startswith(("this CPU", "arm64 only", "x86-64 only"))]
        return out
    for m in ("uc", "wc"):
        yield "copy families measured, or skipped for a missing CPU feature", load(f"ivshmem-{m}.json"), copies


def kernel(load):
    """The kernel: target's files: the module ran the kernel's own accessors under the same names as user space."""
    x86 = GUEST_ARCH == "x86_64"
    edu_run, shm = load("kernel-edu.json"), load("kernel-ivshmem.json")
    no_accessor = "the kernel has no accessor that issues it"
    yield "edu BAR0 in the kernel: uc mmio, runs_in kernel, the module's version and kernel, first read edu's ID", \
        edu_run, lambda r: (context(r, "mmio", "uc") + ctx_is(r, "runs_in", "kernel") + ctx_is(r, "target_first_read", EDU_ID)
                            + ([] if r.context.get("kmod_kernel") and r.context.get("kmod_version")
                               else ["kmod_kernel or kmod_version absent"]))
    yield "readl and readl_relaxed (ordered, relaxed) measured in thrpt, chain and lat", edu_run, lambda r: every(
        r, ("thrpt", "chain", "lat"), "read", (32,), ("ordered", "relaxed"))
    yield "readl inline, through a pointer, and the cookie's ioread32 measured; libiomap's own strategies skipped", \
        edu_run, lambda r: (every(r, ("dispatch",), "read", (32,), ("direct", "table", "cookie-mmio"))
                            + skipped(r, "dispatch", "read", 32, "cookie-inline", no_accessor)
                            + skipped(r, "thrpt", "read", 32, "volatile", no_accessor))
    yield "ivshmem BAR2 through pci_iomap_wc in the kernel: wc mmio", shm, lambda r: (
        context(r, "mmio", "wc") + ctx_is(r, "runs_in", "kernel"))
    yield "memcpy_fromio/toio, memset_io and the word copies measured; a SIMD copy skipped", shm, lambda r: (
        every(r, ("copy",), "fromio", (None,), ("kernel", "ioread32-copy"), 4096)
        + every(r, ("copy",), "toio", (None,), ("kernel", "iowrite32-copy"), 4096)
        + measured(r, "copy", "set", None, "kernel", 4096)
        + skipped(r, "copy", "toio", None, "simd", no_accessor if x86 else "x86-64 only", 4096))
    yield "readsX/writesX (the relaxed _rep) measured at every width", shm, lambda r: (
        every(r, ("rep",), "read", (8, 16, 32, 64), ("relaxed",), 8) + every(r, ("rep",), "write", (8, 16, 32, 64),
                                                                             ("relaxed",), 8))
    if not x86:
        return
    yield "writel and writel_relaxed measured with the write window", load("kernel-edu-write.json"), lambda r: every(
        r, ("thrpt", "lat", "flush"), "write", (32,), ("ordered", "relaxed"))
    port = load("kernel-testdev-port.json")
    yield "pci-testdev BAR1 in the kernel: pio through ports", port, lambda r: (
        context(r, "pio", "port") + ctx_is(r, "runs_in", "kernel"))
    yield "inb/inw/inl, insb/insl, inl and the cookie's ioread32 measured", port, lambda r: (
        every(r, ("thrpt", "lat"), "read", (8, 16, 32), ("ordered",)) + measured(r, "rep", "read", 8, "string", 8)
        + measured(r, "rep", "read", 32, "string", 8) + every(r, ("dispatch",), "read", (32,), ("direct", "cookie-pio"))
        + skipped(r, "dispatch", "read", 32, "cookie-mmio", "needs an MMIO target"))


def every_file(load, names, accel):
    for name in names:
        yield "parses; accelerator {} and the timer {} in the context; no benchmark failed".format(accel, GUEST_TIMER), \
            load(name), lambda r: (ctx_is(r, "accelerator", accel) + ctx_is(r, "timer", GUEST_TIMER)
                                   # a run whose device was lost fails on purpose: the lost section checks it
                                   + [f"{x.name}: {x.reason}" for x in r.results.values()
                                      if x.state.failed and r.context.get("target_lost") is None])


SECTIONS = {"edu": edu, "testdev": testdev, "vfio": vfio, "lost": lost, "ivshmem": ivshmem, "kernel": kernel}


def main(argv):
    if len(argv) != 3 or argv[0] not in SECTIONS and argv[0] != "json":
        print("usage: guest_results.py edu|testdev|vfio|lost|ivshmem|kernel|json RESULTS-DIR ACCELERATOR", file=sys.stderr)
        return 100
    section, folder, accel = argv
    runs = {}

    def load(name):
        """A function reading the file once, when a check first asks: a file that did not come back fails that check."""
        def run():
            if name not in runs:
                runs[name] = model.load(os.path.join(folder, name))
            return runs[name]
        run.name = name
        return run
    if section == "json":
        names = sorted(f for f in os.listdir(folder) if f.endswith(".json"))
        checks = list(every_file(load, names, accel))
    else:
        checks = list(SECTIONS[section](load))
    failed = 0
    for what, run, check in checks:
        try:
            offenders = check(run())
        except model.ReportError as e:
            offenders = [str(e)]
        if offenders:
            failed += 1
            print(f"FAIL: {section} (host): {what} ({run.name}): {'; '.join(offenders[:5])}")
        else:
            print(f"ok: {section} (host): {what} ({run.name})")
    if section == "json":
        n = len(names)
        print(f"{'ok' if n >= 8 else 'FAIL'}: {section} (host): {n} result files came back from the guest")
        failed += n < 8
    return min(failed, 100)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
