#!/usr/bin/env python3
"""Fails on a back-edge between the layer folders of host/ and sim/ (docs/architecture.md).

Every `#include "folder/file.h"` in a folder's sources must name the folder itself or a layer
that folder may use (LAYERS below, the one place the direction is written down). The build links
one static library per folder in the same order, so most back-edges also fail to link; this
check names the file and line. With --cycles it also lists the file-level include cycles (a file
reaching itself through other files' #include lines), which are allowed inside a folder but
worth knowing; --file-cycles lists them with each .c and .h a node of its own (#include lines only).
--sim-cycles [BUILD/sim] fails on any cycle between the files of sim/ (ctest layers.sim_cycles): include
cycles between units, also those hidden behind an aggregate header, and, given the build's object
folder, call cycles between files from `nm` (A uses a symbol B defines and B one A defines).
--host-cycles [BUILD/host] does the same for host/ (ctest layers.check; layers.host_cycles plants one
of each kind). Neither has exceptions: host/run's last include cycles were broken by headers of
types alone (run_opts.h, progress.h's phases, loop_icount.h).
Run: python3 scripts/check_layers.py [--cycles | --file-cycles] [--sim-cycles [OBJDIR]]
[--host-cycles [OBJDIR]]; exit 1 on a violation."""
import os
import re
import subprocess
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
        'profile': {'firmware', 'transport', 'results', 'base'},
        'session': {'firmware', 'transport', 'base'},
        'run': {'profile', 'session', 'firmware', 'transport', 'report', 'results', 'base'},
        'farm': {'run', 'profile', 'session', 'firmware', 'transport', 'report', 'results', 'base'},
        'cli': {'farm', 'run', 'profile', 'session', 'firmware', 'transport', 'report', 'results', 'base'},
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

# The prefix of each tree's layer libraries in its build folder: lib<prefix>_<folder>.a
# (host/CMakeLists.txt bench_layer, sim/CMakeLists.txt); <prefix>_*.dir are their object folders.
LIBS = {'host': 'bench', 'sim': 'sim'}

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


def scc(graph):
    """Strongly connected components of more than one node (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
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


def include_graph(top, by_file=False):
    """#include edges: a node is a unit (x.c and x.h together), or with by_file each file."""
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
    return graph


def cycles(top, by_file=False):
    """Include cycles: strongly connected components of the include graph."""
    return scc(include_graph(top, by_file))


def unit_cycles(top):
    """Include cycles between units (x.c with x.h) that an aggregate header hides: a header with no
    .c of its own (core_internal.h) is not a node but a shortcut, so a unit that includes it
    depends on every unit whose header it includes. x.c including all.h, which includes y.h, while
    y.c includes all.h, which includes x.h, is the cycle x <-> y."""
    graph = include_graph(top)
    real = {u for u in graph if os.path.exists(os.path.join(ROOT, top, u + '.c'))}
    units = {}
    for u in real:
        seen, todo, deps = set(), list(graph[u]), set()
        while todo:
            v = todo.pop()
            if v in seen:
                continue
            seen.add(v)
            if v in real:
                deps.add(v)
            else:
                todo.extend(graph.get(v, ()))  # an aggregate header: look through it
        units[u] = deps - {u}
    return scc(units)


def call_graph(top, objdir):
    """Call (and data) edges between a tree's .c files from `nm` on the build's objects: A -> B when
    A's object uses a symbol B's object defines. The objects are those of the layer libraries
    OBJDIR/lib<prefix>_<folder>.a (LIBS; sim's board library, libsim_board.a, is the top folder) and
    the program's own objects (main.c.o, args.c.o): archives CMake rebuilds whole, so a moved file's
    stale object is not among them."""
    defs, uses = {}, {}
    lib = LIBS[top]

    def scan(path, folder):
        out = subprocess.run(['nm', '-A', path], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            if path.endswith('.a'):  # archive:member:symbol line
                _, member, rest = (line.split(':', 2) + ['', ''])[:3]
            else:
                member, rest = os.path.basename(path), line.split(':', 1)[-1]
            if not member.endswith('.c.o'):
                continue
            src = os.path.normpath(os.path.join(folder, member[:-4]))
            fields = rest.split()
            if len(fields) == 3 and fields[1] in 'TDBRCGS':
                defs.setdefault(fields[2], src)
            elif len(fields) == 2 and fields[0] == 'U':
                uses.setdefault(src, set()).add(fields[1])

    for f in sorted(os.listdir(objdir)) if os.path.isdir(objdir) else []:
        if f.startswith(f'lib{lib}_') and f.endswith('.a'):
            folder = f[len(f'lib{lib}_'):-2]
            scan(os.path.join(objdir, f), '.' if folder == 'board' else folder)
    # The program's own objects (main.c, args.c): a target folder that is not a layer library's.
    for dirpath, _, files in os.walk(os.path.join(objdir, 'CMakeFiles')):
        name = os.path.basename(dirpath)
        if name.endswith('.dir') and not name.startswith(f'{lib}_'):
            for f in sorted(files):
                if f.endswith('.c.o'):
                    scan(os.path.join(dirpath, f), '.')
    graph, why = {}, {}
    for src, syms in uses.items():
        for sym in sorted(syms):
            dst = defs.get(sym)
            if dst and dst != src:
                graph.setdefault(src, set()).add(dst)
                why.setdefault((src, dst), []).append(sym)
    for src in set(defs.values()):
        graph.setdefault(src, set())
    return graph, why


def strict_cycles(top, objdir):
    """Every include cycle between units (aggregate headers seen through) and every call cycle
    between files of TOP, as messages naming the files and, for calls, a symbol of each edge."""
    bad = [f'{top}: include cycle: {" <-> ".join(c)}' for c in unit_cycles(top)]
    if objdir:
        graph, why = call_graph(top, objdir)
        if not graph:
            bad.append(f'{top}: no objects under {objdir}: build first (bash scripts/build.sh)')
        for comp in scc(graph):
            edges = [f'{a} -> {b} ({why[(a, b)][0]})' for a in comp for b in sorted(graph[a])
                     if b in comp]
            bad.append(f'{top}: call cycle: {" <-> ".join(comp)}: ' + ', '.join(sorted(edges)))
    return bad


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
    failed = False
    for top in LAYERS:
        flag = f'--{top}-cycles'
        if flag not in sys.argv:
            continue
        i = sys.argv.index(flag)
        objdir = sys.argv[i + 1] if i + 1 < len(sys.argv) and not sys.argv[i + 1].startswith('--') else None
        found = strict_cycles(top, objdir)
        for b in found:
            print(b, file=sys.stderr)
        if found:
            print(f'check_layers: {len(found)} cycle(s) between files of {top}/: move the shared part down '
                  'into a file both use, or pass a callback', file=sys.stderr)
            failed = True
            continue
        print(f'check_layers: {top}/ files: no include or call cycle' + ('' if objdir else ' (includes only)'))
    if failed:
        return 1
    print('check_layers: ' + ', '.join(f'{top}/ {len(l)} layers' for top, l in LAYERS.items()) + ': no back-edge')
    return 0


if __name__ == '__main__':
    sys.exit(main())
