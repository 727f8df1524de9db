"""Unit tests of the benchmark harness's pure parts: hyperfine rounds merged into medians, ratios,
the parsers of wrk's RESULT line and of /proc, the settings, the section names, the report's
tables, the weight section's bench set (bench/art.py's layout), the fixed format of an auto pick, the process
floor's job spec (manifest renders into bench/floor-process.c's lines, their saver settings read
from the encoding lines) and its ratios, the rewrite of
docs/performance.md's marked blocks, and the reading of outputs through schemas/ (jsonschema: run
it with the project venv's Python). No process is started.

    .build/venv/bin/python bench/tests/test_harness.py     (scripts/test.sh runs it)"""
import json
import os
import struct
import sys
import unittest

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, BENCH)
import art  # noqa: E402
from harness import docs, report, settings, stats  # noqa: E402
from harness.errors import BenchError  # noqa: E402
from harness.sections import DEFAULT, resolve, weight  # noqa: E402
from harness.sections.autocost import fixed_options  # noqa: E402
from harness.sections.bytes_ import parse_ssim_line  # noqa: E402
from harness.sections.memory import schedule  # noqa: E402
from harness.sections import process as process_section  # noqa: E402


def hyperfine_result(command, times, user, system):
    return {"command": command, "times": times, "user": user, "system": system}


def command(name, median, cpu, rss=20.0):
    return {"name": name, "command": name, "runs": 3, "median_ms": median, "mean_ms": median, "stddev_ms": 1.0,
            "min_ms": median - 1, "cpu_ms": cpu, "peak_rss_mib": rss, "times_ms": [median] * 3}


def comparison(*commands):
    return {"section": "x", "rounds": 1, "runs": 3, "warmup": 1, "rss_runs": 1, "commands": list(commands)}


INPUT = {"name": "artwork.png", "width": 2184, "height": 270, "bands": 3, "bytes": 12345}


class MergeRoundsTests(unittest.TestCase):
    def test_median_and_mean_are_over_every_run_of_every_round(self):
        rounds = [[hyperfine_result("a", [0.010, 0.030], 0.004, 0.001), hyperfine_result("b", [0.100, 0.100], 0.05, 0.0)],
                  [hyperfine_result("a", [0.020], 0.010, 0.002), hyperfine_result("b", [0.400], 0.2, 0.1)]]
        a, b = stats.merge_rounds(rounds)
        self.assertEqual(a["name"], "a")
        self.assertEqual(a["runs"], 3)
        self.assertAlmostEqual(a["median_ms"], 20.0)
        self.assertAlmostEqual(a["mean_ms"], 20.0)
        self.assertAlmostEqual(a["min_ms"], 10.0)
        self.assertAlmostEqual(a["stddev_ms"], 10.0)
        # CPU: each round's mean weighted by its runs: (5 ms x 2 + 12 ms x 1) / 3.
        self.assertAlmostEqual(a["cpu_ms"], (5.0 * 2 + 12.0) / 3)
        self.assertAlmostEqual(b["median_ms"], 100.0)
        self.assertAlmostEqual(b["cpu_ms"], (50.0 * 2 + 300.0) / 3)
        self.assertEqual(b["times_ms"], [100.0, 100.0, 400.0])

    def test_rounds_of_other_commands_are_refused(self):
        with self.assertRaisesRegex(ValueError, "other commands"):
            stats.merge_rounds([[hyperfine_result("a", [1], 0, 0)], [hyperfine_result("b", [1], 0, 0)]])
        with self.assertRaisesRegex(ValueError, "different commands"):
            stats.merge_rounds([[hyperfine_result("a", [1], 0, 0)], []])
        with self.assertRaisesRegex(ValueError, "no hyperfine rounds"):
            stats.merge_rounds([])


class RatioAndPercentileTests(unittest.TestCase):
    def test_ratio(self):
        self.assertAlmostEqual(stats.ratio(41.0, 100.0), 0.41)
        self.assertIsNone(stats.ratio(1.0, 0.0))
        self.assertIsNone(stats.ratio(None, 2.0))

    def test_percentile_is_nearest_rank(self):
        values = list(range(1, 101))
        self.assertEqual(stats.percentile(values, 0.5), 51)
        self.assertEqual(stats.percentile(values, 0.99), 99)
        self.assertEqual(stats.percentile([7], 0.99), 7)
        with self.assertRaises(ValueError):
            stats.percentile([], 0.5)


