"""A JSON Schema compiled into plain Python predicates: says whether a document keeps the contract, fast.

python3-jsonschema interprets the schema afresh for every value, which
costs a third of a second for one default run; the store adds runs by the
hundred.  This module walks the schema once and turns each subschema into a
closure that answers True (valid) or False, nothing more: when a document
fails, contract.py still asks jsonschema for its best_match, so the one-line
message is the same as ever.

It must never accept what jsonschema (Draft202012Validator, the version
Debian ships) rejects.  So it knows a fixed set of keywords, each checked the
way that validator checks it, and refuses a schema that uses any other
(SchemaUnsupported) rather than skipping it.  Each keyword applies only to
the JSON types it is about (minimum ignores text, required ignores lists),
as in JSON Schema.  The instances it is meant for are what json.loads
returns: dict, list, str, int, float, bool and None.
"""
import numbers
import re
import urllib.parse

DIALECT = "https://json-schema.org/draft/2020-12/schema"

# Keywords that only describe (annotations) or hold subschemas for $ref and "if": no check of their own.
_ANNOTATIONS = {"title", "description", "$comment", "$defs", "then", "else"}
# Keywords checked here, each as jsonschema checks it; any other in a schema is refused.
_CHECKED = {"type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "pattern", "properties", "required",
            "additionalProperties", "propertyNames", "items", "minItems", "$ref", "allOf", "if"}


class SchemaUnsupported(Exception):
    """The schema uses something this compiler does not check; str() names the keyword and where it is."""


# --- JSON types as Draft 2020-12 (and jsonschema) defines them: booleans are not numbers, 3.0 is an integer ---

def _is_number(x):
    t = x.__class__
    if t is int or t is float:
        return True
    return not isinstance(x, bool) and isinstance(x, numbers.Number)


def _is_integer(x):
    t = x.__class__
    if t is int:
        return True
    if t is float:
        return x.is_integer()
    if isinstance(x, bool):
        return False
    return isinstance(x, int) or isinstance(x, float) and x.is_integer()


_TYPES = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "number": _is_number,
    "integer": _is_integer,
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}


def _type(names):
    names = [names] if isinstance(names, str) else names
    unknown = [n for n in names if n not in _TYPES]
    if unknown or not names:
        raise SchemaUnsupported(f"type {unknown or names!r}")
    tests = [_TYPES[n] for n in names]
    if len(tests) == 1:
        return tests[0]
    return lambda x: any(t(x) for t in tests)


def _equal_to(value, where):
    """A test that x equals value in JSON Schema's sense (1 == 1.0, but true is not 1), for a scalar value."""
    if isinstance(value, bool) or value is None:
        return lambda x: x is value
    if isinstance(value, str):
        return lambda x: x == value
    if isinstance(value, (int, float)):
        return lambda x: x == value and not isinstance(x, bool)
    raise SchemaUnsupported(f"{where}: a value other than text, a number, true, false or null ({value!r})")


def _enum(values, where):
    if not isinstance(values, list) or not values:
        raise SchemaUnsupported(f"{where}: enum that is not a list of values")
    words = frozenset(v for v in values if isinstance(v, str))
    others = [_equal_to(v, where) for v in values if not isinstance(v, str)]
    if not others:
        return lambda x: isinstance(x, str) and x in words
    return lambda x: (isinstance(x, str) and x in words) or any(t(x) for t in others)


def _type_and_bounds(node, kind):
    """One test for node's type (kind: its "type", a name, a list of names or None) and its minimum, maximum and
    exclusiveMinimum, which apply to numbers only; None when node has none of them.  A single numeric type and
    its bounds are one closure: counters, the most frequent values in a file, cost one call each."""
    lo, hi, above = node.get("minimum"), node.get("maximum"), node.get("exclusiveMinimum")
    for k, v in (("minimum", lo), ("maximum", hi), ("exclusiveMinimum", above)):
        if v is not None and not _is_number(v):
            raise SchemaUnsupported(f"{k} {v!r} is not a number")
    typ = _type(kind) if kind is not None else None
    if lo is None and hi is None and above is None:
        return typ
    lo = float("-inf") if lo is None else lo
    hi = float("inf") if hi is None else hi

    # Compared as jsonschema compares (x < minimum fails, x > maximum fails), so that a NaN passes both as there.
    def inside(x):
        return not x < lo and not x > hi and (above is None or not x <= above)
    if kind in ("number", "integer"):
        integer = kind == "integer"

        def typed(x):
            t = x.__class__
            if t is float:
                if integer and not x.is_integer():
                    return False
            elif t is not int and not typ(x):
                return False
            return not x < lo and not x > hi and (above is None or not x <= above)
        return typed
    if typ is None:
        return lambda x: not _is_number(x) or inside(x)
    return lambda x: typ(x) and (not _is_number(x) or inside(x))


