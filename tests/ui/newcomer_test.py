#!/usr/bin/env python3
"""A teacher's first five minutes, as the README and the teacher's guide write them: every
`build/app/ui/tilescope ...` line of their shell blocks is run as written (the build tree's app in
place of `build/app/ui/tilescope`), once with `--screenshot` added (it must exit 0 with the page's
own scene saved, not its first phase) and once with a script that writes the layout (the lesson
and page the command names are on screen, in the layout it names). The lesson's page titles come
from the lesson file. Also: `--page` out of range names the range, and without `--lesson` is refused.
Helpers from script_mode_test.py."""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402
from lesson_script_test import page_titles  # noqa: E402

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DOCS = ("README.md", os.path.join("assets", "guides", "teacher.md"))
PREFIX = "build/app/ui/tilescope "


def newcomer_commands():
    """(document, the command's arguments) for every line of a ```sh block that runs the build tree's app."""
    found = []
    for doc in DOCS:
        with open(os.path.join(REPO, doc)) as f:
            blocks = re.findall(r"```sh\n(.*?)```", f.read(), re.S)
        for block in blocks:
            for line in block.splitlines():
                line = line.split("#")[0].strip()
                if line.startswith(PREFIX):
                    found.append((doc, line[len(PREFIX):].split()))
    return found


def option(args, name):
    return args[args.index(name) + 1] if name in args else None


def run(args, timeout=300):
    return subprocess.run([sm.APP, *args], capture_output=True, text=True, timeout=timeout)


class FirstFiveMinutes(unittest.TestCase):
    def test_both_documents_give_the_command(self):
        docs = {doc for doc, _ in newcomer_commands()}
        self.assertEqual(docs, set(DOCS), "the README and the teacher's guide each give the build tree's command")
        for doc in DOCS:
            with open(os.path.join(REPO, doc)) as f:
                self.assertIn("first build takes", f.read(), f"{doc} says how long the first build takes")

    def test_each_command_opens_its_page_and_screenshots_its_scene(self):
        for doc, args in newcomer_commands():
            with self.subTest(doc=doc, command=" ".join(args)):
                folder = tempfile.mkdtemp(prefix="tilescope-newcomer-")
                shot = os.path.join(folder, "page.png")
                proc = run([*args, "--screenshot", shot])
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertTrue(os.path.exists(shot), proc.stdout)
                # The same command with a script: the page it names, in the layout it names.
                script = os.path.join(folder, "look.script")
                with open(script, "w") as f:
                    f.write(f"wait\nlayout {folder}/page.json\nscreenshot {folder}/script.png\nquit\n")
                proc = run([*args, "--script", script])
                self.assertEqual(proc.returncode, 0, proc.stderr)
                with open(os.path.join(folder, "page.json")) as f:
                    layout = json.load(f)
                lesson = option(args, "--lesson")
                page = int(option(args, "--page") or 1)
                self.assertEqual(layout["lesson"]["name"], lesson)
                self.assertEqual(layout["lesson"]["page"], page - 1)
                self.assertEqual(layout["lesson"]["pageTitle"], page_titles(lesson)[page - 1])
                self.assertEqual(layout["lesson"]["presenter"], "--presenter" in args)
                # --screenshot waited for the page's scene: the same picture the script took there.
                a, b = sm.Image(shot), sm.Image(os.path.join(folder, "script.png"))
                self.assertEqual((a.width, a.height), (b.width, b.height))
                differing = sum(1 for y in range(0, a.height, 4) for x in range(0, a.width, 4)
                                if not sm.close(a.pixel(x, y), b.pixel(x, y), 24))
                samples = (a.height // 4) * (a.width // 4)
                self.assertLess(differing, samples * 0.02, f"{differing} of {samples} sampled pixels differ")

    def test_a_page_outside_the_lesson_names_its_range(self):
        pages = len(page_titles("two-barriers"))
        proc = run(["--lesson", "two-barriers", "--page", "99"], timeout=60)
        self.assertEqual(proc.returncode, 2)
        self.assertIn(f"--page 99 is not a page: lesson two-barriers has pages 1 to {pages}", proc.stderr)
        proc = run(["--page", "2"], timeout=60)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--page needs --lesson", proc.stderr)


if __name__ == "__main__":
    sm.take_flags()
    unittest.main()
