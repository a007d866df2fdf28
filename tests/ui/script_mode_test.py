#!/usr/bin/env python3
"""Script-mode tests of the desktop app: each test writes a script, runs `tilescope --script`
(under the X server that CTest's xvfb-run provides), and checks the screenshot's pixels at
cells located through the `layout` JSON the same script wrote. Only the standard library."""
import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

APP = None  # set from --app


class PngRows:
    """The rows of an 8-bit RGB/RGBA non-interlaced PNG (what stb_image_write produces),
    unfiltered on demand: a test that reads pixels near the top decodes only the rows above."""

    def __init__(self, path):
        with open(path, "rb") as f:
            data = f.read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        pos, idat = 8, b""
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b"IHDR":
                self.width, self.height, depth, colour = struct.unpack(">IIBB", body[:10])
                assert depth == 8 and colour in (2, 6)
                self.channels = 3 if colour == 2 else 4
            elif kind == b"IDAT":
                idat += body
            pos += 12 + length
        self.raw = zlib.decompress(idat)
        self.decoded = []

    def __len__(self):
        return self.height

    def __getitem__(self, y):
        stride, channels = self.width * self.channels, self.channels
        while len(self.decoded) <= y:
            i = len(self.decoded) * (1 + stride)
            filt, line = self.raw[i], bytearray(self.raw[i + 1:i + 1 + stride])
            prev = self.decoded[-1] if self.decoded else bytes(stride)
            if filt == 1:  # Sub
                for x in range(channels, stride):
                    line[x] = (line[x] + line[x - channels]) & 255
            elif filt == 2:  # Up
                line = bytearray((p + q) & 255 for p, q in zip(line, prev))
            elif filt == 3:  # Average
                for x in range(stride):
                    line[x] = (line[x] + (((line[x - channels] if x >= channels else 0) + prev[x]) >> 1)) & 255
            elif filt == 4:  # Paeth: |p - a| = |b - c|, |p - b| = |a - c|, |p - c| = |a + b - 2c|
                for x in range(channels):
                    line[x] = (line[x] + prev[x]) & 255
                for x in range(channels, stride):
                    a, b, c = line[x - channels], prev[x], prev[x - channels]
                    pa, pb = b - c, a - c
                    pc = pa + pb
                    pa, pb, pc = pa if pa >= 0 else -pa, pb if pb >= 0 else -pb, pc if pc >= 0 else -pc
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            self.decoded.append(bytes(line))
        return self.decoded[y]


def take_flags(flags=("--app",)):
    """Takes each `FLAG VALUE` of `flags` out of sys.argv (unittest must not see them) and
    returns them by flag; --app becomes APP, the app every test here runs."""
    global APP
    values = {}
    for flag in flags:
        if flag in sys.argv:
            i = sys.argv.index(flag)
            values[flag] = sys.argv[i + 1]
            del sys.argv[i:i + 2]
    APP = values.get("--app", APP)
    return values


def read_png(path):
    """Decodes an 8-bit RGB/RGBA non-interlaced PNG: (width, height, channels, rows)."""
    rows = PngRows(path)
    return rows.width, rows.height, rows.channels, [rows[y] for y in range(rows.height)]


class Image:
    def __init__(self, path):
        self.rows = PngRows(path)
        self.width, self.height, self.channels = self.rows.width, self.rows.height, self.rows.channels

    def pixel(self, x, y):
        x, y = int(x), int(y)
        o = x * self.channels
        return tuple(self.rows[y][o:o + 3])


def hex_rgb(text):
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


def close(a, b, tolerance=6):
    return all(abs(p - q) <= tolerance for p, q in zip(a, b))


def run_app(script_text, extra_args=(), env=None, expect_rc=0):
    folder = tempfile.mkdtemp(prefix="tilescope-ui-")
    script = os.path.join(folder, "test.script")
    with open(script, "w") as f:
        f.write(script_text.replace("@", folder + "/"))
    proc = subprocess.run([APP, "--script", script, *extra_args], capture_output=True, text=True, env=env, timeout=300)
    if expect_rc is not None and proc.returncode != expect_rc:
        raise AssertionError(f"tilescope exited {proc.returncode}\nstdout: {proc.stdout}\nstderr: {proc.stderr}")
    return folder, proc


