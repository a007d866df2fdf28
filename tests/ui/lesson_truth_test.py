#!/usr/bin/env python3
"""Issue 29, pages true to their picture: every page of every lesson in the presenter layout at
1280x720, and every number its text states (as drawn, the run's {figures} filled in) must be on
screen in the same frame -- a figure a panel wrote (the layout file's recorded texts, counters,
caption, warp requests, the run's configuration, the followed thread) -- or a constant: the
hardware facts below (32 banks, 128-byte lines...) or the numbers the page declares on its
`constants` line with where they come from. A reference (fig. 5.9, chapter 5, rung 4, lesson 3)
is no claim about the run. A page also lands where it says: the checks at the end hold the
pages the issue found one step off to the step their text describes.

Standard library only; one app launch, its layout files read by every test method."""
import json
import math
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402
import classroom_test as ct  # noqa: E402
import colour_check  # noqa: E402
import presenter_walk as walk  # noqa: E402

# Facts of the hardware and of the arithmetic every page may state without declaring them.
HARDWARE = {
    0: "nothing, the first index", 1: "one, the unit", 2: "FLOPs per multiply-add",
    4: "bytes per float, the width of a bank", 8: "floats per 32-byte sector, bytes per pair of floats",
    32: "banks, lanes per warp, bytes per sector", 128: "bytes per cache line (32 floats)",
}
# Words before a number that make it a reference to the book or the course, not a claim.
REFERENCE = re.compile(r"(fig\.|figs\.|figure|chapter|ch\.|section|rungs?|lessons?|page)\s*(\d+(\.\d+)?\s*(,|and|to|or)\s*)*$", re.I)
def numbers_in(text):
    """(value, decimals, start) of every number the text states, identifiers' digits left out:
    H100, float4, sm_90a, Mds are names; 8x8x4/2x2 and 32x8 are numbers."""
    text = re.sub(r"(?<=\d)x(?=\d)", " ", text)
    text = re.sub(r"\d{4}-\d{2}-\d{2}", lambda m: " " * len(m.group()), text)  # a date says when, not what
    out = []
    for m in re.finditer(r"\d[\d,]*(?:\.\d+)?", text):
        s = m.group().rstrip(",")
        before = text[m.start() - 1] if m.start() else " "
        after = text[m.start() + len(s)] if m.start() + len(s) < len(text) else " "
        if before.isalpha() or before == "_" or after.isalpha() and after not in "x" or after == "_":
            continue
        if before == "." and m.start() > 1 and text[m.start() - 2].isdigit():
            continue
        if "," in s and not re.fullmatch(r"\d{1,3}(,\d{3})+", s):
            s = s.split(",")[0]
        decimals = len(s.split(".")[1]) if "." in s else 0
        out.append((float(s.replace(",", "")), decimals, m.start(), text))
    return out


def screen_numbers(layout):
    """Every figure the frame shows, as the layout file records it: the texts panels recorded,
    the counters, the step in words and the cursor's label, the run's configuration, the drawn
    warp requests, the followed thread and the block, the source's marked lines, the thread's
    life, the values written in cells, the plots' names and reference lines, the copy engine's
    ring. Pixel geometry, colours and tooltips are left out."""
    out = set()

    def add_text(text):
        for value, _, _, _ in numbers_in(text or ""):
            out.add(value)

    for t in layout.get("texts", []):
        if t["panel"] != "Lesson":  # the page's own words are the claim, not the evidence
            add_text(t["text"])
    for c in layout.get("counters", []):
        add_text(c["shown"])
        add_text(c["exact"])
    add_text(layout["caption"]["text"])
    add_text(layout.get("cursor", {}).get("label"))
    add_text(layout.get("config"))
    add_text(layout["lesson"]["pageTitle"])
    for r in layout.get("warpRequests", []):
        for key in ("lanes", "addresses", "banks", "sectors", "lines"):
            out.update(float(v) for v in r.get(key, []))
        for key in ("wavefronts", "bytesUsed", "bytesMoved", "line", "phase", "k", "warp"):
            if key in r:
                out.add(float(r[key]))
    out.update(float(v) for v in layout.get("follow", []) + layout.get("selectedBlock", []))
    source = layout.get("source", {})
    out.update(float(v) for v in source.get("stepLines", []) + [source.get("currentLine", -1)])
    add_text(source.get("currentText"))
    for t in layout.get("threadLife", []):
        add_text(t["text"])
    for g in layout.get("grids", []):
        out.update(float(v) for v in (g["rows"], g["cols"]))
        for _, _, text in g.get("texts", []):
            add_text(text)
    for p in layout.get("plots", []):
        add_text(p.get("note"))
        for s in p["series"]:
            add_text(s["name"])
        for line in p["lines"]:
            add_text(line["label"])
    ring = layout.get("copyEngine")
    if ring:
        for key in ("stageCount", "consumers", "copiesIssued", "copiesTotal"):
            out.add(float(ring[key]))
        for b in ring["barriers"]:
            add_text(b["text"])
        add_text(ring.get("waitText"))
    return out