class ParserTests(unittest.TestCase):
    def test_wrk_result_line(self):
        output = ("Running 10s test\nRESULT requests=620 seconds=10.0 rps=62.0 p50_ms=60.1 p90_ms=80.0 p99_ms=120.5 "
                  "max_ms=200.0 non2xx=2 socket_errors=0 bytes=15500000\n")
        result = stats.parse_wrk_result(output)
        self.assertEqual(result["requests"], 620)
        self.assertIsInstance(result["requests"], int)
        self.assertEqual(result["rps"], 62.0)
        self.assertEqual(result["p99_ms"], 120.5)
        self.assertEqual(result["non2xx"], 2)
        with self.assertRaisesRegex(ValueError, "no RESULT line"):
            stats.parse_wrk_result("wrk: connection refused\n")

    def test_proc_stat_with_spaces_and_parentheses_in_the_name(self):
        line = "4242 (creative (tool) x) S 1 4242 4242 0 -1 4194560 500 0 0 0 173 29 0 0 20 0 5 0 100 0 0"
        self.assertEqual(stats.cpu_ticks(line), 173 + 29)

    def test_proc_status_fields(self):
        text = "Name:\tcreative-tool\nVmHWM:\t  135880 kB\nVmRSS:\t   86016 kB\n"
        self.assertEqual(stats.status_kib(text, "VmHWM"), 135880)
        self.assertEqual(stats.status_kib(text, "VmRSS"), 86016)
        with self.assertRaises(ValueError):
            stats.status_kib(text, "VmSwap")

    def test_ssim_line(self):
        self.assertEqual(parse_ssim_line("25219\tPNG RGB + tRNS\t1.0000"), ((25219, "PNG RGB + tRNS"), 1.0))


class SettingsTests(unittest.TestCase):
    def test_defaults_are_the_full_run(self):
        read = settings.read({})
        self.assertFalse(read["quick"])
        self.assertEqual((read["runs"], read["warmup"], read["rounds"], read["rss_runs"]), (30, 3, 5, 5))
        self.assertEqual(read["serve_connections"], [4, 16])
        self.assertEqual(read["process_inputs"], ["flat", "artwork-960", "photo-jpeg", "gradient-jpeg", "text",
                                                  "interstitial"])
        self.assertEqual(settings.read({"BENCH_QUICK": "1"})["process_inputs"], ["artwork-960", "text"])
        self.assertEqual(read["validate_files"], 200)

    def test_quick_lowers_the_counts_and_an_explicit_variable_wins(self):
        read = settings.read({"BENCH_QUICK": "1", "BENCH_RUNS": "7"})
        self.assertTrue(read["quick"])
        self.assertEqual(read["runs"], 7)
        self.assertEqual(read["rounds"], 1)
        self.assertEqual(read["serve_seconds"], 2)

    def test_rounds_never_exceed_runs_and_bad_values_are_named(self):
        self.assertEqual(settings.read({"BENCH_RUNS": "2", "BENCH_ROUNDS": "5"})["rounds"], 2)
        with self.assertRaisesRegex(settings.SettingsError, "BENCH_RUNS='many'"):
            settings.read({"BENCH_RUNS": "many"})
        with self.assertRaisesRegex(settings.SettingsError, "BENCH_SERVE_CONNECTIONS"):
            settings.read({"BENCH_SERVE_CONNECTIONS": "4 lots"})
        with self.assertRaisesRegex(settings.SettingsError, "at least 1"):
            settings.read({"BENCH_RUNS": "0"})


class TryItTableTests(unittest.TestCase):
    def test_the_try_it_rows_give_times_and_every_status_counted(self):
        rows = {"alone": {"runs": 2, "uploads_beside": 0, "median_s": 1.234, "max_s": 1.5, "times_s": [1.0, 1.5],
                          "page_statuses": [200, 200, 200, 200], "other_statuses": []},
                "beside": {"runs": 2, "uploads_beside": 3, "median_s": 2.5, "max_s": 3.9, "times_s": [2.0, 3.9],
                           "page_statuses": [200, 200, 200, 503], "other_statuses": [200] * 5 + ["timeout"]}}
        text = report.tryit_table(rows)
        self.assertIn("| alone | 0 | 2 | 1.23 | 1.50 | 200 x4 | none |", text)
        self.assertIn("| beside | 3 | 2 | 2.50 | 3.90 | 200 x3, 503 x1 | 200 x5, timeout x1 |", text)
        self.assertEqual(settings.read({})["serve_tryit_runs"], 5)


class SectionNameTests(unittest.TestCase):
    def test_groups_expand_in_order_once(self):
        self.assertEqual(resolve(["startup", "peers"]), ["startup", "render", "bytes", "validate", "process"])
        self.assertEqual(resolve(["all"]), DEFAULT)
        self.assertEqual(resolve(["render", "render"]), ["render"])
        self.assertNotIn("memory", DEFAULT)
        with self.assertRaisesRegex(ValueError, "no section 'rendr'"):
            resolve(["rendr"])

    def test_memory_schedule_cycles_connections_inputs_and_formats(self):
        runs = schedule(600, 60)
        self.assertEqual(len(runs), 10)
        self.assertEqual(runs[0], (4, "artwork.png", "png"))
        self.assertEqual(runs[1], (8, "artwork.png", "auto"))
        self.assertEqual(runs[3], (4, "photo.png", "auto"))
        self.assertEqual(runs[9], (4, "artwork.png", "auto"))
        self.assertEqual(len(schedule(25, 10)), 3)