def grid(layout, name):
    for g in layout["grids"]:
        if g["name"] == name:
            return g
    raise AssertionError(f"no grid {name} in the layout: {[g['name'] for g in layout['grids']]}")


def ring_point(g, row, col):
    """A pixel inside the highlight ring of a cell (between the outline and the fill)."""
    x = g["x"] + col * g["cellWidth"] + g["cellWidth"] / 2
    y = g["y"] + row * g["cellHeight"] + g["outlinePx"] + g["highlightPx"] / 2
    return x, y


def fill_point(g, row, col):
    """A pixel of a cell's fill, away from its ring and from the centre dot mark."""
    return g["x"] + (col + 0.3) * g["cellWidth"], g["y"] + (row + 0.3) * g["cellHeight"]


class BookExample(unittest.TestCase):
    """Figs. 5.7-5.8: 4x4 with T=2, block (0,0), phase 1 uses M's columns 2-3 and N's rows 2-3."""

    @classmethod
    def setUpClass(cls):
        cls.folder, _ = run_app("preset book-4x4\nselect block 0 0\nseek phase 1\n"
                                "screenshot @phase1.png\nlayout @phase1.json\n"
                                "seek end\nscreenshot @end.png\nlayout @end.json\nquit\n")
        load = lambda name: json.load(open(os.path.join(cls.folder, name)))
        cls.phase1, cls.end = load("phase1.json"), load("end.json")
        cls.phase1_png, cls.end_png = Image(os.path.join(cls.folder, "phase1.png")), Image(os.path.join(cls.folder, "end.png"))

    def test_phase1_tiles_carry_the_highlight(self):
        highlight = hex_rgb(self.phase1["theme"]["highlight"])
        m, n = grid(self.phase1, "M"), grid(self.phase1, "N")
        self.assertEqual((m["rows"], m["cols"], n["rows"], n["cols"]), (4, 4, 4, 4))
        for r in range(4):
            for c in range(4):
                in_m_tile = r < 2 and c >= 2
                in_n_tile = r >= 2 and c < 2
                got_m = self.phase1_png.pixel(*ring_point(m, r, c))
                got_n = self.phase1_png.pixel(*ring_point(n, r, c))
                self.assertEqual(close(got_m, highlight), in_m_tile, f"M[{r}][{c}] ring {got_m}")
                self.assertEqual(close(got_n, highlight), in_n_tile, f"N[{r}][{c}] ring {got_n}")

    def test_phase1_elements_coloured_by_their_loader(self):
        threads = [hex_rgb(t) for t in self.phase1["theme"]["threads"]]
        m, n = grid(self.phase1, "M"), grid(self.phase1, "N")
        # Thread (tx, ty) loads M[ty][2 + tx] and N[2 + ty][tx]; linear index ty * 2 + tx.
        for ty in range(2):
            for tx in range(2):
                colour = threads[ty * 2 + tx]
                self.assertTrue(close(self.phase1_png.pixel(*fill_point(m, ty, 2 + tx)), colour))
                self.assertTrue(close(self.phase1_png.pixel(*fill_point(n, 2 + ty, tx)), colour))
        idle = hex_rgb(self.phase1["theme"]["cellIdle"])
        self.assertTrue(close(self.phase1_png.pixel(*fill_point(m, 0, 0)), idle), "phase 0's tile is no longer current")

    def test_p_empty_mid_run_and_full_at_the_end(self):
        stored = hex_rgb(self.end["theme"]["pStored"])
        p_mid, p_end = grid(self.phase1, "P"), grid(self.end, "P")
        for r in range(4):
            for c in range(4):
                self.assertFalse(close(self.phase1_png.pixel(*fill_point(p_mid, r, c)), stored), f"P[{r}][{c}] mid-run")
                self.assertTrue(close(self.end_png.pixel(*fill_point(p_end, r, c)), stored), f"P[{r}][{c}] at the end")

    def test_source_panel_shows_the_books_statements_whole(self):
        # Fig. 5.9's loads, as the book prints them (with M's width k and N's width l): the
        # step that loads phase 1's tiles highlights both, and no line is wider than the panel.
        src = self.phase1["source"]
        self.assertEqual(src["file"], "kernels/book/tiled.cuh")
        self.assertIn(src["currentText"].strip(), ("Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];",
                                                  "Nds[ty][tx] = N[(ph*TILE_WIDTH + ty)*l + Col];"))
        self.assertEqual(len(src["stepLines"]), 2, src)
        self.assertGreater(src["width"], 0)
        self.assertLessEqual(src["widestLine"], src["width"] + 0.5)

    def test_phase_names_on_the_strip_cut_no_glyph(self):
        # At the end every step is done and carries its glyph; "phase 1" lies over phase 1's k
        # steps. A glyph half under the name's patch left stray marks at its edges: each pixel
        # column just outside the patch must be one colour from the strip's top to its bottom.
        names = [t for t in self.end["texts"] if t["panel"] == "Timeline" and t["text"] in ("phase 0", "phase 1")]
        self.assertEqual([t["text"] for t in names], ["phase 0", "phase 1"])
        bg = hex_rgb(names[0]["background"])
        for t in names:
            rows = range(round(t["y"]), round(t["y"] + t["pitch"]))
            patch = lambda x: any(close(self.end_png.pixel(x, y), bg, 3) for y in rows)
            left = round(t["x"]) - 1
            while patch(left):
                left -= 1
            right = round(t["x"]) + 1
            while patch(right):
                right += 1
            self.assertGreater(right - left, 30, t)  # the patch holds the name
            for x in (left - 4, left - 3, right + 3, right + 4):  # past the patch's rounded, smoothed edge
                column = [self.end_png.pixel(x, y) for y in rows]
                self.assertTrue(all(close(p, column[0], 24) for p in column), f"{t['text']}: column {x}: {column}")

    def test_layout_fits_without_overlap(self):
        windows = self.phase1["windows"]
        self.assertGreater(len(windows), 1, "a layout of one window has nothing to overlap")
        for i, a in enumerate(windows):
            self.assertLessEqual(a["x"] + a["width"], self.phase1["width"] + 0.5)
            self.assertLessEqual(a["y"] + a["height"], self.phase1["height"] + 0.5)
            for b in windows[i + 1:]:
                overlap_x = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
                overlap_y = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
                self.assertFalse(overlap_x > 0.5 and overlap_y > 0.5, f"{a['name']} overlaps {b['name']}")


