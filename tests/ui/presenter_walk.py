#!/usr/bin/env python3
"""One walk of every page of every lesson in the presenter layout, shared by the presenter tests
(ui.classroom, ui.projector, ui.back_row, ui.lesson_truth): each used to launch the app and
walk the same pages again. CTest runs this once as the fixture ui.presenter_walk
(FIXTURES_SETUP), which writes FOLDER/WxH/ for 1280x720, 1280x800 and 1920x1080: the layout file
of every page, `<lesson>-<page>.json`, and at 1280x720 the classroom's extras (every built-in
kernel's source, the 128-bit steps, a followed thread with its screenshot). The tests find
FOLDER in TILESCOPE_PRESENTER_WALK; run alone, without it, a test walks the sizes it needs itself.

    xvfb-run -a -s "-screen 0 1920x1080x24" python3 presenter_walk.py --app APP --out FOLDER

The three sizes run as three app launches at once (one X server). Standard library only."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402
import classroom_test as ct  # noqa: E402

SIZES = ((1280, 720), (1280, 800), (1920, 1080))
DONE = "walk-done"  # written last: a folder without it is an interrupted walk

_walked = {}  # (w, h) -> folder, for a test run without the fixture


def extras_720():
    """The classroom's checks beyond the lessons' pages (classroom_test.Presenter720)."""
    script = "lesson tiling-and-phases\nset presenter on\nwait\n"
    for k in ct.KERNELS:
        script += f"set kernel {k}\nwait\nlayout @{k}.json\n"
    # 128-bit steps: vectorized and double-buffered at their lessons' tilings, by k steps.
    script += ("lesson vectorized-loads\nset presenter on\nwait\nset granularity k\nseek start\nstep 1\n"
               "layout @wide-load.json\nstep 2\nlayout @wide-k0.json\nlesson double-buffering\nwait\n"
               "set granularity k\nseek start\nstep 8\nlayout @staged.json\nlesson tiling-and-phases\nwait\n")
    script += ("set kernel tiled\nset size 4\nset tile 2\nwait\nfollow thread 0 1\nseek phase 1\n"
               "screenshot @follow.png\nlayout @follow.json\n")
    return script


def script_for(size):
    script = ct.presenter_script(ct.lessons())
    if size == (1280, 720):
        script += extras_720()
    return script + "quit\n"


def start(size, folder):
    """The app walking `size` into `folder` (script paths written there), not waited for."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "walk.script")
    with open(path, "w") as f:
        f.write(script_for(size).replace("@", folder + "/"))
    log = open(os.path.join(folder, "walk.log"), "w")
    w, h = size
    return subprocess.Popen([sm.APP, "--script", path, "--size", f"{w}x{h}"], stdout=log, stderr=subprocess.STDOUT)


def walk(out, sizes=SIZES):
    """Every size walked into out/WxH, at once; raises with the app's output if one fails."""
    procs = {size: start(size, os.path.join(out, f"{size[0]}x{size[1]}")) for size in sizes}
    failed = []
    for (w, h), proc in procs.items():
        if proc.wait(timeout=540) != 0:
            with open(os.path.join(out, f"{w}x{h}", "walk.log")) as f:
                failed.append(f"{w}x{h}: tilescope exited {proc.returncode}\n{f.read()[-4000:]}")
    if failed:
        raise AssertionError("\n".join(failed))
    for w, h in sizes:
        open(os.path.join(out, f"{w}x{h}", DONE), "w").close()


def folder(size):
    """The folder of `size`'s walk: the fixture's, else one walked now (once per process)."""
    shared = os.environ.get("TILESCOPE_PRESENTER_WALK")
    if shared:
        path = os.path.join(shared, f"{size[0]}x{size[1]}")
        if not os.path.exists(os.path.join(path, DONE)):
            raise AssertionError(f"{path}: no finished walk (the fixture ui.presenter_walk failed or did not run)")
        return path
    if size not in _walked:
        out = tempfile.mkdtemp(prefix="tilescope-walk-")
        walk(out, (size,))
        _walked[size] = os.path.join(out, f"{size[0]}x{size[1]}")
    return _walked[size]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--app", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    sm.APP = args.app
    shutil.rmtree(args.out, ignore_errors=True)
    began = time.monotonic()
    walk(args.out)
    print(f"walked {len(ct.lessons())} lessons at {len(SIZES)} sizes in {time.monotonic() - began:.1f} s into {args.out}")


if __name__ == "__main__":
    main()