class AutoCostTests(unittest.TestCase):
    def test_each_pick_maps_to_the_fixed_format_it_is(self):
        self.assertEqual(fixed_options("WebP quality 94 (auto: SSIM luma 0.981, chroma 0.993)"),
                         (["--format", "webp", "--quality", "94", "--effort", "2"], "WebP quality 94, effort 2"))
        self.assertEqual(fixed_options("JPEG quality 82, 4:4:4 (auto: ...)")[0], ["--format", "jpeg", "--quality", "82"])
        self.assertEqual(fixed_options("WebP near-lossless 40 (auto: ...)"), (["--format", "webp", "--lossless", "--weight-budget", "1G"], "WebP lossless"))
        self.assertEqual(fixed_options("PNG, palette of at most 64 colours (auto: ...)")[0], ["--format", "png"])
        with self.assertRaises(BenchError):
            fixed_options("AVIF quality 50")


def manifest_render(file, fmt, encoding, canvas, content, position):
    """One render of a process manifest, as much of it as the floor's spec reads."""
    return {"file": file, "format": fmt, "encoding": encoding,
            "slot_pixels": {"width": canvas[0], "height": canvas[1]},
            "content_pixels": {"width": content[0], "height": content[1]},
            "content_position_pixels": {"x": position[0], "y": position[1]}}


