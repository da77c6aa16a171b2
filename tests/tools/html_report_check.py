#!/usr/bin/env python3
"""Loads paraplan's HTML report in a real headless Chromium and checks it.

Usage: html_report_check.py PARAPLAN [CHROMIUM]

Writes `plan --format html` and `plan --format json` for the same search, and a tiny study's
DIR/report.html, then:
  * the page has no http(s):// reference and no <script>, <link> or <img> (self-contained);
  * Chromium (--headless --dump-dom, console logging to stderr) loads it with no console error
    and no failed request;
  * the rendered DOM's ranked-plans and budget tables hold the JSON report's numbers;
  * the memory figure's labels are whole ("79.9 GiB", not "79.") and inside the figure, every
    bar part has a tooltip with its GiB; the timeline's boxes have tooltips;
  * a screenshot renders: a PNG of the window's size, decoded here (zlib, PNG filters), with a
    plausible share of non-background pixels (not blank, not a smear) and its bottom rows
    blank (the page ends inside the window, nothing cut at the bottom);
  * a deep pipeline (Llama 3 70B, pp = 16, 13,832 timeline events) draws a bounded number of
    timeline elements, shows 8 of its 16 stages and says it aggregated, and its screenshot
    passes the same checks;
  * the Pareto front says where it was cut, consistently with the JSON's pareto_cut;
  * the study page loads the same way, with its chart and one results row per point.
Exit 77 (CTest's skip code) when no chromium is installed.
"""
import html.parser
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SKIP = 77
ARGS = ["plan", "-m", "llama3-70b", "-c", "dgx-h100", "-g", "64", "--global-batch", "256",
        "--tokens", "2T", "--price-per-gpu-hour", "2.5", "--top", "5", "--threads", "2"]
DEEP = ["plan", "-m", "llama3-70b", "-c", "dgx-h100", "-g", "64", "--global-batch", "256",
        "--plan", "tp=4,pp=16", "--top", "1", "--pareto", "3", "--threads", "2"]
MAX_TIMELINE_ELEMENTS = 12000  # 8 stages x ~6 streams x 120 bins x a few activities, and text


TINY_STUDY = """study: tiny
title: Tiny study
model: {name: tiny, layers: 4, hidden: 256, heads: 4, ffn_hidden: 1024, vocab: 1000,
        seq_len: 128, activation: gelu, norm: layernorm, position: learned}
cluster:
  name: tiny-cluster
  gpu: {name: G, memory_GiB: 80, memory_bandwidth_GBps: 3000, peak_tflops: {bf16: 1000}}
  network:
    - {name: nvlink, span: 8, bandwidth_GBps: 450, latency_us: 3}
    - {name: scaleout, span: 4096, bandwidth_GBps: 50, latency_us: 10}
gpus: 8
plan: {global_batch: 16, micro_batch: 1, pp: 1}
mode: simulate
metric: tokens_per_s_per_gpu
sweep:
  tp: [1, 2, 4]
  cluster.network.nvlink.bandwidth_GBps: [200, 450]
"""


class Tables(html.parser.HTMLParser):
    """Collects <td data-key=K> texts per table id, one dict per row."""

    def __init__(self):
        super().__init__()
        self.tables, self.table, self.key, self.row = {}, None, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.table = a.get("id")
            self.tables[self.table] = []
        elif tag == "tr" and self.table:
            self.row = {}
        elif tag == "td":
            self.key = a.get("data-key") or "td"
            if self.row is not None and self.key == "td":
                self.row.setdefault("cells", 0)
                self.row["cells"] += 1

    def handle_endtag(self, tag):
        if tag == "tr" and self.row:
            self.tables[self.table].append(self.row)
            self.row = None
        elif tag == "td":
            self.key = None

    def handle_data(self, data):
        if self.key and self.key != "td" and self.row is not None:
            self.row[self.key] = self.row.get(self.key, "") + data


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def load(browser, page):
    """The DOM Chromium renders, after checking its log for console errors and failed loads."""
    dumped = chromium(browser, "--dump-dom", "file://" + page)
    if dumped.returncode != 0:
        fail(f"chromium exited {dumped.returncode}: {dumped.stderr[-2000:]}")
    bad = [line for line in dumped.stderr.splitlines()
           if "CONSOLE" in line or "Uncaught" in line or "net::ERR" in line]
    if bad:
        fail(page + ": console errors or failed requests:\n" + "\n".join(bad))
    return dumped.stdout


