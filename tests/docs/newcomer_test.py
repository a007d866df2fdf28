#!/usr/bin/env python3
"""A newcomer's twelfth rung and new panel, each a file and one line (kernels/README.md, "Adding a
kernel"; app/README.md, "Adding a panel"), walked in a scratch copy of the tree:

  1. the kernel file (tests/fixtures/newcomer/rung_twelve.cuh) into kernels/ladder/ and its line
     X(RungTwelve, ladder, rung_twelve) at the end of kernels/kernel_list.h; the panel file
     (hello.cpp) into app/ui/panels/ and its line X(Hello, hello, "Hello", Slot::RightBottom)
     at the end of TILESCOPE_PANELS in app/ui/state/panel_list.h;
  2. the docs check (tests/docs/kernel_list_docs.py) then fails, naming exactly what a rung
     still needs: its row in kernels/README.md's table and a lesson; with the lesson added it
     names the lesson's row in the teacher's guide; with the rows added it passes;
  3. CMake, configured on the copy, compiles the new files from those lines alone: the build
     rewrites the kernel's declarations for tracing, compiles the catalogue (every kernel's
     facts and traced body, the new one's among them), the panel file, and the panel table that
     draws it by its symbol.

  tests/docs/newcomer_test.py REPO_ROOT [--no-build]

What it does not do, to stay cheap (about 30 s of one core): link and run the new kernel; the
list's own tests (EveryCorrectKernel, kernel_files_test) do that for every kernel of the list.
"""
import re
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import kernel_list_docs

SKIP = {".git", "bench", "build", "build-sanitize", "build-web", "screenshots", "node_modules"}


def copy_tree(repo, to):
    def ignore(directory, names):
        return [n for n in names if n in SKIP or n.startswith("build")]
    shutil.copytree(repo, to, ignore=ignore, symlinks=True)


def append_line(path, macro_end, line):
    """Adds `line` as the last entry of the X-macro list whose final entry is followed by `macro_end`."""
    text = path.read_text()
    cut = text.index(macro_end)
    head = text[:cut].rstrip("\n")
    path.write_text(head + " \\\n" + line + "\n" + text[cut:])


def expect(got, wanted, step):
    missing = [w for w in wanted if not any(w in g for g in got)]
    if missing or len(got) != len(wanted):
        raise SystemExit(f"{step}: the docs check said {got}, expected one problem for each of {wanted}")
    print(f"{step}: the docs check names what to add: {got}")


def walk_docs(scratch, fixtures):
    """Steps 1 and 2; returns nothing, raises SystemExit on a broken promise."""
    shutil.copy(fixtures / "rung_twelve.cuh", scratch / "kernels" / "ladder" / "rung_twelve.cuh")
    append_line(scratch / "kernels" / "kernel_list.h", "\n// clang-format on", "  X(RungTwelve, ladder, rung_twelve)")
    shutil.copy(fixtures / "hello.cpp", scratch / "app" / "ui" / "panels" / "hello.cpp")
    append_line(scratch / "app" / "ui" / "state" / "panel_list.h", "\n// clang-format on",
                '  X(Hello, hello, "Hello", Slot::RightBottom)')
    expect(kernel_list_docs.problems(scratch), ["table has no row for rung 12", "no lesson runs rung 12 (rung-twelve)"],
           "the kernel's file and line")
    shutil.copy(fixtures / "22-rung-twelve.lesson", scratch / "assets" / "lessons" / "22-rung-twelve.lesson")
    expect(kernel_list_docs.problems(scratch), ["table has no row for rung 12", "no row for 22-rung-twelve.lesson"],
           "with its lesson")
    readme = scratch / "kernels" / "README.md"
    text = readme.read_text().split("\n")
    last = max(i for i, l in enumerate(text) if re.match(r"^\| \d+ \| `[a-z0-9-]+` \(`", l))  # the top rung's row
    text.insert(last + 1, "| 12 | `rung-twelve` (`rung_twelve.cuh`) | the newcomer's rung | T = 32 | | | |")
    readme.write_text("\n".join(text))
    teacher = scratch / "assets" / "guides" / "teacher.md"
    text = teacher.read_text().split("\n")
    last = max(i for i, l in enumerate(text) if re.match(r"^\| \d+ \| `[a-z0-9-]+` \|", l))  # the last lesson's row
    text.insert(last + 1, "| 22 | `rung-twelve` | the newcomer's rung |")
    teacher.write_text("\n".join(text))
    got = kernel_list_docs.problems(scratch)
    if got:
        raise SystemExit(f"with the rows added the docs check still says {got}")
    print("with the two rows: the docs check passes")


def build(scratch):
    """Step 3: configure the copy and build only the objects the two lines reach."""
    out = scratch / "build-newcomer"
    configure = ["cmake", "-S", str(scratch), "-B", str(out), "-G", "Ninja", "-DTILESCOPE_CUDA=OFF",
                 "-DTILESCOPE_BENCH=OFF", "-DCMAKE_UNITY_BUILD=OFF", "-DCMAKE_BUILD_TYPE=Debug", "-DCMAKE_CXX_FLAGS=-O0 -g0"]
    subprocess.run(configure, check=True, stdout=subprocess.DEVNULL)
    targets = ["kernels/kernels_gen/traced/rung_twelve.cuh", "kernels/CMakeFiles/tilescope_kernels.dir/catalog.cpp.o"]
    graph = subprocess.run(["ninja", "-C", str(out), "-t", "targets", "all"], check=True, capture_output=True,
                           text=True).stdout
    if "tilescope_ui.dir/panels/hello.cpp.o" in graph:
        targets += [f"app/ui/CMakeFiles/tilescope_ui.dir/{f}.o" for f in
                    ("panels/hello.cpp", "panels/panels.cpp", "state/panel_list.cpp")]
    elif "tilescope_ui.dir" in graph:
        raise SystemExit("CMake does not compile app/ui/panels/hello.cpp from its line in panel_list.h")
    else:
        print("the desktop app is not built here (no GUI libraries): the panel's compile is not checked")
    for t in targets:
        if t not in graph:
            raise SystemExit(f"CMake has no rule for {t} after the kernel's line")
    subprocess.run(["ninja", "-C", str(out)] + targets, check=True, stdout=subprocess.DEVNULL)
    print(f"built from the two lines alone: {', '.join(targets)}")


def main():
    repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    fixtures = repo / "tests" / "fixtures" / "newcomer"
    with tempfile.TemporaryDirectory() as tmp:
        scratch = pathlib.Path(tmp) / "tree"
        copy_tree(repo, scratch)
        walk_docs(scratch, fixtures)
        if "--no-build" not in sys.argv:
            build(scratch)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
