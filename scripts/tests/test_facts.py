"""Facts the docs quote from regbench, against what regbench writes: a change in the code fails here until the docs follow.

The timer's sequences, the counters' text and each family's description
belong to the C code (clock.c, the context's counters, family.c); regbench
writes them into its JSON (context keys timer and counters,
regbench.families[*].what).  The docs quote them, each quote marked where it
stands: <!--fact:PATH-->`QUOTE`, PATH being context.timer, context.counters
or families.NAME.what.  This test runs regbench once (quick, one benchmark),
validates its file against the schema as regbench writes it, and checks each
quote against the file.  A timer quote is either this CPU's sequence or the
other one, which this machine can check only in part: its start is the same.
"""
import glob
import json
import os
import re
import subprocess
import unittest

import fixture
from regbench_base import contract

ROOT = os.path.dirname(fixture.SCRIPTS)
REGBENCH = os.environ.get("REGBENCH") or os.path.join(ROOT, "build", "bench", "regbench")
DOCS = [os.path.join(ROOT, "README.md"), *sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))),
        os.path.join(ROOT, "iomap", "README.md")]
FACT = re.compile(r"<!--fact:([A-Za-z0-9_.-]+)-->`([^`]+)`")


def quotes():
    """[(file, line number, path, quoted text)] of every marked quote in the docs."""
    out = []
    for doc in DOCS:
        with open(doc, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                out += [(os.path.relpath(doc, ROOT), n, m.group(1), m.group(2)) for m in FACT.finditer(line)]
    return out


class Facts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(REGBENCH, os.X_OK):
            raise unittest.SkipTest(f"no regbench at {REGBENCH} (build it: scripts/build; ctest sets REGBENCH)")
        out = os.path.join(fixture.tmpdir(), "facts.json")
        p = subprocess.run([REGBENCH, "--quick", "--benchmark_filter=^barrier/mfence$", "--benchmark_repetitions=1",
                            f"--benchmark_out={out}", "--benchmark_out_format=json"], capture_output=True, text=True)
        if p.returncode != 0:
            raise AssertionError(f"regbench failed ({p.returncode}): {p.stderr}")
        with open(out, encoding="utf-8") as f:
            cls.doc = json.load(f)
        cls.quotes = quotes()

    def test_a_run_keeps_the_contract_as_regbench_writes_it(self):
        self.assertIsNone(contract.problem(self.doc))
        import jsonschema
        schema = contract.schema()
        written = jsonschema.Draft202012Validator(schema["$defs"]["as_written"],
                                                  resolver=jsonschema.RefResolver.from_schema(schema))
        errors = [contract.field(list(e.absolute_path)) + ": " + e.message for e in written.iter_errors(self.doc)]
        self.assertEqual(errors, [])

    def test_every_quote_is_regbench_s_text(self):
        ctx, families = self.doc["context"], self.doc["regbench"]["families"]
        self.assertTrue(self.quotes)
        for doc, line, path, text in self.quotes:
            with self.subTest(doc=doc, line=line, path=path):
                if path == "context.timer":
                    start = ctx["timer"].split(" .. ")[0]
                    self.assertTrue(text == ctx["timer"] or text.startswith(start + " .. "),
                                    f"{doc}:{line} quotes the timer as '{text}'; regbench writes '{ctx['timer']}'")
                elif path == "context.counters":
                    self.assertEqual(text, ctx["counters"], f"{doc}:{line}")
                elif path.startswith("families.") and path.endswith(".what"):
                    name = path[len("families."):-len(".what")]
                    self.assertIn(name, families, f"{doc}:{line} quotes a family regbench does not have")
                    self.assertEqual(text, families[name]["what"], f"{doc}:{line}")
                else:
                    self.fail(f"{doc}:{line}: no such fact: {path}")

    def test_the_docs_quote_every_fact(self):
        quoted = {path for _, _, path, _ in self.quotes}
        timers = {text for _, _, path, text in self.quotes if path == "context.timer"}
        self.assertIn(self.doc["context"]["timer"], timers, "the docs never quote this CPU's timer sequence")
        wanted = {"context.counters"} | {f"families.{f}.what" for f in self.doc["regbench"]["families"]}
        self.assertEqual(sorted(wanted - quoted), [], "facts regbench writes that the docs do not quote")


if __name__ == "__main__":
    unittest.main()
