#!/usr/bin/env python3
"""`cmake --install` gives a working, relocatable app and CLI (README.md, "Install").

The build is installed into a temporary prefix exactly as the README says, and the prefix is
then moved somewhere else, so nothing may depend on where it was installed either. From there,
with a working directory of its own and no TILESCOPE_* variables:
  - no binary holds a path of the source or build tree (debug information aside: it is
    stripped from a copy first, since it names the sources by design and is never opened);
  - `tilescope-cli lessons` lists the lessons, read from the moved prefix, and with the
    prefix's assets hidden it fails naming the prefix, so it never falls back to the sources;
  - the app renders `--screenshot` and, in script mode, loads a lesson and the recorded
    timings from the prefix and draws with fonts that fontconfig found (when built with it).
The facts checked against come from the source tree's assets/, read by this test only.
Standard library only; the app's part needs a display (CTest runs it under xvfb-run)."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ui"))
import script_mode_test as sm  # noqa: E402  (PNG decoding)

ARGS = None
ASSETS = os.path.join("share", "tilescope", "assets")


def clean_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith("TILESCOPE_")}
    return env


def guide_lesson_rows():
    """The teacher guide's table of lessons: rows '| N | `name` | ...'."""
    with open(os.path.join(ARGS.source, "assets", "guides", "teacher.md"), encoding="utf-8") as f:
        return [line.split("`")[1] for line in f if re.match(r"^\| \d+ \| `[a-z0-9-]+` \|", line)]


def shipped_lesson_names():
    folder = os.path.join(ARGS.source, "assets", "lessons")
    stems = sorted(f[:-len(".lesson")] for f in os.listdir(folder) if f.endswith(".lesson"))
    return [s.split("-", 1)[1] for s in stems]  # "04-two-barriers" -> "two-barriers"