def self_contained(page):
    text = open(page, encoding="utf-8").read()
    if re.search(r"https?://", text) or re.search(r"<(script|link|img|iframe)\b", text, re.I):
        fail(page + " references something outside itself")


def check_study(paraplan, browser, work):
    spec = os.path.join(work, "tiny.yaml")
    with open(spec, "w") as f:
        f.write(TINY_STUDY)
    out = os.path.join(work, "study")
    run = subprocess.run([paraplan, "study", spec, "-o", out, "-q"], capture_output=True,
                         text=True, timeout=300)
    if run.returncode != 0:
        fail(f"paraplan study exited {run.returncode}: {run.stderr}")
    page = os.path.join(out, "report.html")
    self_contained(page)
    dom = load(browser, page)
    tables = Tables()
    tables.feed(dom)
    points = json.load(open(os.path.join(out, "results.json")))
    rows = tables.tables.get("results", [])
    n = len(points["results"])
    if n != 6 or len(rows) != n:
        fail(f"study report: {len(rows)} result rows, results.json has {n} (expected 6 points)")
    if "<svg" not in dom:
        fail("study report: no chart")
    return len(rows)


def chromium(binary, *args):
    cmd = [binary, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
           "--disable-dev-shm-usage", "--enable-logging=stderr", "--v=0",
           "--host-resolver-rules=MAP * ~NOTFOUND"] + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def png_pixels(path):
    """(width, height, rows): each row a bytes object of RGB(A) samples, PNG filters undone."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("screenshot is not a PNG")
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        fail(f"screenshot PNG: depth {depth}, colour type {colour}, interlace {interlace} "
             "(expected 8-bit RGB or RGBA, not interlaced)")
    idat, pos = b"", 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    if len(raw) != height * (stride + 1):
        fail(f"screenshot PNG: {len(raw)} bytes of pixels for {width}x{height}")
    rows, prev = [], bytes(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:
            for x in range(channels, stride):
                line[x] = (line[x] + line[x - channels]) & 255
        elif kind == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif kind == 3:
            for x in range(stride):
                left = line[x - channels] if x >= channels else 0
                line[x] = (line[x] + ((left + prev[x]) >> 1)) & 255
        elif kind == 4:
            for x in range(stride):
                a = line[x - channels] if x >= channels else 0
                b, c = prev[x], prev[x - channels] if x >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        elif kind != 0:
            fail(f"screenshot PNG: unknown filter {kind} in row {y}")
        prev = bytes(line)
        rows.append(prev)
    return width, height, channels, rows


def check_screenshot(browser, page, shot, size):
    """A screenshot of the page at `size`: right size, some ink but not a smear, bottom blank."""
    taken = chromium(browser, "--screenshot=" + shot, "--window-size=%d,%d" % size,
                     "--hide-scrollbars", "file://" + page)
    if taken.returncode != 0 or not os.path.exists(shot):
        fail(f"no screenshot: {taken.stderr[-2000:]}")
    width, height, channels, rows = png_pixels(shot)
    if (width, height) != size:
        fail(f"screenshot {width}x{height}, asked for {size[0]}x{size[1]}")
    background = rows[0][:3]  # the page's top-left corner is the body's margin
    white = background * width if channels == 3 else None
    inked, colours, last_inked = 0, set(), -1
    for y, row in enumerate(rows):
        if channels == 3 and row == white:
            continue
        for x in range(0, width * channels, channels):
            pixel = row[x:x + 3]
            if pixel != background:
                inked += 1
                last_inked = y
                if len(colours) < 64:
                    colours.add(pixel)
    share = inked / (width * height)
    # The report is text, tables and bars on white: a few percent up to about a third of the
    # pixels. Blank (a page that failed to render) is ~0; one smear of sub-pixel boxes over
    # the whole window would be far above.
    if not 0.01 <= share <= 0.45 or len(colours) < 8:
        fail(f"{page}: screenshot has {share:.1%} non-background pixels in {len(colours)} "
             "colours: blank or a smear")
    if last_inked >= height - 40:
        fail(f"{page}: ink down to row {last_inked} of {height}: the page runs past the window "
             "(make the window taller) or something is drawn at its edge")
    return width, height, share


def svg_of(dom, svg_id):
    found = re.search(r'<svg id="%s".*?</svg>' % svg_id, dom, re.S)
    if not found:
        fail(f"no <svg id={svg_id}> in the rendered page")
    return found.group(0)


def check_memory_labels(dom, plan):
    """Whole labels with units, inside the figure, one per stage matching the JSON."""
    svg = svg_of(dom, "memory")
    width = float(re.search(r'width="([0-9.]+)"', svg).group(1))
    texts = re.findall(r'<text x="([0-9.]+)"[^>]*text-anchor="(\w+)"[^>]*>([^<]*)</text>', svg)
    numbers = [(float(x), anchor, t) for x, anchor, t in texts if re.search(r"[0-9]", t)]
    stage_labels = [t for _, _, t in numbers if t.startswith("stage ")]
    values = [(x, anchor, t) for x, anchor, t in numbers if not t.startswith("stage ")]
    if not values:
        fail("memory figure: no value labels")
    for x, anchor, text in values:
        if not re.fullmatch(r"[0-9]+\.[0-9] GiB( capacity)?", text):
            fail(f"memory figure: label {text!r} is not a whole 'N.N GiB'")
        if anchor == "start" and x + 7 * len(text) > width:
            fail(f"memory figure: label {text!r} at x={x} runs past the figure's {width} px")
    totals = [f"{s['total_GiB']:.1f} GiB" for s in plan["memory"]["per_stage"]]
    shown = [t for _, anchor, t in values if anchor == "start"]
    if shown != totals:
        fail(f"memory figure: totals {shown}, JSON per_stage {totals}")
    if len(stage_labels) != len(totals):
        fail(f"memory figure: {len(stage_labels)} stage labels for {len(totals)} stages")
    tips = re.findall(r"<title>(stage [0-9]+ \w+: [0-9.]+ GiB)</title>", svg)
    if len(tips) != 5 * len(totals):
        fail(f"memory figure: {len(tips)} part tooltips for {len(totals)} stages x 5 parts")


def check_timeline(dom, expect_note):
    svg = svg_of(dom, "timeline")
    elements = len(re.findall(r"<(rect|text|g|title)\b", svg))
    if elements > MAX_TIMELINE_ELEMENTS:
        fail(f"timeline: {elements} SVG elements (at most {MAX_TIMELINE_ELEMENTS})")
    groups = len(re.findall(r"<g>", svg))
    if groups == 0 or groups != len(re.findall(r"<title>", svg)):
        fail("timeline: boxes without tooltips")
    for note in expect_note:
        if note not in svg:
            fail(f"timeline: no note {note!r}")
    return elements


def check_front_cut(dom, doc):
    cut = doc["pareto_cut"]
    note = re.search(r'<p id="pareto_cut">([^<]*)</p>', dom)
    if bool(note) != (cut > 0):
        fail(f"Pareto front: JSON pareto_cut {cut}, page note {note and note.group(1)!r}")
    if note and not note.group(1).startswith(f"{cut} point"):
        fail(f"Pareto front note {note.group(1)!r} disagrees with pareto_cut {cut}")
    for point in doc["pareto"]:
        if cut and point["step_time_s"] > doc["pareto_cut_step_s"]:
            fail(f"Pareto point at {point['step_time_s']} s past the cut")


def write_report(paraplan, args, fmt, out):
    run = subprocess.run([paraplan] + args + ["--format", fmt, "-o", out], capture_output=True,
                         text=True, timeout=300)
    if run.returncode != 0:
        fail(f"paraplan --format {fmt} exited {run.returncode}: {run.stderr}")


def main():
    paraplan = sys.argv[1]
    browser = sys.argv[2] if len(sys.argv) > 2 else (shutil.which("chromium") or
                                                      shutil.which("chromium-browser"))
    if not browser:
        print("SKIP: no chromium installed (apt-get install chromium)")
        return SKIP
    work = tempfile.mkdtemp(prefix="paraplan-html-")
    page, doc = os.path.join(work, "report.html"), os.path.join(work, "plans.json")
    for fmt, out in (("html", page), ("json", doc)):
        write_report(paraplan, ARGS, fmt, out)
    self_contained(page)
    dom = load(browser, page)
    tables = Tables()
    tables.feed(dom)

    report = json.load(open(doc))
    plans = report["plans"]
    rows = tables.tables.get("plans", [])
    if len(rows) != len(plans) or not rows:
        fail(f"{len(rows)} rows in the rendered plans table, {len(plans)} plans in the JSON")
    for row, plan in zip(rows, plans):
        expect = {"step_time_s": f"{plan['step_time_s']:.3f}",
                  "memory_GiB": f"{plan['memory_GiB']:.1f}",
                  "mfu_pct": f"{plan['mfu'] * 100:.1f}",
                  "tokens_per_s_per_gpu": f"{plan['tokens_per_s_per_gpu']:.0f}"}
        for knob in ("tp", "pp", "dp", "cp", "ep", "micro_batch", "schedule"):
            expect[knob] = str(plan["plan"][knob])
        for key, value in expect.items():
            if row.get(key) != value:
                fail(f"plans table {key}: page has {row.get(key)!r}, JSON has {value!r}")
    budget = tables.tables.get("budget", [])
    if len(budget) != len(plans):
        fail("the budget table does not have one row per plan")
    for row, plan in zip(budget, plans):
        b = plan["budget"]
        if row["gpu_hours"] != f"{round(b['gpu_hours']['value']):.0f}":
            fail(f"budget GPU-hours: page {row['gpu_hours']}, JSON {b['gpu_hours']['value']}")
        if not row["days"].startswith(f"{b['days']['value']:.1f}"):
            fail(f"budget days: page {row['days']}, JSON {b['days']['value']}")
    if dom.count("<svg") < 2:
        fail("the memory bars and the timeline SVGs are missing")

    check_memory_labels(dom, plans[0])
    check_timeline(dom, [])
    check_front_cut(dom, report)
    width, height, share = check_screenshot(browser, page, os.path.join(work, "report.png"),
                                            (1280, 3600))

    deep_page, deep_doc = os.path.join(work, "deep.html"), os.path.join(work, "deep.json")
    write_report(paraplan, DEEP, "html", deep_page)
    write_report(paraplan, DEEP, "json", deep_doc)
    deep_dom = load(browser, deep_page)
    deep = json.load(open(deep_doc))
    check_memory_labels(deep_dom, deep["plans"][0])
    elements = check_timeline(deep_dom, ["Showing 8 of 16 pipeline stages",
                                               "events aggregated into 120 time bins"])
    check_front_cut(deep_dom, deep)
    _, _, deep_share = check_screenshot(browser, deep_page, os.path.join(work, "deep.png"),
                                        (1280, 2400))
    study_rows = check_study(paraplan, browser, work)
    print(f"OK: {len(rows)} plans checked, screenshot {width}x{height} with {share:.1%} ink; "
          f"deep pipeline: {elements} timeline elements, screenshot {deep_share:.1%} ink; "
          f"study report with {study_rows} points")
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
