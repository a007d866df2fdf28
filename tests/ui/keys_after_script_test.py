#!/usr/bin/env python3
"""Issue 29: after a script that does not quit, the window takes the keyboard (`--help`: "run
script commands, then keep running unless it quits"). The app runs a script that ends without
`quit`; then the test types on the X server's keyboard as a person would, through the XTEST
extension (what xdotool uses: the key events come from the X server, through GLFW's own input
path, not from the app's script), and watches the window's pixels as the X server holds them:
space plays (the picture changes), space again pauses (it holds still, elsewhere than it
started). Needs libX11 and libXtst (GLFW's X11 dependencies; XTEST is in every X server)."""
import ctypes
import ctypes.util
import os
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402

WINDOW = (1280, 800)  # --size; the X screen is larger (CMakeLists: 1920x1080)

SCRIPT = """set size 24
set tile 4
wait
seek start
layout @before.json
"""


class X:
    """The few Xlib and XTEST calls the test needs, through ctypes."""

    def __init__(self):
        self.x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
        self.xtst = ctypes.CDLL(ctypes.util.find_library("Xtst") or "libXtst.so.6")
        x, t = self.x11, self.xtst
        x.XOpenDisplay.restype = ctypes.c_void_p
        x.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x.XDefaultRootWindow.restype = ctypes.c_ulong
        x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
        x.XQueryTree.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_ulong),
                                 ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.POINTER(ctypes.c_ulong)),
                                 ctypes.POINTER(ctypes.c_uint)]
        x.XFetchName.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.POINTER(ctypes.c_char_p)]
        x.XGetWindowAttributes.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p]
        x.XStringToKeysym.restype = ctypes.c_ulong
        x.XStringToKeysym.argtypes = [ctypes.c_char_p]
        x.XKeysymToKeycode.restype = ctypes.c_ubyte
        x.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        x.XSetInputFocus.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_ulong]
        x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
        x.XGetImage.restype = ctypes.c_void_p
        x.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        x.XFree.argtypes = [ctypes.c_void_p]
        t.XTestFakeKeyEvent.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int, ctypes.c_ulong]
        t.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_ulong]
        self.display = x.XOpenDisplay(None)
        if not self.display:
            raise unittest.SkipTest("no X display (run under xvfb-run)")

    def find(self, name, parent=None):
        """The first window called `name` under `parent` (the root window by default), or 0."""
        parent = parent or self.x11.XDefaultRootWindow(self.display)
        root, up = ctypes.c_ulong(), ctypes.c_ulong()
        children, count = ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
        if not self.x11.XQueryTree(self.display, parent, ctypes.byref(root), ctypes.byref(up), ctypes.byref(children),
                                   ctypes.byref(count)):
            return 0
        found = 0
        for i in range(count.value):
            title = ctypes.c_char_p()
            if self.x11.XFetchName(self.display, children[i], ctypes.byref(title)) and title.value:
                if title.value.decode(errors="replace") == name:
                    found = children[i]
            if not found:
                found = self.find(name, children[i])
            if found:
                break
        if children:
            self.x11.XFree(children)
        return found

    def size(self, window):
        attributes = ctypes.create_string_buffer(512)  # XWindowAttributes begins x, y, width, height
        self.x11.XGetWindowAttributes(self.display, window, attributes)
        x, y, width, height = (ctypes.c_int * 4).from_buffer(attributes)
        return width, height

    def pixels(self, window, width, height):
        """The window's pixels as the X server holds them (ZPixmap bytes, row by row)."""
        image = self.x11.XGetImage(self.display, window, 0, 0, width, height, ~0 & 0xFFFFFFFF, 2)  # ZPixmap
        if not image:
            return b""
        # XImage: int width, height, xoffset, format; char* data; int byte_order, bitmap_unit,
        # bitmap_bit_order, bitmap_pad, depth, bytes_per_line.
        ints = (ctypes.c_int * 4).from_address(image)
        data = ctypes.c_void_p.from_address(image + 16).value
        bytes_per_line = (ctypes.c_int * 6).from_address(image + 24)[5]
        out = ctypes.string_at(data, bytes_per_line * ints[1])
        self.x11.XFree(ctypes.c_void_p(data))
        self.x11.XFree(ctypes.c_void_p(image))
        return out

    def point_and_focus(self, window, x, y):
        """The pointer over the window at (x, y) of the screen, and the keyboard's focus on it
        (what a window manager gives the window a person clicks)."""
        self.xtst.XTestFakeMotionEvent(self.display, -1, x, y, 0)
        self.x11.XSetInputFocus(self.display, window, 2, 0)  # RevertToParent, CurrentTime
        self.x11.XSync(self.display, 0)

    def type_key(self, keysym):
        code = self.x11.XKeysymToKeycode(self.display, self.x11.XStringToKeysym(keysym.encode()))
        self.xtst.XTestFakeKeyEvent(self.display, code, 1, 0)
        self.x11.XSync(self.display, 0)
        time.sleep(0.05)
        self.xtst.XTestFakeKeyEvent(self.display, code, 0, 0)
        self.x11.XSync(self.display, 0)


