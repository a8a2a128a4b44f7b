"""Tests of regbench_base.schemacheck: the compiled schema says valid exactly where python3-jsonschema does.

The compiled schema decides whether a result file keeps the contract, and
jsonschema is only asked to word the failure; so the two must agree on every
document.  Besides the files the project keeps (fixtures, fuzz regressions,
published runs), the test feeds both a few hundred seeded mutations of them,
each the kind of damage the schema is there to catch.  Published runs over
400 kB are cut to one entry of each shape (which fields it has, of which
types) before jsonschema reads them, so that the test takes seconds.
"""
import functools
import glob
import hashlib
import json
import os
import random
import subprocess
import sys
import unittest

import jsonschema
from jsonschema.exceptions import best_match

import fixture
from regbench_base import contract, schemacheck
from regbench_base.schemacheck import DIALECT, SchemaUnsupported, compile_schema

ROOT = os.path.dirname(fixture.SCRIPTS)
_LARGE = 400_000

# Values of every JSON type and the edges the schema draws: 3.0 is an integer, true is not a number, 2^53 is the
# largest counter, "12\n" matches a pattern ending in $ (Python's $ allows a final newline, as jsonschema's re does).
_VALUES = [None, True, False, 0, 1, -1, 3.0, 0.5, -0.0, 2 ** 53, 2 ** 53 + 1, -2 ** 53 - 1, 1e308, "", "x", "12",
           "12\n", " 12", "1.5", "-3", "0x1f", "0X1F", "measured", "below_resolution", "mmio", "count", "SIGINT",
           "0123456789abcdef0123456789abcdef", [], ["x"], [1, 2], {}, {"x": 1}]
# Keys to add to an object: undeclared ones, declared ones of other objects, label keys the schema refuses.
_KEYS = ["extra", "bound", "pair", "note", "grid", "relaxed", "cycles", "run_type", "a=b", "a,b", "", "unit", "step",
         "tsc_hz", "labels", "contract"]


def _sources():
    """(name, text) of every JSON file the project keeps, each distinct text once."""
    patterns = ["scripts/tests/fixtures/*.json", "fuzz/regress/report/*.json", "reports/**/*.json",
                "bench/tests/**/*.json"]
    seen, out = set(), []
    for p in sorted(set(f for pat in patterns for f in glob.glob(os.path.join(ROOT, pat), recursive=True))):
        with open(p, "rb") as f:
            data = f.read()
        digest = hashlib.sha256(data).digest()
        if digest not in seen:
            seen.add(digest)
            out.append((os.path.relpath(p, ROOT), data.decode("utf-8", "replace")))
    return out


def _shape(v):
    if isinstance(v, dict):
        return tuple(sorted((k, _shape(x)) for k, x in v.items()))
    if isinstance(v, list):
        return ("list", len(v) > 0)
    return type(v).__name__


def _cut(doc):
    """A large run with one entry, benchmark and histogram of each shape (its context and metadata whole)."""
    def one_of_each(items):
        kept = {}
        for k, v in items:
            kept.setdefault(_shape(v), (k, v))
        return list(kept.values())
    if not isinstance(doc, dict):
        return doc
    out = dict(doc)
    if isinstance(doc.get("benchmarks"), list):
        out["benchmarks"] = [v for _, v in one_of_each(enumerate(doc["benchmarks"]))]
    rb = doc.get("regbench")
    if isinstance(rb, dict):
        out["regbench"] = dict(rb)
        for part in ("benchmarks", "histograms"):
            if isinstance(rb.get(part), dict):
                out["regbench"][part] = dict(one_of_each(rb[part].items()))
    return out


@functools.lru_cache(maxsize=None)
def _documents(large=_LARGE):
    """(name, document) of every kept file that parses as strict JSON, runs over `large` bytes cut."""
    out = []
    for name, text in _sources():
        try:
            doc = contract.parse(text)
        except ValueError:      # broken JSON, NaN, nesting too deep: the parser's refusal, not the schema's
            continue
        out.append((name, _cut(doc) if len(text) > large else doc))
    return out


