"""How the report writes benchmarks, sizes and sets of benchmarks for a reader.

Pure formatting: what a benchmark is comes from the file's metadata (model.Key);
nothing here takes a name apart or decides an order.
"""


def opw(op, width):
    """An op with its width as a reader says it: read32, fromio, mfence."""
    return f"{op}{width}" if width else op


def label(key):
    """One benchmark as text, from its fields: lat/read32/relaxed, rep/write8/string/256, barrier/mfence."""
    return compact([key])[0]


def size_text(n):
    """Bytes as a reader says them: 64 B, 4 KiB, 1 MiB."""
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} B"


def compact(keys):
    """A short pattern for a set of benchmarks (model.Key): rep/{read,write}{8,16}/string/{1,8} (cross product).

    Benchmarks of the same family and strategy collapse into one pattern; the
    pattern is exact only when the set is the full cross product, so callers
    show the count beside it.
    """
    groups = {}
    for k in keys:
        g = groups.setdefault((k.family, k.strategy), [set(), set(), set()])
        g[0].add(k.op)
        g[1].add(k.width)
        g[2].add(k.param)

    def alt(values):
        vals = sorted(v for v in values if v is not None)
        if not vals:
            return ""
        text = ",".join(str(v) for v in vals)
        return text if len(vals) == 1 else "{" + text + "}"

    out = []
    for (family, strategy), (ops, widths, params) in sorted(groups.items()):
        parts = [family, alt(ops) + alt(widths), strategy, alt(params)]
        out.append("/".join(p for p in parts if p))
    return out
