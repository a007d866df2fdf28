#!/usr/bin/env python3
"""The classroom features of issue 12 (README.md, "For teachers"), through script mode: the
presenter layout at 1280x720 and 1920x1080 with nothing cut off (every window's content inside
it, the kernel source whole and inside its panel, cells that grow), the normal layout at
1280x800, the step in words, following a thread, the load-count shading, and the animation
export (the GIF decoded here: frame count, size, a known pixel in a known frame). Expected
values come from the book's 4x4 example and hand counts, not from the app. Standard library only."""
import glob
import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402


def load(folder, name):
    with open(os.path.join(folder, name)) as f:
        return json.load(f)


def run_sized(script, size):
    return sm.run_app(script, extra_args=("--size", size))


def assert_nothing_clipped(test, layout, where):
    for w in layout["windows"]:
        test.assertLessEqual(w["contentWidth"], w["innerWidth"] + 1, f"{where}: {w['name']} is cut off at the right: {w}")
        test.assertLessEqual(w["contentHeight"], w["innerHeight"] + 1, f"{where}: {w['name']} is cut off at the bottom: {w}")
        test.assertLessEqual(w["x"] + w["width"], layout["width"] + 0.5, f"{where}: {w['name']} runs off the screen")
        test.assertLessEqual(w["y"] + w["height"], layout["height"] + 0.5, f"{where}: {w['name']} runs off the screen")


def gif_frames(path):
    """Decodes a GIF (global or local palettes, LZW, sub-rectangles drawn over the previous
    frame) into full RGB frames: (width, height, [frame rows of (r, g, b)])."""
    data = open(path, "rb").read()
    assert data[:6] in (b"GIF87a", b"GIF89a"), "not a GIF"
    width, height, flags = int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little"), data[10]
    pos, global_palette = 13, None
    if flags & 0x80:
        n = 3 << ((flags & 7) + 1)
        global_palette = [tuple(data[pos + i:pos + i + 3]) for i in range(0, n, 3)]
        pos += n
    canvas = [[(0, 0, 0)] * width for _ in range(height)]
    frames = []
    while pos < len(data):
        kind = data[pos]
        pos += 1
        if kind == 0x3B:
            break
        if kind == 0x21:  # extension: skip its blocks
            pos += 1
            while data[pos]:
                pos += data[pos] + 1
            pos += 1
            continue
        assert kind == 0x2C, f"unexpected block {kind:#x}"
        x0, y0, w, h = (int.from_bytes(data[pos + i:pos + i + 2], "little") for i in (0, 2, 4, 6))
        f = data[pos + 8]
        pos += 9
        palette = global_palette
        if f & 0x80:
            n = 3 << ((f & 7) + 1)
            palette = [tuple(data[pos + i:pos + i + 3]) for i in range(0, n, 3)]
            pos += n
        min_code = data[pos]
        pos += 1
        stream = bytearray()
        while data[pos]:
            stream += data[pos + 1:pos + 1 + data[pos]]
            pos += data[pos] + 1
        pos += 1
        indices = lzw_decode(bytes(stream), min_code)
        for y in range(h):
            row = canvas[y0 + y]
            for x in range(w):
                row[x0 + x] = palette[indices[y * w + x]]
        frames.append([list(r) for r in canvas])
    return width, height, frames


def lzw_decode(stream, min_code):
    clear, end = 1 << min_code, (1 << min_code) + 1
    out, bits, value, nbits = [], min_code + 1, 0, 0
    table = None
    prev = None
    for byte in stream:
        value |= byte << nbits
        nbits += 8
        while nbits >= bits:
            code, value, nbits = value & ((1 << bits) - 1), value >> bits, nbits - bits
            if code == clear:
                table = [[i] for i in range(clear)] + [None, None]
                bits, prev = min_code + 1, None
                continue
            if code == end:
                return out
            if prev is None:
                entry = table[code]
            elif code < len(table):
                entry = table[code]
                table.append(prev + entry[:1])
            else:
                entry = prev + prev[:1]
                table.append(entry)
            out.extend(entry)
            prev = entry
            if len(table) == (1 << bits) and bits < 12:
                bits += 1
    return out


LESSONS = ("tiling-and-phases", "two-barriers", "boundary-checks")