def wait_for(what, seconds=60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = what()
        if value:
            return value
        time.sleep(0.1)
    return None


def changed(a, b):
    """How many 4-byte pixels differ."""
    return sum(1 for i in range(0, min(len(a), len(b)), 4) if a[i:i + 4] != b[i:i + 4])


class AppAfterScript(unittest.TestCase):
    """The app running SCRIPT (without quit) in a WINDOW-sized window, with EXTRA flags, and X's
    calls (X_CLASS) to act on it; shared with presenter_slider_test."""
    SCRIPT, WINDOW, EXTRA, X_CLASS = SCRIPT, WINDOW, (), X

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="tilescope-after-script-")
        script = os.path.join(self.folder, "after.script")
        with open(script, "w") as f:
            f.write(self.SCRIPT.replace("@", self.folder + "/"))
        size = f"{self.WINDOW[0]}x{self.WINDOW[1]}"
        self.app = subprocess.Popen([sm.APP, "--script", script, "--size", size, *self.EXTRA], stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
        self.x = self.X_CLASS()

    def tearDown(self):
        if self.app.poll() is None:
            self.app.terminate()
        try:
            self.app.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.app.kill()
            self.app.communicate()

    def still(self, window, seconds=0.5, tries=10):
        """The window's pixels, once two looks `seconds` apart agree (None: they kept changing)."""
        for _ in range(tries):
            a = self.x.pixels(window, *self.WINDOW)
            time.sleep(seconds)
            b = self.x.pixels(window, *self.WINDOW)
            if a and changed(a, b) == 0:
                return b
        return None


class KeysAfterScript(AppAfterScript):
    def test_space_plays_and_pauses_after_the_script(self):
        layout = os.path.join(self.folder, "before.json")
        self.assertTrue(wait_for(lambda: os.path.exists(layout) or self.app.poll() is not None, 120),
                        "the script never wrote its layout")
        self.assertIsNone(self.app.poll(), "a script without quit must leave the app running")
        window = wait_for(lambda: self.x.find("tilescope"), 10)
        self.assertTrue(window, "no window called tilescope")
        self.assertEqual(self.x.size(window), WINDOW)
        self.x.point_and_focus(window, WINDOW[0] // 2, WINDOW[1] // 3)
        paused = self.still(window)
        self.assertIsNotNone(paused, "the picture kept changing before any key")
        # Space plays: the cursor moves through the steps and the grids change with it (the
        # script's kernel has 6 k steps in each of 4 phases, at 2 steps a second).
        self.x.type_key("space")
        playing = wait_for(lambda: changed(paused, self.x.pixels(window, *WINDOW)) > 1000, 10)
        self.assertTrue(playing, "space after the script left the picture as it was: the keys are not taken")
        # Space again pauses: the picture holds still, and not where it started.
        self.x.type_key("space")
        stopped = self.still(window)
        self.assertIsNotNone(stopped, "space again did not pause")
        self.assertGreater(changed(paused, stopped), 1000)
        self.assertIsNone(self.app.poll(), "the app quit after the keys")


if __name__ == "__main__":
    sm.take_flags()
    unittest.main()
