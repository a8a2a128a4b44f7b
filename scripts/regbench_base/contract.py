"""The result file's contract, bench/regbench.schema.json: strict parsing, validation, one line for what breaks it.

The schema is where the contract is written: which fields a file has, of
which types, what each means.  This module reads a file's text as strict
JSON (no NaN, no number beyond a double), validates the document against the
schema (compiled once by schemacheck.py, which answers in a twentieth of the time
Debian's python3-jsonschema takes and agrees with it on every document), and
for a document that breaks it turns jsonschema's most relevant violation
into `FIELD: expected WHAT, got VALUE`, FIELD a path such as
regbench.benchmarks['lat/read32/relaxed'].state.  What a schema cannot say
(that a benchmark's family is one of the file's families, say) model.py
checks after it.
"""
import importlib.util
import json
import math
import os
import re
import sys

from . import schemacheck

SCHEMA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "bench",
                           "regbench.schema.json")

_cache = {}


def schema():
    """The schema as a dict (read once)."""
    if "schema" not in _cache:
        with open(SCHEMA_PATH, encoding="utf-8") as f:
            _cache["schema"] = json.load(f)
    return _cache["schema"]


def _compiled():
    if "compiled" not in _cache:
        _cache["compiled"] = schemacheck.compile_schema(schema())
    return _cache["compiled"]


def _validator():
    if "validator" not in _cache:
        import jsonschema      # Debian's python3-jsonschema; the command lines say so when it is missing
        _cache["validator"] = jsonschema.Draft202012Validator(schema())
    return _cache["validator"]


def unavailable():
    """Why this Python cannot validate files (it lacks Debian's python3-jsonschema), or None when it can."""
    # Found, not imported: a file that keeps the contract never needs it, and importing it takes a tenth of a second.
    if importlib.util.find_spec("jsonschema") is None:
        return (f"{sys.executable}: this Python has no jsonschema (run the script itself, which uses Debian's "
                "/usr/bin/python3, after scripts/setup or apt-get install python3-jsonschema)")
    return None


def version():
    """The contract version this reader reads (regbench.contract)."""
    return schema()["$defs"]["regbench"]["properties"]["contract"]["const"]


def states():
    """The states a benchmark can end in, as the contract spells them."""
    return list(schema()["$defs"]["state"]["enum"])


def run_fields():
    """The fields Google Benchmark writes in an entry; every other field of an entry is a counter."""
    return set(schema()["$defs"]["run"]["properties"])


# --- strict JSON ----------------------------------------------------------------------------

def _constant(name):
    raise ValueError(f"{name} is not a JSON number (regbench writes strict JSON and leaves such counters out)")


def _float(text):
    v = float(text)
    if not math.isfinite(v):
        raise ValueError(f"the number {text[:24]} is beyond what a double holds")
    return v


def _int(text):
    v = int(text)          # over 4300 digits: Python's own ValueError
    try:
        float(v)
    except OverflowError:
        raise ValueError(f"the number {text[:24]}... is beyond what a double holds") from None
    return v


def parse(text, parse_float=None, parse_int=None):
    """The document in text; json.JSONDecodeError for broken syntax, ValueError for JSON beyond what the contract
    allows (NaN, Infinity, a number no double holds) or Python reads (nesting deeper than its stack).  parse_float
    and parse_int, when given, replace the checks of each number: they must call _float and _int or raise as they do."""
    try:
        return json.loads(text, parse_constant=_constant, parse_float=parse_float or _float,
                          parse_int=parse_int or _int)
    except RecursionError:
        raise ValueError("nested deeper than this reader follows") from None


# --- validation -----------------------------------------------------------------------------

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_BY_NAME = {("regbench", "benchmarks"), ("regbench", "families"), ("regbench", "strategies"), ("regbench", "histograms")}
_TYPES = {"string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
          "array": "a list", "object": "an object", "null": "null"}


def field(parts):
    """A path into the document as a reader writes it: regbench.benchmarks['x'].state, benchmarks[3].cycles."""
    out = ""
    for i, p in enumerate(parts):
        if isinstance(p, int):
            out += f"[{p}]"
        elif tuple(parts[i - 2:i]) in _BY_NAME or not _NAME.match(p):
            out += "[" + repr(p) + "]"
        else:
            out += ("." if out else "") + p
    return out or "the file"


def _resolve(sub):
    while isinstance(sub, dict) and "$ref" in sub:
        node = schema()
        for part in sub["$ref"].lstrip("#/").split("/"):
            node = node[part]
        sub = node
    return sub if isinstance(sub, dict) else {}


def _word(v):
    return v if isinstance(v, str) and v else json.dumps(v)


def expected(sub):
    """What a value of the subschema is, in words: text, a whole number from 1 or null, one of a | b."""
    sub = _resolve(sub)
    if "title" in sub:
        return sub["title"]
    if "const" in sub:
        return _word(sub["const"])
    if "enum" in sub:
        return "one of " + " | ".join(_word(v) for v in sub["enum"])
    types = sub.get("type", [])
    types = [types] if isinstance(types, str) else list(types)
    words = [_TYPES.get(t, t) for t in types if t != "null"]
    text = " or ".join(words) or "a value"
    lo, hi = sub.get("minimum"), sub.get("maximum")
    if lo is not None and hi is not None:
        text += f" from {lo} to {hi}"
    elif lo is not None:
        text += f" of at least {lo}"
    elif hi is not None:
        text += f" of at most {hi}"
    return text + (" or null" if "null" in types else "")


def quoted(v):
    """A value as an error quotes it: short, one line."""
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, list):
        return "a list"
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _message(e):
    path = list(e.absolute_path)
    if e.validator == "required":
        missing = next((k for k in e.validator_value if k not in e.instance), e.validator_value[0])
        sub = _resolve(e.schema).get("properties", {}).get(missing, {})
        return f"{field(path + [missing])}: expected {expected(sub)}, found nothing"
    if e.validator in ("type", "enum", "const", "minimum", "maximum", "pattern"):
        return f"{field(path)}: expected {expected(e.schema)}, got {quoted(e.instance)}"
    if e.validator == "minItems":
        return f"{field(path)}: expected at least {e.validator_value} items, got {len(e.instance)}"
    return f"{field(path)}: {e.message}"


def problem(doc):
    """The one line saying how doc breaks the contract (the most relevant violation), or None when it keeps it.

    The compiled schema answers whether doc keeps the contract; only a document it rejects goes through
    jsonschema, whose best_match picks the violation to name (and which has the last word on validity).
    """
    if _compiled()(doc):
        return None
    from jsonschema.exceptions import best_match
    error = best_match(_validator().iter_errors(doc))
    return _message(error) if error else None