class PresenterLayout(unittest.TestCase):
    """Three lessons, every page, at both projector sizes: nothing cut off."""

    def check_size(self, size):
        w, h = (int(v) for v in size.split("x"))
        script = ""
        for name in LESSONS:
            script += f"lesson {name}\nset presenter on\nwait\n"
            pages = len(glob.glob(os.path.join(os.path.dirname(__file__), "..", "..", "assets", "lessons", f"*-{name}.lesson")))
            self.assertEqual(pages, 1)
            for page in range(6):
                script += f"layout @{name}-{page}.json\nlesson next\n"
        folder, _ = run_sized(script + "quit\n", size)
        for name in LESSONS:
            for page in range(6):
                layout = load(folder, f"{name}-{page}.json")
                where = f"{size} {name} page {layout['lesson']['page'] + 1}"
                self.assertTrue(layout["lesson"]["presenter"])
                self.assertEqual((layout["width"], layout["height"]), (w, h))
                assert_nothing_clipped(self, layout, where)
                src = layout["source"]
                right = next(x for x in layout["windows"] if x["x"] + x["width"] == w)
                if right["tab"] != "Source":  # the page shows the Bug gallery or the Hazards there
                    continue
                self.assertTrue(src["file"].startswith("kernels/"), where)
                # The kernel whole: every line from its first to its last, inside the panel, no scrolling.
                self.assertLessEqual(src["textHeight"], src["visibleHeight"] + 1, where)
                self.assertLessEqual(src["widestLine"], src["width"] + 1, where)
                self.assertGreaterEqual(src["fontPx"], 0.6 * 15 * h / 617, where)
                # The matrices fill the centre: P's cells at least a twentieth of the height
                # for the lessons' small launches (4x4: 8 cells from N's top to P's bottom).
                p = sm.grid(layout, "P")
                if p["rows"] <= 4:
                    self.assertGreaterEqual(p["cellWidth"], h / 20, where)
                centre = next(x for x in layout["windows"] if x["name"] == "Matrices")
                self.assertGreater(centre["width"], 0.4 * w)
                self.assertTrue(layout["caption"]["text"], where)
                self.assertGreater(layout["caption"]["fontPx"], 15 * h / 617, where)

    def test_1280x720(self):
        self.check_size("1280x720")

    def test_1920x1080(self):
        self.check_size("1920x1080")

    def test_every_kernel_source_is_shown_whole(self):
        kernels = ["naive", "tiled", "tiled-bounds", "tiled-dynamic", "tiled-transposed", "tiled-rect",
                   "tiled-no-first-sync", "bug-k-typo", "bug-sync-in-k", "bug-rect-index", "bug-square-grid"]
        script = "lesson tiling-and-phases\nset presenter on\nwait\n"
        for k in kernels:
            script += f"set kernel {k}\nwait\nlayout @{k}.json\n"
        folder, _ = run_sized(script + "quit\n", "1280x720")
        for k in kernels:
            src = load(folder, f"{k}.json")["source"]
            self.assertLessEqual(src["textHeight"], src["visibleHeight"] + 1, k)
            self.assertLessEqual(src["widestLine"], src["width"] + 1, k)


class NormalLayout(unittest.TestCase):
    def test_1280x800_nothing_cut_off(self):
        folder, _ = run_sized("preset book-4x4\nseek phase 1\nlayout @a.json\nstep 2\nlayout @b.json\n"
                              "preset tiled-128\nwait\nlayout @c.json\nquit\n", "1280x800")
        for name in ("a.json", "b.json", "c.json"):
            layout = load(folder, name)
            for w in layout["windows"]:  # the side panels: titles and legends not cut at the right
                self.assertLessEqual(w["contentWidth"], w["innerWidth"] + 1, f"{name}: {w}")