# Claims about one panel, each checked against that panel's own data on the same screen (not
# only "the number is somewhere"): (pattern over the page's text as drawn, check(layout, match)
# returning "" or what disagrees). A page whose text makes a claim about a panel not on screen
# fails too: its reader cannot see it.
def panel_texts(layout, panel):
    return [t["text"] for t in layout.get("texts", []) if t["panel"] == panel]


def ring_of(layout):
    return layout.get("copyEngine") or {}


def check_issued(layout, m):
    tiles = [int(v) for v in re.findall(r"\d+", m.group(1))]
    ring = ring_of(layout)
    if not ring:
        return "no Copy engine panel on screen"
    held = {s["mTile"] for s in ring["stages"]}
    if ring["copiesIssued"] != 2 * len(tiles) or not set(tiles) <= held:
        return f"copies issued {ring['copiesIssued']}, stages hold k tiles {sorted(held)}"
    return ""


def check_wait(layout, m):
    ring = ring_of(layout)
    want = f"{m.group(1)} consumers waiting on {m.group(2)}, parity {m.group(3)}"
    return "" if ring and ring.get("waitText", "").startswith(want) else f"the panel says {ring.get('waitText')!r}"


def check_refilled(layout, m):
    ring = ring_of(layout)
    stages = [(s["index"], s["mTile"], s["state"]) for s in ring.get("stages", [])]
    ok = any(tile == int(m.group(1)) and state in ("filling", "full") for _, tile, state in stages)
    return "" if ok else f"stages (index, k tile, state): {stages}"


def check_reading(layout, m):
    stages = [(s["index"], s["state"]) for s in ring_of(layout).get("stages", [])]
    return "" if (int(m.group(1)), "being read") in stages else f"stages (index, state): {stages}"


def check_ring_size(layout, m):
    ring = ring_of(layout)
    return "" if ring.get("stageCount") == int(m.group(1)) else f"the panel draws {ring.get('stageCount')} stages"


def check_occupancy(layout, m):
    summaries = [t for t in panel_texts(layout, "Occupancy") if "blocks/SM" in t]
    want = re.compile(rf"^{m.group(1)} blocks/SM, .*occupancy {re.escape(m.group(2))}(\.0)?%")
    return "" if any(want.search(t) for t in summaries) else f"the Occupancy panel says {summaries}"


def check_intensity(layout, m):
    shown = [c["shown"] for c in layout.get("counters", []) if c["name"] == "OP/B"]
    if not shown:
        return ""  # the analysis' figure, with no Counters on screen to disagree
    return "" if math.isclose(float(shown[0]), float(m.group(1)), rel_tol=5e-3) else f"Counters' OP/B is {shown[0]}"


def check_thread_block_loading(layout, m):
    shown = panel_texts(layout, "Thread block")
    return "" if "loading 1" in shown else f"the Thread block panel says {shown}"


def check_flag_wait(layout, m):
    life = [t["text"] for t in layout.get("threadLife", [])]
    ok = any(t.startswith("wait flag[") for t in life) and any(t.startswith("read workspace[") for t in life)
    return "" if ok else f"Thread life shows {life}"


CLAIMS = [
    (r"has issued k tiles ((?:\d+(?:, | and )?)+)", check_issued),
    (r"all (\d+) consumers wait on (\w+\[\d+\]), parity (\d)", check_wait),
    (r"refill(?:s|ed) it with k tile (\d+)", check_refilled),
    (r"(?:they|consumers) read stage (\d+)", check_reading),
    (r"form a ring \((\d+) here", check_ring_size),
    (r"(\d+) blocks per SM fit: ([\d.]+) % occupancy", check_occupancy),
    (r"([\d.]+) FLOPs per byte loaded", check_intensity),
    (r"counts that one thread as loading", check_thread_block_loading),
    (r"waits for the flag, then reads", check_flag_wait),
]


