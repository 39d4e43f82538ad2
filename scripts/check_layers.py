#!/usr/bin/env python3
"""Fails on a back-edge between the layer folders of host/ and sim/ (docs/architecture.md).

Every `#include "folder/file.h"` in a folder's sources must name the folder itself or a layer
that folder may use (LAYERS below, the one place the direction is written down). The build links
one static library per folder in the same order, so most back-edges also fail to link; this
check names the file and line. With --cycles it also lists the file-level include cycles (a file
reaching itself through other files' #include lines), which are allowed inside a folder but
worth knowing; --file-cycles lists them with each .c and .h a node of its own (#include lines only).
Run: python3 scripts/check_layers.py [--cycles | --file-cycles]; exit 1 on a violation."""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))

# folder -> the folders it may include from (besides itself). main.c sits at the top of each tree.
LAYERS = {
    'host': {
        'base': set(),
        'results': {'base'},
        'report': {'results', 'base'},
        'transport': {'base'},
        'firmware': {'transport', 'results', 'base'},
        'session': {'firmware', 'transport', 'base'},
        'run': {'session', 'firmware', 'transport', 'report', 'results', 'base'},
        'cli': {'run', 'session', 'firmware', 'transport', 'report', 'results', 'base'},
        '.': {'cli', 'base'},
    },
    # The virtual board (sim/CMakeLists.txt links the same order): the wires drive the debug port,
    # which drives the bus; the core and the chip sit side by side on the bus and never include
    # each other; board.c and main.c (the top) compose them.
    'sim': {
        'bus': set(),
        'timing': set(),
        'scs': {'timing', 'bus'},
        'core': {'scs', 'timing', 'bus'},
        'chip': {'bus'},
        'dap': {'bus'},
        'wire': {'dap', 'bus'},
        '.': {'wire', 'dap', 'core', 'scs', 'timing', 'chip', 'bus'},
    },
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources(top):
    for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
        for f in sorted(files):
            if f.endswith(('.c', '.h')):
                yield os.path.join(dirpath, f)


def folder_of(top, path):
    rel = os.path.relpath(path, os.path.join(ROOT, top))
    return rel.split(os.sep)[0] if os.sep in rel else '.'


def check(top, layers):
    bad = []
    for path in sources(top):
        me = folder_of(top, path)
        if me not in layers:
            bad.append(f'{os.path.relpath(path, ROOT)}: folder {top}/{me} is not in scripts/check_layers.py LAYERS')
            continue
        text = open(path, encoding='utf-8').read()
        for m in INCLUDE.finditer(text):
            inc = m.group(1)
            if '/' not in inc:
                continue
            dep = inc.split('/')[0]
            if dep in ('..', '.') or dep not in layers:
                continue  # not one of this tree's layers (target/include, system headers)
            if dep != me and dep not in layers[me]:
                line = text.count('\n', 0, m.start()) + 1
                bad.append(f'{os.path.relpath(path, ROOT)}:{line}: {top}/{me} includes "{inc}": '
                           f'{top}/{dep} is not below {top}/{me}')
    return bad


def cycles(top, by_file=False):
    """Include cycles: strongly connected components of more than one node. A node is a unit (x.c
    and x.h together), or with by_file each file on its own (what the compiler sees)."""
    graph = {}
    for path in sources(top):
        rel = os.path.relpath(path, os.path.join(ROOT, top))
        base = rel if by_file else os.path.splitext(rel)[0]
        deps = graph.setdefault(base, set())
        for m in INCLUDE.finditer(open(path, encoding='utf-8').read()):
            inc = m.group(1) if by_file else os.path.splitext(m.group(1))[0]
            cand = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
            ext = '' if by_file else '.h'
            for c in (inc, cand):
                if os.path.exists(os.path.join(ROOT, top, c + ext)) and c != base:
                    deps.add(c)
                    break
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    bad = []
    for top, layers in LAYERS.items():
        bad += check(top, layers)
    for b in bad:
        print(b, file=sys.stderr)
    if '--cycles' in sys.argv or '--file-cycles' in sys.argv:
        by_file = '--file-cycles' in sys.argv
        for top in LAYERS:
            for comp in cycles(top, by_file):
                print(f'{top}: include cycle: {" <-> ".join(comp)}')
    if bad:
        print(f'check_layers: {len(bad)} back-edge(s): move the code down a layer or pass a callback up',
              file=sys.stderr)
        return 1
    print('check_layers: ' + ', '.join(f'{top}/ {len(l)} layers' for top, l in LAYERS.items()) + ': no back-edge')
    return 0


if __name__ == '__main__':
    sys.exit(main())
