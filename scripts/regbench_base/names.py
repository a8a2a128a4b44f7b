"""How the report writes benchmarks, sizes and sets of benchmarks for a reader.

Pure formatting: what a benchmark is comes from the file's metadata (model.Key);
nothing here takes a name apart or decides an order.  file_name() is the one
way a text from a run (an op, a benchmark, a host) becomes part of a path.
"""
import hashlib
import re

# What a file name made of a run's text keeps; anything else becomes one "_".
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
FILE_NAME_LIMIT = 120


def file_name(text, ext, taken=None):
    """A file name of the folder itself made of text (a run's op, a benchmark and machine): letters, digits, dot,
    dash and underscore kept, the rest one "_", no leading dot, at most FILE_NAME_LIMIT characters before ext.

    No text chooses a path: "/", "..", a NUL or 10,000 characters become an ordinary name.  A name cut short,
    or one already in taken (a set the caller keeps for the folder: "a/b" and "a_b"), carries a hash of the
    text, so two texts never write one file.
    """
    text = str(text)
    safe = _UNSAFE.sub("_", text).strip("._-") or "_"
    if len(safe) > FILE_NAME_LIMIT or (taken is not None and safe + ext in taken):
        safe = safe[:FILE_NAME_LIMIT].rstrip("._-") + "-" + hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:10]
    if taken is not None:
        taken.add(safe + ext)
    return safe + ext


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
