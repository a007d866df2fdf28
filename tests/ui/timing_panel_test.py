#!/usr/bin/env python3
"""Script-mode tests of the Timing panel (README.md, "Timing in the app") on a machine without a GPU:
the panel shows the recorded H100 results. Each test runs `tilescope --script` (under CTest's
xvfb-run), then checks the `plots` entry of the layout JSON against assets/timings/h100.csv and
the screenshot's pixels at the points, lines and legend entries the layout reports.
Helpers (PNG decoding, running the app) come from script_mode_test.py; standard library only."""
import csv
import io
import json
import math
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_mode_test as sm  # noqa: E402

RECORDED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "timings", "h100.csv")
DEFAULT_SERIES = ["naive (32,32)", "naive (16,16)", "tiled T=16", "tiled T=32", "tiled-dynamic T=16",
                  "tiled-dynamic T=32", "cuBLAS SGEMM"]


def recorded_rows(path=RECORDED):
    with open(path) as f:
        text = "".join(line for line in f if not line.startswith("#"))
    return list(csv.DictReader(io.StringIO(text)))


def label(row):
    """TimingCase::label() of a CSV row."""
    if row["kind"] == "cublas":
        return "cuBLAS SGEMM"
    if row["kernel"] == "naive":
        return f"naive ({row['block_x']},{row['block_y']})"
    return f"{row['kernel']} T={row['tile']}"


def load_json(folder, name):
    with open(os.path.join(folder, name)) as f:
        return json.load(f)


def window(layout, name):
    return next(w for w in layout["windows"] if w["name"] == name)


def inside(rect, outer, slack=0.5):
    return (rect["x"] >= outer["x"] - slack and rect["y"] >= outer["y"] - slack and
            rect["x"] + rect["width"] <= outer["x"] + outer["width"] + slack and
            rect["y"] + rect["height"] <= outer["y"] + outer["height"] + slack)


def overlaps(a, b):
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and
            a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def run_timing(script, size="1280x720", env=None):
    folder, _ = sm.run_app(script, extra_args=("--size", size), env=env)
    return folder


def timing_plot(layout):
    plots = [p for p in layout["plots"] if p["name"] == "timing"]
    if len(plots) != 1:
        raise AssertionError(f"expected one timing plot, the layout has {[p['name'] for p in layout['plots']]}")
    return plots[0]