class ProcessFloorTests(unittest.TestCase):
    settings = staticmethod(process_section.encoding_settings)

    def test_auto_webp_is_written_at_effort_2_with_the_sharp_conversion_unless_the_line_says_plain(self):
        self.assertEqual(self.settings("webp", "WebP quality 40 (auto: SSIM luma 0.997, chroma 0.971)"),
                         {"Q": 40, "effort": 2, "smart": 1})
        self.assertEqual(self.settings("webp", "WebP quality 97 (auto: decided on a 666x375 render, SSIM 0.984)"),
                         {"Q": 97, "effort": 2, "smart": 1})
        self.assertEqual(self.settings("webp", "WebP quality 93 (auto, as decided on the smallest render) (plain RGB "
                                               "to YUV: the sharp conversion is over the memory budget)"),
                         {"Q": 93, "effort": 2, "smart": 0})

    def test_fixed_and_budget_fitted_webp_is_written_at_libvips_default_effort(self):
        self.assertEqual(self.settings("webp", "WebP quality 85"), {"Q": 85, "effort": 4, "smart": 1})
        self.assertEqual(self.settings("webp", "WebP quality 70, effort 6"), {"Q": 70, "effort": 6, "smart": 1})
        # Fitted to the weight budget inside an auto job: the fixed format's encoder, not auto's.
        self.assertEqual(self.settings("webp", "WebP quality 94 (the best that fits the weight budget of 153600 "
                                               "bytes) (plain RGB to YUV: the sharp conversion is over the memory "
                                               "budget)"), {"Q": 94, "effort": 4, "smart": 0})
        self.assertEqual(self.settings("webp", "WebP lossless, effort 5"), {"lossless": 1, "effort": 5})
        self.assertEqual(self.settings("webp", "WebP near-lossless 60 (auto: SSIM luma 0.999, chroma 0.998)"),
                         {"near": 1, "Q": 60, "effort": 4})

    def test_jpeg_keeps_full_chroma_only_when_the_line_says_so(self):
        self.assertEqual(self.settings("jpeg", "JPEG quality 85"), {"Q": 85, "chroma": 420})
        self.assertEqual(self.settings("jpeg", "JPEG quality 82, 4:4:4 (auto: SSIM luma 0.990, chroma 0.980)"),
                         {"Q": 82, "chroma": 444})
        self.assertEqual(self.settings("jpeg", "JPEG quality 61 (the best that fits the weight budget of 153600 "
                                               "bytes)"), {"Q": 61, "chroma": 420})

    def test_avif_is_eight_bit_at_effort_1(self):
        self.assertEqual(self.settings("avif", "AVIF quality 55 (auto: SSIM luma 0.980, chroma 0.990)"),
                         {"Q": 55, "effort": 1})

    def test_a_palette_takes_its_bit_depth_from_its_colours_and_its_quality_from_who_chose_it(self):
        common = {"palette": 1, "dither": 0, "effort": 3, "compression": 4}
        self.assertEqual(self.settings("png", "PNG, palette of at most 256 colours (auto: SSIM luma 1.000, chroma "
                                              "1.000)"), dict(common, bitdepth=8, Q=90))
        self.assertEqual(self.settings("png", "PNG, palette of at most 16 colours (the best that fits the weight "
                                              "budget of 153600 bytes)"), dict(common, bitdepth=4, Q=60))
        self.assertEqual(self.settings("png", "PNG, palette of 14 colours"), dict(common, bitdepth=4, Q=100))
        self.assertEqual(self.settings("png", "PNG, palette of 3 colours")["bitdepth"], 2)
        self.assertEqual(self.settings("png", "PNG, palette of 2 colours")["bitdepth"], 1)
        self.assertEqual(self.settings("png", "PNG, palette of up to 256 colours (libimagequant quality 70)"),
                         dict(common, bitdepth=8, Q=70))

    def test_lossless_png_is_plain_unless_paeth_filtered(self):
        for line in ("PNG, RGB", "PNG, RGBA", "PNG, RGB, transparent key", "PNG, lossless"):
            self.assertEqual(self.settings("png", line), {"compression": 4, "filter": "none"}, line)
        self.assertEqual(self.settings("png", "PNG, RGBA, Paeth-filtered for the weight budget")["filter"], "paeth")
        self.assertEqual(self.settings("png", "PNG, RGB (streamed)")["filter"], "paeth")

    def test_a_line_it_cannot_read_is_refused(self):
        for fmt, line in [("webp", "PNG, RGB"), ("gif", "GIF, 256 colours"), ("jpeg", "JPEG at its best"),
                          ("png", None), ("avif", "WebP quality 40")]:
            with self.assertRaises(ValueError, msg=line):
                self.settings(fmt, line)

    def test_renders_of_one_placement_and_settings_share_a_line_and_the_rest_do_not(self):
        renders = [
            manifest_render("a.webp", "webp", "WebP quality 40 (auto: SSIM luma 0.997, chroma 0.971)", (1170, 180),
                            (1152, 180), (9, 0)),
            manifest_render("b.jpg", "jpeg", "JPEG quality 85", (640, 100), (640, 79), (0, 10)),
            # The same placement and settings as a.webp, another SSIM in its line: the same bytes.
            manifest_render("c.webp", "webp", "WebP quality 40 (auto: decided on a 1170x180 render, SSIM 0.995)",
                            (1170, 180), (1152, 180), (9, 0)),
            # The same canvas and content, placed elsewhere.
            manifest_render("d.webp", "webp", "WebP quality 40 (auto: ...)", (1170, 180), (1152, 180), (0, 0)),
            dict(manifest_render("e.webp", "webp", None, (640, 100), (640, 100), (0, 0)), file=None),
        ]
        self.assertEqual(process_section.spec_lines(renders), [
            "a.webp,c.webp 1170 180 1152 180 9 0 transparent webp Q=40 effort=2 smart=1",
            "b.jpg 640 100 640 79 0 10 white jpeg Q=85 chroma=420",
            "d.webp 1170 180 1152 180 0 0 transparent webp Q=40 effort=2 smart=1",
        ])
        with self.assertRaisesRegex(ValueError, "comma"):
            process_section.spec_lines([manifest_render("a,b.webp", "webp", "WebP quality 40", (2, 2), (1, 1), (0, 0))])

    def test_the_floor_figures_are_cpu_over_the_floors_wall_over_cpu_and_bytes_over_the_floors(self):
        result = comparison(command("creative-tool", 3000.0, 4000.0), command("creative-tool --format webp", 1500.0, 1500.0),
                            command(process_section.SIDE_BY_SIDE, 2400.0, 4000.0),
                            command(process_section.FLOOR, 1100.0, 1000.0))
        figures = process_section.floor_figures(result, 150000, 160000)
        self.assertAlmostEqual(figures["cpu_over_floor"], 4.0)
        self.assertAlmostEqual(figures["wall_over_cpu"], 0.75)
        self.assertAlmostEqual(figures["wide_wall_over_cpu"], 0.6)
        self.assertAlmostEqual(figures["bytes_over_floor"], 0.9375)
        without = process_section.floor_figures(comparison(command("creative-tool", 3000.0, 4000.0)), 1, 0)
        self.assertIsNone(without["cpu_over_floor"])
        self.assertIsNone(without["bytes_over_floor"])
        self.assertIsNone(without["wide_wall_over_cpu"])

    def test_the_floor_table_gives_each_contents_ratios(self):
        entry = {"key": "photo-jpeg", "label": "photograph (JPEG q92)", "input": dict(INPUT, name="photo.jpg"),
                 "options": [], "renders": 28, "distinct_renders": 27, "formats": ["webp"], "render_bytes": 1215340,
                 "floor_bytes": 1257846, "identical_files": 26, "sheet_bytes": 7396645,
                 "comparison": comparison(command("creative-tool", 3000.0, 4000.0),
                                          command(process_section.FLOOR, 1100.0, 1000.0),
                                          command("ImageMagick x 28, WebP quality 85", 2000.0, 2000.0))}
        entry["floor"] = process_section.floor_figures(entry["comparison"], 1215340, 1257846)
        text = report.process({"inputs": [entry]})
        self.assertIn("| photograph (JPEG q92) | 28 (27 distinct) | webp | 4000 ms | 1000 ms | 4.00× | 0.75 | n/a | "
                      "1,215,340 | 1,257,846 | 0.966 | 26 of 28 | 7,396,645 |", text)
        summary = report.summary({"sections": {"process": {"inputs": [entry]}}})
        self.assertIn("against its C floor", summary)
        self.assertIn("against ImageMagick writing WebP", summary, "a photograph is held to the WebP goal")
        entry["key"] = "text"
        self.assertNotIn("against ImageMagick writing WebP", report.summary({"sections": {"process": {"inputs": [entry]}}}))

    def test_a_line_is_tried_first_as_read_then_with_the_settings_its_encoding_line_may_leave_unsaid(self):
        webp = "a.webp,b.webp 1170 180 1152 180 9 0 transparent webp Q=40 effort=2 smart=1"
        self.assertEqual(process_section.variants(webp), [
            webp,
            "a.webp,b.webp 1170 180 1152 180 9 0 transparent webp Q=40 effort=2 smart=0",
            "a.webp,b.webp 1170 180 1152 180 9 0 transparent webp Q=40 effort=4 smart=1",
            "a.webp,b.webp 1170 180 1152 180 9 0 transparent webp Q=40 effort=4 smart=0",
        ])
        palette = "t.png 640 100 640 79 0 10 transparent png Q=90 bitdepth=8 compression=4 dither=0 effort=3 palette=1"
        tried = process_section.variants(palette)
        self.assertEqual(tried[0], palette)
        self.assertEqual([line.split()[9] for line in tried], ["Q=90", "Q=100", "Q=80", "Q=60", "Q=50"])
        self.assertTrue(all(line.split()[10:] == palette.split()[10:] for line in tried), "only the quality changes")
        # Nothing is unsaid of a JPEG, a lossless PNG or a lossless WebP.
        for line in ("j.jpg 640 100 640 79 0 10 white jpeg Q=85 chroma=420",
                     "p.png 640 100 640 79 0 10 transparent png compression=4 filter=none",
                     "w.webp 640 100 640 79 0 10 transparent webp effort=5 lossless=1"):
            self.assertEqual(process_section.variants(line), [line])
        self.assertEqual(process_section.files_of(webp), ["a.webp", "b.webp"])

    def test_every_content_key_is_known_and_quick_mode_asks_for_known_ones(self):
        self.assertEqual(len(set(process_section.KEYS)), len(process_section.CONTENTS))
        for key in settings.read({})["process_inputs"] + settings.read({"BENCH_QUICK": "1"})["process_inputs"]:
            self.assertIn(key, process_section.KEYS)
        self.assertEqual(process_section.palette_bits(256), 8)
        self.assertEqual(process_section.palette_bits(17), 8)
        self.assertEqual(process_section.palette_bits(16), 4)


