#!/usr/bin/env python3
"""The kernel list drives the docs: every kernel of kernels/kernel_list.h has its file and its
facts, every rung of the ladder its row in kernels/README.md's table and a lesson that runs it,
and every lesson its row in the teacher's guide; no two rungs and no two lessons share a number. What
is missing or taken twice is named with what to do.

  tests/docs/kernel_list_docs.py REPO_ROOT

Read from the files themselves (no build): the list's lines, each kernel's facts (`.name`,
`.ladderRung`), the lessons' `set kernel` lines and the two tables.
"""
import pathlib
import re
import sys

LINE = re.compile(r"^\s*X\((\w+), (\w+), (\w+)\)", re.M)
FACTS = "// ---- facts"


def kernels(repo):
    """(id, room, stem, text or None) for each line of the list, in order."""
    text = (repo / "kernels" / "kernel_list.h").read_text()
    out = []
    for kid, room, stem in LINE.findall(text):
        path = repo / "kernels" / room / f"{stem}.cuh"
        out.append((kid, room, stem, path.read_text() if path.is_file() else None))
    return out


def lesson_kernels(repo):
    """{kernel name: [lesson files that set it]}, and the lesson files."""
    files = sorted((repo / "assets" / "lessons").glob("*.lesson"))
    taught = {}
    for f in files:
        for name in re.findall(r"^set kernel (\S+)", f.read_text(), re.M):
            taught.setdefault(name, []).append(f.name)
    return taught, files


def problems(repo):
    found = []
    readme = (repo / "kernels" / "README.md").read_text()
    teacher = (repo / "assets" / "guides" / "teacher.md").read_text()
    taught, lessons = lesson_kernels(repo)
    rung_of = {}  # rung number -> the first kernel that took it
    for kid, room, stem, text in kernels(repo):
        where = f"kernels/{room}/{stem}.cuh"
        if text is None:
            found.append(f"{where}: no such file, but kernels/kernel_list.h lists X({kid}, {room}, {stem}): write it "
                         "(kernels/README.md, 'Adding a kernel')")
            continue
        if FACTS not in text or f"KernelId::{kid}" not in text:
            found.append(f"{where}: no facts for KernelId::{kid}: after the kernel, a line '{FACTS} ---' and its "
                         "struct Facts with info{.id = KernelId::" + kid + ", ...} and handResources")
            continue
        facts = text[text.index(FACTS):]
        name = re.search(r'\.name = "([^"]+)"', facts)
        rung = re.search(r"\.ladderRung = (\d+)", facts)
        if not name:
            found.append(f"{where}: its facts give no .name")
            continue
        name, rung = name.group(1), int(rung.group(1)) if rung else 0
        if rung >= 1 and rung in rung_of:
            found.append(f"{where}: rung {rung} is {rung_of[rung]}'s already: give {name} the next free rung "
                         f"({max(rung_of) + 1})")
        rung_of.setdefault(rung, name) if rung >= 1 else None
        if rung >= 1 and not re.search(rf"^\| *{rung} \| `{re.escape(name)}` \(`{stem}\.cuh`\) \|", readme, re.M):
            found.append(f"kernels/README.md: the ladder's table has no row for rung {rung}: add "
                         f"'| {rung} | `{name}` (`{stem}.cuh`) | the idea | H100 tiling | ... |' in rung order "
                         "(the percentages come from the recorded CSV: tests/docs/ladder_table.py --write)")
        if rung > 1 and name not in taught:
            found.append(f"no lesson runs rung {rung} ({name}): add assets/lessons/NN-<topic>.lesson with a page "
                         f"that says 'set kernel {name}' and its tiling (kernels/README.md, 'Adding a kernel')")
    lesson_of = {}
    for f in lessons:
        number, _, topic = f.stem.partition("-")
        if int(number) in lesson_of:
            found.append(f"assets/lessons: lesson {int(number)} is both {lesson_of[int(number)]} and {f.name}: "
                         f"number the new one {max(lesson_of) + 1}")
        lesson_of.setdefault(int(number), f.name)
        if not re.search(rf"^\| *{int(number)} \| `{re.escape(topic)}` \|", teacher, re.M):
            found.append(f"assets/guides/teacher.md: the lessons' table has no row for {f.name}: add "
                         f"'| {int(number)} | `{topic}` | what it shows |'")
    return found


def main():
    repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    found = problems(repo)
    for p in found:
        print(p)
    print(f"kernel list and docs: {len(kernels(repo))} kernels, {len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