class RecordedPlot(unittest.TestCase):
    """The default view at 1280x720: GFLOP/s against N from the recorded H100 results."""

    @classmethod
    def setUpClass(cls):
        folder = run_timing("show Timing\nscreenshot @plot.png\nlayout @plot.json\n"
                            "timing page ladder\nframes 2\nlayout @ladder.json\nquit\n")
        cls.ladder = load_json(folder, "ladder.json")
        cls.layout = load_json(folder, "plot.json")
        cls.png = sm.Image(os.path.join(folder, "plot.png"))
        cls.plot = timing_plot(cls.layout)
        cls.series = {s["name"]: s for s in cls.plot["series"]}

    def test_labelled_as_recorded_with_device_and_date(self):
        self.assertEqual(self.plot["note"], "recorded: NVIDIA H100 80GB HBM3, 2026-11-21")

    def test_fits_the_center_window_without_overlapping_others(self):
        center = window(self.layout, "center")
        self.assertTrue(inside(self.plot, center), (self.plot, center))
        self.assertGreater(self.plot["width"], 300)
        self.assertGreater(self.plot["height"], 250)
        others = [w for w in self.layout["windows"] if w["name"] != "center"]
        self.assertTrue(others, "the side windows are in the layout")
        for w in others:
            self.assertFalse(overlaps(self.plot, w), w["name"])
        self.assertEqual(len(self.plot["series"]), len(DEFAULT_SERIES))
        for s in self.plot["series"]:
            self.assertTrue(inside(s["legend"], center), s["name"])

    def test_ladder_table_whole_in_the_normal_layout(self):
        # The recorded ladder at 1280x720: the rungs' tilings ("7  double-buffered
        # 128x256x16/64x64/8x16") pushed N = 8192's column past the panel; every column's text
        # now ends inside it, the N = 8192 column too.
        table = next(t for t in self.ladder["tables"] if t["name"] == "ladder")
        self.assertEqual(len(table["columns"]), 7, table)
        centre = window(self.ladder, "center")
        for c in table["columns"]:
            self.assertLessEqual(c["contentRight"], c["right"] + 1, table)
            self.assertLessEqual(c["contentRight"], centre["x"] + centre["width"], table)

    def test_shows_the_default_series_and_lists_the_rest_as_hidden(self):
        self.assertEqual([s["name"] for s in self.plot["series"]], DEFAULT_SERIES)
        every = {label(r) for r in recorded_rows()}
        self.assertEqual(set(self.plot["hidden"]) | set(DEFAULT_SERIES), every)
        self.assertIn("naive (64,4)", self.plot["hidden"])
        self.assertIn("tiled-bounds T=32", self.plot["hidden"])

    def test_points_are_the_recorded_verified_results(self):
        for name, s in self.series.items():
            want = sorted((int(r["j"]), float(r["gflops"])) for r in recorded_rows()
                          if label(r) == name and r["verified"] == "1")
            got = [(p["x"], p["y"]) for p in s["points"]]
            self.assertEqual(len(got), len(want), name)
            for (n, g), (gn, gg) in zip(want, got):
                self.assertEqual(gn, n, name)
                self.assertAlmostEqual(gg, g, delta=0.01, msg=name)
        self.assertEqual([p["x"] for p in self.series["cuBLAS SGEMM"]["points"]], [256, 512, 1024, 2048, 4096, 8192])

    def test_axes_are_logarithmic(self):
        pts = [p for s in self.plot["series"] for p in s["points"]]
        # Screen x is linear in log2 N, screen y in log10 GFLOP/s: fit from two points, predict all.
        a, b = min(pts, key=lambda p: p["x"]), max(pts, key=lambda p: p["x"])
        kx = (b["px"] - a["px"]) / math.log2(b["x"] / a["x"])
        lo, hi = min(pts, key=lambda p: p["y"]), max(pts, key=lambda p: p["y"])
        ky = (hi["py"] - lo["py"]) / math.log10(hi["y"] / lo["y"])
        self.assertGreater(kx, 0)
        self.assertLess(ky, 0)  # faster is higher on screen
        for p in pts:
            self.assertAlmostEqual(p["px"], a["px"] + kx * math.log2(p["x"] / a["x"]), delta=1.0)
            self.assertAlmostEqual(p["py"], lo["py"] + ky * math.log10(p["y"] / lo["y"]), delta=1.0)

    def test_markers_carry_their_series_colour(self):
        # Markers are drawn after every line, in series order: a marker shows its colour at its
        # centre unless a later series' marker (radius and halo under 9 px) lies on top of it.
        series = self.plot["series"]
        checked = {}
        for i, s in enumerate(series):
            colour = sm.hex_rgb(s["colour"])
            later = [q for t in series[i + 1:] for q in t["points"]]
            for p in s["points"]:
                if any(math.hypot(q["px"] - p["px"], q["py"] - p["py"]) < 9 for q in later):
                    continue
                got = self.png.pixel(round(p["px"]), round(p["py"]))
                self.assertTrue(sm.close(got, colour, 24), f"{s['name']} at N={p['x']}: {got}, want {colour}")
                checked[s["name"]] = checked.get(s["name"], 0) + 1
        self.assertEqual(set(checked), {s["name"] for s in series}, "every series checked somewhere")
        self.assertGreaterEqual(sum(checked.values()), 25)

    def test_series_colours_follow_the_theme(self):
        threads = self.layout["theme"]["threads"]
        self.assertEqual(self.series["naive (32,32)"]["colour"], threads[0])
        self.assertEqual(self.series["tiled T=16"]["colour"], threads[1])
        self.assertEqual(self.series["tiled-dynamic T=32"]["colour"], threads[3])
        self.assertEqual(self.series["cuBLAS SGEMM"]["colour"], self.layout["theme"]["text"])
        self.assertEqual(len({s["colour"] for s in self.plot["series"]}), 4)  # one per kernel

    def test_peak_ceiling_is_a_labelled_dashed_line(self):
        self.assertEqual(len(self.plot["lines"]), 1)
        peak = self.plot["lines"][0]
        self.assertEqual(peak["label"], "FP32 peak 66,908 GFLOP/s")
        self.assertAlmostEqual(peak["y"], 66908.2, delta=0.1)
        self.assertEqual(peak["colour"], self.layout["theme"]["highlight"])
        colour = sm.hex_rgb(peak["colour"])
        row = round(peak["py"])
        xs = range(int(self.plot["x"]) + 2, int(self.plot["x"] + self.plot["width"] * 0.5))
        on = [x for x in xs if sm.close(self.png.pixel(x, row), colour, 30)]
        self.assertGreater(len(on), len(xs) * 0.35, "dashes along the line")
        self.assertLess(len(on), len(xs) * 0.85, "gaps between the dashes")
        # Above the whole cuBLAS curve: the ceiling no kernel reaches.
        self.assertEqual(len(self.series["cuBLAS SGEMM"]["points"]), 6)  # N = 256 .. 8192
        for p in self.series["cuBLAS SGEMM"]["points"]:
            self.assertGreater(p["py"], peak["py"])

    def test_legend_entries_show_their_colour(self):
        self.assertEqual(len(self.plot["series"]), len(DEFAULT_SERIES))
        for s in self.plot["series"]:
            lg, colour = s["legend"], sm.hex_rgb(s["colour"])
            found = any(sm.close(self.png.pixel(x, round(lg["y"] + lg["height"] / 2)), colour, 24)
                        for x in range(int(lg["x"]), int(lg["x"] + lg["width"] * 0.3)))
            self.assertTrue(found, s["name"])


