#!/usr/bin/python3
"""context-keys.py: the schema's context part and the docs' table of context keys are what bench/context-keys.cc makes.

usage: context-keys.py CONTEXT-SCHEMA [--write]

CONTEXT-SCHEMA is the program built from the key table (build/bench/context-schema). Without --write,
fails (exit 1, saying what differs and how to fix it) when bench/regbench.schema.json's $defs/context,
the keys its $defs/as_written requires, or docs/METHOD.md's table of context keys differ from what the
table makes; with --write, puts them in place (run it after changing the table, and commit the result).
"""
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)
SCHEMA = os.path.join(ROOT, "bench", "regbench.schema.json")
METHOD = os.path.join(ROOT, "docs", "METHOD.md")
DOC_START = "<!-- context keys: made from bench/context-keys.cc (bench/tests/context-keys.py --write) -->"
DOC_END = "<!-- end of context keys -->"
WIDTH = 120


def _scalar(v):
    return not isinstance(v, (dict, list))


def _one_line(v):
    """A value written on one line in the schema's style: its members are scalars, lists of them or such objects."""
    members = v.values() if isinstance(v, dict) else v
    return all(_scalar(x) or (isinstance(x, list) and all(map(_scalar, x)))
               or (isinstance(x, dict) and all(map(_scalar, x.values()))) for x in members)


def dump(v, depth):
    """v as the schema file writes it at this depth: on one line where it is flat or short, else a member a line."""
    one = json.dumps(v, ensure_ascii=False)
    if _scalar(v) or _one_line(v) or 2 * depth + len(one) <= WIDTH:
        return one
    inner = "  " * (depth + 1)
    if isinstance(v, list):
        items = [inner + dump(x, depth + 1) for x in v]
        return "[\n" + ",\n".join(items) + "\n" + "  " * depth + "]"
    items = [inner + json.dumps(k, ensure_ascii=False) + ": " + dump(x, depth + 1) for k, x in v.items()]
    return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"


def required_list(keys, depth, lead):
    """The as_written list of keys, wrapped at WIDTH columns under its first key."""
    lines, line = [], ""
    indent = " " * (2 * depth + len(lead))
    for k in keys:
        item = json.dumps(k) + ", "
        if line and len(indent) + len(line) + len(item) > WIDTH:
            lines.append(line.rstrip())
            line = ""
        line += item
    lines.append(line.rstrip(", "))
    return "[" + ("\n" + indent + " ").join(lines) + "]"


def span(text, start, opener="{", closer="}"):
    """The end of the bracketed value that starts at text[start] (strings and their escapes skipped)."""
    depth, i, in_string = 0, start, False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 2
                continue
            in_string = c != '"'
        elif c == '"':
            in_string = True
        elif c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced schema text")


def splice_schema(text, made):
    """The schema's text with its context part and as_written's context keys replaced by what the table made."""
    head = '\n    "context": {'
    at = text.index(head, text.index('"$defs"')) + len(head) - 1
    text = text[:at] + dump(made["context"], 2) + text[span(text, at):]
    lead = '"required": '
    written = text.index(lead, text.index('"context"', text.index('"as_written"'))) + len(lead)
    depth = (written - len(lead) - text.rindex("\n", 0, written) - 1) // 2
    return text[:written] + required_list(made["written"], depth, lead) + text[span(text, written, "[", "]"):]


_WORDS = {"string": "text", "integer": "whole number", "number": "number", "boolean": "true or false",
          "array": "list", "object": "object"}


def value_words(p):
    """What a key's value is, in words, from its schema."""
    if "title" in p:
        return p["title"]
    if "enum" in p:
        return "one of " + ", ".join(f"`{v}`" if v else "nothing" for v in p["enum"])
    return _WORDS[p["type"]]


def doc_table(made):
    """docs/METHOD.md's table of the context keys, from the schema the table made."""
    rows = ["| key | set by | value | what it is |", "|---|---|---|---|"]
    for key, p in made["context"]["properties"].items():
        rows.append(f"| `{key}` | {p['$comment'].removeprefix('set by ')} | {value_words(p)} | "
                    f"{p['description'].replace('|', '/')} |")
    return "\n".join(rows)


def splice_doc(text, made):
    start, end = text.index(DOC_START) + len(DOC_START), text.index(DOC_END)
    return text[:start] + "\n" + doc_table(made) + "\n" + text[end:]


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[2:] not in ([], ["--write"]):
        sys.exit("usage: context-keys.py CONTEXT-SCHEMA [--write]")
    made = json.loads(subprocess.run([sys.argv[1]], check=True, capture_output=True, text=True).stdout)
    with open(SCHEMA, encoding="utf-8") as f:
        schema_text = f.read()
    with open(METHOD, encoding="utf-8") as f:
        method_text = f.read()
    new_schema, new_method = splice_schema(schema_text, made), splice_doc(method_text, made)
    if sys.argv[2:] == ["--write"]:
        json.loads(new_schema)
        for path, text in ((SCHEMA, new_schema), (METHOD, new_method)):
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return
    schema = json.loads(schema_text)
    failed = False
    checks = [
        ("bench/regbench.schema.json $defs/context", schema["$defs"]["context"], made["context"]),
        ("bench/regbench.schema.json $defs/as_written context keys",
         schema["$defs"]["as_written"]["properties"]["context"]["required"], made["written"]),
        ("docs/METHOD.md's table of context keys", method_text, new_method),
    ]
    for what, have, want in checks:
        if have == want:
            print(f"ok: {what} is what bench/context-keys.cc makes")
            continue
        failed = True
        if isinstance(want, dict):
            keys = sorted(set(have.get("properties", {})) ^ set(want["properties"]))
            changed = [k for k in want["properties"] if have.get("properties", {}).get(k) not in (None, want["properties"][k])]
            detail = f"keys only on one side: {keys}; keys that differ: {changed}"
        else:
            detail = "differs"
        print(f"FAIL: {what} is not what bench/context-keys.cc makes ({detail}): "
              f"run bench/tests/context-keys.py {sys.argv[1]} --write, and commit the result")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