def tallest_text_run(image, window, threshold=150):
    """Height of the tallest band of consecutive rows holding bright (text) pixels."""
    x0, x1 = int(window["x"]) + 4, int(window["x"] + window["width"]) - 4
    best = run = 0
    for y in range(int(window["y"]) + 2, int(window["y"] + window["height"]) - 2):
        row = image.rows[y]
        bright = any(min(row[x * image.channels:x * image.channels + 3]) > threshold for x in range(x0, x1))
        run = run + 1 if bright else 0
        best = max(best, run)
    return best


class Presentation(unittest.TestCase):
    def test_presentation_mode_enlarges_text(self):
        # At 1080 lines presentation mode's text is 1.75x (it grows with the screen's height as
        # the projector layout's does: 1080 / 617).
        folder, _ = run_app("preset book-4x4\nscreenshot @normal.png\nlayout @normal.json\n"
                            "set presentation on\nwait\nscreenshot @big.png\nlayout @big.json\nquit\n",
                            extra_args=("--size", "1920x1080"))
        sizes = []
        for name in ("normal", "big"):
            layout = json.load(open(os.path.join(folder, name + ".json")))
            # Counters shares the left-bottom slot with Occupancy: the window is named after the
            # slot when it holds tabs, after the panel when it holds one.
            counters = next(w for w in layout["windows"] if w["name"] in ("Counters", "left-bottom"))
            sizes.append(tallest_text_run(Image(os.path.join(folder, name + ".png")), counters))
        self.assertGreater(sizes[0], 6)
        self.assertGreaterEqual(sizes[1], sizes[0] * 1.4, f"text heights normal {sizes[0]} px, presentation {sizes[1]} px")
        big = json.load(open(os.path.join(folder, "big.json")))
        self.assertTrue(big["presentation"])
        self.assertGreater(grid(big, "M")["outlinePx"], 1)