class Caption(unittest.TestCase):
    """Figs. 5.7-5.8: 4x4, T = 2, block (0,0). Phase 1 loads M's columns 2-3 and N's rows 2-3;
    thread (x=0, y=1) loads M(Row, ph*T + tx) = M(1,2) into Mds[ty][tx] = Mds[1][0] and
    N(ph*T + ty, Col) = N(3,0) into Nds[1][0]."""

    def test_caption_in_the_class_terms(self):
        folder, _ = sm.run_app("preset book-4x4\nset granularity k\nfollow thread 0 1\nseek phase 1\nlayout @load.json\n"
                               "step 1\nlayout @barrier.json\nstep 1\nlayout @k0.json\nstep 1\nlayout @k1.json\n"
                               "seek end\nlayout @end.json\nfollow off\nseek phase 0\nlayout @all.json\nquit\n")
        caption = lambda n: load(folder, n)["caption"]["text"]  # noqa: E731
        self.assertEqual(caption("load.json"), "phase 1: thread (0,1) loads M(1,2) into Mds[1][0] and N(3,0) into Nds[1][0]")
        self.assertIn("all 4 threads wait at the read-after-write barrier (line 27)", caption("barrier.json"))
        # Thread (0,1) computes P(1,0): at k = 0 of phase 1 it multiplies Mds[1][0] by Nds[0][0].
        self.assertEqual(caption("k0.json"), "phase 1, k = 0: thread (0,1): P(1,0) += Mds[1][0] x Nds[0][0]")
        self.assertEqual(caption("k1.json"), "phase 1, k = 1: thread (0,1): P(1,0) += Mds[1][1] x Nds[1][0]")
        self.assertIn("thread (0,1) stores P(1,0) = ", caption("end.json"))
        self.assertIn("as do the other 3 threads", caption("all.json"))


class FollowAndShading(unittest.TestCase):
    def test_follow_thread_highlights_its_elements(self):
        folder, _ = sm.run_app("preset book-4x4\nfollow thread 0 1\nseek phase 1\nscreenshot @f.png\nlayout @f.json\nquit\n")
        layout, image = load(folder, "f.json"), sm.Image(os.path.join(folder, "f.png"))
        follow = sm.hex_rgb("#ff2ef0")
        self.assertEqual(layout["follow"], [0, 1])

        def framed(grid, row, col):  # a pixel on the frame, just inside the cell's left edge
            g = sm.grid(layout, grid)
            inset = g["outlinePx"] + 2
            return sm.close(image.pixel(g["x"] + col * g["cellWidth"] + inset, g["y"] + (row + 0.5) * g["cellHeight"]), follow, 40)

        # Thread (0,1) loaded M(1,0), M(1,2) and N(1,0), N(3,0) so far; it computes P(1,0).
        for grid, row, col in (("M", 1, 0), ("M", 1, 2), ("N", 1, 0), ("N", 3, 0), ("P", 1, 0), ("Mds", 1, 0),
                               ("Nds", 1, 0), ("block", 1, 0)):
            self.assertTrue(framed(grid, row, col), f"{grid}({row},{col}) is not framed")
        for grid, row, col in (("M", 0, 0), ("M", 1, 1), ("N", 0, 0), ("P", 0, 0), ("block", 0, 0)):
            self.assertFalse(framed(grid, row, col), f"{grid}({row},{col}) should not be framed")

    def test_load_counts_naive_dark_tiled_pale(self):
        # At the end of a 64^3 multiply every M element was loaded 64 times by the naive kernel
        # (once per P column) and 64 / 16 = 4 times by the tiled kernel with T = 16.
        folder, _ = sm.run_app("set kernel naive\nset size 64\nset block 16 16\nwait\nseek end\nscreenshot @naive.png\n"
                               "layout @naive.json\nset kernel tiled\nset tile 16\nwait\nseek end\nscreenshot @tiled.png\n"
                               "layout @tiled.json\nset size 8\nset tile 2\nwait\nlayout @small.json\nquit\n")
        few, many = sm.hex_rgb("#deebf7"), sm.hex_rgb("#08306b")
        mix = lambda t: tuple(round(a * (1 - t) + b * t) for a, b in zip(few, many))  # noqa: E731
        for name, expected in (("naive", many), ("tiled", mix(3 / 63))):
            layout, image = load(folder, f"{name}.json"), sm.Image(os.path.join(folder, f"{name}.png"))
            self.assertTrue(layout["loadShading"])
            m = sm.grid(layout, "M")
            for row, col in ((5, 5), (10, 37), (40, 20)):  # away from the last tiles' faint frames
                x, y = m["x"] + (col + 0.5) * m["cellWidth"], m["y"] + (row + 0.5) * m["cellHeight"]
                self.assertTrue(sm.close(image.pixel(x, y), expected, 8), f"{name} M({row},{col}): {image.pixel(x, y)}")
        self.assertFalse(load(folder, "small.json")["loadShading"])  # off by default at 16x16 and below


