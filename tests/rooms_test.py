#!/usr/bin/env python3
"""Rooms point one way, read from the #include lines themselves (as ui.rooms does for app/ui).

    rooms_test.py REPOSITORY_ROOT core|kernels|tree

core     app/core's rooms, lowest first, as app/core/CMakeLists.txt lists them: a file includes
         only its own room and the rooms below it.
kernels  kernels/'s rooms, lowest first (KERNEL_ROOMS below, kernels/README.md "Rooms").
tree     the whole tree's rooms (kernels <- app/core <- app/lab <- app/platform <- app/gfx <-
         app/ui <- the programs), and no circle anywhere: no two files that reach each other,
         through includes or through a function one .cpp declares for itself and another defines
         (an include in disguise: declare it in a header the two share).

A file or folder that belongs to no room fails the test: no room goes unchecked.
"""
import collections
import fnmatch
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+[<"]([^>"]+)[>"]', re.M)
SOURCES = (".h", ".cpp", ".cuh", ".cu")

# app/core: the top-level files (the JSON writer, the assets' paths) at the bottom.
CORE_ROOMS = [
    ("top", ["*.h", "*.cpp"]),
    ("trace", ["trace/*"]),
    ("run", ["run/*"]),
    ("timeline", ["timeline/*"]),
    ("analysis", ["analysis/*"]),
    ("files", ["files/*"]),
    ("timing", ["timing/*"]),
    ("teaching", ["teaching/*"]),
    ("finished", ["finished/*"]),
    ("gpu", ["gpu/*"]),
]
# kernels/: the surface every kernel and executor shares (the words, the CUDA surface the host
# compiler sees, the rungs' PTX helpers), the trace and its views over it, the declaration
# rewrite, the kernel list (the kernels themselves, their facts and the facts' types, and a
# launch's parameters, which name a kernel by its KernelId), then the two executors.
# First match wins.
KERNEL_LIST_FILES = ["catalog.h", "catalog.cpp", "kernel_facts.h", "kernel_info.h", "kernel_list.h", "launch_params.h", "kernel_sources.h",
                     "kernel_sources.cpp", "visit_kernel.h"]
KERNEL_ROOMS = [
    ("list", KERNEL_LIST_FILES + ["book/*.cuh", "bugs/*.cuh", "ladder/*.cuh"]),
    ("surface", ["*.h", "ladder/*.h"]),
    ("trace", ["trace/*"]),
    ("rewrite", ["rewrite/*"]),
    ("emu", ["emu/*"]),
    ("cuda", ["cuda/*"]),
]
KERNEL_ORDER = ["surface", "trace", "rewrite", "list", "emu", "cuda"]
# The whole tree: app/cli and app/lab_runner are programs side by side at the top.
TREE_ROOMS = [
    ("kernels", ["kernels/*"]),
    ("app/core", ["app/core/*"]),
    ("app/lab", ["app/lab/*"]),
    ("app/platform", ["app/platform/*"]),
    ("app/gfx", ["app/gfx/*"]),
    ("app/ui", ["app/ui/*"]),
    ("programs", ["app/cli/*", "app/lab_runner/*"]),
]

# Arrows known and being removed elsewhere, each (file, included file); none now.
KNOWN_CORE = set()
KNOWN_KERNELS = set()
KNOWN_CIRCLES = []


def source_files(top):
    return sorted(p for p in top.rglob("*") if p.suffix in SOURCES and p.is_file())


def room_of(rel, rooms):
    for name, patterns in rooms:
        if any(fnmatch.fnmatchcase(rel, p) and ("/" in p or "/" not in rel) for p in patterns):
            return name
    return None


def resolve(repo, path, target):
    """The file an #include names (beside the file, from the root, or from app/), or None."""
    for c in (path.parent / target, repo / target, repo / "app" / target):
        if c.is_file():
            return c.resolve().relative_to(repo).as_posix()
    return None


def includes(repo, tops):
    """Every include between files of the tree under `tops`: (file, included file), repo-relative."""
    out = []
    for top in tops:
        for path in source_files(repo / top):
            rel = path.relative_to(repo).as_posix()
            for target in INCLUDE.findall(path.read_text(errors="replace")):
                to = resolve(repo, path, target)
                if to is not None:
                    out.append((rel, to))
    return out


def arrows_back_up(repo, base, rooms, order, known=frozenset()):
    """Problems: a file of `base` in no room, or including a file of a room above its own."""
    found, rank = [], {r: i for i, r in enumerate(order)}
    prefix = base.rstrip("/") + "/" if base else ""
    for path in source_files(repo / base if base else repo):
        rel = path.relative_to(repo).as_posix()[len(prefix):]
        if room_of(rel, rooms) is None:
            found.append(f"{prefix}{rel} is in no room: give it one in {pathlib.Path(__file__).name}")
    for frm, to in includes(repo, [base] if base else ["kernels", "app"]):
        if not to.startswith(prefix):
            continue
        a, b = frm[len(prefix):], to[len(prefix):]
        ra, rb = room_of(a, rooms), room_of(b, rooms)
        if ra is None or rb is None or (a, b) in known:
            continue
        if rank[rb] > rank[ra]:
            found.append(f"{frm} ({ra}) includes {to} ({rb}): an arrow back up")
    return found


DECLARATION = re.compile(r"(?:^|\n)[ \t]*(?!return\b|using\b|typedef\b|friend\b)[\w:<>,*& \t]+?\b(\w+)\s*\([^;{}()]*\)\s*(?:const\s*)?;")
STRIP = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', re.S)


def namespace_text(code):
    """The text of `code` outside every function body, class body and anonymous namespace."""
    out, depth, keep = [], [], True
    i = 0
    while i < len(code):
        ch = code[i]
        if ch == "{":
            head = code[max(0, code.rfind(";", 0, i), code.rfind("}", 0, i)):i]
            named_namespace = re.search(r"\bnamespace\s+[\w:]+\s*$", head) is not None
            depth.append(named_namespace)
        elif ch == "}":
            if depth:
                depth.pop()
        elif all(depth):
            out.append(ch)
            i += 1
            continue
        out.append("\n" if ch == "\n" else " ")
        i += 1
    return "".join(out)


def hidden_arrows(repo, tops):
    """(file, file that defines it): a function a .cpp declares at namespace scope for itself
    but does not define, and another .cpp defines."""
    import function_lengths as scan
    defined, declared = collections.defaultdict(set), {}
    for top in tops:
        for path in source_files(repo / top):
            if path.suffix not in (".cpp", ".cu"):
                continue
            rel = path.relative_to(repo).as_posix()
            text = path.read_text(errors="replace")
            names = {n.split("::")[-1] for n, _, _ in scan.functions(text)}
            for n in names:
                defined[n].add(rel)
            code = STRIP.sub(lambda m: " " * len(m.group(0)), text)
            declared[rel] = {m.group(1) for m in DECLARATION.finditer(namespace_text(code))} - names
    out = []
    for rel, names in declared.items():
        for n in sorted(names):
            for other in sorted(defined.get(n, ())):
                if other != rel:
                    out.append((rel, other))
    return out


def circles(edges):
    """The strongly connected sets of more than one file (Tarjan's algorithm, iterative)."""
    graph = collections.defaultdict(set)
    for a, b in edges:
        if a != b:
            graph[a].add(b)
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start), on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w), on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    group.add(w)
                    if w == v:
                        break
                if len(group) > 1:
                    out.append(group)
    return out