class ReportTests(unittest.TestCase):
    def results(self):
        render = comparison(command("creative-tool", 80.0, 32.0), command("creative-tool, system libvips", 240.0, 60.0),
                            command("C floor (bench/floor.c), same libvips", 90.0, 28.0),
                            command("ImageMagick", 200.0, 64.0))
        return {"versions": {"creative-tool": "0.1.0"}, "settings": settings.read({"BENCH_QUICK": "1"}),
                "machine": {"cores": 2, "cpu": "cpu", "kernel": "Linux", "load_start": "1 2 3", "load_end": "3 2 1"},
                "started": "2026-12-01T20:00:00Z",
                "sections": {"render": {"inputs": [{"input": INPUT, "width": 1170, "height": 183, "outputs": [],
                                                    "comparison": render}]}}}

    def test_comparison_table_ratios_are_against_the_first_command(self):
        text = report.comparison(comparison(command("creative-tool", 80.0, 32.0), command("ImageMagick", 200.0, 64.0)))
        lines = text.splitlines()
        self.assertEqual(lines[0].split(" | ")[4], "tool / creative-tool")
        self.assertIn("| creative-tool | 80.0 | 80.0 ± 1.0 | 79.0 | 1.00× | 1.00× | 32.0 | 1.00× | 20.0 |", text)
        self.assertIn("| ImageMagick | 200.0 | 200.0 ± 1.0 | 199.0 | 2.50× | 0.40× | 64.0 | 0.50× | 20.0 |", text)
        self.assertIn("over 3 runs in 1 interleaved rounds", text)

    def test_summary_gives_tool_over_peer_wall_and_cpu(self):
        text = report.summary(self.results())
        self.assertIn("| render artwork.png into 390x61 @3x (PNG) | 80.0 ms, CPU 32.0 ms | 240.0 ms, CPU 60.0 ms | "
                      "ImageMagick: 200.0 ms, CPU 64.0 ms | 0.40× (CPU 0.50×) | <= 0.45x |", text)
        self.assertIn("| the same render, against the C floor | 80.0 ms, CPU 32.0 ms | 240.0 ms, CPU 60.0 ms | "
                      "C floor (bench/floor.c), same libvips: 90.0 ms, CPU 28.0 ms | 0.89× (CPU 1.14×) |  |", text)

    def test_process_of_a_photograph_is_held_to_imagemagick_writing_webp(self):
        results = self.results()
        photo = dict(INPUT, name="photo.png")
        results["sections"]["process"] = {"inputs": [
            {"input": INPUT, "renders": 28, "formats": ["webp"],
             "comparison": comparison(command("creative-tool", 500.0, 500.0), command("ImageMagick x 28", 2000.0, 2000.0),
                                      command("ImageMagick x 28, WebP quality 85", 1000.0, 1000.0))},
            {"input": photo, "renders": 28, "formats": ["webp"],
             "comparison": comparison(command("creative-tool", 5000.0, 5000.0),
                                      command("creative-tool --format webp", 2700.0, 2700.0),
                                      command("ImageMagick x 28", 6000.0, 6000.0),
                                      command("ImageMagick x 28, WebP quality 85", 2500.0, 2400.0))}]}
        text = report.summary(results)
        self.assertIn("| process artwork.png (28 renders, webp) | 500.0 ms, CPU 500.0 ms |  | ImageMagick x 28: 2000 ms, "
                      "CPU 2000 ms | 0.25× (CPU 0.25×) | <= 0.25x |", text)
        self.assertIn("| process photo.png (28 renders, webp) | 5000 ms, CPU 5000 ms |  | ImageMagick x 28: 6000 ms, "
                      "CPU 6000 ms | 0.83× (CPU 0.83×) |  |", text)
        self.assertIn("| the same job, against ImageMagick writing WebP quality 85 | 5000 ms, CPU 5000 ms |  | "
                      "ImageMagick x 28, WebP quality 85: 2500 ms, CPU 2400 ms | 2.00× (CPU 2.08×) | <= 0.35x |", text)
        self.assertEqual(text.count("against ImageMagick writing WebP"), 1, "only for the photograph")

    def test_the_lossless_render_is_held_to_the_floor_goal(self):
        results = self.results()
        entry = results["sections"]["render"]["inputs"][0]
        entry["lossless"] = comparison(command("creative-tool, lossless (--weight-budget 1G)", 60.0, 33.6),
                                       command("C floor (bench/floor.c), same libvips", 40.0, 20.0),
                                       command("C floor, adaptive filters, zlib 4", 50.0, 28.0))
        entry["lossless_floor"] = "C floor, adaptive filters, zlib 4"
        text = report.summary(results)
        self.assertIn("| lossless (`--weight-budget 1G`), against the C floor writing the nearest file | 60.0 ms, CPU 33.6 ms "
                      "|  | C floor, adaptive filters, zlib 4: 50.0 ms, CPU 28.0 ms | 1.20× (CPU 1.20×) | CPU <= 1.25x |", text)
        self.assertIn("The same work as the C floor's", report.blocks(results)["render"])

    def test_blocks_hold_the_sections_that_ran(self):
        blocks = report.blocks(self.results())
        self.assertEqual(sorted(blocks), ["machine", "render", "summary"])
        self.assertIn("## render: artwork.png (2184x270, 3 bands, 12345 bytes) into 1170x183", blocks["render"])
        self.assertIn("quick mode", blocks["machine"])
        memory_only = dict(self.results(), sections={"memory": {"seconds": 20, "step_seconds": 10,
                                                                 "date": "2026-12-01", "load_start": "1 1 1",
                                                                 "allocators": []}})
        self.assertEqual(sorted(report.blocks(memory_only)), ["memory"])

    def test_autocost_holds_auto_to_its_fixed_format(self):
        text = lambda auto, fixed: report.autocost({"slot": "390x61@3x", "goal": 2.5, "contents": [
            {"key": "photo-png", "label": "photograph (PNG)", "input": INPUT, "encoding": "WebP quality 94 (auto: ...)",
             "fixed": "WebP quality 94", "comparison": comparison(command("auto", 90.0, auto),
                                                                  command("fixed: WebP quality 94", 40.0, fixed))}]})
        self.assertIn("| photograph (PNG) | WebP quality 94 (auto: ...) | WebP quality 94 | 90.0 ms | 40.0 ms | 2.25× | met |",
                      text(90.0, 40.0))
        self.assertIn("| 2.60× | not met |", text(104.0, 40.0))
        self.assertIn("over 3 runs in 1 interleaved rounds", text(90.0, 40.0))

    def test_preflight_cost(self):
        section = {"budget_percent": 15, "comparison": comparison(command("validate", 11.0, 10.0),
                                                                   command("validate --no-preflight", 10.0, 8.0))}
        self.assertIn("The checks cost 1.00 ms wall (10.0% of validate without them) and 2.00 ms CPU (25.0%); "
                      "budget: 15%.", report.preflight(section))


