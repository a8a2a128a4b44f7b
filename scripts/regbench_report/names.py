"""Benchmark names (family/op+width/strategy[/param]) and what each family means.

DESIGN.md fixes the naming contract; this is the one place that parses it,
so that tables, charts and the skipped-list all agree on what a name says.
"""
import re
from dataclasses import dataclass
from typing import Optional

# What a family measures and in which unit its `cycles` counter is.  `sampled`
# families time single accesses: their values move in steps of the timer's
# resolution, which comparisons must treat as noise.
FAMILIES = {
    "lat": ("one access at a time between serializing TSC reads (median of all samples)", "per access", True),
    "chain": ("dependent reads, each address from the last value: read latency", "per read", False),
    "thrpt": ("independent back-to-back accesses: issue cost", "per access", False),
    "flush": ("a write and the read-back of the same register: when a posted write has landed", "per write+read", True),
    "rep": ("_rep of N elements on one register (a FIFO)", "per element", False),
    "copy": ("memcpy_fromio / memcpy_toio / memset_io of N bytes", "per copy", False),
    "barrier": ("an ordering primitive alone", "per barrier", False),
    "dispatch": ("generic cookie ioread32 versus the direct accessor and an indirect call", "per read", False),
}

# Strategies in the order DESIGN.md introduces them (cheapest ordering first);
# unknown ones follow alphabetically, libc (the reference row) comes last.
STRATEGY_ORDER = ["volatile", "relaxed", "barriered", "fenced", "locked", "string", "string-wide",
                  "simd", "simd-512", "simd-nt", "direct", "table", "cookie-mmio", "cookie-pio", "libc"]

# Benchmarks that run on the port window even when the target is MMIO.
PORT_STRATEGIES = {("rep", "string"), ("dispatch", "cookie-pio")}

_OPW = re.compile(r"^([a-z]+?)(8|16|32|64)(be)?$")


@dataclass(frozen=True)
class Name:
    """One benchmark name taken apart; fields absent from the name are None."""
    text: str
    family: str
    op: str            # read, write, fromio, toio, set, mfence, ...
    width: Optional[int]
    strategy: str      # "" for barrier/
    param: Optional[int]

    @property
    def opw(self):
        """The op with its width, as in the name: read32, read16be, fromio."""
        return self.text.split("/")[1] if "/" in self.text else self.op

    def on_port(self, target_kind):
        """Whether this benchmark ran on port I/O in a run on a target of target_kind."""
        return target_kind == "pio" or (self.family, self.strategy) in PORT_STRATEGIES


def parse(text):
    """Takes a name apart; a name of another shape comes back with family and the rest as op."""
    parts = text.split("/")
    family = parts[0]
    op, width, strategy, param = (parts[1] if len(parts) > 1 else ""), None, "", None
    m = _OPW.match(op)
    if m:
        op, width = m.group(1) + (m.group(3) or ""), int(m.group(2))
    if len(parts) > 2:
        strategy = parts[2]
    if len(parts) > 3 and parts[3].isdigit():
        param = int(parts[3])
    return Name(text, family, op, width, strategy, param)


def strategy_key(s):
    """Sort key putting strategies in STRATEGY_ORDER, unknown ones before libc."""
    if s in STRATEGY_ORDER:
        i = STRATEGY_ORDER.index(s)
        return (1, i, "") if s == "libc" else (0, i, "")
    return (0, len(STRATEGY_ORDER) - 1, s)


def size_text(n):
    """Bytes as a reader says them: 64 B, 4 KiB, 1 MiB."""
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} B"


def compact(names):
    """A short pattern for a set of names: rep/{read,write}{8,16}/string/{1,8} (cross product).

    Names of the same family and strategy collapse into one pattern; the
    pattern is exact only when the set is the full cross product, so callers
    show the count beside it.
    """
    groups = {}
    for n in map(parse, names):
        g = groups.setdefault((n.family, n.strategy), [set(), set(), set()])
        g[0].add(n.op)
        g[1].add(n.width)
        g[2].add(n.param)

    def alt(values, key=None):
        vals = sorted((v for v in values if v is not None), key=key)
        if not vals:
            return ""
        text = ",".join(str(v) for v in vals)
        return text if len(vals) == 1 else "{" + text + "}"

    out = []
    for (family, strategy), (ops, widths, params) in sorted(groups.items()):
        p = family + "/" + alt(ops) + alt(widths)
        if strategy:
            p += "/" + strategy
        if params - {None}:
            p += "/" + alt(params)
        out.append(p.replace("//", "/").rstrip("/"))
    return out
