#!/usr/bin/env python3
"""The classroom features of issue 12 (README.md, "For teachers"), through script mode: the
presenter layout at 1280x720 (every page of every lesson) and 1920x1080 (three lessons) with
nothing cut off (every window's content inside it, the kernel source whole and inside its panel,
cells that grow), the normal layout at 1280x800, the step in words, following a thread (its
frames, its life as fig. 5.8 tabulates it, the arrows from its elements to its slots), the
load-count shading, and the animation export (the GIF read here: frame count, size, a known
pixel in a known frame; exported frames identical to the screen, with no progress bar). Expected
values come from the book's 4x4 example and hand counts, not from the app.

Few app launches, each running many checks (a launch and its PNG decoding cost seconds):
one per screen size, the checks as test methods over its files. Standard library only."""
import glob
import json
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402
import colour_check as cc  # noqa: E402
import presenter_walk as walk  # noqa: E402
from gif_reader import Gif  # noqa: E402

LESSON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "lessons")


def load(folder, name):
    with open(os.path.join(folder, name)) as f:
        return json.load(f)


def lessons():
    """Every lesson's name and page count, from the lesson files themselves."""
    out = []
    for path in sorted(glob.glob(os.path.join(LESSON_DIR, "*.lesson"))):
        name = os.path.basename(path)[:-len(".lesson")].split("-", 1)[1]
        with open(path) as f:
            out.append((name, sum(1 for line in f if line.startswith("page "))))
    return out


def window(layout, name):
    return next(w for w in layout["windows"] if w["name"] == name)


# Issue 18: the book's 4x4 cells in the presenter layout, at least 56 px at 720 lines and 85 at
# 1080 (the figures); 1280x800 is held to the 720 floor, its width being the same.
BOOK_CELL_FLOOR = {720: 56, 800: 56, 1080: 85}


def assert_nothing_clipped(test, layout, where, skip=()):
    for w in layout["windows"]:
        if w["name"] in skip:
            continue
        test.assertLessEqual(w["contentWidth"], w["innerWidth"] + 1, f"{where}: {w['name']} is cut off at the right: {w}")
        test.assertLessEqual(w["contentHeight"], w["innerHeight"] + 1, f"{where}: {w['name']} is cut off at the bottom: {w}")
        test.assertLessEqual(w["x"] + w["width"], layout["width"] + 0.5, f"{where}: {w['name']} runs off the screen")
        test.assertLessEqual(w["y"] + w["height"], layout["height"] + 0.5, f"{where}: {w['name']} runs off the screen")
    for t in layout["tables"]:  # no text cut by its column (the Counters, Coalescing, Occupancy, Hazards tables)
        for c in t["columns"]:
            test.assertLessEqual(c["contentRight"], c["right"] + 1, f"{where}: table {t['name']} cuts its text: {t}")


THREE_LESSONS = ("tiling-and-phases", "two-barriers", "boundary-checks")
KERNELS = ("naive", "tiled", "tiled-bounds", "tiled-dynamic", "tiled-transposed", "tiled-rect", "tiled-no-first-sync",
           "bug-k-typo", "bug-sync-in-k", "bug-rect-index", "bug-square-grid")

# Fig. 5.8's row for thread_{1,0} (threadIdx.y = 1, threadIdx.x = 0; the app's thread tx=0, ty=1),
# copied from the figure: its loads into which slots and its products, phase by phase, then the
# element it stores. The barriers are fig. 5.9's lines 27 and 32.
FIG58_THREAD_0_1 = [
    "M(1,0) -> Mds[1][0]", "N(1,0) -> Nds[1][0]", "wait (line 27)", "k0: Mds[1][0] x Nds[0][0]",
    "k1: Mds[1][1] x Nds[1][0]", "wait (line 32)",
    "M(1,2) -> Mds[1][0]", "N(3,0) -> Nds[1][0]", "wait (line 27)", "k0: Mds[1][0] x Nds[0][0]",
    "k1: Mds[1][1] x Nds[1][0]", "wait (line 32)",
]


def presenter_script(names_pages):
    script = ""
    for name, pages in names_pages:
        script += f"lesson {name}\nset presenter on\nwait\n"
        for page in range(pages):
            script += f"layout @{name}-{page}.json\nlesson next\n"
    return script


def page_lines(name, page):
    """The lines of page `page` (from 0) of lesson `name`, from the lesson file."""
    path = next(p for p in glob.glob(os.path.join(LESSON_DIR, "*.lesson")) if os.path.basename(p).split("-", 1)[1] == name + ".lesson")
    with open(path) as f:
        pages = f.read().split("\npage ")
    return [line.strip() for line in pages[page + 1].splitlines()[1:]]


