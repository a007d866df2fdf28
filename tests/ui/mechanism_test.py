#!/usr/bin/env python3
"""Issue 17, the mechanism on screen, through script mode and the layout file: a race drawn
where it happens (tiled-no-first-sync on the book's 4x4 example, T = 2: thread tx=0, ty=0
runs its k loop before its neighbours load, so two of the slots it reads are stale and its P
element is spoiled long before the store), and one warp's request at the cursor (Coalescing,
Bank conflicts). Every expected figure is a hand count from the kernels' index expressions,
given in the comments. Standard library only."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402


def load(folder, name):
    with open(os.path.join(folder, name)) as f:
        return json.load(f)


RACE = """set kernel tiled-no-first-sync
set size 4
set tile 2
wait
select block 0 0
set granularity k
seek start
step 3
show Shared memory
layout @race-shared.json
screenshot @race-shared.png
show Hazards
layout @race-hazards.json
step 13
show Shared memory
layout @phase0-end.json
quit
"""


class Race(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.folder, _ = sm.run_app(RACE)
        cls.shared = load(cls.folder, "race-shared.json")

    def marks(self, layout, grid, kind):
        return [m for m in sm.grid(layout, grid)["marks"] if m["kind"] == kind]

    def test_thread_zero_reads_two_unwritten_slots_at_k1(self):
        # Thread tx=0, ty=0 reads Mds[0][k] and Nds[k][0]; at k = 1 Mds[0][1] is tx=1, ty=0's slot
        # and Nds[1][0] is tx=0, ty=1's: neither has run yet.
        self.assertIn("thread tx=0, ty=0", self.shared["cursor"]["label"])
        m = self.marks(self.shared, "Mds", "stale")
        n = self.marks(self.shared, "Nds", "stale")
        self.assertEqual([(x["row"], x["col"], x["reader"], x["writer"]) for x in m], [(0, 1, [0, 0], [1, 0])])
        self.assertEqual([(x["row"], x["col"], x["reader"], x["writer"]) for x in n], [(1, 0, [0, 0], [0, 1])])
        for x in m + n:
            self.assertIn("line", x)
            self.assertNotEqual(x["value"], x["expected"])  # the race changed what it read

    def test_p_is_spoiled_during_phase_zero_before_any_store(self):
        # In lockstep every block's thread tx=0, ty=0 has done the same: P(0,0), (0,2), (2,0), (2,2).
        spoiled = sorted((x["row"], x["col"]) for x in self.marks(self.shared, "P", "spoiled"))
        self.assertEqual(spoiled, [(0, 0), (0, 2), (2, 0), (2, 2)])
        self.assertEqual(self.marks(self.shared, "P", "wrong"), [])  # nothing stored yet
        self.assertIn("phase 0", self.shared["cursor"]["label"])

    def test_phase_zero_end_has_all_four_stale_reads_and_twelve_spoiled(self):
        # At the end of interval 0 (all four threads to the barrier): tx=0,ty=0 two stale reads,
        # tx=1,ty=0 reads Nds[1][1] and tx=0,ty=1 Mds[1][1] before tx=1,ty=1 loads them: 4; three
        # threads of four per block spoiled: 12 P elements.
        end = load(self.folder, "phase0-end.json")
        stale = self.marks(end, "Mds", "stale") + self.marks(end, "Nds", "stale")
        self.assertEqual(len(stale), 4)
        self.assertEqual(len(self.marks(end, "P", "spoiled")), 12)

    def test_hazards_table_is_readable(self):
        layout = load(self.folder, "race-hazards.json")
        table = next(t for t in layout["tables"] if t["name"] == "hazards")
        for c in table["columns"]:
            self.assertLessEqual(c["contentRight"], c["right"] + 1, table)


def requests(layout, space, array):
    return [r for r in layout["warpRequests"] if r["space"] == space and r["array"] == array]


NAIVE = """preset naive-{shape}
wait
set granularity k
seek start
step 1
follow thread {tx} {ty}
show Coalescing
layout @naive-{shape}.json
screenshot @naive-{shape}.png
quit
"""

BANKS = """set kernel tiled-transposed
set size 32
set tile 32
set pad {pad}
wait
set granularity k
seek phase 0
step 2
show Bank conflicts
layout @banks-{pad}.json
screenshot @banks-{pad}.png
quit
"""


class WarpRequests(unittest.TestCase):
    def test_naive_32x8_and_64x4_warp_one(self):
        # Naive 64^3, k = 0: lane i of a warp reads M(Row, 0) and N(0, Col). With 32x8 blocks
        # warp 1 is row 1, columns 0..31: M's one word, 64 * 4 = 256 bytes into M, for all lanes
        # (1 sector), N's 32 consecutive floats, its first 128 bytes (4 sectors, 1 line). With
        # 64x4 warp 1 is row 0, columns 32..63: M's first word, N's next 128 bytes: the same
        # counts, other addresses.
        seen = {}
        for shape, tx, ty in (("32x8", 0, 1), ("64x4", 32, 0)):
            folder, _ = sm.run_app(NAIVE.format(shape=shape, tx=tx, ty=ty))
            layout = load(folder, f"naive-{shape}.json")
            m, n = requests(layout, "global", "M"), requests(layout, "global", "N")
            self.assertEqual(len(m), 1, layout["warpRequests"])
            self.assertEqual(len(n), 1)
            self.assertEqual(m[0]["warp"], 1)
            self.assertEqual(len(m[0]["sectors"]), 1)
            self.assertEqual(len(n[0]["sectors"]), 4)
            self.assertEqual(len(n[0]["lines"]), 1)
            seen[shape] = (m[0]["addresses"], n[0]["addresses"])
        # Addresses are byte addresses of the allocations (their bases aside): every lane of the
        # warp on one M word, one row of 64 floats (256 bytes) further on with 32x8; N's lanes 4
        # bytes apart, 32 floats (128 bytes) further on with 64x4.
        m32, n32 = seen["32x8"]
        m64, n64 = seen["64x4"]
        self.assertEqual(len(set(m32)), 1)
        self.assertEqual(len(set(m64)), 1)
        self.assertEqual(m32[0] - m64[0], 64 * 4)
        self.assertEqual([a - n32[0] for a in n32], [4 * i for i in range(32)])
        self.assertEqual([b - a for a, b in zip(n32, n64)], [128] * 32)

    def test_transposed_tile_conflicts_until_padded(self):
        # tiled-transposed, T = 32, k = 0: warp 0 (ty = 0) reads Nds[tx][0], words tx * (32 + pad).
        # pad 0: all 32 words in bank 0, 32 wavefronts; pad 1: word 33 tx is in bank tx: 1.
        for pad, wavefronts in ((0, 32), (1, 1)):
            folder, _ = sm.run_app(BANKS.format(pad=pad))
            layout = load(folder, f"banks-{pad}.json")
            nds = requests(layout, "shared", "Nds")
            self.assertTrue(nds, layout["warpRequests"])
            self.assertEqual(max(r["wavefronts"] for r in nds), wavefronts)
            if pad == 0:
                self.assertEqual(nds[0]["banks"][0], 32)
            self.assertLessEqual(max(r["wavefronts"] for r in layout["warpRequests"] if r["space"] == "shared"),
                                 wavefronts)


if __name__ == "__main__":
    sm.take_flags()
    unittest.main(verbosity=2)
