#!/usr/bin/env python3
"""Import cycles between the files of a crate's src/: exit 1 and list them if there are any.

A file imports another when it names an item of it through `crate::`, `super::`, `self::` or a
child module's path, in a `use` or inline; `pub use` re-exports are followed to the file that
defines the item, and counted as imports of the re-exporting file. Items under `#[cfg(test)]`
and comments are left out. A folder's `mod.rs` is a file like any other.

usage: python3 tools/import_cycles.py SRC_DIR [--edges]    (CI runs it on game/src)"""
import os, re, sys
src = sys.argv[1].rstrip('/')
files = {}
for d, _, fs in os.walk(src):
    for f in fs:
        if f.endswith('.rs'):
            p = os.path.join(d, f)
            rel = os.path.relpath(p, src)[:-3].split(os.sep)
            if rel[-1] in ('mod', 'lib', 'main'):
                rel = rel[:-1]
            if rel and rel[0] == 'bin':
                continue
            files[tuple(rel)] = p
lib = open(os.path.join(src, 'lib.rs')).read()
alias = {}
m = re.search(r'pub use (\w+)::\{([^}]*)\}', lib, re.S)
if m:
    for name in re.findall(r'\w+', m.group(2)):
        alias[name] = (m.group(1), name)
def without_test_items(text):
    """`text` without the items under `#[cfg(test)]` (a test module, a test-only helper)."""
    out, at = [], 0
    while True:
        i = text.find('#[cfg(test)]', at)
        if i < 0:
            return ''.join(out) + text[at:]
        out.append(text[at:i])
        j = i + len('#[cfg(test)]')
        semi, brace = text.find(';', j), text.find('{', j)
        if brace < 0 or (0 <= semi < brace):
            at = semi + 1 if semi >= 0 else len(text)
            continue
        depth, k = 0, brace
        while k < len(text):
            if text[k] == '{': depth += 1
            elif text[k] == '}':
                depth -= 1
                if depth == 0: break
            k += 1
        at = k + 1

reexports = {}
def load_reexports():
    for mod, p in files.items():
        text = open(p).read()
        text = without_test_items(text)
        r = {}
        for u in re.findall(r'\bpub(?:\([^)]*\))?\s+use\s+([^;]*);', text, re.S):
            u = re.sub(r'\s+', '', u)
            m = re.match(r'(.*?)::\{(.*)\}$', u)
            items = [(m.group(1), x) for x in m.group(2).split(',')] if m else [(u.rsplit('::', 1)[0], u.rsplit('::', 1)[-1])]
            for prefix, x in items:
                if not x or '{' in x: continue
                name = x.split(' as ')[-1]
                r[name] = prefix + '::' + x.split(' as ')[0]
        reexports[mod] = r
def resolve(mod, path, depth=0):
    parts = path.split('::')
    if parts[0] == 'crate':
        base = []; parts = parts[1:]
        if parts and parts[0] in alias:
            parts = list(alias[parts[0]]) + parts[1:]
    elif parts[0] in ('super', 'self'):
        base = list(mod)
        while parts and parts[0] in ('super', 'self'):
            if parts[0] == 'super': base = base[:-1]
            parts = parts[1:]
    elif tuple(list(mod) + [parts[0]]) in files:
        base = list(mod)
    else:
        return None
    full = base + parts
    for n in range(len(full), -1, -1):
        if tuple(full[:n]) in files:
            t = tuple(full[:n])
            rest = full[n:]
            if rest and depth < 8 and rest[0] in reexports.get(t, {}):
                target = reexports[t][rest[0]]
                r = resolve(t, target, depth + 1)
                if r is not None:
                    return r
            return t
    return None
path_re = re.compile(r'(?<![:\w])((?:crate|super|self|[a-z_][a-z0-9_]*)(?:::\w+)+)\b(?!::)')
use_re = re.compile(r'\buse\s+((?:crate|super|self|[a-z_][a-z0-9_]*)::[^;]*);', re.S)
load_reexports()
edges = {k: set() for k in files}
for mod, p in files.items():
    text = open(p).read()
    text = re.sub(r'(?m)^\s*//.*$', '', text)
    text = without_test_items(text)
    paths = set(path_re.findall(text))
    for u in use_re.findall(text):
        u = re.sub(r'\s+', '', u)
        # expand a::{b, c::{d}} one level
        m = re.match(r'(.*?)::\{(.*)\}$', u)
        if m:
            for part in re.split(r',(?![^{]*\})', m.group(2)):
                part = part.split('{')[0].rstrip(':')
                if part and part != 'self': paths.add(m.group(1) + '::' + part.split(' as ')[0])
                elif part == 'self': paths.add(m.group(1))
        else:
            paths.add(u.split(' as ')[0])
    for q in paths:
        t = resolve(mod, q)
        if t is not None and t != mod:
            edges[mod].add(t)
if '--edges' in sys.argv:
    for a in sorted(edges):
        for b in sorted(edges[a]): print('/'.join(a), '->', '/'.join(b))
# Tarjan
index, low, stack, on, sccs, i = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)
def strong(v):
    index[v] = low[v] = i[0]; i[0] += 1; stack.append(v); on.add(v)
    for w in edges[v]:
        if w not in index: strong(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        c = []
        while True:
            w = stack.pop(); on.discard(w); c.append(w)
            if w == v: break
        if len(c) > 1: sccs.append(c)
for v in edges:
    if v not in index: strong(v)
for c in sccs:
    print('CYCLE:', ', '.join('/'.join(x) or 'lib' for x in sorted(c)))
    for a in c:
        for b in edges[a]:
            if b in c: print('   ', '/'.join(a) or 'lib', '->', '/'.join(b) or 'lib')
print(len(sccs), 'cycles in', src)
sys.exit(1 if sccs else 0)