# What a caption says of the moment, read against the Copy engine panel's ring on the same
# screen: the caption is that moment in words, so it may not tell another one (all threads
# still at a barrier while the ring's consumers wait on full[0] past it).
def caption_problems(layout):
    caption, ring = layout["caption"]["text"], ring_of(layout)
    if not ring:
        return []
    problems = []
    for m in re.finditer(r"has issued (\d+) of (\d+) copies", caption):
        if (int(m.group(1)), int(m.group(2))) != (ring["copiesIssued"], ring["copiesTotal"]):
            problems.append(f"'{m.group(0)}': the panel has issued {ring['copiesIssued']} of {ring['copiesTotal']}")
    for m in re.finditer(r"(\d+) consumers wait on (full\[(\d+)\]), parity (\d)", caption):
        said = (int(m.group(1)), int(m.group(3)), int(m.group(4)))
        if said != (ring["waiting"], ring["waitBarrier"], ring["waitParity"]):
            problems.append(f"'{m.group(0)}': the panel says {ring['waitText']!r}")
    if re.search(r"threads wait at", caption) and ring["waiting"] > 0 and ring["waitBarrier"] >= 0:
        problems.append(f"'{caption}': every thread at a barrier, while the panel says {ring['waitText']!r}")
    return problems


def matches(value, decimals, known):
    for k in known:
        if decimals == 0 and k == value:
            return True
        if decimals > 0 and math.isclose(round(k, decimals), value, abs_tol=10 ** -decimals / 2):
            return True
    return False


