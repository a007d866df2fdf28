#!/usr/bin/env python3
"""The Lab tab (issue 11, README.md "The kernel lab") through script mode: fig. 5.9's example
runs and verifies, and its run is in the views (the student's 2x2 tiles in Shared memory, the
4x4 matrices with every P element stored, the student's source in the Source panel); a
compile error is reported at its line and drawn red in the editor's gutter; a kernel that
loops forever and one that crashes get their verdicts while the app stays up and answers the
next command; unsaved text survives a SIGKILL. Expected values come from the example file and
the kernels written here, not from the app. Standard library only."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402

# A kernel with a compile error on line 33 (an undeclared name), under 30 lines of comment: the
# editor shows about 19 lines, so the error lies under its fold until it is scrolled into view;
# one that spins forever after reading M on line 2, and one that makes a wild pointer on line 2
# (the lab's interpreter has no addresses to make one from: refused at its line).
BROKEN_LINE = 33
BROKEN = ("".join(f"// a student's notes, line {n}\n" for n in range(1, BROKEN_LINE - 2)) +
          "__global__ void matrixMulKernel(float* M, float* N, float* P, int Width) {\n"
          "  int i = threadIdx.x;\n"
          "  P[i] = Pvalu;\n"
          "}\n// lab: size 2\n// lab: block 2x1\n")
SPIN = ("__global__ void matrixMulKernel(float* M, float* N, float* P, int Width) {\n"
        "  float x = M[threadIdx.x];\n"
        "  volatile int spin = 1;\n  while (spin) { }\n  P[0] = x;\n"
        "}\n// lab: size 2\n// lab: block 2x1\n")
WILD = ("__global__ void matrixMulKernel(float* M, float* N, float* P, int Width) {\n"
        "  float* wild = (float*)16;\n"
        "  wild[threadIdx.x] = 1.0f;\n"
        "}\n// lab: size 2\n// lab: block 2x2\n")


# fig. 5.9 with M read down a column at line 19 (tests/lab/mistakes): a wrong result traced back
# to its read at line 24 and the load at line 19, both marked in the gutter.
MISTAKES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lab", "mistakes")


def environment(state):
    env = dict(os.environ)
    env["XDG_STATE_HOME"] = state  # the autosave and the progress file: the test's own
    return env


def load(folder, name):
    with open(os.path.join(folder, name)) as f:
        return json.load(f)


class LabTab(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.state = tempfile.mkdtemp(prefix="tilescope-lab-state-")
        kernels = tempfile.mkdtemp(prefix="tilescope-lab-kernels-")
        for name, text in (("broken.cu", BROKEN), ("spin.cu", SPIN), ("wild.cu", WILD)):
            with open(os.path.join(kernels, name), "w") as f:
                f.write(text)
        cls.start = time.monotonic()
        cls.folder, cls.proc = sm.run_app(f"""