def tree_problems(repo):
    found = arrows_back_up(repo, "", TREE_ROOMS, [r for r, _ in TREE_ROOMS])
    found = [f for f in found if "is in no room" not in f or f.startswith(("kernels/", "app/"))]
    edges = includes(repo, ["kernels", "app"]) + hidden_arrows(repo, ["kernels", "app"])
    for group in circles(edges):
        if any(group <= k for k in KNOWN_CIRCLES):
            continue
        found.append("a circle: " + " <-> ".join(sorted(group)))
    return found


def self_check(tmp):
    """The test catches what it is meant to: an arrow up, a file in no room, a circle through
    includes and one through a .cpp's own declaration of another .cpp's function."""
    def write(rel, text):
        p = tmp / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    write("app/core/run/a.h", '#include "core/analysis/b.h"\n')
    write("app/core/analysis/b.h", '#include "core/run/c.h"\n')
    write("app/core/run/c.h", "")
    write("app/core/extra/d.h", "")
    got = arrows_back_up(tmp, "app/core", CORE_ROOMS, [r for r, _ in CORE_ROOMS])
    assert len(got) == 2 and any("extra/d.h is in no room" in g for g in got), got
    assert any("run/a.h (run) includes app/core/analysis/b.h (analysis)" in g for g in got), got
    write("app/cli/x.cpp", "namespace t {\nint y();\nnamespace {\nint z();\n}\nint x() { return y(); }\n}\n")
    write("app/cli/y.cpp", "namespace t {\nint x();\nint y() { return x(); }\n}\n")
    write("app/platform/p.cpp", '#include "app/ui/q.h"\n')
    write("app/ui/q.h", "")
    got = [g for g in tree_problems(tmp) if "in no room" not in g]
    assert any("app/cli/x.cpp <-> app/cli/y.cpp" in g for g in got), got
    assert any("app/platform/p.cpp (app/platform) includes app/ui/q.h" in g for g in got), got
    assert len(got) == 2, got


def main():
    repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    which = sys.argv[2] if len(sys.argv) > 2 else "tree"
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "ui"))
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        self_check(pathlib.Path(tmp))
    if which == "core":
        found = arrows_back_up(repo, "app/core", CORE_ROOMS, [r for r, _ in CORE_ROOMS], KNOWN_CORE)
    elif which == "kernels":
        found = arrows_back_up(repo, "kernels", KERNEL_ROOMS, KERNEL_ORDER, KNOWN_KERNELS)
    else:
        found = tree_problems(repo)
    for p in found:
        print(p)
    print(f"{which}: {len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