def weight_render(file, size, lossless, luma, chroma=0.99):
    return {"file": file, "format": "webp", "encoding": "WebP quality 94", "bytes": size, "lossless_bytes": lossless,
            "luma_ssim": luma, "chroma_ssim": chroma}


WEIGHT = {
    "date": "2026-12-02", "tool": "creative-tool 0.1.0 (libvips 8.18.7)", "slot": "390x61@3x", "width": 1170,
    "height": 183, "scikit_image": "0.19.3",
    "contents": [{"key": "photo-png", "label": "photograph (PNG)", "input": dict(INPUT, name="photo.png"),
                  "lossless": {"bytes": 253224, "encoding": "PNG, RGB, transparent key"},
                  "auto": {"format": "webp", "bytes": 40910, "written_as": "WebP lossy + alpha",
                           "encoding": "WebP quality 94 (auto: SSIM luma 0.981, chroma 0.991)"},
                  "luma_ssim": 0.98512, "chroma_ssim": 0.9921}],
    "jobs": [{"label": "photograph (JPEG)", "input": dict(INPUT, name="photo.jpg"),
              "renders": [weight_render("iphone-se-portrait-320x50@2x.webp", 12860, 80797, 0.9811),
                          weight_render("ipad-air-portrait-820x90@2x.webp", 60456, 414168, 0.9799),
                          weight_render("iphone-14-portrait-390x60@3x.webp", 40584, 240000, 0.9841)]}],
}