def named_panels():
    """{(lesson, page index): [panel, ...]} from the lesson files' `panels` lines."""
    out = {}
    for path in sorted(glob.glob(os.path.join(LESSON_DIR, "*.lesson"))):
        name = os.path.basename(path)[:-len(".lesson")].split("-", 1)[1]
        page = -1
        with open(path) as f:
            for line in f:
                if line.startswith("page "):
                    page += 1
                elif line.startswith("panels "):
                    out[(name, page)] = [p.strip() for p in line[len("panels "):].split(",")]
    return out


class PresenterChecks:
    """The checks of one projector size, over the files its one launch wrote."""

    def check_named_panels_and_cells(self, names_pages):
        """Issue 18: each page shows the panels its `panels` line names, and the book's 4x4
        example's cells (M, N, P and the 2x2 shared tiles) are at least the issue's floor."""
        w, h = self.size
        named = named_panels()
        self.assertTrue(any(p == ["Counters"] for p in named.values()), "the lessons name the Counters somewhere")
        book_pages = 0
        for name, pages in names_pages:
            for page in range(pages):
                layout = load(self.folder, f"{name}-{page}.json")
                where = f"{w}x{h} {name} page {page + 1}"
                shown = {x["tab"] for x in layout["windows"]}
                for panel in named.get((name, page), []):
                    self.assertIn(panel, shown, f"{where}: the page names {panel}")
                grids = {g["name"]: g for g in layout["grids"]}
                if "P" in grids and (grids["P"]["rows"], grids["P"]["cols"], grids["M"]["cols"]) == (4, 4, 4):
                    book_pages += 1
                    for g in ("M", "N", "P", "Mds", "Nds"):
                        if g in grids and (g in "MNP" or grids[g]["rows"] == 2):
                            self.assertGreaterEqual(grids[g]["cellWidth"], BOOK_CELL_FLOOR[h], f"{where}: {g}")
                if "timing page ladder" in page_lines(name, page):
                    self.check_ladder_page(layout, where)
        self.assertGreater(book_pages, 0)

    def check_profiles(self, names_pages):
        """A page's `set profile` is the device its Roofline and Occupancy describe, carried to the
        pages after it; a lesson without one shows the default (the occupancy lesson's A100 and
        textbook SM do not carry into the next lesson). Lesson 9 page 2 spoke of an A100 beside an
        h100 panel before lessons could name a profile."""
        default = load(self.folder, "memory-types-0.json")["profile"]
        named = 0
        for name, pages in names_pages:
            chosen = None
            for page in range(pages):
                for line in page_lines(name, page):
                    if line.startswith("set profile "):
                        chosen, named = line.split()[2], named + 1
                got = load(self.folder, f"{name}-{page}.json")["profile"]
                self.assertEqual(got, chosen or default, f"{name} page {page + 1}")
        self.assertGreater(named, 0, "no lesson page names a profile")

    def check_ladder_page(self, layout, where):
        """The ladder page shows its plot and the whole table: every rung's row, every N's
        column, no percentage cut by its column."""
        self.assertTrue(layout["plots"], f"{where}: no plot")
        table = next((t for t in layout["tables"] if t["name"] == "ladder"), None)
        self.assertIsNotNone(table, f"{where}: no ladder table")
        self.assertEqual(len(table["columns"]), 7, where)  # the rungs' names, N = 256 .. 8192
        for c in table["columns"]:
            self.assertLessEqual(c["contentRight"], c["right"] + 1, f"{where}: the ladder table cuts its text: {table}")
        timing = next(w for w in layout["windows"] if w["tab"] == "Timing")
        self.assertLessEqual(timing["contentHeight"], timing["innerHeight"] + 1, where)
        # Every legend entry above the table's header (cuBLAS's, the ninth, lay under it), and the
        # FP32 peak's label over no point (it covered cuBLAS's at N = 2048..8192).
        header = next(t for t in layout["texts"] if t["panel"] == "Timing" and t["text"] == "% of cuBLAS")
        plot = next(p for p in layout["plots"] if p["name"] == "ladder")
        for s in plot["series"]:
            self.assertLessEqual(s["legend"]["y"] + s["legend"]["height"], header["y"] + 1, f"{where}: legend {s['name']}")
            for q in s["points"]:
                for line in plot["lines"]:
                    covered = (line["lx"] <= q["px"] <= line["lx"] + line["lwidth"] and
                               line["ly"] <= q["py"] <= line["ly"] + line["lheight"])
                    self.assertFalse(covered, f"{where}: '{line['drawn']}' covers {s['name']} at N = {q['x']}")

    def check_pages(self, names_pages):
        for name, pages in names_pages:
            for page in range(pages):
                with self.subTest(lesson=name, page=page + 1):  # every page checked, each failure reported
                    self.check_page(name, page)

    def check_page(self, name, page):
        w, h = self.size
        layout = load(self.folder, f"{name}-{page}.json")
        where = f"{w}x{h} {name} page {layout['lesson']['page'] + 1}"
        self.assertEqual(layout["lesson"]["page"], page, where)
        self.assertTrue(layout["lesson"]["presenter"])
        self.assertEqual((layout["width"], layout["height"]), (w, h))
        # The lesson's text included: no scrolling; the analysis panels too (Roofline on
        # memory-types, Coalescing on warps-and-coalescing and vectorized-loads, Bank conflicts
        # on the ladder's); a register tile's followed thread, whose phase is longer than the
        # Thread life panel, with its current entry shown (check_current_life_entry).
        assert_nothing_clipped(self, layout, where)
        # The shared tiles' captions break between indices, never inside one (rung 8's
        # "Nds[3][8][64]:" was cut inside its 64 at 1280x720).
        for t in layout["texts"]:
            if t["panel"] == "Shared memory":
                for line in t["text"].split("\n"):
                    self.assertEqual(line.count("["), line.count("]"), f"{where}: caption {t['text']!r}")
        check_current_life_entry(self, layout, where)
        check_grids_inside(self, layout, where)
        # A plan page (a launch too large to run here: lesson 19) has no trace, so no step to
        # caption; the centre says so instead.
        if layout["notice"].startswith("No trace"):
            self.assertEqual(layout["caption"]["text"], "", where)
        else:
            self.assertTrue(layout["caption"]["text"], where)
            self.assertGreaterEqual(layout["caption"]["fontPx"], round(h / 36), where)  # a 36th of the height or more
        centre = window(layout, "Matrices") if any(x["name"] == "Matrices" for x in layout["windows"]) else None
        if centre:  # a third of the width at least; the ladder's wide tiles take more of the rest
            self.assertGreater(centre["width"], 0.3 * w, where)
        # The Source panel, under the tiles in the right column, wherever it is shown (a chart
        # takes the column; a page may show the Bug gallery or the Hazards there).
        if not any(x["tab"] == "Source" for x in layout["windows"]):
            return
        src = layout["source"]
        self.assertTrue(src["file"].startswith("kernels/"), where)
        # Every line from the first to the last inside the panel, no scrolling: the kernel whole,
        # or folded around the current step (at the presenter's text size, a 36th of the height,
        # the book's kernels do not fit whole beside the matrices either), each folded run one
        # marked line, and neither the step's lines nor the signature folded.
        self.assertLessEqual(src["textHeight"], src["visibleHeight"] + 1, where)
        for first, last in src["folded"]:
            self.assertGreaterEqual(last, first + 1, where)  # a single line is shown, not marked
            self.assertGreater(first, src["firstLine"] + 1, f"{where}: the signature stays")
            for line in src["stepLines"] + [src["currentLine"]]:
                self.assertFalse(first <= line <= last, f"{where}: line {line} of the step is folded away")
        self.assertLessEqual(src["widestLine"], src["width"] + 1, where)
        self.assertGreaterEqual(src["fontPx"], round(h / 36), where)  # the text's size, never smaller
        grids = {g["name"]: g for g in layout["grids"]}
        if "P" in grids and max(grids["P"]["rows"], grids["P"]["cols"], grids["M"]["cols"]) <= 4:
            # The matrices fill the centre: P's cells at least a twentieth of the height for
            # the lessons' small launches (4x4: 8 cells from N's top to P's bottom), and the
            # shared tiles' and the block's cells at least a sixteenth (2x2 each).
            self.assertGreaterEqual(grids["P"]["cellWidth"], h / 20, where)
            for small in ("Mds", "Nds", "block"):
                if small in grids and grids[small]["rows"] <= 2:
                    self.assertGreaterEqual(grids[small]["cellWidth"], h / 16, f"{where}: {small}")


