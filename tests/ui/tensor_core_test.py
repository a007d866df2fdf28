#!/usr/bin/env python3
"""Rung 10's Tensor core panel in script mode: lesson tensor-cores in the presenter layout at
1280x720, its first page (mma-tf32 at 32^3, tiling 32x32x8/16x16/2x4, block (0,0), thread tx=5
followed, the end of the run). Expected values are worked by hand from the PTX ISA's fragment
tables for mma.m16n8k8 with .tf32 operands (groupID = lane / 4, threadID_in_group = lane % 4):
A's element (r, c) is held by lane 4 (r % 8) + c % 4, B's (r, c) by lane 4 c + r % 4, the sums'
(r, c) by lane 4 (r % 8) + c // 2. Warp 0 owns a 16 x 16 tile of P: 2 MMAs per step of 8 k.
Standard library only."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402


class TensorCoreLesson(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        script = ("lesson tensor-cores\nset presenter on\nwait\nscreenshot @mma.png\nlayout @mma.json\n"
                  "lesson next\nwait\nlayout @whose.json\nquit\n")
        cls.folder, _ = sm.run_app(script, extra_args=("--size", "1280x720"))
        with open(os.path.join(cls.folder, "mma.json")) as f:
            cls.layout = json.load(f)

    def mma(self):
        self.assertIn("tensorCore", self.layout, "the Tensor core panel drew no MMA")
        return self.layout["tensorCore"]

    def test_every_element_is_held_by_the_lane_the_ptx_tables_name(self):
        t = self.mma()
        self.assertEqual((t["warp"], t["lane"], t["mmas"]), (0, 5, 2))
        self.assertEqual(t["ownerA"], [4 * (r % 8) + c % 4 for r in range(16) for c in range(8)])
        self.assertEqual(t["ownerB"], [4 * c + r % 4 for r in range(8) for c in range(8)])
        self.assertEqual(t["ownerC"], [4 * (r % 8) + c // 2 for r in range(16) for c in range(8)])
        # Each lane holds 4 elements of A, 2 of B and 4 sums.
        for name, count in (("ownerA", 4), ("ownerB", 2), ("ownerC", 4)):
            self.assertEqual(sorted(t[name]), sorted(list(range(32)) * count), name)

    def test_the_followed_lane_in_words(self):
        texts = [x["text"] for x in self.layout["texts"] if x["panel"] == "Tensor core"]
        words = next((x for x in texts if x.startswith("lane 5")), "")
        for element in ("A[1][1]", "A[9][1]", "A[1][5]", "A[9][5]", "B[1][1]", "B[5][1]", "C[1][2]", "C[1][3]",
                        "C[9][2]", "C[9][3]"):
            self.assertIn(element, words)

    def test_the_grids_are_inside_the_window_and_large_enough_for_a_projector(self):
        self.assertTrue(self.layout["lesson"]["presenter"])
        window = next(w for w in self.layout["windows"] if w["tab"] == "Tensor core")
        t = self.mma()
        for name in ("a", "b", "c"):
            x, y, w, h = t[name]
            self.assertGreaterEqual(x, window["x"], name)
            self.assertLessEqual(x + w, window["x"] + window["width"] + 0.5, name)
            self.assertGreaterEqual(y, window["y"], name)
            self.assertLessEqual(y + h, window["y"] + window["height"] + 0.5, name)
            self.assertGreaterEqual(w / 8, 16, f"{name}: cells of at least 16 px")
        self.assertLessEqual(window["contentHeight"], window["innerHeight"] + 1, "cut at the bottom")


if __name__ == "__main__":
    sm.take_flags()
    unittest.main(verbosity=2)