class Installed(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="tilescope-install-")
        staged = os.path.join(cls.tmp, "staged")
        proc = subprocess.run([ARGS.cmake, "--install", ARGS.build, "--prefix", staged],
                              capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            raise AssertionError(f"cmake --install failed:\n{proc.stdout}\n{proc.stderr}")
        cls.prefix = os.path.join(cls.tmp, "moved", "elsewhere")
        os.makedirs(os.path.dirname(cls.prefix))
        os.rename(staged, cls.prefix)
        cls.cwd = os.path.join(cls.tmp, "cwd")
        os.makedirs(cls.cwd)
        cls.programs = ["tilescope-cli"] + (["tilescope"] if ARGS.app else [])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_installed(self, program, *args, timeout=120):
        return subprocess.run([os.path.join(self.prefix, "bin", program), *args], cwd=self.cwd, env=clean_env(),
                              capture_output=True, text=True, timeout=timeout)

    def test_the_prefix_holds_the_programs_and_the_assets(self):
        for program in self.programs:
            self.assertTrue(os.access(os.path.join(self.prefix, "bin", program), os.X_OK), program)
        lessons = os.path.join(self.prefix, ASSETS, "lessons")
        self.assertEqual(sorted(shipped_lesson_names()), sorted(guide_lesson_rows()))  # the teacher guide's table
        self.assertEqual(len([f for f in os.listdir(lessons) if f.endswith(".lesson")]), len(shipped_lesson_names()))
        self.assertTrue(os.path.isfile(os.path.join(self.prefix, ASSETS, "timings", "h100.csv")))
        self.assertFalse(os.path.islink(os.path.join(self.prefix, ASSETS)), "the build tree's link was installed")

    def test_no_binary_names_the_source_or_build_tree(self):
        if ARGS.sanitized:
            self.skipTest("a UBSan build names its sources: g++ keeps each check's file path in the binary")
        strip = shutil.which("strip")
        if not strip:
            self.skipTest("no strip (binutils) to drop the debug information first")
        for program in self.programs:
            copy = os.path.join(self.tmp, program + ".stripped")
            subprocess.run([strip, "--strip-debug", "-o", copy, os.path.join(self.prefix, "bin", program)], check=True)
            with open(copy, "rb") as f:
                data = f.read()
            for tree in {os.path.realpath(ARGS.source), os.path.realpath(ARGS.build)}:
                self.assertNotIn((tree + "/").encode(), data, f"{program} holds the path {tree}/")

    def test_the_lab_runs_an_installed_example_from_the_moved_prefix(self):
        # The runner from PREFIX/libexec, the headers embedded, the example from the assets.
        example = os.path.join(self.prefix, ASSETS, "lab", "examples", "pmpp_fig5_9.cu")
        env = clean_env()
        env["TILESCOPE_LAB_CACHE"] = os.path.join(self.tmp, "lab-cache")
        proc = subprocess.run([os.path.join(self.prefix, "bin", "tilescope-cli"), "lab", "run", example],
                              cwd=self.cwd, env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("verified", proc.stdout)
        self.assertTrue(os.access(os.path.join(self.prefix, "libexec", "tilescope", "tilescope-lab-runner"), os.X_OK))

    def test_cli_lists_the_lessons_from_the_prefix(self):
        proc = self.run_installed("tilescope-cli", "lessons")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(sorted(shipped_lesson_names()), sorted(guide_lesson_rows()))  # the teacher guide's table
        for name in shipped_lesson_names():
            self.assertIn(name, proc.stdout)
        proc = self.run_installed("tilescope-cli", "lessons", "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        listed = json.loads(proc.stdout)
        self.assertEqual([l["name"] for l in listed], shipped_lesson_names())
        where = os.path.realpath(os.path.join(self.prefix, ASSETS, "lessons"))
        for lesson in listed:
            self.assertEqual(os.path.dirname(os.path.realpath(lesson["file"])), where)

    def test_cli_without_the_prefix_assets_fails_and_says_where_it_looked(self):
        assets = os.path.join(self.prefix, ASSETS)
        os.rename(assets, assets + ".hidden")
        try:
            proc = self.run_installed("tilescope-cli", "lessons")
        finally:
            os.rename(assets + ".hidden", assets)
        self.assertNotEqual(proc.returncode, 0, proc.stdout)
        self.assertIn("cannot find tilescope's assets", proc.stderr)
        self.assertIn(os.path.realpath(assets), proc.stderr)

    def test_app_screenshot_from_the_prefix(self):
        if not ARGS.app:
            self.skipTest("the desktop app is not built here")
        shot = os.path.join(self.cwd, "start.png")
        proc = self.run_installed("tilescope", "--screenshot", shot)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        image = sm.Image(shot)
        self.assertEqual((image.width, image.height), (1280, 800))  # the app's default window
        colours = {image.pixel(x, y) for y in range(0, image.height, 20) for x in range(0, image.width, 20)}
        self.assertGreater(len(colours), 10, "the screenshot is nearly uniform: nothing was drawn")

    def test_app_reads_lessons_timings_and_fonts_from_the_prefix(self):
        if not ARGS.app:
            self.skipTest("the desktop app is not built here")
        layout = os.path.join(self.cwd, "layout.json")
        script = os.path.join(self.cwd, "test.script")
        with open(script, "w") as f:
            f.write(f"lesson two-barriers\nshow Timing\nwait\nlayout {layout}\nquit\n")
        proc = self.run_installed("tilescope", "--script", script)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(layout) as f:
            l = json.load(f)
        self.assertEqual(l["lesson"]["name"], "two-barriers")
        self.assertEqual(l["lesson"]["error"], "")
        timings = l["recordedTimings"]
        self.assertEqual(timings["error"], "")
        self.assertEqual(os.path.realpath(timings["path"]),
                         os.path.realpath(os.path.join(self.prefix, ASSETS, "timings", "h100.csv")))
        trees = (os.path.realpath(ARGS.source) + "/", os.path.realpath(ARGS.build) + "/")
        for role in ("sans", "mono"):
            font = l["fonts"][role]
            if ARGS.fontconfig:  # scripts/install-deps installs fonts-dejavu-core
                self.assertTrue(os.path.isfile(font), f"{role}: '{font}' ({proc.stderr})")
            self.assertFalse(os.path.realpath(font).startswith(trees) if font else False, font)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cmake", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--app", action="store_true", help="the desktop app is built: test it too")
    parser.add_argument("--fontconfig", action="store_true", help="the app is built with fontconfig")
    parser.add_argument("--sanitized", action="store_true", help="a sanitizer build (preset sanitize)")
    ARGS, rest = parser.parse_known_args()
    unittest.main(argv=[sys.argv[0], *rest], verbosity=2)