class LessonTruth(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lessons = ct.lessons()
        cls.folder = walk.folder((1280, 720))  # the shared walk (presenter_walk.py)

    def layout(self, name, page):
        return ct.load(self.folder, f"{name}-{page}.json")

    def test_every_number_is_on_screen_or_declared(self):
        problems = []
        for name, pages in self.lessons:
            for page in range(pages):
                layout = self.layout(name, page)
                lesson = layout["lesson"]
                self.assertEqual(lesson["page"], page, name)
                known = screen_numbers(layout)
                declared = {float(c) for c in lesson["constants"]}
                # A {figure} the app filled from the page's own run counts as on screen.
                declared |= {float(v) for v in lesson["figures"].values()}
                for paragraph in lesson["paragraphs"]:
                    self.assertNotIn("?{", paragraph, f"{name} page {page + 1}: a figure was not filled")
                    for value, decimals, at, text in numbers_in(paragraph):
                        if REFERENCE.search(text[:at]) and decimals <= 2:
                            continue
                        if value in HARDWARE or matches(value, decimals, declared) or matches(value, decimals, known):
                            continue
                        context = text[max(0, at - 40):at + 20].replace("\n", " ")
                        problems.append(f"{name} page {page + 1}: {value:g} in '...{context}...'")
        self.assertEqual(problems, [], "numbers neither on screen nor declared:\n" + "\n".join(problems))

    def test_claims_agree_with_their_panel(self):
        """A claim about a panel (stage states, copies issued, waits, occupancy, the Counters' OP/B,
        Thread life's flag wait) is read from that panel's data on the same screen."""
        problems, checked = [], 0
        for name, pages in self.lessons:
            for page in range(pages):
                layout = self.layout(name, page)
                for paragraph in layout["lesson"]["paragraphs"]:
                    for pattern, check in CLAIMS:
                        for m in re.finditer(pattern, paragraph):
                            checked += 1
                            why = check(layout, m)
                            if why:
                                problems.append(f"{name} page {page + 1}: '{m.group(0)}': {why}")
        self.assertEqual(problems, [], "claims their panel does not make:\n" + "\n".join(problems))
        # Lesson 18's ring pages, 17's and 14's launch pages and 19's flag page: each claim was met.
        self.assertGreaterEqual(checked, 8)

    def test_captions_agree_with_the_copy_engine(self):
        """The Timeline's caption on a page with the Copy engine panel tells the ring's moment:
        the copies issued and the consumers' wait as the panel has them (lesson 18, page 2: the
        barrier every thread has passed, then 6 of 16 copies and 128 consumers on full[0])."""
        problems, checked = [], 0
        for name, pages in self.lessons:
            for page in range(pages):
                layout = self.layout(name, page)
                if ring_of(layout):
                    checked += 1
                    problems += [f"{name} page {page + 1}: {p}" for p in caption_problems(layout)]
        self.assertEqual(problems, [], "captions that tell another moment than their panel:\n" + "\n".join(problems))
        self.assertGreaterEqual(checked, 2)  # lesson 18's ring pages, 2 and 3
        caption = self.layout("copy-engine", 1)["caption"]["text"]
        self.assertIn("has issued 6 of 16 copies", caption)  # k tiles 0, 1, 2: two copies each
        self.assertIn("128 consumers wait on full[0], parity 0", caption)  # 4 consumer warps of 32

    def test_the_copy_engine_says_who_writes_each_tile(self):
        """Where the block's threads write N's tiles (rung 11's producers: TMA cannot turn them),
        the Copy engine does not say that no thread loads a tile, and every stage that holds an N
        tile has its bytes from those writes; a full barrier (one a copy's bytes complete) never
        counts consumers, whatever its arrival count (rung 11's unused full[2] said '0 of 129
        consumers done')."""
        problems, threads_write = [], 0
        for name, pages in self.lessons:
            for page in range(pages):
                layout = self.layout(name, page)
                ring = layout.get("copyEngine")
                if not ring:
                    continue
                where = f"{name} page {page + 1}"
                header = [t["text"] for t in layout["texts"] if t["panel"] == "Copy engine" and t["text"].startswith("Block (")]
                if len(header) != 1:
                    problems.append(f"{where}: the panel's first line was not recorded: {header}")
                    continue
                if ring["nByThreads"]:
                    threads_write += 1
                    if "no thread loads a tile" in header[0] or "threads write N's tiles" not in header[0]:
                        problems.append(f"{where}: '{header[0]}' while threads write N's tiles")
                    for st in ring["stages"]:
                        if st["nTile"] >= 0 and st["nBytes"] <= 0:
                            problems.append(f"{where}: stage {st['index']} holds N's tile {st['nTile']} of no bytes")
                for b in ring["barriers"]:
                    if b["name"].startswith("full[") and "consumers" in b["text"]:
                        problems.append(f"{where}: {b['text']}")
        self.assertEqual(problems, [], "\n".join(problems))
        self.assertGreaterEqual(threads_write, 1)  # lesson 21's first page

    def test_a_warpgroup_mma_is_the_tensor_cores_reads(self):
        """On rung 11 no thread multiplies: the step in words says the tensor cores read the
        operands for the warpgroup, never that a thread's elements of P += its reads."""
        problems, checked = [], 0
        for name, pages in self.lessons:
            for page in range(pages):
                layout = self.layout(name, page)
                if not str(layout.get("config", "")).startswith("wgmma-tf32"):
                    continue
                caption = layout["caption"]["text"]
                checked += "tensor cores read" in caption or "tensor cores' reads" in caption
                if "+=" in caption:
                    problems.append(f"{name} page {page + 1}: '{caption}'")
        self.assertEqual(problems, [], "\n".join(problems))
        self.assertGreaterEqual(checked, 1)  # lesson 21's page on descriptor reads

    def test_a_page_about_bank_conflicts_shows_a_request(self):
        """A page that names the Bank conflicts panel talks about how a warp's shared reads fall
        into banks: at its moment the panel draws a request, not "makes no shared access at this
        step" (lesson 21's second page stood on the mbarriers' set-up)."""
        problems, checked = [], 0
        for (name, page), panels in ct.named_panels().items():
            if "Bank conflicts" not in panels:
                continue
            checked += 1
            texts = [t["text"] for t in self.layout(name, page)["texts"] if t["panel"] == "Bank conflicts"]
            if any("makes no shared access at this step" in t for t in texts):
                problems.append(f"{name} page {page + 1}: the panel shows no request")
        self.assertEqual(problems, [], "\n".join(problems))
        self.assertGreaterEqual(checked, 4)  # lessons 14 (two pages), 18 and 21

    def test_thread_life_entries_start_below_their_title(self):
        """On every page at every walked size, Thread life's entries (a count of left-out entries
        among them) begin below the last line of its title: lesson 20 at 1280x800 drew
        "... 28 entries" over the title's second line."""
        checked = 0
        for size in walk.SIZES:
            folder = walk.folder(size)
            for name, pages in self.lessons:
                for page in range(pages):
                    layout = ct.load(folder, f"{name}-{page}.json")
                    texts = [t for t in layout.get("texts", []) if t["panel"] == "Thread life"]
                    entries = {e["text"] for e in layout.get("threadLife", [])}
                    title = []
                    for t in texts:
                        if t["text"] in entries or t["text"].endswith(":"):
                            break
                        title.append(t)
                    rest = texts[len(title):]
                    if not title or not rest:
                        continue
                    checked += 1
                    bottom = title[-1]["y"] + title[-1]["pitch"]
                    first = min(t["y"] for t in rest)
                    self.assertGreaterEqual(first + 1, bottom, f"{size} {name} page {page + 1}: {rest[0]['text']!r} over the title")
        self.assertGreater(checked, 10)

    def test_the_warp_page_bands_its_warps(self):
        """Lesson 10, page 1 is about the warps of a 16x16 block: the Thread block panel draws 8
        bands of 2 rows each (256 threads / 32, 32 threads / 16 per row), named in a legend, each
        band at least 3:1 against the next (WCAG's non-text contrast), at every walked size."""
        for size in walk.SIZES:
            layout = ct.load(walk.folder(size), "warps-and-coalescing-0.json")
            texts = [t for t in layout["texts"] if t["panel"] == "Thread block"]
            bands = [t for t in texts if t["text"].startswith("warp band ")]
            self.assertEqual([b["text"] for b in bands], [f"warp band w{w}" for w in range(8)], size)
            block = next(g for g in layout["grids"] if g["name"] == "block")
            for w, b in enumerate(bands):
                self.assertAlmostEqual(b["y"], block["y"] + 2 * w * block["cellHeight"], delta=1, msg=f"{size} w{w}")
                self.assertLess(b["x"], block["x"], f"{size}: band w{w} not beside the grid")
            for a, b in zip(bands, bands[1:]):
                self.assertGreaterEqual(colour_check.contrast(a["background"], b["background"]),
                                        3.0, f"{size}: {a['text']} and {b['text']}")
            self.assertIn("w0-w7: warps of 32", [t["text"] for t in texts], f"{size}: no legend")

    def test_declared_constants_are_stated(self):
        """A `constants` line lists only numbers its page's text states (none left behind by an edit)."""
        for name, pages in self.lessons:
            for page in range(pages):
                lesson = self.layout(name, page)["lesson"]
                stated = [(v, d) for p in lesson["paragraphs"] for v, d, _, _ in numbers_in(p)]
                for c in lesson["constants"]:
                    self.assertTrue(any(math.isclose(v, float(c)) for v, _ in stated), f"{name} page {page + 1}: constant {c} unused")

    def test_pages_land_on_the_step_they_describe(self):
        # Lesson 4, page 2 is about the first barrier: the cursor is at it, the caption says so.
        label = self.layout("two-barriers", 1)["cursor"]["label"]
        self.assertIn("barrier", label)
        self.assertIn("read-after-write", label)
        # Lesson 4, page 5 (no second barrier): a slot framed stale, overwritten before its read.
        marks = [m for g in self.layout("two-barriers", 4)["grids"] for m in g.get("marks", []) if m["kind"] == "stale"]
        self.assertTrue(any(m.get("overwritten") for m in marks), "no write-after-read mark on the no-second-sync page")
        # Lesson 14, page 4 is about the conflicts: its step draws a request with more than one
        # wavefront, first, and the page's total is the panel's.
        page = self.layout("register-tile-2d", 3)
        shared = [r for r in page["warpRequests"] if r["space"] == "shared"]
        self.assertTrue(shared and shared[0]["wavefronts"] > 1, shared[:1])
        self.assertEqual([r["wavefronts"] for r in shared], sorted((r["wavefronts"] for r in shared), reverse=True))
        conflicts = page["lesson"]["figures"]["banks.conflicts"]
        self.assertTrue(any(f"({conflicts} conflicts)" in t["text"] for t in page["texts"] if t["panel"] == "Bank conflicts"))
        # Lesson 18, page 2: the barrier at line 53 (the mbarriers' set-up) is read-after-write,
        # as the kernel's comment says.
        caption = self.layout("copy-engine", 1)["caption"]["text"]
        self.assertIn("read-after-write barrier (line 53)", caption)
        # Lesson 18's swizzle page: every drawn request takes its least, one pass a quarter.
        requests = [r for r in self.layout("copy-engine", 3)["warpRequests"] if r["space"] == "shared"]
        self.assertTrue(requests)
        self.assertTrue(all(r["wavefronts"] == 4 for r in requests), [r["wavefronts"] for r in requests])
        # Lesson 10 compares 32x8 with 16x16, whose warp-1 pictures differ (64x4's is 32x8's).
        first = [r for r in self.layout("warps-and-coalescing", 3)["warpRequests"] if r["array"] == "M"]
        second = [r for r in self.layout("warps-and-coalescing", 4)["warpRequests"] if r["array"] == "M"]
        self.assertNotEqual(len(set(first[0]["addresses"])), len(set(second[0]["addresses"])))


if __name__ == "__main__":
    sm.take_flags()
    unittest.main(verbosity=2)
