"""Hostile run files for the tests that a run file is data: every text of a fixture made markup or a formula.

hostile(fixture) rewrites a fixture's every free text (host, CPU, kernel,
firmware, target, labels, the families' names, words and units, the
strategies' names and help, ops, benchmark names, reasons) into a payload
that would run in a page (a script, an event handler, a javascript: link,
a template literal), break out of an attribute or a Markdown table, be
taken for a formula by a spreadsheet (=, +, -, @, a tab, a carriage
return) or by matplotlib ($...$), or act on a terminal or a Markdown file
(an escape sequence, a right-to-left override, a NUL, a line of its own
with a heading or a link definition, an image from another host), or use
glyphs a chart's font lacks.  Each payload carries its own number, so a page that runs one
says which (its <html> gets data-ran="N"), and none of it is lost: the
identifiers are renamed consistently, so the run still keeps the contract.
"""
import json
import os

import fixture

# {n}: the payload's number.  Markup that would run sets <html data-ran="n">.
RAN = "document.documentElement.dataset.ran='{n}'"
PAYLOADS = (
    '<img src=x onerror="' + RAN + '">',
    "<script>" + RAN + "</script>",
    '"><svg onload="' + RAN + '">',
    "'><iframe srcdoc=\"<script>parent." + RAN + "</script>\">",
    "=HYPERLINK(\"http://evil.example/{n}\",\"x\")",
    "+{n}+cmd|' /C calc'!A0",
    "-{n}+1",
    "@SUM(1+{n})",
    "\t=1+{n}",
    "\r=1+{n}",
    "javascript:" + RAN,
    "${{" + RAN + "}}",
    "</script><script>" + RAN + "</script>",
    "[x{n}](javascript:alert({n})) | pipe | `tick` *{n}*",
    "<a href=\"javascript:" + RAN + "\">link {n}</a>",
    "{{{{constructor.constructor('" + RAN + "')()}}}}",
    "\x1b]0;title {n}\x07\x1b[2J\x1b[31mred {n}\x1b[0m",
    "line {n}\n## Forged heading {n}\n[ref{n}]: javascript:" + RAN,
    "![image {n}](https://evil.example/{n}.png) [link {n}](https://evil.example/{n})",
    "\u6f22\u5b57\U0001f525 {n} \u202egnp.exe\u202c \u0000nul {n}",
    "$\\frac{{{n}}}{{$ cost $x^{{2}}$",
)
# Context keys whose values are free text (the rest are numbers, hashes or words the contract fixes).
TEXT_KEYS = ("host_name", "cpu_model", "cpu_uarch", "kernel", "firmware", "target", "target_what", "env_vm",
             "topology", "regbench_commit", "command_line", "timer")


class Payloads:
    """The next payload, numbered, each time it is called; `made` keeps every one given."""

    def __init__(self, start=0):
        self.n = start
        self.made = []

    def __call__(self, markup=False):
        """The next payload; markup: one that runs if a page takes it as markup (an image's error handler)."""
        text = (PAYLOADS[0] if markup else PAYLOADS[self.n % len(PAYLOADS)]).format(n=self.n)
        self.n += 1
        self.made.append(text)
        return text


def hostile_document(doc, payload=None):
    """A copy of a result document (parsed JSON) with every free text replaced by a payload."""
    payload = payload or Payloads()
    doc = json.loads(json.dumps(doc))
    ctx = doc["context"]
    for k in TEXT_KEYS:
        if k in ctx:
            ctx[k] = payload()
    ctx["labels"] = {"host": payload(), "note": payload(), **{k: v for k, v in ctx.get("labels", {}).items()
                                                              if k == "baseline"}}
    rb = doc["regbench"]
    fams = {f: payload() for f in rb["families"]}
    strats = {s: payload() for s in rb["strategies"]}
    ops = {b["op"]: payload() for b in rb["benchmarks"].values()}
    # the families' units run if taken as markup (the issue's case: a unit with a script ran on the history page)
    rb["families"] = {fams[f]: dict(v, what=payload(), unit=payload(markup=True)) for f, v in rb["families"].items()}
    rb["strategies"] = {strats[s]: dict(v, help=payload()) for s, v in rb["strategies"].items()}
    rb["order"] = {"families": [fams.get(f, f) for f in rb["order"]["families"]],
                   "strategies": [strats.get(s, s) for s in rb["order"]["strategies"]]}
    rb["kernel_strategies"] = {k: strats.get(v, v) for k, v in rb.get("kernel_strategies", {}).items()}
    names = {}
    for name, b in rb["benchmarks"].items():
        names[name] = payload() + f" #{len(names)}"
        b.update(family=fams.get(b["family"], b["family"]), op=ops[b["op"]],
                 strategy=strats.get(b["strategy"], b["strategy"]), unit=payload())
        if b.get("reason"):
            b["reason"] = payload()
    for b in rb["benchmarks"].values():
        if b.get("pair") in names:
            b["pair"] = names[b["pair"]]
    rb["benchmarks"] = {names[n]: b for n, b in rb["benchmarks"].items()}
    if isinstance(rb.get("histograms"), dict):
        rb["histograms"] = {names.get(n, n): h for n, h in rb["histograms"].items()}
    for e in doc["benchmarks"]:
        for field in ("name", "run_name"):
            if field in e:
                base = e[field]
                for old, new in sorted(names.items(), key=lambda kv: -len(kv[0])):
                    if base == old or base.startswith(old + "_"):
                        e[field] = new + base[len(old):]
                        break
        if e.get("label"):
            e["label"] = payload()
        if e.get("error_message"):
            e["error_message"] = payload()
    return doc


def hostile(name, as_name=None, start=0, edit=None):
    """A hostile copy of fixture `name` in a fresh folder (edit(document) applied after); returns its path."""
    with open(fixture.path(name), encoding="utf-8") as f:
        doc = hostile_document(json.load(f), Payloads(start))
    if edit:
        edit(doc)
    path = os.path.join(fixture.tmpdir(), as_name or name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return path