class Presenter720(unittest.TestCase, PresenterChecks):
    """1280x720: every page of every lesson; every built-in kernel's source whole; a followed
    thread's life and arrows."""

    @classmethod
    def setUpClass(cls):
        cls.size = (1280, 720)
        # The shared walk (presenter_walk.py): every page, and its 720 extras (every built-in
        # kernel, the 128-bit steps at k granularity, thread (0,1) of the 4x4 followed).
        cls.folder = walk.folder(cls.size)

    def test_every_page_of_every_lesson_fits(self):
        self.assertEqual(len(lessons()), 21)
        self.check_pages(lessons())

    def test_named_panels_and_cells(self):
        self.check_named_panels_and_cells(lessons())

    def test_pages_describe_the_device_they_name(self):
        self.check_profiles(lessons())

    def test_ring_of_stages_inside_the_shared_memory_panel(self):
        # Rung 8 at 32x64x8 (lesson 18, page 1): three stages of M's 32x8 tile, Mds 96 rows, and
        # of N's 8x64 tile, Nds 24 rows, inside the panel with nothing cut.
        layout = load(self.folder, "copy-engine-0.json")
        grids = {g["name"]: g for g in layout["grids"]}
        self.assertEqual((grids["Mds"]["rows"], grids["Mds"]["cols"], grids["Nds"]["rows"], grids["Nds"]["cols"]), (96, 8, 24, 64))
        panel = window(layout, "Shared memory")
        self.assertLessEqual(panel["contentHeight"], panel["innerHeight"] + 1)
        self.assertLessEqual(panel["contentWidth"], panel["innerWidth"] + 1)
        for g in ("Mds", "Nds"):
            self.assertLessEqual(grids[g]["y"] + grids[g]["height"], panel["y"] + panel["height"], g)
            self.assertLessEqual(grids[g]["x"] + grids[g]["width"], panel["x"] + panel["width"], g)

    def test_every_kernel_source_is_shown_whole(self):
        for k in KERNELS:
            src = load(self.folder, f"{k}.json")["source"]
            self.assertLessEqual(src["textHeight"], src["visibleHeight"] + 1, k)
            self.assertLessEqual(src["widestLine"], src["width"] + 1, k)

    def test_a_128_bit_step_in_two_lines(self):
        # Vectorized, 32^3 at 16x16x4/4x4, block (0,0), by the kernel's index arithmetic
        # (kernels/ladder/vectorized.cuh): thread t loads M(t, 0..3) as one float4 and stores it down
        # column t of Mds (M's tile transposed), and N(t / 4, (t % 4) * 4 ..+3) as one float4
        # into the same place in Nds; at k = 0 it multiplies Mds[0][r..r+3] by Nds[0][c..c+3]
        # into its 4x4 tile of P, rows r = (t / 4) * 4.., columns c = (t % 4) * 4...
        # Thread 15, the last through the step: r = c = 12.
        expected = {
            "wide-load.json": "thread tx=15, ty=0 loads M(15,0..3) into Mds[0..3][15] and N(3,12..15) into Nds[3][12..15], "
                              "as do the other 15 threads",
            "wide-k0.json": "k = 0: thread tx=15, ty=0: P(12..15,12..15) += Mds[0][12..15] x Nds[0][12..15], as do the other 15 threads",
            # Double-buffered, 64^3 at 32x32x4/16x32/4x4: after tile 0's k loop, thread 31 stores
            # M(31, 4..7), read earlier as one float4, down column 31 of buffer 1 (rows BK..2BK-1).
            # M's tile is BM x BK / 4 = 32 float4s for 64 threads: threads 0..31 store one each,
            # 32..63 none (storeM's `f >= BM * BK / 4` break), so 31 others act with it.
            "staged.json": "thread tx=31, ty=0 stores M(31,4..7) from a register into Mds[4..7][31], as do the other 31 threads",
        }
        for name, text in expected.items():
            layout = load(self.folder, name)
            caption = layout["caption"]
            self.assertEqual(caption["text"], text, name)
            # At the presenter's text size (a 36th of the height) the longest of them takes three.
            self.assertLessEqual(caption["height"], 3 * caption["fontPx"] + 1, f"{name}: more than three lines")
            assert_nothing_clipped(self, layout, name)  # the caption above the timeline's controls

    def test_followed_thread_life_and_arrows(self):
        layout = load(self.folder, "follow.json")
        check_life_and_arrows(self, layout, sm.Image(os.path.join(self.folder, "follow.png")))
        life = window(layout, "Thread life")
        self.assertEqual(life["x"], 0)  # under the lesson's text in the left column
        assert_nothing_clipped(self, layout, "720 following")
        # Every running sum written in P stands clear of the frames a cell may get (the followed
        # thread's 3 px, the current tile's): centred, its left edge at least that far in, so no
        # leading digit is drawn under a frame.
        p = next(g for g in layout["grids"] if g["name"] == "P")
        frame = max(3, p["highlightPx"])
        sums = [t for t in layout["texts"] if t["panel"] == "Matrices" and p["y"] <= t["y"] < p["y"] + p["height"]
                and p["x"] <= t["x"] < p["x"] + p["width"]]
        self.assertTrue(sums, "no running sum written in P")
        for t in sums:
            left = p["x"] + int((t["x"] - p["x"]) // p["cellWidth"]) * p["cellWidth"]
            self.assertGreaterEqual(t["x"] - left, frame, f"{t['text']!r} starts under its cell's frame")


class Presenter1080(unittest.TestCase, PresenterChecks):
    @classmethod
    def setUpClass(cls):
        cls.size = (1920, 1080)
        cls.pages = [(n, p) for n, p in lessons() if n in THREE_LESSONS]
        cls.folder = walk.folder(cls.size)

    def test_three_lessons_fit(self):
        self.assertEqual(len(self.pages), 3)
        self.check_pages(self.pages)


def check_life_and_arrows(test, layout, image):
    """Thread (0,1) of fig. 5.9's 4x4 example followed, the cursor at the end of phase 1's loads."""
    follow = sm.hex_rgb(FOLLOW)
    life = check_life(test, layout, ["M(1,2) -> Mds[1][0]", "N(3,0) -> Nds[1][0]"], "follow")
    current = next(t for t in life if t["time"] == "current")  # drawn on the follow colour
    test.assertTrue(sm.close(image.pixel(current["x"] + 2, current["y"] + current["height"] / 2), follow, 30))
    # Arrows from the elements it loaded in phase 1 to the slots they went to.
    arrows = {(a["from"], tuple(a["fromCell"]), a["to"], tuple(a["toCell"])): a for a in layout["arrows"]}
    test.assertEqual(set(arrows), {("M", (1, 2), "Mds", (1, 0)), ("N", (3, 0), "Nds", (1, 0))})
    for (src, cell, dst, slot), a in arrows.items():
        for name, (row, col), x, y in ((src, cell, a["x0"], a["y0"]), (dst, slot, a["x1"], a["y1"])):
            g = sm.grid(layout, name)
            test.assertAlmostEqual(x, g["x"] + (col + 0.5) * g["cellWidth"], delta=1)
            test.assertAlmostEqual(y, g["y"] + (row + 0.5) * g["cellHeight"], delta=1)
        # The arrow's line, a third of the way along, is drawn in the follow colour.
        x, y = a["x0"] + (a["x1"] - a["x0"]) / 3, a["y0"] + (a["y1"] - a["y0"]) / 3
        test.assertTrue(sm.close(image.pixel(x, y), follow, 40), f"{src}->{dst} at ({x:.0f},{y:.0f}): {image.pixel(x, y)}")


def check_current_life_entry(test, layout, where):
    """A followed thread's current entry is inside the Thread life panel, whatever was left out."""
    life = [w for w in layout["windows"] if w["tab"] == "Thread life"]
    current = [t for t in layout["threadLife"] if t["time"] == "current"]
    if not life or not layout.get("follow"):
        return
    w = life[0]
    test.assertTrue(current, f"{where}: no current entry in the Thread life panel")
    for t in current:
        test.assertGreaterEqual(t["y"], w["y"], f"{where}: {t}")
        test.assertLessEqual(t["y"] + t["height"], w["y"] + w["height"] + 1, f"{where}: {t} below the panel {w}")
    # Every entry inside the panel's width: a product with its values too wide for a line puts
    # its values on the next one instead of running past the edge.
    for t in layout["threadLife"]:
        test.assertLessEqual(t["x"] + t["width"], w["x"] + w["width"] + 1, f"{where}: {t} past the panel {w}")


def check_grids_inside(test, layout, where):
    """The shared tiles and the thread block inside their panels (rung 8's ring of stages: the
    Mds of three stages is 96 rows)."""
    owner = {"Mds": "Shared memory", "Nds": "Shared memory", "block": "Thread block"}
    for g in layout["grids"]:
        panel = next((w for w in layout["windows"] if w["tab"] == owner.get(g["name"])), None)
        if panel is None:
            continue
        test.assertGreaterEqual(g["y"], panel["y"], f"{where}: {g['name']}")
        test.assertLessEqual(g["y"] + g["height"], panel["y"] + panel["height"] + 1, f"{where}: {g['name']} below its panel")
        test.assertLessEqual(g["x"] + g["width"], panel["x"] + panel["width"] + 1, f"{where}: {g['name']} past its panel")


FOLLOW = "#9977ff"  # the followed thread's colour (theme.cpp)


def check_life(test, layout, current, where):
    """The Thread life panel: fig. 5.8's row, shortened where it does not fit (earlier phases
    down to their loads) but in order, with the current phase whole and `current` highlighted."""
    life = layout["threadLife"]
    # A product that has happened carries its values and the running sum, "(a x b, Pvalue = s)",
    # after the figure's symbolic entry; the entry itself is the figure's.
    texts = [re.sub(r" \([^()]*Pvalue = [^()]*\)$", "", t["text"]) for t in life]
    whole = FIG58_THREAD_0_1 + ["P(1,0)"]
    test.assertTrue(texts[-1].startswith("P(1,0) = "), where)
    i = 0
    for t in texts[:-1]:  # a subsequence of the figure's row
        if re.fullmatch(r"\.\.\. \d+ (entry|entries|products?)", t):  # what a shortened line left out, counted
            continue
        while i < len(whole) and whole[i] != t:
            i += 1
        test.assertLess(i, len(whole), f"{where}: {t} out of order in {texts}")
        i += 1
    test.assertEqual(texts[-7:-1], FIG58_THREAD_0_1[6:], where)  # phase 1 whole
    test.assertEqual([texts[i] for i, t in enumerate(life) if t["time"] == "current"], current, where)
    for t in life:  # fig. 5.8's Pvalue column: every product done so far shows it, none ahead
        if t["text"].startswith("k") and "x" in t["text"]:
            test.assertEqual("Pvalue = " in t["text"], t["time"] != "ahead", f"{where}: {t}")
    return life


def near_arrow(layout, x, y, distance=6):
    for a in layout["arrows"]:
        dx, dy = a["x1"] - a["x0"], a["y1"] - a["y0"]
        t = max(0.0, min(1.0, ((x - a["x0"]) * dx + (y - a["y0"]) * dy) / (dx * dx + dy * dy)))
        if ((a["x0"] + t * dx - x) ** 2 + (a["y0"] + t * dy - y) ** 2) ** 0.5 < distance:
            return True
    return False


class Normal(unittest.TestCase):
    """1280x800, the normal layout: one launch for the caption, following, shading, export and
    the lesson page views."""

    @classmethod
    def setUpClass(cls):
        script = (
            # The normal layout, and the step in words for a followed thread.
            "preset book-4x4\nseek phase 1\nlayout @a.json\nstep 2\nlayout @b.json\n"
            "set granularity k\nfollow thread 0 1\nseek phase 1\nlayout @load.json\nscreenshot @follow.png\n"
            "step 1\nlayout @barrier.json\nstep 1\nlayout @k0.json\nstep 1\nlayout @k1.json\n"
            "seek end\nlayout @end.json\nfollow off\nseek phase 0\nlayout @all.json\n"
            # The animation export: a phase (full size, a chosen size, PNG frames), the whole run.
            "seek phase 1\nlayout @loads.json\nexport frames @frames page size 320 200\n"
            "show Occupancy\nlayout @occupancy.json\nexport gif @tall.gif page size 1280 1500\nshow Counters\n"
            "seek start\nexport gif @phase1.gif phase 1\nexport gif @small.gif phase 1 size 640 360\n"
            "export gif @run.gif size 320 200\nlayout @after.json\n"
            # Larger launches: the load-count shading at 64^3.
            "set kernel naive\nset size 64\nset block 16 16\nwait\nseek end\nscreenshot @naive.png\n"
            "layout @naive.json\nset kernel tiled\nset tile 16\nwait\nseek end\nscreenshot @tiled.png\n"
            "layout @tiled.json\nset size 8\nset tile 2\nwait\nlayout @small.json\n"
            # A lesson page's view wins over changes by hand.
            "lesson tiling-and-phases\nlesson next\nlesson next\nlayout @page.json\n"
            "select block 1 1\nset granularity phase\nfollow thread 1 1\nshow Timing\nwait\n"
            "layout @hand.json\nlesson next\nlesson back\nlayout @back.json\n"
            # Last: an export of a phase that does not exist stops the script.
            "preset book-4x4\nexport gif /tmp/never.gif phase 7\n")
        cls.folder, cls.proc = sm.run_app(script, expect_rc=1)

    def layout(self, name):
        return load(self.folder, name)

    def test_nothing_cut_off(self):
        for name in ("a.json", "b.json", "load.json", "naive.json", "tiled.json", "occupancy.json"):
            layout = self.layout(name)
            for w in layout["windows"]:  # the side panels: titles and legends not cut at the right
                self.assertLessEqual(w["contentWidth"], w["innerWidth"] + 1, f"{name}: {w}")
            for t in layout["tables"]:  # nor a table's text at its column's edge
                for c in t["columns"]:
                    self.assertLessEqual(c["contentRight"], c["right"] + 1, f"{name}: {t}")
        # Following a thread brings its life forward under the controls, whole.
        life = window(self.layout("load.json"), "left-bottom")
        self.assertEqual(life["tab"], "Thread life")
        self.assertLessEqual(life["contentHeight"], life["innerHeight"] + 1)

    def test_caption_in_the_class_terms(self):
        # Figs. 5.7-5.8: 4x4, T = 2, block (0,0). Phase 1 loads M's columns 2-3 and N's rows 2-3;
        # thread (x=0, y=1) loads M(Row, ph*T + tx) = M(1,2) into Mds[ty][tx] = Mds[1][0] and
        # N(ph*T + ty, Col) = N(3,0) into Nds[1][0]; it computes P(1,0).
        caption = lambda n: self.layout(n)["caption"]["text"]  # noqa: E731
        self.assertEqual(caption("load.json"), "phase 1: thread tx=0, ty=1 loads M(1,2) into Mds[1][0] and N(3,0) into Nds[1][0]")
        self.assertIn("all 4 threads wait at the read-after-write barrier (line 27)", caption("barrier.json"))
        self.assertEqual(caption("k0.json"), "phase 1, k = 0: thread tx=0, ty=1: P(1,0) += Mds[1][0] x Nds[0][0]")
        self.assertEqual(caption("k1.json"), "phase 1, k = 1: thread tx=0, ty=1: P(1,0) += Mds[1][1] x Nds[1][0]")
        self.assertIn("thread tx=0, ty=1 stores P(1,0) = ", caption("end.json"))
        self.assertIn("as do the other 3 threads", caption("all.json"))

    def test_life_current_entry_moves_with_the_cursor(self):
        # At k = 1 of phase 1 the current entry is the product of k = 1; at the end, the store.
        for name, current in (("k1.json", ["k1: Mds[1][1] x Nds[1][0]"]), ("barrier.json", ["wait (line 27)"])):
            check_life(self, self.layout(name), current, name)
        end = self.layout("end.json")["threadLife"]
        self.assertEqual([t["time"] for t in end], ["done"] * (len(end) - 1) + ["current"])
        self.assertEqual(self.layout("all.json")["threadLife"], [])  # following stopped

    def test_follow_thread_frames_its_elements_and_draws_its_arrows(self):
        layout, image = self.layout("load.json"), sm.Image(os.path.join(self.folder, "follow.png"))
        follow = sm.hex_rgb(FOLLOW)
        self.assertEqual(layout["follow"], [0, 1])
        check_life_and_arrows(self, layout, image)

        def framed(grid, row, col):  # a pixel on the frame, just inside the cell's left edge, clear of arrows
            g = sm.grid(layout, grid)
            x = g["x"] + col * g["cellWidth"] + g["outlinePx"] + 2
            y = next(y for y in (g["y"] + (row + f) * g["cellHeight"] for f in (0.5, 0.3, 0.7)) if not near_arrow(layout, x, y))
            return sm.close(image.pixel(x, y), follow, 40)

        # Thread (0,1) loaded M(1,0), M(1,2) and N(1,0), N(3,0) so far; it computes P(1,0).
        for grid, row, col in (("M", 1, 0), ("M", 1, 2), ("N", 1, 0), ("N", 3, 0), ("P", 1, 0), ("Mds", 1, 0),
                               ("Nds", 1, 0), ("block", 1, 0)):
            self.assertTrue(framed(grid, row, col), f"{grid}({row},{col}) is not framed")
        for grid, row, col in (("M", 0, 0), ("M", 1, 1), ("N", 0, 0), ("P", 0, 0), ("block", 0, 0)):
            self.assertFalse(framed(grid, row, col), f"{grid}({row},{col}) should not be framed")

    def test_follow_colour_stands_apart_from_every_thread_for_every_vision(self):
        # The follow colour as the screenshot shows it (the current Thread life entry is drawn on
        # it) against each thread colour: the cells of M the four threads loaded, as drawn, and the
        # rest of the palette from the theme; CIEDE2000 of 10 or more under the Machado et al.
        # simulations of protanopia, deuteranopia and tritanopia and for normal vision.
        layout, image = self.layout("load.json"), sm.Image(os.path.join(self.folder, "follow.png"))
        current = next(t for t in layout["threadLife"] if t["time"] == "current")
        follow = "#%02x%02x%02x" % tuple(image.pixel(current["x"] + 2, current["y"] + current["height"] / 2)[:3])
        g = sm.grid(layout, "M")
        drawn = ["#%02x%02x%02x" % tuple(image.pixel(g["x"] + (c + 0.5) * g["cellWidth"], g["y"] + (r + 0.2) * g["cellHeight"])[:3])
                 for r, c in ((0, 0), (0, 1), (1, 0), (1, 1))]
        for vision, matrix in cc.VISIONS.items():
            for colour in drawn + layout["theme"]["threads"]:
                self.assertGreaterEqual(cc.difference(follow, colour, matrix), 10, f"{vision}: follow {follow} vs thread {colour}")

    def test_load_counts_naive_dark_tiled_pale(self):
        # At the end of a 64^3 multiply every N element was loaded 64 times by the naive kernel
        # (once per P row) and 64 / 16 = 4 times by the tiled kernel with T = 16. (N, at the top
        # of the screen: the PNG is decoded only down to the rows read.)
        few, many = sm.hex_rgb("#deebf7"), sm.hex_rgb("#08306b")
        mix = lambda t: tuple(round(a * (1 - t) + b * t) for a, b in zip(few, many))  # noqa: E731
        # The scale is logarithmic (issue 18): 4 loads of 64 sit at log 4 / log 64 = 1/3.
        for name, expected in (("naive", many), ("tiled", mix(1 / 3))):
            layout, image = self.layout(f"{name}.json"), sm.Image(os.path.join(self.folder, f"{name}.png"))
            self.assertTrue(layout["loadShading"])
            n = sm.grid(layout, "N")
            for row, col in ((5, 5), (10, 37), (40, 20)):  # away from the last tiles' faint frames
                x, y = n["x"] + (col + 0.5) * n["cellWidth"], n["y"] + (row + 0.5) * n["cellHeight"]
                self.assertTrue(sm.close(image.pixel(x, y), expected, 8), f"{name} N({row},{col}): {image.pixel(x, y)}")
        self.assertFalse(self.layout("small.json")["loadShading"])  # off by default at 16x16 and below

    def test_gif_of_one_phase(self):
        # Phase 1 of fig. 5.9 at k-step granularity: the phase's start, loads, barrier, k = 0,
        # k = 1, barrier: 6 frames.
        gif = Gif(os.path.join(self.folder, "phase1.gif"))
        self.assertEqual((gif.width, gif.height, len(gif.frames)), (1280, 800, 6))
        # Frame 1 is the end of phase 1's loads: M(0,2) holds thread (0,0)'s colour, as on screen.
        layout = self.layout("loads.json")
        x, y = sm.fill_point(sm.grid(layout, "M"), 0, 2)
        thread0 = sm.hex_rgb(layout["theme"]["threads"][0])
        self.assertTrue(sm.close(gif.pixel(1, x, y), thread0, 10), gif.pixel(1, x, y))
        self.assertFalse(sm.close(gif.pixel(0, x, y), thread0, 10))  # not loaded yet at the phase's start
        small = Gif(os.path.join(self.folder, "small.gif"))
        self.assertEqual((small.width, small.height, len(small.frames)), (640, 360, 6))
        # From the cursor (phase 1's loads) to the phase's end: the loads, a barrier, k = 0, k = 1,
        # a barrier.
        pngs = sorted(glob.glob(os.path.join(self.folder, "frames", "frame-*.png")))
        self.assertEqual(len(pngs), 5)
        self.assertEqual((sm.PngRows(pngs[0]).width, sm.PngRows(pngs[0]).height), (320, 200))
        # The whole run: its start, 2 phases of 5 steps, the store.
        run = Gif(os.path.join(self.folder, "run.gif"))
        self.assertEqual((run.width, run.height, len(run.frames)), (320, 200, 12))
        self.assertIn("wrote", self.proc.stdout)
        self.assertEqual(self.layout("after.json")["cursor"]["step"], 0)  # the cursor is put back

    def test_exported_frames_show_no_progress_bar(self):
        # Drawn 1500 pixels high, the left column shows the whole Controls panel, its GIF and PNG
        # frames buttons included (where a progress bar would go, under them), above the
        # Occupancy panel, which does not change from step to step. So while the export runs
        # nothing in the left column may change: every frame after the first stores only the
        # rectangle that changed (gif_writer.h), and none may reach into the column.
        layout = self.layout("loads.json")
        controls = window(layout, "left")
        self.assertEqual(controls["tab"], "Controls")
        self.assertGreater(1500 * 0.66 - 40, controls["contentHeight"])  # the buttons are in the tall frames
        gif = Gif(os.path.join(self.folder, "tall.gif"))
        self.assertEqual((gif.width, gif.height, len(gif.frames)), (1280, 1500, 5))
        for i, (x0, y0, w, h, *_) in enumerate(gif.frames[1:], 1):
            self.assertGreaterEqual(x0, controls["width"], f"frame {i} changed the left column: ({x0},{y0}) {w}x{h}")

    def test_bad_phase_is_an_error(self):
        self.assertIn("phase 7 does not exist", self.proc.stderr)
        _, proc = sm.run_app("export gif a.gif size 0 10\n", expect_rc=2)
        self.assertIn("1 to 8192", proc.stderr)

    def test_page_view_wins_over_hand_changes(self):
        # Page 3 of tiling-and-phases sets granularity k; by hand: another block, phase
        # granularity, a followed thread. Next and Back must still show the page's own view.
        page, hand, back = (self.layout(n) for n in ("page.json", "hand.json", "back.json"))
        self.assertEqual((hand["selectedBlock"], hand["granularity"], hand["follow"]), ([1, 1], "phase", [1, 1]))
        self.assertEqual(page["granularity"], "k")
        for key in ("selectedBlock", "granularity", "follow", "cursor"):
            self.assertEqual(back[key], page[key], key)
        self.assertEqual(window(back, "center")["tab"], "Matrices")


if __name__ == "__main__":
    sm.take_flags()
    unittest.main(verbosity=2)
