#!/usr/bin/env python3
"""Lists the top-level modules of src/ that depend on each other in a cycle (issue 13: "no module cycles").

A module depends on another when any of its files names `crate::<other>` (in a `use` or a path).
Prints the dependency graph and every cycle found; exits 1 if there is one. Run from the repo root.
"""
import os, re, sys

SRC = "src"
mods = {}
for entry in sorted(os.listdir(SRC)):
    if entry in ("main.rs", "lib.rs"):
        continue
    name = entry[:-3] if entry.endswith(".rs") else entry
    files = []
    if entry.endswith(".rs"):
        files.append(os.path.join(SRC, entry))
    if os.path.isdir(os.path.join(SRC, name)):
        for root, _, fs in os.walk(os.path.join(SRC, name)):
            files += [os.path.join(root, f) for f in fs if f.endswith(".rs")]
    mods[name] = sorted(set(files))

deps = {}
for name, files in mods.items():
    found = set()
    for f in files:
        text = open(f, encoding="utf-8").read()
        # Leave out `#[cfg(test)] mod tests` blocks at the end of a file: tests may use anything.
        cut = text.find("#[cfg(test)]\nmod tests")
        if cut >= 0:
            text = text[:cut]
        # Comments name other modules without depending on them.
        text = re.sub(r"//[^\n]*", "", text)
        for m in re.finditer(r"crate::(\w+)", text):
            if m.group(1) in mods and m.group(1) != name:
                found.add(m.group(1))
        for m in re.finditer(r"use crate::\{([^}]*)\}", text):
            for part in re.findall(r"(\w+)", m.group(1)):
                if part in mods and part != name:
                    found.add(part)
    deps[name] = sorted(found)

for name in sorted(deps):
    print(f"{name:12} -> {', '.join(deps[name]) or '-'}")

# Cycles: strongly connected components with more than one module (Tarjan).
index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = counter[0]; counter[0] += 1
    stack.append(v); on.add(v)
    for w in deps[v]:
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            comps.append(sorted(comp))
sys.setrecursionlimit(10000)
for v in sorted(deps):
    if v not in index:
        visit(v)
if comps:
    for c in comps:
        print("cycle:", " <-> ".join(c))
    sys.exit(1)
print("no cycles")
