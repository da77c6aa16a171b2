#!/usr/bin/env python3
"""Measures whole training steps of a Llama-style decoder on one GPU with PyTorch, so that
paraplan's step-time prediction (`paraplan simulate -g 1`) can be checked end to end on the same
machine (docs/calibration.md, "Whole steps on one GPU").

The model: token embedding, N pre-norm layers (RMSNorm, grouped-query attention through cuDNN
SDPA, SwiGLU MLP), final RMSNorm, untied output layer, cross-entropy. fp32 master weights under
bf16 autocast, fused AdamW, gradient accumulation over micro-batches. Not modelled here: rotary
embeddings (a few element-wise passes); fusion beyond PyTorch eager only with --compile (each
layer through torch.compile).

Each configuration: 2 warm-up steps, then the median of --steps timed steps (CUDA events around
the whole step: forward, backward, optimizer, zero_grad). Prints one JSON line per configuration.
"""
import argparse
import json
import statistics
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.utils.checkpoint import checkpoint


class Layer(torch.nn.Module):
    def __init__(self, hidden, ffn, heads, kv_heads):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, hidden // heads
        self.norm1 = torch.nn.RMSNorm(hidden, eps=1e-5)
        self.qkv = torch.nn.Linear(hidden, (heads + 2 * kv_heads) * self.head_dim, bias=False)
        self.proj = torch.nn.Linear(heads * self.head_dim, hidden, bias=False)
        self.norm2 = torch.nn.RMSNorm(hidden, eps=1e-5)
        self.up = torch.nn.Linear(hidden, 2 * ffn, bias=False)
        self.down = torch.nn.Linear(ffn, hidden, bias=False)

    def forward(self, x):
        b, s, _ = x.shape
        qkv = self.qkv(self.norm1(x)).view(b, s, self.heads + 2 * self.kv_heads, self.head_dim)
        q, k, v = qkv.split([self.heads, self.kv_heads, self.kv_heads], dim=2)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))
        groups = self.heads // self.kv_heads  # expand K/V to every query head (as repeat_kv)
        k, v = k.repeat_interleave(groups, dim=1), v.repeat_interleave(groups, dim=1)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, s, -1))
        gate, up = self.up(self.norm2(x)).chunk(2, dim=-1)
        return x + self.down(F.silu(gate) * up)


class Model(torch.nn.Module):
    def __init__(self, a):
        super().__init__()
        self.embed = torch.nn.Embedding(a.vocab, a.hidden)
        self.layers = torch.nn.ModuleList(
            Layer(a.hidden, a.ffn, a.heads, a.kv_heads) for _ in range(a.layers))
        self.norm = torch.nn.RMSNorm(a.hidden, eps=1e-5)
        self.out = torch.nn.Linear(a.hidden, a.vocab, bias=False)
        self.full_recompute = False

    def forward(self, tokens, labels):
        x = self.embed(tokens)
        for layer in self.layers:
            x = checkpoint(layer, x, use_reentrant=False) if self.full_recompute else layer(x)
        logits = self.out(self.norm(x)).float()
        return F.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1))


def run(model, opt, a, micro_batch, accum, seq, steps):
    gen = torch.Generator(device="cuda").manual_seed(micro_batch * 100003 + seq)
    batches = [(torch.randint(0, a.vocab, (micro_batch, seq), device="cuda", generator=gen),
                torch.randint(0, a.vocab, (micro_batch, seq), device="cuda", generator=gen))
               for _ in range(accum)]

    def step():
        for tokens, labels in batches:
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = model(tokens, labels) / accum
            loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    for _ in range(2):
        step()
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    times = []
    for _ in range(steps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        step()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1000.0)
    return statistics.median(times), torch.cuda.max_memory_allocated() / 2**30


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--layers", type=int, default=8)
    p.add_argument("--hidden", type=int, default=4096)
    p.add_argument("--ffn", type=int, default=14336)
    p.add_argument("--heads", type=int, default=32)
    p.add_argument("--kv-heads", type=int, default=8)
    p.add_argument("--vocab", type=int, default=128256)
    p.add_argument("--configs", default="1x4x8192:none,2x2x8192:none,2x4x4096:none,1x4x8192:full",
                   help="MICRO_BATCHxACCUMxSEQ:RECOMPUTE,...")
    p.add_argument("--steps", type=int, default=5)
    p.add_argument("--compile", action="store_true",
                   help="torch.compile each layer (fuses the element-wise work eager leaves)")
    a = p.parse_args()
    if not torch.cuda.is_available():
        print("step_llama.py: no CUDA GPU is visible", file=sys.stderr)
        return 2
    torch.manual_seed(0)
    model = Model(a).cuda()
    if a.compile:
        for layer in model.layers:
            layer.compile()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-5, fused=True)
    params = sum(t.numel() for t in model.parameters())
    with sdpa_kernel([SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION]):
        for config in a.configs.split(","):
            shape, recompute = config.split(":")
            micro_batch, accum, seq = (int(x) for x in shape.split("x"))
            model.full_recompute = recompute == "full"
            seconds, peak = run(model, opt, a, micro_batch, accum, seq, a.steps)
            print(json.dumps({
                "gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
                "layers": a.layers, "hidden": a.hidden, "ffn": a.ffn, "heads": a.heads,
                "kv_heads": a.kv_heads, "vocab": a.vocab, "params": params,
                "micro_batch": micro_batch, "accum": accum, "seq": seq, "recompute": recompute,
                "compiled": a.compile, "step_time_s": round(seconds, 5), "peak_allocated_GiB": round(peak, 3),
                "tokens_per_s": round(micro_batch * accum * seq / seconds, 1)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