class RecordedTable(unittest.TestCase):
    def test_block_shape_table_replaces_the_plot(self):
        folder = run_timing("show Timing\ntiming page table\nscreenshot @table.png\nlayout @table.json\nquit\n")
        layout = load_json(folder, "table.json")
        self.assertEqual(layout["plots"], [])
        png = sm.Image(os.path.join(folder, "table.png"))
        center = window(layout, "center")
        threads = [sm.hex_rgb(t) for t in layout["theme"]["threads"]]

        def count(colour):
            n = 0
            for y in range(int(center["y"]), int(center["y"] + center["height"]), 2):
                for x in range(int(center["x"]), int(center["x"] + center["width"]), 2):
                    n += sm.close(png.pixel(x, y), colour, 10)
            return n
        # Bars and labels: naive (six shapes) in kernel colour 0, tiled (T = 8, 16, 32) in colour 1.
        self.assertGreater(count(threads[0]), 100)
        self.assertGreater(count(threads[1]), 100)


class Presentation(unittest.TestCase):
    def test_plot_stays_inside_the_window_with_large_text(self):
        for size in ("1280x720", "1920x1080"):
            folder = run_timing("set presentation on\nshow Timing\nlayout @p.json\nquit\n", size=size)
            layout = load_json(folder, "p.json")
            self.assertTrue(layout["presentation"])
            plot = timing_plot(layout)
            center = window(layout, "center")
            self.assertTrue(inside(plot, center), (size, plot, center))
            self.assertGreater(plot["height"], 150, size)  # the data and both axes are in view
            self.assertEqual([s["name"] for s in plot["series"]], DEFAULT_SERIES)
            legends = [s["legend"] for s in plot["series"]]
            for i, a in enumerate(legends):
                for b in legends[i + 1:]:
                    self.assertFalse(overlaps(a, b), size)
            if size == "1920x1080":  # room for everything, legend included (at 1280x720 it scrolls)
                for lg in legends:
                    self.assertTrue(inside(lg, center), lg)


