#!/usr/bin/python3
"""call-loops.py: no call loop between the C and C++ files of libiomap and regbench, read from their object files.

A file calls another when its object file uses a symbol (a function, or a
table's data) the other defines; `nm` says which.  A loop (one file reaching
itself through others) means neither can be read, changed or tested without
the other: a new backend or architecture is then no longer a file that only
calls down.  Usage: call-loops.py NM OBJECT...; prints each loop with the
symbols that close it and exits 1, or says how many files it read and exits 0.
"""
import os
import subprocess
import sys


def symbols(nm, objects):
    """{object: (symbols it defines, symbols it uses)} as one `nm -A -P` lists them (weak ones count as defined)."""
    try:
        out = subprocess.run([nm, "-A", "-P", *objects], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"call-loops.py: {nm}: {(getattr(e, 'stderr', '') or str(e)).strip()} (build the tree first)")
    table = {obj: (set(), set()) for obj in objects}
    for line in out.splitlines():
        where, _, rest = line.partition(": ")
        parts = rest.split()
        if where not in table or len(parts) < 2:
            continue
        defs, uses = table[where]
        if parts[1] == "U":
            uses.add(parts[0])
        elif parts[1] in "TDBRVWGSiu":
            defs.add(parts[0])
    return table


def name(obj):
    """src/region.c from .../iomap.dir/src/region.c.o: the source file an object file was built from."""
    path = obj.split("CMakeFiles/", 1)[-1]
    path = path.split(".dir/", 1)[-1]
    return path[:-2] if path.endswith(".o") else path


def loops(edges):
    """Each set of two or more files that reach one another (Tarjan's strongly connected components)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main(argv):
    if len(argv) < 3:
        print("call-loops.py: usage: call-loops.py NM OBJECT... (the object files of the libraries and programs)",
              file=sys.stderr)
        return 2
    nm, objects = argv[1], argv[2:]
    owner, uses = {}, {}
    for obj, (defs, used) in symbols(nm, objects).items():
        uses[name(obj)] = used
        for sym in defs:
            owner.setdefault(sym, name(obj))
    edges = {f: {owner[s] for s in used if s in owner and owner[s] != f} for f, used in uses.items()}
    found = loops(edges)
    for part in found:
        print("call loop: " + ", ".join(part))
        for a in part:
            for b in sorted(edges[a] & set(part)):
                syms = sorted(s for s in uses[a] if owner.get(s) == b)
                print(f"  {a} calls {b}: {' '.join(syms[:8])}{' ...' if len(syms) > 8 else ''}")
    if found:
        return 1
    print(f"call-loops: no loop among {len(edges)} files ({sum(map(len, edges.values()))} calls between them)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
