#!/usr/bin/env python3
"""Loads paraplan's HTML report in a real headless Chromium and checks it.

Usage: html_report_check.py PARAPLAN [CHROMIUM]

Writes `plan --format html` and `plan --format json` for the same search, and a tiny study's
DIR/report.html, then:
  * the page has no http(s):// reference and no <script>, <link> or <img> (self-contained);
  * Chromium (--headless --dump-dom, console logging to stderr) loads it with no console error
    and no failed request;
  * the rendered DOM's ranked-plans and budget tables hold the JSON report's numbers;
  * a screenshot renders (a PNG of the expected size, not blank);
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


def png_size_and_variety(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("screenshot is not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    idat, pos = b"", 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(idat)
    return width, height, len(set(raw[i:i + 3] for i in range(1, len(raw), 97)))


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
        run = subprocess.run([paraplan] + ARGS + ["--format", fmt, "-o", out], capture_output=True,
                             text=True, timeout=300)
        if run.returncode != 0:
            fail(f"paraplan --format {fmt} exited {run.returncode}: {run.stderr}")
    self_contained(page)
    dom = load(browser, page)
    tables = Tables()
    tables.feed(dom)

    plans = json.load(open(doc))["plans"]
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

    shot = os.path.join(work, "report.png")
    taken = chromium(browser, "--screenshot=" + shot, "--window-size=1280,1600", "file://" + page)
    if taken.returncode != 0 or not os.path.exists(shot):
        fail(f"no screenshot: {taken.stderr[-2000:]}")
    width, height, colours = png_size_and_variety(shot)
    if (width, height) != (1280, 1600) or colours < 4:
        fail(f"screenshot {width}x{height} with {colours} sampled colours looks blank")
    study_rows = check_study(paraplan, browser, work)
    print(f"OK: {len(rows)} plans checked, screenshot {width}x{height}, "
          f"study report with {study_rows} points")
    shutil.rmtree(work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