class RecordedFile(unittest.TestCase):
    """The panel plots only what the file says was verified, and says when there is nothing."""

    def test_unverified_results_are_not_plotted(self):
        with open(RECORDED) as f:
            lines = f.read().splitlines()
        # cuBLAS at 8192 and tiled T=32 at 1024 now failed verification.
        for i, line in enumerate(lines):
            if line.startswith("cublas,cublas,8192,") or line.startswith("kernel,tiled,1024,1024,1024,32,"):
                f = line.split(",")
                f[8] = "0"
                lines[i] = ",".join(f)
        path = os.path.join(tempfile.mkdtemp(prefix="tilescope-timing-"), "some.csv")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        env = dict(os.environ, TILESCOPE_TIMINGS=path)
        folder = run_timing("show Timing\nlayout @l.json\nquit\n", env=env)
        plot = timing_plot(load_json(folder, "l.json"))
        series = {s["name"]: s for s in plot["series"]}
        self.assertEqual([p["x"] for p in series["cuBLAS SGEMM"]["points"]], [256, 512, 1024, 2048, 4096])
        self.assertEqual([p["x"] for p in series["tiled T=32"]["points"]], [256, 512, 2048, 4096, 8192])

    def test_missing_file_means_no_plot_and_no_failure(self):
        env = dict(os.environ, TILESCOPE_TIMINGS="/nonexistent/timings.csv")
        folder = run_timing("show Timing\nlayout @l.json\nquit\n", env=env)
        self.assertEqual(load_json(folder, "l.json")["plots"], [])


LADDER_FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "timings",
                              "ladder-fixture.csv")


def plot_named(layout, name):
    plots = [p for p in layout["plots"] if p["name"] == name]
    if len(plots) != 1:
        raise AssertionError(f"expected one {name} plot, the layout has {[p['name'] for p in layout['plots']]}")
    return plots[0]


class Ladder(unittest.TestCase):
    """The ladder page: every rung next to cuBLAS with its percentage of cuBLAS at the same N.
    The recorded ladder here is tests/fixtures/timings/ladder-fixture.csv, a FIXTURE of
    invented round numbers (not a measurement): tiled T=32 at 50 % of cuBLAS at N = 256."""

    def test_ladder_from_the_recorded_ladder_file(self):
        env = dict(os.environ, TILESCOPE_LADDER_TIMINGS=LADDER_FIXTURE)
        folder = run_timing("show Timing\ntiming page ladder\nscreenshot @l.png\nlayout @l.json\nquit\n", env=env)
        plot = plot_named(load_json(folder, "l.json"), "ladder")
        self.assertEqual(plot["note"], "recorded: FIXTURE GPU (not a measurement), 2000-01-01")
        self.assertEqual([s["name"] for s in plot["series"]], ["1  tiled T=32", "cuBLAS SGEMM"])
        tiled, cublas = plot["series"]
        # Failed verification: tiled at 1024 and cuBLAS at 8192 are not plotted.
        self.assertEqual([p["x"] for p in tiled["points"]], [256, 512, 2048, 4096, 8192])
        self.assertEqual([p["x"] for p in cublas["points"]], [256, 512, 1024, 2048, 4096])
        want = {256: "50.0 %", 512: "25.0 %", 2048: "25.0 %", 4096: "25.0 %", 8192: None}
        for p in tiled["points"]:
            if want[p["x"]]:
                self.assertIn(want[p["x"]] + " of cuBLAS SGEMM at N = " + str(p["x"]), p["detail"])
            else:  # no verified cuBLAS at 8192 in that run: no percentage
                self.assertNotIn("of cuBLAS", p["detail"])
        png = sm.Image(os.path.join(folder, "l.png"))
        colour = sm.hex_rgb(tiled["colour"])
        p = tiled["points"][0]
        self.assertTrue(sm.close(png.pixel(round(p["px"]), round(p["py"])), colour, 24))

    def test_without_a_ladder_file_rung_one_comes_from_the_recorded_results(self):
        env = dict(os.environ, TILESCOPE_LADDER_TIMINGS="/nonexistent/ladder.csv")
        folder = run_timing("show Timing\ntiming page ladder\nlayout @l.json\nquit\n", env=env)
        plot = plot_named(load_json(folder, "l.json"), "ladder")
        self.assertEqual(plot["note"], "recorded: NVIDIA H100 80GB HBM3, 2026-11-21")
        tiled = next(s for s in plot["series"] if s["name"] == "1  tiled T=32")
        rows = {(label(r), int(r["j"])): float(r["gflops"]) for r in recorded_rows() if r["verified"] == "1"}
        self.assertEqual([p["x"] for p in tiled["points"]], [256, 512, 1024, 2048, 4096, 8192])
        for p in tiled["points"]:
            pct = 100 * rows[("tiled T=32", p["x"])] / rows[("cuBLAS SGEMM", p["x"])]
            self.assertIn(f"{pct:.1f} % of cuBLAS", p["detail"])


