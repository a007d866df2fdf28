#!/usr/bin/env python3
"""A teacher changes the tile width in front of the class: in the presenter layout at 1920x1080
the lesson's column holds the run's sliders, and moving one shows the new run without leaving
the layout. The app opens lesson 3 in the presenter layout at 64^3, T = 16, through a script that
ends without `quit`; then the test works the slider as a person does, through the X server
(XTEST: Ctrl+click on "tile T" where the layout file says it is drawn, type 8, Return), waits
for the window's pixels to change and settle, and closes the window. The app's --report at exit
names the run on screen (tiled 64^3 with T = 8, the slider's value) and times the change from
the request to the first frame that showed it. Needs libX11 and libXtst (keys_after_script_test)."""
import ctypes
import json
import os
import re
import struct
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402
from keys_after_script_test import AppAfterScript, X, changed, wait_for  # noqa: E402

WINDOW = (1920, 1080)

SCRIPT = """lesson tiling-and-phases
set presenter on
set size 64
set tile 16
wait
layout @before.json
"""


class Pointer(X):
    """X's calls, and the pointer's button and the window manager's close."""

    def __init__(self):
        super().__init__()
        self.xtst.XTestFakeButtonEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
        self.x11.XInternAtom.restype = ctypes.c_ulong
        self.x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        self.x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]

    def key(self, keysym, down):
        code = self.x11.XKeysymToKeycode(self.display, self.x11.XStringToKeysym(keysym.encode()))
        self.xtst.XTestFakeKeyEvent(self.display, code, 1 if down else 0, 0)
        self.x11.XSync(self.display, 0)
        time.sleep(0.05)

    def click(self, x, y):
        self.xtst.XTestFakeMotionEvent(self.display, -1, x, y, 0)
        self.x11.XSync(self.display, 0)
        time.sleep(0.2)
        for down in (1, 0):
            self.xtst.XTestFakeButtonEvent(self.display, 1, down, 0)
            self.x11.XSync(self.display, 0)
            time.sleep(0.1)

    def close(self, window):
        """What a window manager sends when the window's close box is clicked (WM_DELETE_WINDOW)."""
        protocols = self.x11.XInternAtom(self.display, b"WM_PROTOCOLS", 0)
        delete = self.x11.XInternAtom(self.display, b"WM_DELETE_WINDOW", 0)
        event = ctypes.create_string_buffer(192)  # XEvent; XClientMessageEvent on LP64:
        struct.pack_into("i", event, 0, 33)  # type ClientMessage
        struct.pack_into("Q", event, 32, window)  # window
        struct.pack_into("Q", event, 40, protocols)  # message_type
        struct.pack_into("i", event, 48, 32)  # format
        struct.pack_into("q", event, 56, delete)  # data.l[0]
        self.x11.XSendEvent(self.display, window, 0, 0, event)
        self.x11.XSync(self.display, 0)


class PresenterSlider(AppAfterScript):
    SCRIPT, WINDOW, EXTRA, X_CLASS = SCRIPT, WINDOW, ("--report",), Pointer

    def test_the_tile_slider_in_the_presenter_shows_the_new_run(self):
        path = os.path.join(self.folder, "before.json")
        self.assertTrue(wait_for(lambda: os.path.exists(path) or self.app.poll() is not None, 180),
                        "the script never wrote its layout")
        self.assertIsNone(self.app.poll(), "a script without quit must leave the app running")
        with open(path) as f:
            layout = json.load(f)
        sliders = {t["text"]: t for t in layout["texts"] if t["panel"] == "Lesson" and t["text"].startswith("slider ")}
        self.assertIn("slider size 64", sliders, "no size slider in the presenter's lesson column")
        self.assertIn("slider tile T 16", sliders, "no tile slider in the presenter's lesson column")
        lesson = next(w for w in layout["windows"] if w["name"] == "Lesson")
        tile = sliders["slider tile T 16"]
        self.assertTrue(lesson["x"] <= tile["x"] < lesson["x"] + lesson["width"], "the slider is outside the lesson column")
        window = wait_for(lambda: self.x.find("tilescope"), 10)
        self.assertTrue(window, "no window called tilescope")
        self.x.point_and_focus(window, WINDOW[0] // 2, WINDOW[1] // 2)
        before = self.still(window, tries=40)
        self.assertIsNotNone(before, "the picture kept changing before the slider moved")
        # Ctrl+click turns an ImGui slider into a field with its text selected: 8 replaces 16.
        self.x.key("Control_L", True)
        self.x.click(int(tile["x"]) + 12, int(tile["y"]) + int(tile["pitch"]) // 2)
        self.x.key("Control_L", False)
        for key in ("8", "Return"):
            self.x.key(key, True)
            self.x.key(key, False)
        self.assertTrue(wait_for(lambda: changed(before, self.x.pixels(window, *WINDOW)) > 1000, 60),
                        "the picture did not change after the slider moved")
        self.assertIsNotNone(self.still(window, tries=40), "the picture did not settle")
        self.x.close(window)
        out, err = self.app.communicate(timeout=60)
        self.assertEqual(self.app.returncode, 0, err)
        # The run on screen at exit is the slider's: T = 8 at 64^3.
        self.assertIn("[tiled 64x64x64 T=8]", out, out)
        latencies = re.search(r"request to new picture: (\d+) changes.*\(each:([\d ]+)\)", out)
        self.assertTrue(latencies, out)
        print(f"\nthe slider's change to its picture: {latencies.group(2).split()[-1]} ms (the machine's load decides)")


if __name__ == "__main__":
    sm.take_flags()
    unittest.main()