def _places(doc, out):
    """Every (container, key) in the document."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for k, v in items:
        out.append((doc, k))
        _places(v, out)
    return out


def _pick(obj, rng):
    return obj[rng.choice(sorted(obj))] if isinstance(obj, dict) and obj else {}


def _targeted(doc, rng):
    """A change at a place a rule of the schema is about (random places rarely meet the rarer rules)."""
    rb, ctx = doc["regbench"], doc["context"]
    bench, hist = _pick(rb["benchmarks"], rng), _pick(rb.get("histograms"), rng)
    what = rng.randrange(8)
    if what == 0:                   # if below_resolution then a bound is required
        bench["state"] = "below_resolution"
        if rng.random() < 0.5:
            bench.pop("bound", None)
        return f"below_resolution with bound {bench.get('bound', 'absent')}"
    if what == 1 and hist:          # minItems of edges (2) and counts (1)
        part = rng.choice(["edges", "counts"])
        hist[part] = hist[part][:rng.randrange(3)]
        return f"{len(hist[part])} histogram {part}"
    if what == 2:                   # const 1: 1.0 is 1, true is not
        rb["contract"] = rng.choice([1.0, True, "1", 2, 0.5])
        return f"contract {rb['contract']!r}"
    if what == 3 and bench:         # integer or null of at least 1
        bench[rng.choice(["width", "param"])] = rng.choice([3.0, 0, 1.5, True, "8", None, 2 ** 53 + 1.0])
        return "width or param changed"
    if what == 4:                   # label keys have no comma or equals sign
        ctx.setdefault("labels", {})[rng.choice(["a=b", "a,b", "", "ok"])] = rng.choice(["x", 1])
        return "label added"
    if what == 5:                   # numbers as decimal text: the pattern is unanchored at neither end
        key = rng.choice(["tsc_hz", "target_len", "env_sibling_busy", "microcode", "machine_id", "cpu"])
        ctx[key] = rng.choice(["12\n", "x12", "1e9", "", "-3.5", "0x1f", "0X1F", "12.", "0123456789abcdef" * 2])
        return f"{key} {ctx[key]!r}"
    if what == 6 and hist.get("grid"):  # exclusiveMinimum of step, maximum of sub_buckets
        hist["grid"][rng.choice(["step", "sub_buckets"])] = rng.choice([0, -1, 0.0, 1e-9, 65536, 65537, 2.0, False])
        return "grid changed"
    entry = rng.choice(doc["benchmarks"])  # a counter: a number within 2^53
    entry[rng.choice(["cycles", "extra_counter", "ns"])] = rng.choice([2 ** 53, 2 ** 53 + 1, -2 ** 53 - 1, True, "1"])
    return "counter changed"


def _mutate(doc, rng):
    """doc with one seeded change, and what the change was."""
    doc = json.loads(json.dumps(doc))
    how = rng.randrange(8)
    if how >= 6:
        return doc, _targeted(doc, rng)
    container, key = rng.choice(_places(doc, []))
    old = container[key]
    if how == 0:
        del container[key]
        return doc, f"dropped {key!r}"
    if how == 1 and isinstance(old, dict):
        extra = rng.choice(_KEYS)
        old[extra] = rng.choice(_VALUES)
        return doc, f"added {extra!r} to {key!r}"
    if how == 2 and isinstance(old, (int, float)) and not isinstance(old, bool):
        new = rng.choice([float(old), old + 0.5, -old - 1, old * 1e20 + 1, old == 1, str(old)])
    elif how == 2 and isinstance(old, str):
        new = rng.choice([old + "\n", old + "x", "x" + old, old.upper(), old[:-1], ""])
    else:
        new = rng.choice(_VALUES)
    container[key] = new
    return doc, f"{key!r}: {old!r:.40} -> {new!r:.40}"


class Differential(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.docs = _documents()
        cls.cut = _documents(0)
        cls.compiled = staticmethod(contract._compiled())
        cls.validator = jsonschema.Draft202012Validator(contract.schema())

    def agree(self, name, doc):
        """Fails unless the compiled schema and jsonschema agree on doc, and problem() words it as jsonschema does."""
        error = best_match(self.validator.iter_errors(doc))
        ours = self.compiled(doc)
        self.assertEqual(ours, error is None, f"{name}: compiled says {'valid' if ours else 'invalid'}, "
                         f"jsonschema {error.message if error else 'valid'}")
        self.assertEqual(contract.problem(doc), contract._message(error) if error else None, name)
        return ours

    def test_kept_files(self):
        verdicts = [self.agree(name, doc) for name, doc in self.docs]
        self.assertGreater(len(verdicts), 30)
        self.assertGreater(verdicts.count(True), 10)      # the published runs and good fixtures
        self.assertGreater(verdicts.count(False), 5)      # fixtures and fuzz regressions that break the contract

    def test_large_runs_whole(self):
        """What the cut leaves out is checked by the compiled schema alone: every published run keeps the contract."""
        for name, text in _sources():
            if name.startswith("reports/") and len(text) > _LARGE:
                self.assertTrue(self.compiled(contract.parse(text)), name)

    def test_seeded_mutations(self):
        rng = random.Random(25)
        runs = [(n, d) for n, d in self.cut if self.compiled(d) and isinstance(d.get("regbench"), dict)]
        verdicts = []
        for i in range(400):
            name, doc = rng.choice(runs)
            mutated, what = _mutate(doc, rng)
            verdicts.append(self.agree(f"mutation {i} of {name} ({what})", mutated))
        # both verdicts in good number, or the mutations test nothing
        self.assertGreater(verdicts.count(False), 100)
        self.assertGreater(verdicts.count(True), 50)


    def test_a_valid_file_needs_no_jsonschema(self):
        """Only a file that breaks the contract imports jsonschema (to word why): reading a good one does not."""
        code = ("import json, sys; from regbench_base import contract, model\n"
                "doc = json.load(open(sys.argv[1]))\n"
                "if sys.argv[2] == 'break': next(iter(doc['regbench']['benchmarks'].values()))['state'] = 'bogus'\n"
                "print(contract.problem(doc), 'jsonschema' in sys.modules)")
        for how, printed in (("keep", "None False"), ("break", "True")):
            out = subprocess.run([sys.executable, "-c", code, fixture.path("single.json"), how], cwd=fixture.SCRIPTS,
                                 capture_output=True, text=True)
            self.assertTrue(out.stdout.strip().endswith(printed), f"{how}: {out.stdout}{out.stderr}")


class Semantics(unittest.TestCase):
    """JSON Schema's details, each on a small schema, against jsonschema over values of every type."""
    VALUES = _VALUES + [1.0, 2, 4.5, "a", "ab", "ba", "a\n", ["a"], ["a", 1], [[]], {"a": "x"}, {"a": 1},
                        {"a=b": "x"}, {"a": {"a": "x"}}, {"a": {"a": 1}}, {"state": "below_resolution"},
                        {"state": "below_resolution", "bound": 1}, {"state": "measured", "bound": "x"}]
    SCHEMAS = [
        {"type": "integer"},
        {"type": "number"},
        {"type": "boolean"},
        {"type": ["integer", "null"], "minimum": 1},
        {"exclusiveMinimum": 0, "maximum": 4.5},
        {"pattern": "a"},
        {"pattern": "^[0-9]+$"},
        {"enum": [None, "a", "count"]},
        {"enum": [1, True, "a"]},
        {"const": 1},
        {"const": False},
        {"const": "a"},
        {"items": {"type": "string"}, "minItems": 1},
        {"items": False},
        {"type": "object", "propertyNames": {"pattern": "^[^,=]+$"}, "additionalProperties": {"type": "string"}},
        {"properties": {"a": {"type": "string"}}, "additionalProperties": False, "required": ["a"]},
        {"$defs": {"n": {"type": ["object", "string"], "additionalProperties": {"$ref": "#/$defs/n"}}},
         "$ref": "#/$defs/n"},
        {"properties": {"bound": {"type": "number"}}, "if": {"properties": {"state": {"const": "below_resolution"}}},
         "then": {"required": ["bound"]}},
        {"if": {"type": "string"}, "then": {"pattern": "b"}, "else": {"type": "array"}},
        {"allOf": [{"type": "number"}, {"minimum": 2}]},
    ]

    def test_each_keyword_as_jsonschema_checks_it(self):
        for body in self.SCHEMAS:
            schema = {"$schema": DIALECT, **body}
            ours, theirs = compile_schema(schema), jsonschema.Draft202012Validator(schema)
            for v in self.VALUES:
                self.assertEqual(ours(v), theirs.is_valid(v), f"{body} on {v!r}")

    def test_a_keyword_it_does_not_check_is_refused(self):
        for body in ({"format": "date-time"}, {"properties": {"a": {"maxLength": 3}}}, {"$ref": "other.json#"},
                     {"type": "any"}, {"enum": [[1]]}, {"patternProperties": {"^a": {}}}, {"$ref": "#/$defs/none"}):
            with self.assertRaises(SchemaUnsupported, msg=body):
                compile_schema({"$schema": DIALECT, **body})
        with self.assertRaises(SchemaUnsupported):
            compile_schema({"type": "object"})      # no dialect: not known to be 2020-12

    def test_as_written_agrees(self):
        """The stricter $defs/as_written (allOf with a $ref to the whole schema) compiles and agrees too."""
        schema = contract.schema()
        ours = compile_schema(schema, "#/$defs/as_written")
        theirs = jsonschema.Draft202012Validator(schema["$defs"]["as_written"],
                                                 resolver=jsonschema.RefResolver.from_schema(schema))
        for name, doc in _documents(0):
            self.assertEqual(ours(doc), theirs.is_valid(doc), name)


if __name__ == "__main__":
    unittest.main()