def with_avif(weight):
    """WEIGHT with AVIF named measured: the render a quarter lighter, one of the job's renders AVIF."""
    named = json.loads(json.dumps(weight))
    named["avif"] = True
    named["contents"][0]["with_avif"] = {"format": "avif", "bytes": 30153, "written_as": "AVIF", "luma_ssim": 0.9812,
                                         "chroma_ssim": 0.9931,
                                         "encoding": "AVIF quality 82 (auto: SSIM luma 0.977, chroma 0.994)"}
    renders = named["jobs"][0]["renders"]
    named["jobs"][0]["with_avif"] = [dict(renders[0], file="iphone-se-portrait-320x50@2x.avif", format="avif",
                                          bytes=9000, luma_ssim=0.9790)] + renders[1:]
    return named


class WeightTests(unittest.TestCase):
    def test_the_avif_tables_compare_with_the_default_auto_or_say_why_they_are_missing(self):
        text = report.weight_avif(with_avif(WEIGHT))
        self.assertIn("| content | auto, bytes | with AVIF named, writes | bytes | x auto | luma SSIM on white | "
                      "chroma SSIM |", text)
        self.assertIn("| photograph (PNG) | 40,910 | AVIF quality 82 (auto: SSIM luma 0.977, chroma 0.994) | 30,153 "
                      "| 0.737 | 0.981 | 0.993 |", text)
        self.assertIn("| photograph (JPEG) | 113,900 | 110,040 | 0.966 | 1 of 3 | 60,456 | 0.979 "
                      "(iphone-se-portrait-320x50@2x) |", text)
        self.assertEqual(report.weight_avif(dict(WEIGHT, avif=False)), "Not measured: this build's libvips writes no AVIF.")
        self.assertIn("### weight: with AVIF named", report.weight(with_avif(WEIGHT)))

    def test_the_render_table_gives_bytes_the_tools_encoding_the_ratio_and_both_ssims(self):
        text = report.weight_contents(WEIGHT)
        self.assertEqual(text.splitlines()[0], "| content | lossless PNG, bytes | auto writes | bytes | x lossless | "
                                               "luma SSIM on white | chroma SSIM |")
        self.assertIn("| photograph (PNG) | 253,224 | WebP quality 94 (auto: SSIM luma 0.981, chroma 0.991) | 40,910 "
                      "| 0.162 | 0.985 | 0.992 |", text)

    def test_the_process_table_sums_the_job_and_names_its_worst_render(self):
        totals = report.job_totals(WEIGHT["jobs"][0])
        self.assertEqual((totals["renders"], totals["auto_bytes"], totals["lossless_bytes"], totals["heaviest_bytes"]),
                         (3, 113900, 734965, 60456))
        self.assertAlmostEqual(totals["ratio"], 113900 / 734965)
        self.assertIn("| photograph (JPEG) | 3 | 113,900 | 734,965 | 0.155 | 60,456 | 0.980 "
                      "(ipad-air-portrait-820x90@2x) |", report.weight_jobs(WEIGHT))
        self.assertEqual(report.worst_cell(None), "n/a")

    def test_a_weight_run_alone_writes_its_own_block_and_leaves_the_machine_block(self):
        results = {"versions": {}, "settings": settings.read({}), "machine": {}, "started": "2026-12-02T19:00:00Z",
                   "sections": {"weight": WEIGHT}}
        blocks = report.blocks(results)
        self.assertEqual(sorted(blocks), ["weight"])
        self.assertIn("## weight: what `--format auto` writes into 390x61@3x\n\nMeasured 2026-12-02", blocks["weight"])
        self.assertIn("### weight: `process --format auto`", blocks["weight"])
        self.assertIn("weight", DEFAULT)

    def test_luma_chroma_line(self):
        self.assertEqual(weight.parse_luma_chroma_line("40910\tWebP lossy + alpha\t0.9851\t0.9921"),
                         (40910, "WebP lossy + alpha", 0.9851, 0.9921))

    def test_every_file_of_the_tables_is_drawn_or_a_shared_input_and_each_drawn_once(self):
        drawn = [name for _, names in weight.DRAWINGS for name in names]
        self.assertEqual(len(drawn), len(set(drawn)))
        self.assertEqual(weight.bench_files(), ["photo.png", "photo.jpg", "gradient.png", "gradient.jpg",
                                                "artwork.png", "text.png"])
        for name in weight.bench_files():
            self.assertTrue(name in drawn or name in weight.SHARED, name)
        commands = weight.drawing_commands("/usr/bin/python3", "/in")
        self.assertEqual(commands, [["/usr/bin/python3", os.path.join(BENCH, "art.py"), "gradient", "/in/gradient.png",
                                     "/in/gradient.jpg"],
                                    ["/usr/bin/python3", os.path.join(BENCH, "art.py"), "text", "/in/text.png"]])

    def test_the_drawn_banners_are_the_size_of_the_test_artwork(self):
        with open(os.path.join(os.path.dirname(BENCH), "TestImages", "test-artwork-2184x270.png"), "rb") as handle:
            header = handle.read(24)
        self.assertEqual(struct.unpack(">II", header[16:24]), (art.WIDTH, art.HEIGHT))
        self.assertEqual((art.WIDTH, art.HEIGHT), weight.SOURCE_PIXELS)

    def test_the_text_is_ten_lines_of_22_px_inside_the_banner(self):
        lines = art.text_layout(art.WIDTH, art.HEIGHT)
        self.assertEqual(len(lines), 10)
        self.assertEqual(art.TEXT_PIXELS, 22)
        self.assertTrue(all(top >= 0 and top + 22 <= art.HEIGHT for _, top in lines), lines)
        tops = [top for _, top in lines]
        self.assertEqual(len(set(b - a for a, b in zip(tops, tops[1:]))), 1, "an even pitch")
        self.assertGreaterEqual(tops[1] - tops[0], 22, "lines do not overlap")
        self.assertNotEqual(art.line_text(0), art.line_text(1))
        with self.assertRaisesRegex(ValueError, "12 lines of 24 px do not fit in 270 px"):
            art.text_layout(art.WIDTH, art.HEIGHT, lines=12, pixels=24)

    def test_the_headline_and_the_button_sit_inside_the_banner_apart(self):
        layout = art.headline_layout(art.WIDTH, art.HEIGHT)
        x, y, pixels = layout["headline"]
        left, top, right, bottom = layout["button"]
        self.assertEqual((x, y, pixels), (90, 90, 90))
        self.assertEqual((left, top, right, bottom), (1689, 67, 2094, 202))
        self.assertTrue(0 < left < right < art.WIDTH and 0 < top < bottom < art.HEIGHT)
        self.assertLess(layout["label_pixels"], bottom - top)


