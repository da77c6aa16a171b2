#!/usr/bin/env python3
"""Times causal scaled-dot-product attention through PyTorch's cuDNN backend and writes rows in
paraplan-calibrate's raw CSV format (docs/calibration.md), so `paraplan calibrate fit` can put
measured attention rates into a profile.

It is the stand-in for the C++ harness's `attention` mode until that mode calls cuDNN's SDPA graph
itself: PyTorch's `SDPBackend.CUDNN_ATTENTION` runs cuDNN's fused flash-attention kernels (the
ones Megatron-LM/Transformer Engine use on Hopper). When that backend is unavailable the script
falls back to FLASH_ATTENTION and says so in a comment line of the CSV.

Rows: attention,fwd_causal|bwd_causal,bf16,SEQ,HEADS,HEAD_DIM,0,1,,TIME_US_PER_SEQUENCE,...
Usage: attention_sdpa.py -o attn.csv [--seq-list 1024,2048] [--heads 8,32] [--head-dim 128]
"""
import argparse
import datetime
import os
import statistics
import sys

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel

HEADER = "kind,op,dtype,m,n,k,bytes,ranks,tier,time_us,gpu,driver,cuda,nccl,date"


def driver_version():
    try:
        with open("/proc/driver/nvidia/version") as f:
            for word in f.readline().split():
                if word.count(".") >= 1 and word.replace(".", "").isdigit():
                    return word
    except OSError:
        pass
    return ""


def median_ms(fn, warmup, iters):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def measure(backend, seq, heads, head_dim, tokens, warmup, iters):
    batch = max(1, tokens // seq)
    gen = torch.Generator(device="cuda").manual_seed(seq * 1000 + heads)
    shape = (batch, heads, seq, head_dim)
    q, k, v = (torch.randn(shape, device="cuda", dtype=torch.bfloat16, generator=gen,
                           requires_grad=True) for _ in range(3))
    grad = torch.randn(shape, device="cuda", dtype=torch.bfloat16, generator=gen)
    with sdpa_kernel([backend]):
        def fwd():
            with torch.no_grad():
                torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)

        out = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)

        def bwd():
            torch.autograd.grad(out, (q, k, v), grad, retain_graph=True)

        fwd_ms = median_ms(fwd, warmup, iters)
        bwd_ms = median_ms(bwd, warmup, iters)
    return fwd_ms * 1000.0 / batch, bwd_ms * 1000.0 / batch


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--seq-list", default="1024,2048,4096,8192,16384,32768")
    parser.add_argument("--heads", default="8,32")
    parser.add_argument("--head-dim", type=int, default=128)
    parser.add_argument("--tokens", type=int, default=32768, help="tokens per launch")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--iters", type=int, default=10)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("attention_sdpa.py: no CUDA GPU is visible", file=sys.stderr)
        return 2

    backend, name = SDPBackend.CUDNN_ATTENTION, "cudnn"
    try:
        measure(backend, 1024, 8, args.head_dim, 1024, 1, 1)
    except RuntimeError as err:
        print(f"cuDNN attention unavailable ({err}); using FLASH_ATTENTION", file=sys.stderr)
        backend, name = SDPBackend.FLASH_ATTENTION, "flash"

    meta = ",".join([
        torch.cuda.get_device_name(0).replace(",", " "), driver_version(),
        torch.version.cuda or "",
        ".".join(str(x) for x in torch.cuda.nccl.version()),
        datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
    ])
    lines = [HEADER, f"# torch {torch.__version__}, SDPA backend {name}, "
             f"cuDNN {torch.backends.cudnn.version()}"]
    for heads in (int(h) for h in args.heads.split(",")):
        for seq in (int(s) for s in args.seq_list.split(",")):
            fwd_us, bwd_us = measure(backend, seq, heads, args.head_dim, args.tokens,
                                     args.warmup, args.iters)
            flops = 4.0 * seq * seq * heads * args.head_dim / 2  # causal forward
            print(f"seq {seq:6d} heads {heads:3d}: fwd {fwd_us:10.1f} us "
                  f"({flops / fwd_us / 1e6:6.1f} TFLOP/s), bwd {bwd_us:10.1f} us "
                  f"({2.5 * flops / bwd_us / 1e6:6.1f} TFLOP/s)", file=sys.stderr)
            for op, t in (("fwd_causal", fwd_us), ("bwd_causal", bwd_us)):
                lines.append(f"attention,{op},bf16,{seq},{heads},{args.head_dim},0,1,,"
                             f"{t:.4f},{meta}")
    with open(args.output + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(args.output + ".tmp", args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
