#!/usr/bin/env python3
"""Issue 29, legible from the back row and colour that means one thing, from the layout file:
every page of every lesson in the presenter layout at 1280x720 and 1920x1080.

- Size: every text a page talks about (the lesson's text, the step in words and the timeline's
  labels, Thread life's fig. 5.8 table, the Source panel's code, the Bank conflicts and
  Coalescing words, the Thread block legend, the Roofline's note) has a line pitch of a 36th
  of the height or more: 20 px at 720 lines, 30 at 1080 (issue 29, a slide of 36 lines).
- Contrast: every recorded text against the colour recorded right behind it, WCAG AA 4.5:1.
- Colour: the thread palette stays apart (CIEDE2000 >= 6.5) for normal vision and simulated
  protanopia, deuteranopia and tritanopia (Machado et al. 2009), and from the highlight, error,
  stored-P colours; every plot's legend gives each series its own colour and marker;
  a series' colour is readable as text on the window (the Timing panel writes names in it).
Standard library only."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402
import classroom_test as ct  # noqa: E402
import colour_check as cc  # noqa: E402
import presenter_walk as walk  # noqa: E402

# The panels whose texts a page talks about (the Matrices' running sums in P's cells are a
# cell's label, sized to the cell).
TALKED_ABOUT = {"Lesson", "Source", "Timeline", "Thread life", "Bank conflicts", "Coalescing", "Thread block", "Roofline"}


def small_texts(layout, where, floor):
    """The texts a page talks about whose line pitch is under `floor` pixels, in words."""
    return [f"{where}: {t['panel']} '{t['text'][:40]}' at {t['pitch']:.1f} px"
            for t in layout["texts"] if t["panel"] in TALKED_ABOUT and t["pitch"] < floor - 0.01]
MIN_DIFFERENCE = 6.5  # CIEDE2000: apart at a glance (2.3 is a just-noticeable difference)


class BackRowChecks:
    size = (1280, 720)

    @classmethod
    def setUpClass(cls):
        cls.lessons = ct.lessons()
        cls.folder = walk.folder(cls.size)

    def pages(self):
        for name, pages in self.lessons:
            for page in range(pages):
                yield f"{name} page {page + 1}", ct.load(self.folder, f"{name}-{page}.json")

    def test_texts_a_page_talks_about_are_large_enough(self):
        # Issue 29: a 36th of the height, 20 px at 720 lines and 30 at 1080, for every text a
        # page talks about, the Source panel's code and Thread life's table included.
        floor = self.size[1] / 36
        small, seen = [], set()
        for where, layout in self.pages():
            small += small_texts(layout, where, floor)
            seen |= {t["panel"] for t in layout["texts"]}
        self.assertEqual(small, [], f"texts under {floor:.1f} px:\n" + "\n".join(sorted(set(small))))
        # Every panel held to it drew on some page (a panel that recorded nothing is not checked).
        self.assertLessEqual({"Lesson", "Source", "Timeline", "Thread life", "Bank conflicts", "Coalescing", "Thread block"}, seen)

    def test_a_page_about_a_blocks_warps_shows_each_warp_labelled(self):
        # A page that names the Thread block (lesson 10's first: the warps of a 16x16 block) is
        # about its threads: each cell at least a 36th of the height (20 px at 720 lines, 30 at
        # 1080) less its outline, and each warp's band down the grid's left edge tall enough for
        # its label "wN" in the text's own size (a label is drawn only where it fits).
        floor = self.size[1] / 36
        named = [(n, p) for (n, p), panels in ct.named_panels().items() if "Thread block" in panels]
        self.assertIn(("warps-and-coalescing", 0), named)
        for name, page in named:
            layout = ct.load(self.folder, f"{name}-{page}.json")
            where = f"{name} page {page + 1}"
            block = next(g for g in layout["grids"] if g["name"] == "block")
            threads = block["rows"] * block["cols"]
            self.assertGreaterEqual(min(block["cellWidth"], block["cellHeight"]), floor - 2, f"{where}: {block}")
            bands = [t for t in layout["texts"] if t["panel"] == "Thread block" and t["text"].startswith("warp band ")]
            warps = -(-threads // 32)  # warps of 32 threads, counting threadIdx.x first
            self.assertEqual([t["text"] for t in bands], [f"warp band w{w}" for w in range(warps)], where)
            rows_per_warp = 32 // block["cols"]
            for t in bands:
                self.assertGreaterEqual(rows_per_warp * block["cellHeight"], t["pitch"], f"{where}: {t['text']}")
            legend = [t for t in layout["texts"] if t["panel"] == "Thread block" and t["text"].endswith("warps of 32")]
            self.assertEqual(len(legend), 1, f"{where}: the bands' legend")

    def test_every_text_reads_against_its_background(self):
        faint = []
        for where, layout in self.pages():
            for t in layout["texts"]:
                ratio = cc.contrast(t["colour"], t["background"])
                if ratio < 4.5:
                    faint.append(f"{where}: {t['panel']} '{t['text'][:30]}' {t['colour']} on {t['background']}: {ratio:.2f}")
        self.assertEqual(faint, [], "texts under 4.5:1:\n" + "\n".join(sorted(set(faint))))

    def test_legends_give_each_series_its_own_colour_and_marker(self):
        for where, layout in self.pages():
            window = layout["theme"]["background"]
            for plot in layout["plots"]:
                pairs = [(s["colour"], s["marker"]) for s in plot["series"]]
                self.assertEqual(len(pairs), len(set(pairs)), f"{where} {plot['name']}: {plot['series']}")
                for s in plot["series"]:
                    self.assertGreaterEqual(cc.contrast(s["colour"], window), 4.5, f"{where} {s['name']} {s['colour']}")

    def test_palette_survives_colour_blindness(self):
        theme = ct.load(self.folder, f"{self.lessons[0][0]}-0.json")["theme"]
        threads = theme["threads"]
        # The fills a thread's could be taken for (an error cell carries a cross as well, the
        # followed thread's frame is an outline, not a fill).
        others = [theme["highlight"], theme["pStored"]]
        for t in threads:  # a thread's fill shows on an empty cell (WCAG's 3:1 for graphics)
            self.assertGreaterEqual(cc.contrast(t, theme["cellIdle"]), 3.0, f"thread {t} on {theme['cellIdle']}")
        for vision, matrix in cc.VISIONS.items():
            d, a, b = cc.closest_pair(threads, matrix)
            self.assertGreaterEqual(d, MIN_DIFFERENCE, f"{vision}: threads {a} and {b}")
            for t in threads:
                for o in others:
                    self.assertGreaterEqual(cc.difference(t, o, matrix), MIN_DIFFERENCE, f"{vision}: thread {t} and {o}")


class BackRow720(BackRowChecks, unittest.TestCase):
    size = (1280, 720)


class BackRow1080(BackRowChecks, unittest.TestCase):
    size = (1920, 1080)


if __name__ == "__main__":
    sm.take_flags()
    unittest.main(verbosity=2)