class Roofline(unittest.TestCase):
    """The Roofline tab from the recorded H100 results: log-log decades, the profile's roofs and
    the recorded device's measured ones, one point per kernel at its traced OP/B."""

    @classmethod
    def setUpClass(cls):
        env = dict(os.environ, TILESCOPE_LADDER_TIMINGS="/nonexistent/ladder.csv")
        # The naive kernel's run: its 0.25 OP/B roof (837 GFLOP/s on the h100) lies under the
        # recorded points' lowest decade.
        folder = run_timing("set kernel naive\nshow Roofline\nwait\nframes 3\nscreenshot @r.png\nlayout @r.json\nquit\n",
                            env=env)
        cls.layout = load_json(folder, "r.json")
        cls.png = sm.Image(os.path.join(folder, "r.png"))
        cls.plot = plot_named(cls.layout, "roofline")
        cls.series = {s["name"]: s for s in cls.plot["series"]}

    def test_points_sit_at_the_chapters_intensities_and_the_measured_rates(self):
        rows = recorded_rows()
        # The chapter: naive 0.25 OP/B whatever its block; fig. 5.9 T/4.
        want_x = {"naive (32,32)": 0.25, "naive (16,16)": 0.25, "tiled T=16": 4, "tiled T=32": 8,
                  "tiled-dynamic T=16": 4, "tiled-dynamic T=32": 8}
        self.assertEqual(set(self.series), set(want_x))
        for name, x in want_x.items():
            (p,) = self.series[name]["points"]
            self.assertEqual(p["x"], x, name)
            largest = max((r for r in rows if label(r) == name and r["verified"] == "1"), key=lambda r: int(r["j"]))
            self.assertAlmostEqual(p["y"], float(largest["gflops"]), delta=0.01, msg=name)
            self.assertIn("at N = " + format(int(largest["j"]), ","), p["detail"])
            self.assertIn("recorded: NVIDIA H100 80GB HBM3", p["detail"])
        self.assertIn("Memory-bound", self.series["tiled T=32"]["points"][0]["detail"])
        self.assertIn("Above the memory roof", self.series["naive (32,32)"]["points"][0]["detail"])

    def test_log_log_axes_in_whole_decades(self):
        r = self.plot["range"]
        for v in (r["x_lo"], r["x_hi"], r["y_lo"], r["y_hi"]):
            self.assertAlmostEqual(math.log10(v), round(math.log10(v)), places=9)
        pts = [p for s in self.plot["series"] for p in s["points"]]
        a, b = min(pts, key=lambda p: p["x"]), max(pts, key=lambda p: p["x"])
        kx = (b["px"] - a["px"]) / math.log10(b["x"] / a["x"])
        for p in pts:
            self.assertAlmostEqual(p["px"], a["px"] + kx * math.log10(p["x"] / a["x"]), delta=1.0)

    def test_roofs_of_the_profile_and_of_the_recorded_device(self):
        paths = {p["label"]: p for p in self.plot["paths"]}
        prof = paths["h100 roofs"]
        # Up the memory roof to the ridge, then flat at the peak: NVIDIA's SXM5 datasheet figures.
        self.assertEqual([q["x"] for q in prof["points"]], [self.plot["range"]["x_lo"], 67000 / 3350,
                                                             self.plot["range"]["x_hi"]])
        for q in prof["points"]:
            self.assertAlmostEqual(q["y"], min(67000, 3350 * q["x"]), delta=1e-6)
        dev = paths["NVIDIA H100 80GB HBM3 (measured)"]
        ridge = dev["points"][1]
        self.assertAlmostEqual(ridge["x"], 66908.2 / 2956.9, places=3)  # the CSV's peak / copy bandwidth
        self.assertAlmostEqual(ridge["y"], 66908.2, places=1)
        # The solid roof is drawn: the theme's highlight along the flat part (the measured roof's
        # dashes lie on it in places).
        a, b = prof["points"][-2], prof["points"][-1]
        colour = sm.hex_rgb(self.layout["theme"]["highlight"])
        xs = range(round(a["px"]) + 4, round(b["px"]) - 4)
        on = [x for x in xs if any(sm.close(self.png.pixel(x, round(a["py"]) + d), colour, 30) for d in (-1, 0, 1))]
        self.assertGreater(len(on), len(xs) * 0.3)
        self.assertTrue(any(line["label"].startswith("cuBLAS SGEMM 51,633") for line in self.plot["lines"]))

    def test_a_kernel_without_phases_counts_none(self):
        # The naive kernel has no tiles: the timeline's footer said "(phases done 0 of 0)".
        footer = [t["text"] for t in self.layout["texts"] if t["panel"] == "Timeline" and t["text"].startswith("step ")]
        self.assertEqual(len(footer), 1, footer)
        self.assertNotIn("phases done", footer[0])

    def test_reference_labels_lie_inside_the_data(self):
        # At 1280x720 the chart is about 270 px wide: the long cuBLAS label ran across the legend.
        p = self.plot
        (line,) = p["lines"]
        self.assertTrue(line["drawn"].startswith("cuBLAS") and "51,633" in line["drawn"], line)
        self.assertGreaterEqual(line["lx"], p["x"], line)
        self.assertLessEqual(line["lx"] + line["lwidth"], p["x"] + p["width"], (line, p["x"], p["width"]))

    def test_this_runs_line_reaches_its_roof_on_the_chart(self):
        # Naive at 0.25 OP/B: min(67000, 3350 x 0.25) = 837.5 GFLOP/s, the top of its line.
        run = next(q for q in self.plot["paths"] if q["label"] == "this run")
        top = max(run["points"], key=lambda q: q["y"])
        self.assertEqual(top["x"], 0.25)
        self.assertAlmostEqual(top["y"], 837.5, places=3)
        self.assertGreaterEqual(top["y"], self.plot["range"]["y_lo"], self.plot["range"])


class Script(unittest.TestCase):
    def test_a_sweep_without_a_gpu_is_refused_not_fatal(self):
        folder = run_timing("show Timing\ntiming sweep live\ntiming wait\nlayout @l.json\nquit\n")
        self.assertEqual(timing_plot(load_json(folder, "l.json"))["note"], "recorded: NVIDIA H100 80GB HBM3, 2026-11-21")

    def test_bad_timing_command_names_the_line(self):
        _, proc = sm.run_app("show Timing\ntiming page graph\n", expect_rc=2)
        self.assertRegex(proc.stderr, r"test\.script:2: usage: timing page plot\|table")


if __name__ == "__main__":
    sm.take_flags()
    unittest.main(verbosity=2)