class Errors(unittest.TestCase):
    def test_bad_script_line_names_file_and_line(self):
        folder, proc = run_app("preset book-4x4\nfrobnicate 3\nquit\n", expect_rc=2)
        self.assertIn("test.script:2: unknown command 'frobnicate'", proc.stderr)

    def test_bad_argument_names_the_line(self):
        _, proc = run_app("# comment\n\nset tile many\n", expect_rc=2)
        self.assertIn("test.script:3: set tile takes a whole number", proc.stderr)

    def test_size_over_the_app_trace_cap_is_explained_not_fatal(self):
        folder, _ = run_app("set size 512\nexpect error over the cap\n"
                            "set tile 16\nset size 256\nexpect error Mi events\nscreenshot @shot.png\n"
                            "set size 1\nexpect no-error\nset tile 1\nexpect no-error\n"
                            "set tile 32\nexpect no-error\nseek end\nquit\n")
        self.assertTrue(os.path.exists(os.path.join(folder, "shot.png")))

    def test_no_display_is_a_clear_error(self):
        env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        _, proc = run_app("quit\n", env=env, expect_rc=3)
        self.assertIn("display", proc.stderr)

    def test_missing_shader_is_a_clear_error(self):
        _, proc = run_app("quit\n", extra_args=("--shader-dir", "/nonexistent"), expect_rc=3)
        self.assertIn("missing shader /nonexistent/grid_cell.glsl", proc.stderr)


class AnalysisSettings(unittest.TestCase):
    """`set pad` (tiled-transposed's row stride) and `set profile` (Roofline and Occupancy)."""

    def test_pad_and_builtin_profile_run(self):
        folder, _ = run_app("set kernel tiled-transposed\nset size 32\nset tile 32\nset pad 1\nexpect no-error\n"
                            "show Bank conflicts\nset profile textbook\nshow Occupancy\nscreenshot @shot.png\nquit\n")
        self.assertTrue(os.path.exists(os.path.join(folder, "shot.png")))

    def test_pad_out_of_range_names_the_line(self):
        _, proc = run_app("set pad 33\n", expect_rc=2)
        self.assertIn("test.script:1: set pad takes a whole number from 0 to 32, got '33'", proc.stderr)

    def test_unknown_profile_names_the_line(self):
        _, proc = run_app("set profile v100\n", expect_rc=2)
        self.assertIn("test.script:1: set profile default|device|textbook, a100, h100", proc.stderr)

    def test_device_profile_needs_a_gpu(self):
        _, proc = run_app("set profile device\nquit\n", expect_rc=None)
        if proc.returncode != 0:  # no CUDA backend here: refused, saying why
            self.assertEqual(proc.returncode, 1, proc.stderr)
            self.assertIn("test.script:1: no device profile:", proc.stderr)


class Speed(unittest.TestCase):
    def test_report_prints_percentiles_while_playing(self):
        proc = subprocess.run([APP, "--preset", "tiled-128", "--play", "--frames", "60", "--report"],
                              capture_output=True, text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertRegex(proc.stdout, r"frames \d+: median [0-9.]+ ms, p90 [0-9.]+ ms")
        self.assertIn("tiled 128x128x128 T=16", proc.stdout)


if __name__ == "__main__":
    take_flags()
    unittest.main(verbosity=2)
