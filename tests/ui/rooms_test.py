#!/usr/bin/env python3
"""The app's rooms point one way: a file of app/ui includes only its own room and the
rooms below it, read from the #include lines themselves.

    model/ (and theme.h beside it) <- workers/ <- state/ <- panels/ <- script/ <- export/ <- app

app/ui/CMakeLists.txt says what each room holds. A new folder under app/ui must be given its place
here, or this test fails: no room goes unchecked. model/ is also GUI-free (no ImGui, no GLFW, no GL),
since its library is built and tested where the app is not.

Usage: rooms_test.py REPOSITORY_ROOT
"""
import pathlib
import re
import sys

# Lowest first. The files at app/ui's top: theme.* (colours, GUI-free) sit at the bottom; the
# rest (the frame loop, the command line, main, the fonts) at the top.
ROOMS = ["model", "workers", "state", "panels", "script", "export", "app"]
BOTTOM_FILES = {"theme.h", "theme.cpp", "theme_style.cpp"}
INCLUDE = re.compile(r'^\s*#\s*include\s+[<"]([^>"]+)[>"]', re.M)
GUI_HEADERS = ("imgui", "GLFW/", "glad/", "gfx/gl_", "backends/")


def room_of_file(rel):
    """rel: a path under app/ui ('panels/banks.cpp', 'app.cpp')."""
    parts = rel.split("/")
    if len(parts) == 1:
        return "model" if parts[0] in BOTTOM_FILES else "app"
    return parts[0]


def room_of_include(target, including_dir):
    """The room an include names, or None when it is outside app/ui."""
    if target.startswith("ui/"):
        return room_of_file(target[len("ui/"):])
    if "/" not in target and (including_dir / target).exists() and including_dir.name == "ui":
        return room_of_file(target)  # "app.h" beside app.cpp
    return None


def arrows(ui_root):
    """Every include between files of app/ui: (file, its room, the include, the room it names)."""
    out = []
    for path in sorted(ui_root.rglob("*")):
        if path.suffix not in (".h", ".cpp", ".cuh") or not path.is_file():
            continue
        rel = path.relative_to(ui_root).as_posix()
        room = room_of_file(rel)
        for target in INCLUDE.findall(path.read_text(errors="replace")):
            to = room_of_include(target, path.parent)
            out.append((rel, room, target, to))
    return out


def problems(ui_root):
    found = []
    for d in sorted(p.name for p in ui_root.iterdir() if p.is_dir()):
        if d not in ROOMS:
            found.append(f"app/ui/{d}/ is in no room: give it its place in ROOMS ({__file__})")
    rank = {r: i for i, r in enumerate(ROOMS)}
    for rel, room, target, to in arrows(ui_root):
        if room not in rank:
            continue  # reported above
        if to is not None and to in rank and rank[to] > rank[room]:
            found.append(f"app/ui/{rel} ({room}) includes {target} ({to}): an arrow back up")
        if room == "model" and rel.startswith("model/") and target.startswith(GUI_HEADERS):
            found.append(f"app/ui/{rel} (model, GUI-free) includes {target}")
    return found


def self_check(tmp):
    """The test catches what it is meant to: a model file including a panel, a state file
    including a worker is fine, a workers file including the state is not."""
    ui = tmp / "ui"
    for d in ("model", "workers", "state", "panels"):
        (ui / d).mkdir(parents=True)
    (ui / "model" / "a.h").write_text('#include "ui/panels/p.h"\n#include <imgui.h>\n')
    (ui / "state" / "s.cpp").write_text('#include "ui/workers/w.h"\n#include "ui/model/a.h"\n')
    (ui / "workers" / "w.cpp").write_text('#include "ui/state/app_state.h"\n')
    (ui / "panels" / "p.h").write_text('#include "ui/state/app_state.h"\n')
    (ui / "extra").mkdir()
    got = problems(ui)
    want = ["extra/ is in no room", "model/a.h (model) includes ui/panels/p.h", "(model, GUI-free) includes imgui.h",
            "workers/w.cpp (workers) includes ui/state/app_state.h"]
    assert len(got) == len(want), got
    for w in want:
        assert any(w in g for g in got), (w, got)


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    ui_root = root / "app" / "ui"
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        self_check(pathlib.Path(tmp))
    all_arrows = arrows(ui_root)
    counted = {r: 0 for r in ROOMS}
    for _, room, _, to in all_arrows:
        if to is not None and room in counted:
            counted[room] += 1
    # Every room includes something of app/ui (a room the scan missed would pass vacuously).
    assert all(n > 0 for n in counted.values()), counted
    found = problems(ui_root)
    for p in found:
        print(p)
    print(f"{len(all_arrows)} includes read in app/ui; arrows inside app/ui per room: {counted}; "
          f"{len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