class AnimationExport(unittest.TestCase):
    def test_gif_of_one_phase(self):
        # Phase 1 of fig. 5.9 at k-step granularity: loads, barrier, k = 0, k = 1, barrier, after
        # the phase's start: 6 frames.
        folder, proc = sm.run_app("preset book-4x4\nset granularity k\nseek phase 1\nscreenshot @loads.png\n"
                                  "layout @loads.json\nseek start\nexport gif @phase1.gif phase 1\n"
                                  "export gif @small.gif phase 1 size 640 360\nexport frames @frames phase 1\n"
                                  "export gif @run.gif\nlayout @after.json\nquit\n")
        width, height, frames = gif_frames(os.path.join(folder, "phase1.gif"))
        self.assertEqual((width, height), (1280, 800))
        self.assertEqual(len(frames), 6)
        # Frame 1 is the end of phase 1's loads: M(0,2) holds thread (0,0)'s colour.
        layout = load(folder, "loads.json")
        m = sm.grid(layout, "M")
        x, y = sm.fill_point(m, 0, 2)
        thread0 = sm.hex_rgb(layout["theme"]["threads"][0])
        self.assertTrue(sm.close(frames[1][int(y)][int(x)], thread0, 10), frames[1][int(y)][int(x)])
        self.assertTrue(sm.close(frames[1][int(y)][int(x)], sm.Image(os.path.join(folder, "loads.png")).pixel(x, y), 10))
        self.assertFalse(sm.close(frames[0][int(y)][int(x)], thread0, 10))  # not loaded yet at the phase's start
        w, h, small = gif_frames(os.path.join(folder, "small.gif"))
        self.assertEqual((w, h, len(small)), (640, 360, 6))
        pngs = sorted(glob.glob(os.path.join(folder, "frames", "frame-*.png")))
        self.assertEqual(len(pngs), 6)
        self.assertEqual(sm.Image(pngs[0]).width, 1280)
        # The whole run: its start, 2 phases of 5 steps, the store.
        self.assertEqual(len(gif_frames(os.path.join(folder, "run.gif"))[2]), 12)
        self.assertIn("wrote", proc.stdout)
        self.assertEqual(load(folder, "after.json")["cursor"]["step"], 0)  # the cursor is put back

    def test_bad_phase_is_an_error(self):
        _, proc = sm.run_app("preset book-4x4\nexport gif /tmp/never.gif phase 7\nquit\n", expect_rc=1)
        self.assertIn("phase 7 does not exist", proc.stderr)
        _, proc = sm.run_app("export gif a.gif size 0 10\n", expect_rc=2)
        self.assertIn("1 to 8192", proc.stderr)


class LessonPageView(unittest.TestCase):
    def test_page_view_wins_over_hand_changes(self):
        # Page 3 of tiling-and-phases sets granularity k; by hand: another block, phase
        # granularity, a followed thread. Next and Back must still show the page's own view.
        folder, _ = sm.run_app("lesson tiling-and-phases\nlesson next\nlesson next\nlayout @page.json\n"
                               "select block 1 1\nset granularity phase\nfollow thread 1 1\nshow Timing\nwait\n"
                               "layout @hand.json\nlesson next\nlesson back\nlayout @back.json\nquit\n")
        page, hand, back = (load(folder, n) for n in ("page.json", "hand.json", "back.json"))
        self.assertEqual((hand["selectedBlock"], hand["granularity"], hand["follow"]), ([1, 1], "phase", [1, 1]))
        self.assertEqual(page["granularity"], "k")
        for key in ("selectedBlock", "granularity", "follow", "cursor"):
            self.assertEqual(back[key], page[key], key)
        self.assertEqual(next(w for w in back["windows"] if w["name"] == "center")["tab"], "Matrices")


if __name__ == "__main__":
    if "--app" in sys.argv:
        i = sys.argv.index("--app")
        sm.APP = sys.argv[i + 1]
        del sys.argv[i:i + 2]
    unittest.main(verbosity=2)
