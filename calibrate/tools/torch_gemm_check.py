#!/usr/bin/env python3
"""Cross-check of the harness's cuBLASLt GEMM rates: the same shapes through torch.matmul (bf16,
D = A·Bᵀ with A m×k and B n×k, i.e. both operands K-major as in the harness's "TN" layout),
median of 20 CUDA-event timings after 5 warm-ups, fresh random data. Prints m, n, k, µs, TFLOP/s.
"""
import statistics
import sys

import torch

SHAPES = [(8192, 8192, 8192), (4096, 4096, 4096), (16384, 16384, 16384), (8192, 28672, 8192),
          (8192, 8192, 28672), (8192, 10240, 8192), (2048, 8192, 8192)]


def main():
    if not torch.cuda.is_available():
        return 2
    for m, n, k in SHAPES:
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
        for _ in range(5):
            a @ b.t()
        times = []
        for _ in range(20):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            a @ b.t()
            e.record()
            e.synchronize()
            times.append(s.elapsed_time(e) * 1000.0)
        us = statistics.median(times)
        print(f"{m} {n} {k} {us:.1f} {2.0 * m * n * k / us / 1e6:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
