#!/usr/bin/env python3
"""Fits the shape-aware GEMM model's constants (src/cost/compute_cost.h) to a harness's cuBLASLt
table and reports the fit error, the way docs/cost-model.md ("Constants") quotes them.

    python3 calibrate/tools/gemm_shape_fit.py [calibrate/data/h200-2026-11-29] [--sms 132]

Model: eff = top * max_T(f_T * padding_T * waves_T) * k / (k + k0), time = floor + 2mnk /
(peak * eff). `floor` is the harness's fixed cost per timed launch (event pair around one
kernel), taken from its own device copies (memory.csv: intercept of time against bytes), not
fitted: the cost model charges it per kernel as kernel_launch_us instead. The tile candidates,
the small tile's f, k0 and top are grid-searched on gemm_fit.csv (mean |predicted / measured - 1|)
and checked on gemm_holdout.csv, which is never fitted.
"""
import argparse
import csv
import math
import os

PEAK = {"bf16": 989e12, "fp8": 1979e12}  # H200 SXM dense (hardware/dgx-h200.yaml)


def load(path):
    with open(path) as f:
        return [(r["dtype"], int(r["m"]), int(r["n"]), int(r["k"]), float(r["time_us"]))
                for r in csv.DictReader(f)]


def floor_us(path):
    with open(path) as f:
        rows = [(float(r["bytes"]), float(r["time_us"])) for r in csv.DictReader(f)
                if r["op"] == "copy"]
    n = len(rows)
    mx = sum(b for b, _ in rows) / n
    my = sum(t for _, t in rows) / n
    slope = sum((b - mx) * (t - my) for b, t in rows) / sum((b - mx) ** 2 for b, _ in rows)
    return my - slope * mx


def utilization(tm, tn, m, n, sms):
    tiles = math.ceil(m / tm) * math.ceil(n / tn)
    return m * n / (math.ceil(tiles / sms) * sms * tm * tn)


def tile_eff(tiles, k0, sms, m, n, k):
    return max(f * utilization(tm, tn, m, n, sms) for tm, tn, f in tiles) * k / (k + k0)


def curve_eff(half, m, n, k):
    x = max(min(m, n, k), 512)
    return x / (x + half)


def errors(rows, dtype, eff, top, floor):
    e = sorted(abs((floor + 2 * m * n * k / (PEAK[d] * top * eff(m, n, k)) * 1e6) / t - 1)
               for d, m, n, k, t in rows if d == dtype)
    return sum(e) / len(e), e[len(e) // 2], e[-1], len(e)


def best_top(rows, dtype, eff, floor):
    return min((errors(rows, dtype, eff, t / 1000, floor)[0], t / 1000) for t in range(500, 900, 5))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data", nargs="?", default="calibrate/data/h200-2026-11-29")
    ap.add_argument("--sms", type=int, default=132)
    a = ap.parse_args()
    fit = load(os.path.join(a.data, "gemm_fit.csv"))
    hold = load(os.path.join(a.data, "gemm_holdout.csv"))
    floor = floor_us(os.path.join(a.data, "memory.csv"))
    print(f"harness floor per timed launch (memory.csv copies): {floor:.1f} us")
    candidates = {}
    for big in [(128, 256), (256, 128), (128, 128), (256, 256)]:
        candidates[f"{big[0]}x{big[1]}"] = [(big[0], big[1], 1.0)]
        for f in [1.0, 0.95, 0.9, 0.85]:
            candidates[f"{big[0]}x{big[1]}+128x128@{f}"] = [(big[0], big[1], 1.0), (128, 128, f)]
    fmt = "mean {:.3f} median {:.3f} max {:.3f} (n={})"
    for dtype in ["bf16", "fp8"]:
        results = []
        for name, tiles in candidates.items():
            for k0 in range(0, 544, 32):
                eff = lambda m, n, k, t=tiles, k0=k0: tile_eff(t, k0, a.sms, m, n, k)
                err, top = best_top(fit, dtype, eff, floor)
                results.append((err, name, k0, top))
        results.sort()
        print(f"{dtype}: best five of {len(results)} (fit error, tiles, k0, top)")
        for r in results[:5]:
            print("  {:.4f} {} k0={} top={}".format(*r))
        # The shipped constants (src/cost/compute_cost.h).
        k0 = 384 // (1 if dtype == "fp8" else 2)  # kGemmPrologueKBytes / bytes per element
        eff = lambda m, n, k: tile_eff([(128, 256, 1.0), (128, 128, 0.95)], k0, a.sms, m, n, k)
        _, top = best_top(fit, dtype, eff, floor)
        print(f"  shipped (128x256 + 128x128@0.95, k0 {k0}): top {top}")
        print("    fit     " + fmt.format(*errors(fit, dtype, eff, top, floor)))
        print("    holdout " + fmt.format(*errors(hold, dtype, eff, top, floor)))
        ctop = 0.785 if dtype == "bf16" else 0.68
        ceff = lambda m, n, k: curve_eff(592, m, n, k)
        for fl, how in ((0.0, "no floor: as fitted before"), (floor, "with the same floor")):
            print(f"  min-dimension curve (half 592, top {ctop}, {how})")
            print("    fit     " + fmt.format(*errors(fit, dtype, ceff, ctop, fl)))
            print("    holdout " + fmt.format(*errors(hold, dtype, ceff, ctop, fl)))

if __name__ == "__main__":
    main()