class _Compiler:
    def __init__(self, root):
        if not isinstance(root, dict) or root.get("$schema") != DIALECT:
            raise SchemaUnsupported(f"$schema: only {DIALECT} is compiled")
        self.root = root
        self.done = {}       # id(subschema) -> its test
        self.pending = {}    # id(subschema) -> the box a $ref to it, met while compiling it, reads

    def resolve(self, ref):
        if not ref.startswith("#"):
            raise SchemaUnsupported(f"$ref {ref!r}: only references inside the schema are compiled")
        node = self.root
        pointer = urllib.parse.unquote(ref[1:])
        for part in pointer.split("/")[1:] if pointer else []:
            part = part.replace("~1", "/").replace("~0", "~")
            try:
                node = node[int(part)] if isinstance(node, list) else node[part]
            except (KeyError, IndexError, ValueError, TypeError):
                raise SchemaUnsupported(f"$ref {ref!r}: no such place in the schema") from None
        return node

    def test(self, node, where):
        """The compiled test of node; a $ref back to a node still being compiled goes through a box filled later."""
        key = id(node)
        if key in self.done:
            return self.done[key]
        if key in self.pending:
            box = self.pending[key]
            return lambda x: box[0](x)
        self.pending[key] = box = [None]
        box[0] = self.done[key] = self.build(node, where)
        del self.pending[key]
        return box[0]

    def build(self, node, where):
        if node is True:
            return lambda x: True
        if node is False:
            return lambda x: False
        if not isinstance(node, dict):
            raise SchemaUnsupported(f"{where}: a schema that is not an object or a boolean")
        known = _ANNOTATIONS | _CHECKED | ({"$schema"} if node is self.root else set())
        unknown = sorted(set(node) - known)
        if unknown:
            raise SchemaUnsupported(f"{where}: keyword {unknown[0]!r} is not compiled (teach schemacheck.py, "
                                    "checked the way jsonschema checks it)")
        tests = []
        typed = _type_and_bounds(node, node.get("type"))
        if typed:
            tests.append(typed)
        if "enum" in node:
            tests.append(_enum(node["enum"], f"{where}/enum"))
        if "const" in node:
            tests.append(_equal_to(node["const"], f"{where}/const"))
        if "pattern" in node:
            search = re.compile(node["pattern"]).search      # jsonschema uses re.search: unanchored, Python's dialect
            tests.append(lambda x: not isinstance(x, str) or search(x) is not None)
        obj = self.object_test(node, where)
        if obj:
            tests.append(obj)
        arr = self.array_test(node, where)
        if arr:
            tests.append(arr)
        if "$ref" in node:
            tests.append(self.test(self.resolve(node["$ref"]), node["$ref"]))
        for i, sub in enumerate(node.get("allOf", [])):
            tests.append(self.test(sub, f"{where}/allOf/{i}"))
        if "if" in node:
            cond = self.test(node["if"], f"{where}/if")
            then = self.test(node.get("then", True), f"{where}/then")
            other = self.test(node.get("else", True), f"{where}/else")
            tests.append(lambda x: then(x) if cond(x) else other(x))
        return _all(tests)

    def object_test(self, node, where):
        """One test for properties, required, additionalProperties and propertyNames (objects only), or None."""
        props = {k: self.test(v, f"{where}/properties/{k}") for k, v in node.get("properties", {}).items()}
        required = tuple(node.get("required", ()))
        extra = self.test(node["additionalProperties"], f"{where}/additionalProperties") \
            if "additionalProperties" in node else None
        names = self.test(node["propertyNames"], f"{where}/propertyNames") if "propertyNames" in node else None
        if not props and not required and extra is None and names is None:
            return None

        def check(x):
            if not isinstance(x, dict):
                return True
            for k in required:
                if k not in x:
                    return False
            if names is not None:
                for k in x:
                    if not names(k):
                        return False
            if extra is None:
                for k, t in props.items():
                    if k in x and not t(x[k]):
                        return False
                return True
            for k, v in x.items():
                t = props.get(k, extra)
                if not t(v):
                    return False
            return True
        return check

    def array_test(self, node, where):
        """One test for items and minItems (lists only), or None."""
        item = self.test(node["items"], f"{where}/items") if "items" in node else None
        least = node.get("minItems", 0)
        if item is None and not least:
            return None

        def check(x):
            if not isinstance(x, list):
                return True
            if len(x) < least:
                return False
            return item is None or all(map(item, x))
        return check


def _all(tests):
    if not tests:
        return lambda x: True
    if len(tests) == 1:
        return tests[0]
    if len(tests) == 2:
        a, b = tests
        return lambda x: a(x) and b(x)
    return lambda x: all(t(x) for t in tests)


def compile_schema(schema, at="#"):
    """The test (instance -> bool) of the subschema of schema at the JSON pointer `at`; SchemaUnsupported if
    the schema uses a keyword or value this module does not check."""
    c = _Compiler(schema)
    return c.test(c.resolve(at), at)
