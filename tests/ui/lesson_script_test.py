#!/usr/bin/env python3
"""Guided lessons in the desktop app (README.md, "For teachers"): `--lesson NAME` opens a lesson
at its first page with that page's launch on screen; `lesson next` / `lesson back` move a page
and run its commands; the presenter layout hides the controls and the counters and gives the
lesson the whole left column with larger text; an unknown lesson is refused with the list of
lessons. What a page sets up is read from the lesson file itself, not from the app. Helpers come
from script_mode_test.py; standard library only."""
import glob
import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402

LESSONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "lessons")


def lesson_file(name):
    (path,) = glob.glob(os.path.join(LESSONS, f"*-{name}.lesson"))
    return path


def page_titles(name):
    with open(lesson_file(name)) as f:
        return [line.split(" ", 1)[1].strip() for line in f if line.startswith("page ")]


def page_shows(name):
    """The panels each page of a lesson file brings forward with `show`, page by page."""
    with open(lesson_file(name)) as f:
        pages = f.read().split("\npage ")[1:]
    return [[line.split(" ", 1)[1].strip() for line in page.splitlines() if line.startswith("show ")] for page in pages]


def page_text(name, index):
    with open(lesson_file(name)) as f:
        page = f.read().split("\npage ")[1 + index]
    return " ".join(line[5:] for line in page.splitlines() if line.startswith("text "))


# The panels sharing a place on screen as tabs (README.md, "The desktop app").
CENTRE = {"Matrices", "Coalescing", "Bank conflicts", "Roofline", "Timing"}
RIGHT_BOTTOM = {"Source", "Bug gallery", "Hazards"}


def tab(layout, window):
    return next(w for w in layout["windows"] if w["name"] == window)["tab"]


def layout(folder, name):
    with open(os.path.join(folder, name)) as f:
        return json.load(f)


