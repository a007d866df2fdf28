#!/usr/bin/env python3
"""The ladder's rungs in the app (README, "The app on the ladder's kernels"), through script
mode: vectorized at its teaching tiling 16x16x4/4x4 on a 32^3 product. Expected cells come from
the kernel's own index arithmetic (kernels/ladder/vectorized.cuh), worked by hand: a block's tile of P
is 16 x 16; thread t computes rows (t / 4) * 4.. and columns (t % 4) * 4.. of it; in phase 0
thread t loads N(t / 4, colBase + (t % 4) * 4 ..+3) as one 128-bit load and M(rowBase + t, 0..3).
Standard library only."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402


def figure(text):
    """A figure as the Counters panel shows it: "4194304", "32.8k", "131072 B", "786 kB"."""
    number, _, unit = text.partition(" ")
    prefix = unit[:-1] if unit else (number[-1] if number[-1] in "kMGT" else "")
    if prefix and not unit:
        number = number[:-1]
    return float(number) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[prefix]


def load(folder, name):
    with open(os.path.join(folder, name)) as f:
        return json.load(f)


class VectorizedAtItsTeachingTiling(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder, _ = sm.run_app("set kernel vectorized\nset size 32\nset tiling 16x16x4/4x4\nset shading off\nwait\n"
                                   "select block 1 0\nfollow thread 5 0\nseek phase 0\nscreenshot @v.png\nlayout @v.json\n"
                                   "follow off\nset kernel double-buffered\nset tiling 32x32x4/16x32/4x4\nset size 64\nwait\n"
                                   "seek phase 1\nscreenshot @d.png\nlayout @d.json\n"
                                   "set kernel regtile-2d\nset size 128\nset tiling 128x128x8/8x8\nwait\nseek end\n"
                                   "show Counters\nlayout @counters.json\n"
                                   "set kernel coarsened\nset size 64\nset tiling 4x8x4/1x2\nwait\nset granularity k\n"
                                   "seek start\nstep 10\nlayout @coarse.json\nquit\n")
        cls.layout, cls.image = load(cls.folder, "v.json"), sm.Image(os.path.join(cls.folder, "v.png"))
        cls.theme = cls.layout["theme"]

    def centre(self, grid, row, col):
        """The cell's fill: of five points inside it, the colour most of them share (a followed
        thread's arrow may cross the centre of a small cell)."""
        g = sm.grid(self.layout, grid)
        points = [self.image.pixel(g["x"] + (col + fx) * g["cellWidth"], g["y"] + (row + fy) * g["cellHeight"])
                  for fx, fy in ((0.5, 0.5), (0.3, 0.3), (0.7, 0.3), (0.3, 0.7), (0.7, 0.7))]
        return max(points, key=lambda p: sum(sm.close(p, q, 10) for q in points))

    def test_the_blocks_tile_of_p_is_bm_by_bn(self):
        p, highlight = sm.grid(self.layout, "P"), sm.hex_rgb(self.theme["highlight"])
        self.assertEqual((p["rows"], p["cols"]), (32, 32))
        ringed = lambda r, c: sm.close(self.image.pixel(*sm.ring_point(p, r, c)), highlight, 40)  # noqa: E731
        # Block (1,0): rows 0-15, columns 16-31 (the block has 16 threads, the tile 256 elements).
        for r, c in ((0, 16), (0, 31), (15, 16), (15, 31), (10, 25)):
            self.assertTrue(ringed(r, c), f"P({r},{c}) is not ringed")
        for r, c in ((0, 15), (16, 16), (16, 31), (31, 0)):
            self.assertFalse(ringed(r, c), f"P({r},{c}) should not be ringed")

    def test_the_followed_threads_register_tile_is_framed(self):
        self.assertEqual(self.layout["follow"], [5, 0])
        follow, p = sm.hex_rgb("#9977ff"), sm.grid(self.layout, "P")

        def framed(r, c):  # a pixel on the frame, just inside the cell's left edge
            inset = p["outlinePx"] + 2
            return sm.close(self.image.pixel(p["x"] + c * p["cellWidth"] + inset, p["y"] + (r + 0.5) * p["cellHeight"]),
                            follow, 40)

        # Thread 5: row 5 / 4 = 1, column 5 % 4 = 1 of the 4x4 grid of 4x4 tiles: P(4..7, 20..23).
        for r in range(4, 8):
            for c in range(20, 24):
                self.assertTrue(framed(r, c), f"P({r},{c}) is not framed")
        for r, c in ((3, 20), (8, 20), (4, 19), (4, 24), (0, 16)):
            self.assertFalse(framed(r, c), f"P({r},{c}) should not be framed")

    def test_a_wide_load_colours_four_cells(self):
        colour = lambda t: sm.hex_rgb(self.theme["threads"][t % 8])  # noqa: E731
        # N(0, 16..19) is one 128-bit load by thread 0; N(0, 20..23) by thread 1; N(1, 16..19) by 4.
        for c in range(16, 20):
            self.assertTrue(sm.close(self.centre("N", 0, c), colour(0), 10), f"N(0,{c}): {self.centre('N', 0, c)}")
        for c in range(20, 24):
            self.assertTrue(sm.close(self.centre("N", 0, c), colour(1), 10), f"N(0,{c}): {self.centre('N', 0, c)}")
        self.assertTrue(sm.close(self.centre("N", 1, 16), colour(4), 10))
        # M(2, 0..3): thread 2's 128-bit read, stored transposed into Mds column 2 (corner turning).
        for c in range(4):
            self.assertTrue(sm.close(self.centre("M", 2, c), colour(2), 10), f"M(2,{c}): {self.centre('M', 2, c)}")
            self.assertTrue(sm.close(self.centre("Mds", c, 2), colour(2), 10), f"Mds[{c}][2]: {self.centre('Mds', c, 2)}")
        # Row 4 of N belongs to phase 1's tile: not loaded yet, idle.
        self.assertTrue(sm.close(self.centre("N", 4, 16), sm.hex_rgb(self.theme["cellIdle"]), 10), self.centre("N", 4, 16))

    def test_the_shared_tiles_and_the_block_are_drawn_as_declared(self):
        mds, nds = sm.grid(self.layout, "Mds"), sm.grid(self.layout, "Nds")
        self.assertEqual((mds["rows"], mds["cols"]), (4, 20))  # Mds[BK][BM + 4]: M's tile transposed
        self.assertEqual((nds["rows"], nds["cols"]), (4, 16))
        self.assertEqual((sm.grid(self.layout, "block")["rows"], sm.grid(self.layout, "block")["cols"]), (1, 16))
        d = load(self.folder, "d.json")
        mds = sm.grid(d, "Mds")
        self.assertEqual((mds["rows"], mds["cols"]), (8, 36))  # two buffers of BK = 4 rows of BM + 4
        block = sm.grid(d, "block")
        self.assertEqual((block["rows"], block["cols"]), (2, 32))  # 64 threads, a warp per row

    def test_a_k_step_names_the_elements_of_p_it_adds_to(self):
        # Coarsened (kernels/book/coarsened.cuh) with T = 4 and COARSE_FACTOR = 2: thread (tx,ty)
        # computes P(ty, tx) and P(ty, tx + 4). Phase 0 by k steps: the loads, a barrier, k = 0..3
        # for c = 0, a barrier, N's second tile, a barrier, then k = 0 for c = 1, step 10: its
        # product goes to P(3, 3 + 4) for thread tx=3, ty=3, the last one through the step.
        self.assertEqual(load(self.folder, "coarse.json")["caption"]["text"],
                         "k = 0: thread tx=3, ty=3: P(3,7) += Mds[3][0] x Nds[0][3], as do the other 15 threads")

    def test_the_buffer_labels_cover_no_cell(self):
        # Double-buffered at the start of phase 1: each tile's halves (BK = 4 rows each) are
        # labelled left of their first row, and every cell shows its own colour: idle or the
        # colour of the thread that wrote it, never a label's.
        d, image = load(self.folder, "d.json"), sm.Image(os.path.join(self.folder, "d.png"))
        theme = d["theme"]
        colours = [sm.hex_rgb(c) for c in theme["threads"] + [theme["cellIdle"]]]
        text = sm.hex_rgb(theme["text"])
        for name in ("Mds", "Nds"):
            g = sm.grid(d, name)
            for half in (0, 1):
                top = half * g["rows"] // 2
                for row in (top, top + 1):
                    for col in range(6):  # where a label over the cells would be
                        x, y = g["x"] + (col + 0.5) * g["cellWidth"], g["y"] + (row + 0.5) * g["cellHeight"]
                        self.assertTrue(any(sm.close(image.pixel(x, y), c, 10) for c in colours),
                                        f"{name}[{row}][{col}]: {image.pixel(x, y)}")
                # Its label: text in the gutter left of the grid, beside the half.
                rows = range(int(g["y"] + top * g["cellHeight"]), int(g["y"] + (top + g["rows"] // 2) * g["cellHeight"]))
                self.assertTrue(any(sm.close(image.pixel(x, y), text, 40) for y in rows for x in range(int(g["x"]) - 60, int(g["x"]) - 2)),
                                f"no label left of {name}'s buffer {half}")

    def test_every_counter_fits_its_column(self):
        # regtile-2d on 128^3 with one 128x128 block of 256 threads, BK = 8: by hand, 16 phases
        # each loading 128 x 8 of M and 8 x 128 of N (32768 loads, 131072 bytes); 128^3 =
        # 2097152 multiply-adds (4194304 FLOPs; the naive kernel loads 2 per multiply-add); a
        # thread's 8x8 outer product reads 8 + 8 shared values per 64 multiply-adds (524288).
        layout = load(self.folder, "counters.json")
        counters = {c["name"]: c for c in layout["counters"]}
        expected = {"loaded so far / run": "32768 / 32768", "naive, same k steps": "4194304", "bytes loaded": "131072 B",
                    "FLOPs": "4194304", "shared reads": "524288", "loads / multiply-add": "0.016",
                    "shared reads / multiply-add": "0.250", "P stored": "16384 / 16384", "phases done": "16 / 16"}
        for name, exact in expected.items():
            self.assertEqual(counters[name]["exact"], exact, name)
        # What is shown is the exact figure or the same one shortened to three digits (32.8k).
        for c in layout["counters"]:
            for shown, exact in zip(c["shown"].split(" / "), c["exact"].split(" / ")):
                if shown != exact:
                    self.assertAlmostEqual(figure(shown) / figure(exact), 1, delta=0.005, msg=c)
        # Nothing cut: each column's text ends inside the column.
        tables = {t["name"]: t for t in layout["tables"]}
        for column in tables["counters"]["columns"]:
            self.assertLessEqual(column["contentRight"], column["right"] + 1, tables["counters"])


if __name__ == "__main__":
    sm.take_flags()
    unittest.main(verbosity=2)
