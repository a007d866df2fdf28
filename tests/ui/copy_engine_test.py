#!/usr/bin/env python3
"""Rung 8's Copy engine panel in script mode: lesson copy-engine in the presenter layout at
1280x720, its pages on waiting on a phase and on the ring, then the end of the run. Expected
values are worked by hand from kernels/ladder/tma_pipeline.cuh at the lesson's tiling
32x64x8/16x32/4x4 on a 64^3 product, block (0,0) (as in tests/core/timeline/copy_ring_test.cpp):
128 consumers (2 x 2 warps of 32), the producer warpgroup's first thread tx=128, ty=0 issues
every copy; 8 k tiles in 3 stages (tile t in stage t % 3); M's box 32 x 8 floats = 1024 bytes,
N's 8 x 64 = 2048 bytes, 16 copies. The timeline's steps: 0 the initialisations, 1 the
__syncthreads, then a phase per k tile t (kernels/trace/step_rules.h's ring rule): 2 + 3t its
load step, 3 + 3t and 4 + 3t its k steps; 26 the stores; the panel
draws a copy's bytes landing at the end of the step after it was issued. Standard library only."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402

ISSUER = [128, 0]


def load(folder, name):
    with open(os.path.join(folder, name)) as f:
        return json.load(f)


class CopyEngineLesson(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        script = ("lesson copy-engine\nset presenter on\nwait\nlesson next\nwait\nscreenshot @wait.png\nlayout @wait.json\n"
                  "lesson next\nwait\nscreenshot @ring.png\nlayout @ring.json\n"
                  "seek end\nscreenshot @end.png\nlayout @end.json\nquit\n")
        cls.folder, _ = sm.run_app(script, extra_args=("--size", "1280x720"))
        cls.pages = {n: load(cls.folder, n + ".json") for n in ("wait", "ring", "end")}

    def ring(self, page):
        layout = self.pages[page]
        self.assertIn("copyEngine", layout, f"{page}: the Copy engine panel drew no ring")
        return layout["copyEngine"]

    def barrier(self, page, name):
        return next(b for b in self.ring(page)["barriers"] if b["name"] == name)

    def test_the_panel_is_in_front_and_inside_its_window(self):
        for page, layout in self.pages.items():
            self.assertTrue(layout["lesson"]["presenter"], page)
            self.assertEqual((layout["width"], layout["height"]), (1280, 720))
            window = next(w for w in layout["windows"] if w["tab"] == "Copy engine")
            ring = self.ring(page)
            inside = lambda x, y, w, h: (window["x"] <= x and x + w <= window["x"] + window["width"] + 0.5 and  # noqa: E731
                                         window["y"] <= y and y + h <= window["y"] + window["height"] + 0.5)
            self.assertTrue(inside(ring["x"], ring["y"], ring["width"], ring["height"]), f"{page}: {ring} in {window}")
            for s in ring["stages"]:
                self.assertTrue(inside(*s["mBox"]) and inside(*s["nBox"]), f"{page}: stage {s['index']}")
            self.assertLessEqual(window["contentHeight"], window["innerHeight"] + 1, f"{page}: cut at the bottom")
            self.assertLessEqual(window["contentWidth"], window["innerWidth"] + 1, f"{page}: cut at the right")
            # Large enough for a projector: a stage's tile box at least a tenth of the screen wide.
            self.assertGreaterEqual(ring["stages"][0]["mBox"][2], 128, page)

    def test_the_ring_and_its_copies(self):
        ring = self.ring("end")
        self.assertEqual((ring["stageCount"], ring["consumers"], ring["copiesTotal"]), (3, 128, 16))
        self.assertEqual([s["index"] for s in ring["stages"]], [0, 1, 2])
        self.assertEqual(sorted(b["name"] for b in ring["barriers"]),
                         ["empty[0]", "empty[1]", "empty[2]", "full[0]", "full[1]", "full[2]"])
        for s in ring["stages"]:
            self.assertEqual(s["issuer"], ISSUER)
            self.assertEqual((s["mBytes"], s["nBytes"], s["bytes"]), (1024, 2048, 3072))

    def test_waiting_on_a_phase(self):
        """Page 2, the end of step 1: every thread passed __syncthreads; the producer issued tiles 0..2
        (a fresh empty[s] passes parity 1) and blocks on empty[0] with parity 0; no byte has landed."""
        ring = self.ring("wait")
        self.assertEqual(self.pages["wait"]["cursor"]["step"], 1)
        self.assertEqual([(s["state"], s["mTile"], s["nTile"], s["bytesArrived"]) for s in ring["stages"]],
                         [("filling", t, t, 0) for t in range(3)])
        self.assertEqual(ring["copiesIssued"], 6)
        self.assertEqual((ring["waiting"], ring["passed"], ring["waitBarrier"], ring["waitParity"]), (128, 0, 0, 0))
        self.assertEqual(ring["waitText"], "128 consumers waiting on full[0], parity 0; 0 passed it")
        self.assertEqual(self.barrier("wait", "full[0]")["text"], "full[0]: phase 0 filling, 0 of 3072 bytes")

    def test_the_ring_fills_and_drains(self):
        """Page 3, the end of step 6 (tile 1's first k step, phase 1): all 128 consumers released
        stage 0 after tile 0's two k steps (step 4), so the producer refilled it with tile 3, whose
        bytes landed a step later (full[0]'s second phase complete); they read stage 1; stage 2
        holds tile 2, full; the producer waits for stage 1's release to copy tile 4."""
        ring = self.ring("ring")
        self.assertEqual(self.pages["ring"]["cursor"]["step"], 6)
        self.assertEqual([(s["state"], s["mTile"]) for s in ring["stages"]],
                         [("full", 3), ("being read", 1), ("full", 2)])
        self.assertEqual(ring["stages"][1]["readers"], 128)
        self.assertEqual(ring["copiesIssued"], 8)
        self.assertEqual(self.barrier("ring", "empty[0]")["completed"], 1)
        self.assertEqual(self.barrier("ring", "full[0]")["completed"], 2)
        self.assertEqual((ring["waiting"], ring["passed"], ring["waitBarrier"]), (0, 128, 1))
        self.assertIn("waits on empty[1], parity 0", ring["producer"])

    def test_at_the_end_every_stage_is_released(self):
        ring = self.ring("end")
        self.assertEqual(ring["copiesIssued"], 16)
        # The last tiles are 6, 7, 5 (t % 3); stages 0 and 1 were filled 3 times, stage 2 twice.
        self.assertEqual([(s["state"], s["mTile"], s["nTile"], s["released"]) for s in ring["stages"]],
                         [("released", 6, 6, 128), ("released", 7, 7, 128), ("released", 5, 5, 128)])
        for name, phases in (("full[0]", 3), ("full[1]", 3), ("full[2]", 2), ("empty[0]", 3), ("empty[1]", 3), ("empty[2]", 2)):
            self.assertEqual(self.barrier("end", name)["completed"], phases, name)
        self.assertEqual(ring["producer"], "thread tx=128, ty=0 has issued all 16 copies")

    def test_pixels_filling_is_striped_and_read_is_white(self):
        """The copy engine writing: the box's border is the current tile's yellow (the theme's
        highlight); a stage being read is the read slots' white; a released one is not."""
        highlight = sm.hex_rgb(self.pages["wait"]["theme"]["highlight"])
        filling = sm.Image(os.path.join(self.folder, "wait.png"))  # page 2: every stage filling
        self.assertEqual(self.ring("wait")["stages"][0]["state"], "filling")
        x, y, w, h = self.ring("wait")["stages"][0]["mBox"]
        self.assertTrue(sm.close(filling.pixel(x + w / 2, y + 1), highlight, 40), filling.pixel(x + w / 2, y + 1))
        image = sm.Image(os.path.join(self.folder, "ring.png"))
        x, y, w, h = self.ring("ring")["stages"][1]["nBox"]
        self.assertTrue(sm.close(image.pixel(x + w - 6, y + h - 6), (255, 255, 255), 10), image.pixel(x + w - 6, y + h - 6))
        end = sm.Image(os.path.join(self.folder, "end.png"))
        x, y, w, h = self.ring("end")["stages"][1]["nBox"]
        self.assertFalse(sm.close(end.pixel(x + w - 6, y + h - 6), (255, 255, 255), 60))


if __name__ == "__main__":
    sm.take_flags()
    unittest.main(verbosity=2)