class Lessons(unittest.TestCase):
    def test_lesson_option_opens_the_first_page_with_its_launch(self):
        name = "tiling-and-phases"
        folder, _ = sm.run_app("wait\nlayout @a.json\nquit\n", extra_args=("--lesson", name))
        a = layout(folder, "a.json")
        self.assertEqual(a["lesson"]["name"], name)
        self.assertEqual(a["lesson"]["page"], 0)
        self.assertEqual(a["lesson"]["pages"], len(page_titles(name)))
        self.assertEqual(a["lesson"]["pageTitle"], page_titles(name)[0])
        self.assertEqual(a["lesson"]["error"], "")
        # The first page's own settings are on screen: its kernel, size and tile width.
        with open(lesson_file(name)) as f:
            first_page = f.read().split("\npage ")[1].splitlines()
        settings = dict(line.split()[1:3] for line in first_page if line.startswith("set "))
        self.assertEqual(a["config"], f"{settings['kernel']} {settings['size']}x{settings['size']}x{settings['size']} "
                                      f"T={settings['tile']}")
        m = sm.grid(a, "M")
        self.assertEqual(m["rows"], int(settings["size"]))

    def test_next_and_back_move_a_page_and_run_its_commands(self):
        titles = page_titles("tiling-and-phases")
        folder, _ = sm.run_app("lesson tiling-and-phases\nlayout @p0.json\nlesson next\nlayout @p1.json\n"
                               "lesson next\nlayout @p2.json\nlesson back\nlayout @back.json\nquit\n")
        pages = [layout(folder, n)["lesson"] for n in ("p0.json", "p1.json", "p2.json", "back.json")]
        self.assertEqual([p["page"] for p in pages], [0, 1, 2, 1])
        self.assertEqual([p["pageTitle"] for p in pages], [titles[0], titles[1], titles[2], titles[1]])
        # Page 3 of the lesson steps into the k loop ("set granularity k" then "step 3"): the
        # cursor is past the tile loads, at a k step of phase 0.
        self.assertIn("k =", layout(folder, "p2.json")["cursor"]["label"])
        self.assertIn("phase 0", layout(folder, "p2.json")["cursor"]["label"])

    def test_back_lands_where_next_did(self):
        # Page 3 of tiling-and-phases is relative ("step 3" after page 2's "seek phase 0"). Coming
        # back to it from page 4, which sits at phase 1, must show the cursor Next showed.
        folder, _ = sm.run_app("lesson tiling-and-phases\nlesson next\nlesson next\nlayout @fwd.json\n"
                               "lesson next\nlayout @p3.json\nlesson back\nlayout @back.json\nquit\n")
        fwd, p3, back = (layout(folder, n) for n in ("fwd.json", "p3.json", "back.json"))
        self.assertEqual((fwd["lesson"]["page"], p3["lesson"]["page"], back["lesson"]["page"]), (2, 3, 2))
        self.assertNotEqual(p3["cursor"], fwd["cursor"])
        self.assertEqual(back["cursor"], fwd["cursor"])
        self.assertEqual(back["config"], fwd["config"])

    def test_a_page_sets_its_whole_launch_over_hand_changes(self):
        # The teacher changed the tile width by hand on page 1; Next still shows the lesson's launch.
        folder, _ = sm.run_app("lesson tiling-and-phases\nlayout @p0.json\nset tile 4\nwait\nlayout @hand.json\n"
                               "lesson next\nlayout @p1.json\nquit\n")
        p0, hand, p1 = (layout(folder, n) for n in ("p0.json", "hand.json", "p1.json"))
        self.assertIn("T=4", hand["config"])
        self.assertEqual(p1["config"], p0["config"])
        self.assertEqual(sm.grid(p1, "Mds")["rows"], 2)

    def test_a_page_shows_its_view_over_tabs_chosen_by_hand(self):
        # Page 3 of two-barriers speaks of the slots and P cells framed red. With the Timing tab brought forward
        # by hand before, it must still show the matrices in the centre (no page up to it shows
        # another centre panel), and in the right column the last panel the lesson showed there.
        name = "two-barriers"
        self.assertIn("framed red", page_text(name, 2))
        shows = [panel for page in page_shows(name)[:3] for panel in page]
        self.assertFalse(CENTRE & set(shows))
        right = ([p for p in shows if p in RIGHT_BOTTOM] or ["Source"])[-1]
        folder, _ = sm.run_app("lesson two-barriers\nshow Timing\nshow Hazards\nwait\nlayout @hand.json\n"
                               "lesson next\nlesson next\nlayout @p3.json\n"
                               "lesson next\nshow Roofline\nwait\nlesson back\nlayout @back.json\nquit\n")
        hand, p3, back = (layout(folder, n) for n in ("hand.json", "p3.json", "back.json"))
        self.assertEqual((tab(hand, "center"), tab(hand, "right-bottom")), ("Timing", "Hazards"))
        self.assertEqual(p3["lesson"]["page"], 2)
        self.assertEqual(tab(p3, "center"), "Matrices")
        self.assertEqual(tab(p3, "right-bottom"), right)
        self.assertEqual(tab(p3, "left"), "Lesson")
        self.assertEqual(back["lesson"]["page"], 2)
        self.assertEqual((tab(back, "center"), tab(back, "right-bottom")), ("Matrices", right))

    def test_presenter_hides_the_controls_and_enlarges_the_text(self):
        folder, _ = sm.run_app("lesson 3\nlayout @normal.json\nset presenter on\nwait\nlayout @big.json\nquit\n")
        normal, big = layout(folder, "normal.json"), layout(folder, "big.json")
        names = lambda l: [w["name"] for w in l["windows"]]  # noqa: E731
        self.assertIn("left", names(normal))          # Controls and Lesson share the left column as tabs
        self.assertIn("left-bottom", names(normal))   # Counters and Occupancy
        self.assertNotIn("left", names(big))
        self.assertNotIn("left-bottom", names(big))
        lesson = next(w for w in big["windows"] if w["name"] == "Lesson")
        self.assertEqual(lesson["y"], 0)
        self.assertGreater(lesson["height"], 0.95 * max(w["y"] + w["height"] for w in big["windows"]))
        self.assertTrue(big["lesson"]["presenter"])
        self.assertGreater(big["fontScale"], normal["fontScale"])

    def test_unknown_lesson_is_refused_with_the_list(self):
        proc = subprocess.run([sm.APP, "--lesson", "no-such-lesson"], capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no lesson 'no-such-lesson'", proc.stderr)
        self.assertIn("tiling-and-phases", proc.stderr)
        _, proc = sm.run_app("lesson nope\nquit\n", expect_rc=1)
        self.assertIn("test.script:1: no lesson 'nope'", proc.stderr)

    def test_next_without_a_lesson_is_an_error(self):
        _, proc = sm.run_app("lesson next\nquit\n", expect_rc=1)
        self.assertIn("test.script:1: no lesson is open", proc.stderr)


if __name__ == "__main__":
    sm.take_flags()
    unittest.main(verbosity=2)