show Lab
lab open pmpp_fig5_9
lab run
lab expect verified
layout @verified.json
screenshot @verified.png
show Matrices
seek end
layout @matrices.json
screenshot @matrices.png
show Lab
lab open {kernels}/broken.cu
lab run
lab expect compile error
layout @broken.json
screenshot @broken.png
lab open {kernels}/spin.cu
lab timeout 1
lab run
lab expect timed out
layout @spin.json
lab open {kernels}/wild.cu
lab run
lab expect compile error
layout @wild.json
lab open {MISTAKES}/m_index_transposed.cu
lab run
lab expect wrong result
layout @wrong.json
set size 8
wait
layout @after.json
screenshot @after.png
quit
""", env=environment(cls.state))
        cls.seconds = time.monotonic() - cls.start

    def test_fig_5_9_verifies_and_its_run_is_in_the_views(self):
        lay = load(self.folder, "verified.json")
        self.assertEqual(lay["lab"]["verdict"], "verified", lay["lab"])
        self.assertTrue(lay["lab"]["shown"])
        self.assertEqual(lay["source"]["file"], "lab: pmpp_fig5_9.cu")
        self.assertEqual(lay["source"]["lines"], lay["lab"]["editorLines"])  # the student's file, whole
        # The example sets TILE_WIDTH=2 (`// lab: define`): the shared tiles are 2x2, not the file's 16x16.
        mds = sm.grid(lay, "Mds")
        self.assertEqual((mds["rows"], mds["cols"]), (2, 2))
        self.assertEqual(lay["windows"][[w["name"] for w in lay["windows"]].index("center")]["tab"], "Lab")

    def test_matrices_show_the_lab_run_with_every_p_element_stored(self):
        lay = load(self.folder, "matrices.json")
        img = sm.Image(os.path.join(self.folder, "matrices.png"))
        p = sm.grid(lay, "P")
        self.assertEqual((p["rows"], p["cols"]), (4, 4))
        stored = sm.hex_rgb(lay["theme"]["pStored"])
        for row in range(4):
            for col in range(4):
                got = img.pixel(*sm.fill_point(p, row, col))
                self.assertTrue(sm.close(got, stored, 24), f"P[{row}][{col}] is {got}, stored is {stored}")

    def test_a_wrong_result_marks_the_lines_it_is_traced_to(self):
        lab = load(self.folder, "wrong.json")["lab"]
        self.assertEqual(lab["verdict"], "wrong result")
        self.assertIn("check the index at line 19", lab["summary"])
        # The load's line, scrolled into view, is marked red (the read at line 24 is marked too,
        # under the editor's fold at this size: errorLines lists the marked lines drawn).
        self.assertIn("reads Mds[0][1] at line 24", lab["summary"])
        self.assertIn(19, lab["editor"]["errorLines"])

    def test_a_compile_error_is_marked_red_at_its_line(self):
        lay = load(self.folder, "broken.json")
        lab = lay["lab"]
        self.assertEqual(lab["verdict"], "compile error")
        lines = [d["line"] for d in lab["diagnostics"] if d["file"].endswith("broken.cu")]
        self.assertIn(BROKEN_LINE, lines, lab["diagnostics"])
        self.assertIn("Pvalu", " ".join(d["message"] for d in lab["diagnostics"]))
        # The editor scrolled the error's line into view (errorLines lists the marked lines drawn).
        self.assertIn(BROKEN_LINE, lab["editor"]["errorLines"])
        e = lab["editor"]
        line_y = lambda n: e["firstLineY"] + (n - 1) * e["lineHeight"] + e["lineHeight"] / 2
        self.assertTrue(e["y"] <= line_y(BROKEN_LINE) <= e["y"] + e["height"], e)
        img = sm.Image(os.path.join(self.folder, "broken.png"))
        red = sm.hex_rgb(lay["theme"]["error"])
        x = e["gutterX"] + 3
        got = img.pixel(x, line_y(BROKEN_LINE))
        self.assertTrue(sm.close(got, red, 10), f"line {BROKEN_LINE}'s gutter is {got}, not red {red}")
        self.assertFalse(sm.close(img.pixel(x, line_y(BROKEN_LINE - 1)), red, 40), "the line above has no error but is red")

    def test_endless_loop_times_out_and_a_wild_pointer_is_refused(self):
        spin = load(self.folder, "spin.json")["lab"]
        self.assertEqual(spin["verdict"], "timed out")
        self.assertIn("still running after 1 s", spin["summary"])
        self.assertEqual(spin["whereLine"], 4)  # the line it was spinning on: the while loop
        wild = load(self.folder, "wild.json")["lab"]
        self.assertEqual(wild["verdict"], "compile error")
        self.assertIn("wild.cu:2: casts to pointers are outside the lab's CUDA subset", wild["summary"])

    def test_the_app_stays_up_and_answers_after_them(self):
        lay = load(self.folder, "after.json")
        self.assertIn("8x8x8", lay["config"])  # the built-in kernel ran at the new size
        self.assertTrue(os.path.getsize(os.path.join(self.folder, "after.png")) > 0)
        self.assertLess(self.seconds, 60, "the Lab tab's script took too long")


class LabAutosave(unittest.TestCase):
    def test_unsaved_text_survives_a_kill(self):
        state = tempfile.mkdtemp(prefix="tilescope-lab-state-")
        folder = tempfile.mkdtemp(prefix="tilescope-lab-kill-")
        script = os.path.join(folder, "type.script")
        marker = "// unsaved-work-%d" % os.getpid()
        with open(script, "w") as f:
            f.write(f"show Lab\nlab append {marker}\nframes 100000\n")
        proc = subprocess.Popen([sm.APP, "--script", script], env=environment(state),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        autosave = os.path.join(state, "tilescope", "lab-autosave.cu")
        try:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                if os.path.exists(autosave) and marker in open(autosave).read():
                    break
                time.sleep(0.2)
            self.assertIsNone(proc.poll(), "the app quit before it was killed")
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        out, _ = sm.run_app("show Lab\nlayout @restored.json\nscreenshot @restored.png\n"
                            "lab exercise bounds_jkl\nlab check\nlayout @graded.json\nquit\n", env=environment(state))
        lab = load(out, "restored.json")["lab"]
        self.assertTrue(lab["restored"])
        self.assertIn(marker, lab["text"])
        self.assertIn("__global__ void matrixMulKernel", lab["text"])  # the example it was typed into
        # The exercise's starter has no boundary checks (bounds_jkl.exercise): right at 8x8x8, a
        # multiple of its TILE_WIDTH=4, wrong at 5x7x3; the progress file records a try, not a pass.
        graded = load(out, "graded.json")["lab"]
        items = {i["check"]: i["passed"] for i in graded["grade"]["items"]}
        self.assertFalse(graded["grade"]["passed"])
        self.assertTrue(items["correct at 8x8x8"], graded["grade"])
        self.assertFalse(items["correct at 5x7x3"], graded["grade"])
        self.assertEqual(graded["progress"], {"bounds_jkl": False})
        with open(os.path.join(state, "tilescope", "lab-progress")) as f:
            self.assertEqual(f.read().split(), ["bounds_jkl", "tried"])


if __name__ == "__main__":
    sm.take_flags()
    unittest.main(verbosity=2)
