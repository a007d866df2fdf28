#!/usr/bin/env python3
"""Replay in the desktop app (README.md, "Replaying a trace from a GPU machine"): a trace saved by `tilescope-cli save` opens
with the script command `open FILE` and with `tilescope --open FILE`, and is drawn like a run:
the grids take the file's shape, the current tiles carry the highlight, and the Controls panel
says it is a replay (checked in the layout JSON and in the screenshot's pixels). Bad files fail
with a message naming them. Helpers come from script_mode_test.py; standard library only."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402

CLI = None  # set from --cli


def save_trace(folder, name="x.tstrace"):
    path = os.path.join(folder, name)
    proc = subprocess.run([CLI, "save", "--kernel", "tiled", "--size", "8", "--tile", "4", "--seed", "5",
                           "--file", path], capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise AssertionError(f"tilescope-cli save exited {proc.returncode}: {proc.stderr}")
    return path


def truncate(path, name):
    with open(path, "rb") as f:
        data = f.read()
    out = os.path.join(os.path.dirname(path), name)
    with open(out, "wb") as f:
        f.write(data[:len(data) // 2])
    return out


def load(folder, name):
    with open(os.path.join(folder, name)) as f:
        return json.load(f)


def highlight_pixels(image, window, colour, height=60):
    """Pixels of the highlight colour in the top band of a window (the replay label's text)."""
    count = 0
    for y in range(int(window["y"]) + 20, int(window["y"]) + height):
        for x in range(int(window["x"]) + 4, int(window["x"] + window["width"]) - 4):
            if sm.close(image.pixel(x, y), colour, 30):
                count += 1
    return count


class OpenInScript(unittest.TestCase):
    """`open X.tstrace` of tiled 8x8x8 T=4, then phase 1 of block (0,0)."""

    @classmethod
    def setUpClass(cls):
        cls.traces = tempfile.mkdtemp(prefix="tilescope-replay-")
        cls.trace = save_trace(cls.traces)
        cls.folder, _ = sm.run_app(f"open {cls.trace}\nseek phase 1\nlayout @L.json\nscreenshot @S.png\n"
                                   "preset book-4x4\nlayout @fresh.json\nscreenshot @fresh.png\nquit\n")
        cls.layout, cls.png = load(cls.folder, "L.json"), sm.Image(os.path.join(cls.folder, "S.png"))
        cls.fresh, cls.fresh_png = load(cls.folder, "fresh.json"), sm.Image(os.path.join(cls.folder, "fresh.png"))

    def test_grids_have_the_files_shape(self):
        shapes = {g["name"]: (g["rows"], g["cols"]) for g in self.layout["grids"]}
        for name in ("M", "N", "P"):
            self.assertEqual(shapes[name], (8, 8), name)
        self.assertEqual(shapes["Mds"], (4, 4))
        self.assertEqual(self.layout["config"], "tiled 8x8x8 T=4")

    def test_phase1_tiles_carry_the_highlight(self):
        # Block (0,0), phase 1: M's rows 0-3 at columns 4-7, N's rows 4-7 at columns 0-3.
        highlight = sm.hex_rgb(self.layout["theme"]["highlight"])
        m, n = sm.grid(self.layout, "M"), sm.grid(self.layout, "N")
        for r in range(8):
            for c in range(8):
                got_m = self.png.pixel(*sm.ring_point(m, r, c))
                got_n = self.png.pixel(*sm.ring_point(n, r, c))
                self.assertEqual(sm.close(got_m, highlight), r < 4 and c >= 4, f"M[{r}][{c}] ring {got_m}")
                self.assertEqual(sm.close(got_n, highlight), r >= 4 and c < 4, f"N[{r}][{c}] ring {got_n}")

    def test_layout_names_the_replay(self):
        replay = self.layout["replay"]
        self.assertEqual(replay["file"], self.trace)
        self.assertEqual(replay["backend"], "emulator")
        self.assertEqual(replay["device"], "CPU emulator")
        self.assertRegex(replay["toolVersion"], r"^\d+\.\d+\.\d+$")
        self.assertTrue(replay["label"].startswith(f"replaying {self.trace}: recorded on CPU emulator (emulator), "))
        self.assertNotIn("replay", self.fresh, "a preset afterwards is a run made here, not a replay")

    def test_controls_show_the_replay_label(self):
        highlight = sm.hex_rgb(self.layout["theme"]["highlight"])
        # Controls shares the left column with the Lesson tab: the window is named after the slot.
        controls = next(w for w in self.layout["windows"] if w["name"] in ("Controls", "left"))
        fresh_controls = next(w for w in self.fresh["windows"] if w["name"] in ("Controls", "left"))
        replaying = highlight_pixels(self.png, controls, highlight)
        running = highlight_pixels(self.fresh_png, fresh_controls, highlight)
        self.assertGreater(replaying, 100, "the replay label is drawn in the highlight colour")
        self.assertLess(running, 10, "no replay label over a fresh run")


class OpenErrors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.traces = tempfile.mkdtemp(prefix="tilescope-replay-")
        cls.trace = save_trace(cls.traces)
        cls.truncated = truncate(cls.trace, "truncated.tstrace")

    def test_truncated_file_fails_the_script_line(self):
        _, proc = sm.run_app(f"seek end\nopen {self.truncated}\nscreenshot @never.png\nquit\n", expect_rc=1)
        self.assertIn(f"test.script:2: {self.truncated}: ", proc.stderr)
        self.assertIn("truncated", proc.stderr)
        self.assertNotIn("wrote", proc.stdout)

    def test_missing_file_fails_the_script_line(self):
        missing = os.path.join(self.traces, "nowhere.tstrace")
        _, proc = sm.run_app(f"open {missing}\nquit\n", expect_rc=1)
        self.assertIn(f"test.script:1: cannot open '{missing}'", proc.stderr)

    def test_open_without_a_file_is_a_bad_line(self):
        _, proc = sm.run_app("open\n", expect_rc=2)
        self.assertIn("test.script:1: usage: open FILE.tstrace", proc.stderr)


class OpenOption(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.traces = tempfile.mkdtemp(prefix="tilescope-replay-")
        cls.trace = save_trace(cls.traces)

    def test_open_option_starts_on_the_file(self):
        folder, _ = sm.run_app("seek phase 1\nlayout @L.json\nquit\n", extra_args=("--open", self.trace))
        layout = load(folder, "L.json")
        self.assertEqual(layout["replay"]["file"], self.trace)
        self.assertEqual(sm.grid(layout, "M")["rows"], 8)

    def test_open_option_with_a_missing_file_is_a_clear_message(self):
        missing = os.path.join(self.traces, "nowhere.tstrace")
        proc = subprocess.run([sm.APP, "--open", missing], capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertIn(f"--open: no trace file '{missing}'", proc.stderr)

    def test_open_option_with_a_truncated_file_says_why(self):
        bad = truncate(self.trace, "half.tstrace")
        proc = subprocess.run([sm.APP, "--open", bad, "--screenshot", os.path.join(self.traces, "never.png")],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn(f"cannot open the trace file: {bad}: ", proc.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.traces, "never.png")))


class Export(unittest.TestCase):
    """The Controls panel's Export buttons, through their script command: the run as a trace file
    that opens again (in the CLI and in the app), its trace as Perfetto JSON, the window as PNG."""

    def test_exports_reopen_and_parse(self):
        folder, _ = sm.run_app("set kernel tiled-bounds\nset size 5\nset tile 2\nwait\n"
                               "export trace @run.tstrace\nexport chrome @run.json\nexport png @view.png\n"
                               "frames 2\nopen @run.tstrace\nlayout @reopened.json\nquit\n")
        opened = subprocess.run([CLI, "open", "--file", os.path.join(folder, "run.tstrace"), "--json"],
                                capture_output=True, text=True, timeout=120)
        self.assertEqual(opened.returncode, 0, opened.stderr)
        summary = json.loads(opened.stdout)
        self.assertEqual(summary["kernel"], "tiled-bounds")
        self.assertTrue(summary["verified"])
        with open(os.path.join(folder, "reopened.json")) as f:
            reopened = json.load(f)
        self.assertEqual(reopened["config"], "tiled-bounds 5x5x5 T=2")
        self.assertTrue(reopened["replay"]["file"].endswith("run.tstrace"))
        with open(os.path.join(folder, "run.json")) as f:
            chrome = json.load(f)
        blocks = {e["pid"] for e in chrome["traceEvents"] if e.get("ph") != "M"}
        self.assertEqual(len(blocks), 9)  # ceil(5/2)^2 blocks, one process each
        png = sm.Image(os.path.join(folder, "view.png"))
        self.assertEqual((png.width, png.height), (1280, 800))


if __name__ == "__main__":
    CLI = sm.take_flags(("--app", "--cli")).get("--cli", CLI)
    unittest.main(verbosity=2)