class DocsBlockTests(unittest.TestCase):
    DOC = ("# Performance\n\nProse before.\n\n<!-- bench:summary -->\nold summary\n<!-- /bench:summary -->\n\n"
           "Prose between.\n\n<!-- bench:serve -->\nold serve\n<!-- /bench:serve -->\nProse after.\n")

    def test_marked_blocks_are_rewritten_and_the_prose_kept(self):
        text = docs.replace_blocks(self.DOC, {"summary": "| new |\n"})
        self.assertIn("<!-- bench:summary -->\n| new |\n<!-- /bench:summary -->", text)
        self.assertIn("old serve", text)
        for prose in ("Prose before.", "Prose between.", "Prose after."):
            self.assertIn(prose, text)
        self.assertEqual(docs.names(text), ["summary", "serve"])

    def test_headings_are_demoted_one_level(self):
        self.assertEqual(docs.demote("## serve\n\ntext # not a heading\n### serve: responses\n|a|"),
                         "### serve\n\ntext # not a heading\n#### serve: responses\n|a|")

    def test_a_block_without_markers_or_an_unclosed_marker_fails(self):
        with self.assertRaisesRegex(docs.DocsError, "no <!-- bench:NAME --> markers for: worker"):
            docs.replace_blocks(self.DOC, {"worker": "x"}, required=["worker"])
        with self.assertRaisesRegex(docs.DocsError, "unbalanced"):
            docs.replace_blocks(self.DOC + "<!-- bench:worker -->\n", {})


class SchemaTests(unittest.TestCase):
    """The tool's outputs are read through schemas/ (needs jsonschema: the project venv's Python)."""
    RENDER = {"schema_version": 2, "tool_version": "0.1.0", "file": "out.png", "input": "in.png", "product": "banner",
              "target": "slot 390x61 pt @3x", "canvas_pixels": {"width": 1170, "height": 183},
              "artwork_pixels": {"width": 2184, "height": 270}, "content_pixels": {"width": 1170, "height": 145},
              "content_position_pixels": {"x": 0, "y": 19}, "format": "png", "file_bytes": 25152,
              "encoding": "PNG, RGB, transparent key", "weight_budget_bytes": 153600, "weight_budget_profile": None,
              "note": None, "warnings": []}

    def setUp(self):
        from harness.errors import BenchError
        from harness.schemas import Schemas
        self.schemas, self.error = Schemas(), BenchError

    def test_an_output_of_the_current_shape_is_read(self):
        document = self.schemas.parse("render", json.dumps(self.RENDER), "render --json")
        self.assertEqual(document["canvas_pixels"], {"width": 1170, "height": 183})

    def test_a_changed_shape_fails_naming_the_schema_and_the_place(self):
        old = dict(self.RENDER, canvas_pixels="1170x183")
        with self.assertRaisesRegex(self.error, r"render --json does not match schemas/render.schema.json at "
                                                r"canvas_pixels"):
            self.schemas.check("render", old, "render --json")
        with self.assertRaisesRegex(self.error, "manifest.json, line 1 is not JSON"):
            self.schemas.parse_lines("manifest", "{not json\n", "manifest.json")
        with self.assertRaisesRegex(self.error, "no schema nothing.schema.json"):
            self.schemas.check("nothing", {}, "x")


if __name__ == "__main__":
    unittest.main()
