#!/usr/bin/env python3
"""Times one Llama-style transformer layer, forward and backward, on one GPU, and each of its ops
alone, so that `paraplan explain`'s per-op layer table (bottom-up: every GEMM, the core attention,
the element-wise ops) can be compared with the measured layer (docs/calibration.md, "One layer,
op by op").

The layer is the one of step_llama.py plus rotary embeddings: RMSNorm, fused QKV projection, RoPE
on q and k, causal grouped-query attention through SDPA (cuDNN or flash), output projection,
residual add, RMSNorm, fused gate/up projection, SwiGLU, down projection, residual add. Weights in
bf16 (--dtype bf16) or fp32 masters under bf16 autocast (--dtype autocast, as step_llama.py). The
step-end ops that explain's layer table leaves out are timed too: the output layer and
softmax-cross-entropy over the vocabulary, fused AdamW over the layer's parameters, the gradient
norm.

Frameworks: PyTorch eager always; TransformerEngine's TransformerLayer (and its fused RMSNorm)
when `import transformer_engine.pytorch` works; torch.compile of the layer with --compile.

Timing: CUDA events, --warmup untimed runs, the median of --iters runs. A backward is timed as
torch.autograd.grad of the op's (or layer's) output with a fixed random output gradient, with
respect to its inputs and weights, on a graph kept between runs (retain_graph), so nothing
accumulates into .grad.

Output: JSON lines on stdout, one per measurement:
  {"record": "op", "framework", "op", "paraplan_op", "pass": "fwd"|"bwd", "time_ms", ...}
  {"record": "layer", "framework", "pass": "fwd"|"fwd+bwd", "time_ms", ...}
  {"record": "step_end", "framework", "op": "logits+loss"|"adamw"|"grad_norm", "time_ms", ...}
  {"record": "summary", "framework", "sum_of_ops_fwd_ms", "layer_fwd_ms", ...}
paraplan_op names the row of explain's layer table the op belongs to ("norm" holds both norms,
"residual add" both adds).

With --compare EXPLAIN.json (the output of `paraplan explain ... --format json`) and --measured
LAYER.jsonl (this script's output), no GPU is needed: it prints explain's rows beside the
measured ones and the bottom-up sum beside the measured layer.
"""
import argparse
import json
import statistics
import sys


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hidden", type=int, default=4096)
    p.add_argument("--ffn", type=int, default=14336)
    p.add_argument("--heads", type=int, default=32)
    p.add_argument("--kv-heads", type=int, default=8)
    p.add_argument("--vocab", type=int, default=128256)
    p.add_argument("--seq", type=int, default=8192)
    p.add_argument("--micro-batch", type=int, default=1)
    p.add_argument("--rope-theta", type=float, default=500000.0)
    p.add_argument("--dtype", choices=["bf16", "autocast"], default="bf16")
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--iters", type=int, default=10)
    p.add_argument("--compile", action="store_true", help="also time the layer under torch.compile")
    p.add_argument("--no-te", action="store_true", help="leave out TransformerEngine")
    p.add_argument("--compare", metavar="EXPLAIN_JSON",
                   help="compare explain's layer table with --measured (no GPU needed)")
    p.add_argument("--measured", metavar="LAYER_JSONL", help="this script's output, for --compare")
    p.add_argument("--framework", default="eager", help="with --compare: which framework's rows")
    return p.parse_args()


# --- comparison (no torch needed) --------------------------------------------------------

def load_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def compare(explain_path, measured_path, framework):
    with open(explain_path) as f:
        explain = json.load(f)
    kinds = explain.get("layer_ops") or []
    if not kinds:
        print(f"layer_check.py: {explain_path} has no layer_ops (run `paraplan explain ... "
              "--format json`)", file=sys.stderr)
        return 2
    predicted = kinds[0]
    measured = {}
    layer = {}
    for r in load_jsonl(measured_path):
        if r.get("framework") != framework:
            continue
        if r.get("record") == "op" and r.get("paraplan_op"):
            key = (r["paraplan_op"], r["pass"])
            measured[key] = measured.get(key, 0.0) + r["time_ms"]
        elif r.get("record") == "layer":
            layer[r["pass"]] = r["time_ms"]
    print(f"{'op':28} {'pred fwd':>9} {'meas fwd':>9} {'pred bwd':>9} {'meas bwd':>9}  (ms)")
    sums = {"pred_fwd": 0.0, "meas_fwd": 0.0, "pred_bwd": 0.0, "meas_bwd": 0.0}
    for op in predicted["ops"]:
        name = op["op"]
        pf, pb = op["fwd_s"] * 1e3, op["bwd_s"] * 1e3
        mf, mb = measured.get((name, "fwd")), measured.get((name, "bwd"))
        sums["pred_fwd"] += pf
        sums["pred_bwd"] += pb
        sums["meas_fwd"] += mf or 0.0
        sums["meas_bwd"] += mb or 0.0
        fmt = lambda v: f"{v:9.3f}" if v is not None else f"{'-':>9}"
        print(f"{name:28} {pf:9.3f} {fmt(mf)} {pb:9.3f} {fmt(mb)}")
    print(f"{'sum of rows':28} {sums['pred_fwd']:9.3f} {sums['meas_fwd']:9.3f} "
          f"{sums['pred_bwd']:9.3f} {sums['meas_bwd']:9.3f}")
    if "fwd" in layer and "fwd+bwd" in layer:
        lf, lfb = layer["fwd"], layer["fwd+bwd"]
        meas_sum = sums["meas_fwd"] + sums["meas_bwd"]
        pred_sum = sums["pred_fwd"] + sums["pred_bwd"]
        print(f"measured layer: fwd {lf:.3f} ms, fwd+bwd {lfb:.3f} ms")
        print(f"bottom-up sum of measured ops vs measured layer (fwd+bwd): "
              f"{(meas_sum - lfb) / lfb * 100:+.1f} %")
        print(f"explain's layer vs measured layer (fwd+bwd): {(pred_sum - lfb) / lfb * 100:+.1f} %")
    return 0


# --- measurement -------------------------------------------------------------------------

def main_measure(a):
    import torch
    import torch.nn.functional as F

    if not torch.cuda.is_available():
        print("layer_check.py: no CUDA GPU is visible", file=sys.stderr)
        return 2
    dev = "cuda"
    bf16 = torch.bfloat16
    wdtype = bf16 if a.dtype == "bf16" else torch.float32
    head_dim = a.hidden // a.heads
    groups = a.heads // a.kv_heads
    b, s, h = a.micro_batch, a.seq, a.hidden
    meta = {"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__, "hidden": h,
            "ffn": a.ffn, "heads": a.heads, "kv_heads": a.kv_heads, "seq": s, "micro_batch": b,
            "vocab": a.vocab, "dtype": a.dtype}

    records = []

    def emit(**fields):
        records.append(fields)
        print(json.dumps({**fields, **meta}), flush=True)

    def time_ms(fn):
        for _ in range(a.warmup):
            fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(a.iters):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        return statistics.median(times)

    def autocast():
        return torch.autocast("cuda", dtype=bf16, enabled=a.dtype == "autocast")

    # RoPE tables (rotate-half layout), [s, head_dim].
    inv_freq = a.rope_theta ** (-torch.arange(0, head_dim, 2, device=dev).float() / head_dim)
    angles = torch.outer(torch.arange(s, device=dev).float(), inv_freq)
    cos = torch.cat([angles.cos()] * 2, dim=-1).to(bf16)
    sin = torch.cat([angles.sin()] * 2, dim=-1).to(bf16)

    def rope(x):  # x: [b, s, heads, head_dim]
        x1, x2 = x[..., : head_dim // 2], x[..., head_dim // 2:]
        rotated = torch.cat([-x2, x1], dim=-1)
        return x * cos[None, :, None, :] + rotated * sin[None, :, None, :]

    torch.manual_seed(0)
    norm1 = torch.nn.RMSNorm(h, eps=1e-5, device=dev, dtype=wdtype)
    qkv = torch.nn.Linear(h, (a.heads + 2 * a.kv_heads) * head_dim, bias=False, device=dev,
                          dtype=wdtype)
    proj = torch.nn.Linear(a.heads * head_dim, h, bias=False, device=dev, dtype=wdtype)
    norm2 = torch.nn.RMSNorm(h, eps=1e-5, device=dev, dtype=wdtype)
    up = torch.nn.Linear(h, 2 * a.ffn, bias=False, device=dev, dtype=wdtype)
    down = torch.nn.Linear(a.ffn, h, bias=False, device=dev, dtype=wdtype)
    modules = [norm1, qkv, proj, norm2, up, down]
    params = [p for m in modules for p in m.parameters()]

    def attention(q, k, v):  # [b, s, heads, d] each (k, v with kv heads)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))
        k, v = k.repeat_interleave(groups, dim=1), v.repeat_interleave(groups, dim=1)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2)

    def layer(x):
        y = qkv(norm1(x)).view(b, s, a.heads + 2 * a.kv_heads, head_dim)
        q, k, v = y.split([a.heads, a.kv_heads, a.kv_heads], dim=2)
        o = attention(rope(q), rope(k), v)
        x = x + proj(o.reshape(b, s, -1))
        g, u = up(norm2(x)).chunk(2, dim=-1)
        return x + down(F.silu(g) * u)

    def rand(*shape):
        return torch.randn(*shape, device=dev, dtype=bf16)

    def time_op(framework, name, paraplan_op, fn, inputs, weights=()):
        """Forward of fn(*inputs), then the gradient w.r.t. inputs and weights."""
        inputs = [t.detach().requires_grad_(True) for t in inputs]
        with autocast():
            out = fn(*inputs)
        grad = torch.randn_like(out)
        targets = inputs + list(weights)

        def fwd():
            with torch.no_grad(), autocast():
                fn(*inputs)

        def bwd():
            torch.autograd.grad(out, targets, grad, retain_graph=True)

        for pass_name, f in (("fwd", fwd), ("bwd", bwd)):
            emit(record="op", framework=framework, op=name, paraplan_op=paraplan_op,
                 **{"pass": pass_name}, time_ms=round(time_ms(f), 4))

    from torch.nn.attention import SDPBackend, sdpa_kernel
    with sdpa_kernel([SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION]):
        x = rand(b, s, h)
        time_op("eager", "rmsnorm 1", "norm", norm1, [x], norm1.parameters())
        time_op("eager", "qkv proj", "qkv proj", qkv, [x], qkv.parameters())
        time_op("eager", "rope q", "rope", rope, [rand(b, s, a.heads, head_dim)])
        time_op("eager", "rope k", "rope", rope, [rand(b, s, a.kv_heads, head_dim)])
        time_op("eager", "sdpa (with GQA repeat)", "core attention", attention,
                [rand(b, s, a.heads, head_dim), rand(b, s, a.kv_heads, head_dim),
                 rand(b, s, a.kv_heads, head_dim)])
        time_op("eager", "out proj", "out proj", proj, [rand(b, s, a.heads * head_dim)],
                proj.parameters())
        time_op("eager", "residual add 1", "residual add", torch.add, [x, rand(b, s, h)])
        time_op("eager", "rmsnorm 2", "norm", norm2, [x], norm2.parameters())
        time_op("eager", "mlp up", "mlp up", up, [x], up.parameters())
        time_op("eager", "swiglu", "activation", lambda g, u: F.silu(g) * u,
                [rand(b, s, a.ffn), rand(b, s, a.ffn)])
        time_op("eager", "mlp down", "mlp down", down, [rand(b, s, a.ffn)], down.parameters())
        time_op("eager", "residual add 2", "residual add", torch.add, [x, rand(b, s, h)])

        def time_layer(framework, fn, inputs, weights):
            inputs = [t.detach().requires_grad_(True) for t in inputs]
            grad = rand(*fn(*inputs).shape)

            def fwd():
                with torch.no_grad(), autocast():
                    fn(*inputs)

            def fwd_bwd():
                with autocast():
                    out = fn(*inputs)
                torch.autograd.grad(out, inputs + list(weights), grad)

            f_ms, fb_ms = time_ms(fwd), time_ms(fwd_bwd)
            emit(record="layer", framework=framework, **{"pass": "fwd"}, time_ms=round(f_ms, 4))
            emit(record="layer", framework=framework, **{"pass": "fwd+bwd"},
                 time_ms=round(fb_ms, 4))
            return f_ms, fb_ms

        layer_fwd, layer_fb = time_layer("eager", layer, [x], params)
        op_sum = {p: sum(r["time_ms"] for r in records
                         if r["record"] == "op" and r["framework"] == "eager" and r["pass"] == p)
                  for p in ("fwd", "bwd")}
        emit(record="summary", framework="eager", sum_of_ops_fwd_ms=round(op_sum["fwd"], 4),
             sum_of_ops_bwd_ms=round(op_sum["bwd"], 4), layer_fwd_ms=round(layer_fwd, 4),
             layer_fwd_bwd_ms=round(layer_fb, 4),
             gap_fwd_bwd_pct=round((op_sum["fwd"] + op_sum["bwd"] - layer_fb) / layer_fb * 100, 2))
        if a.compile:
            time_layer("compile", torch.compile(layer), [x], params)

        # Step-end ops: output layer + loss, AdamW over the layer, grad norm.
        out_layer = torch.nn.Linear(h, a.vocab, bias=False, device=dev, dtype=wdtype)
        labels = torch.randint(0, a.vocab, (b * s,), device=dev)

        def logits_loss(t):
            with autocast():
                return F.cross_entropy(out_layer(t).float().view(-1, a.vocab), labels)

        t_in = x.detach().requires_grad_(True)
        loss = logits_loss(t_in)
        def logits_loss_fwd():
            with torch.no_grad():
                logits_loss(t_in)

        emit(record="step_end", framework="eager", op="logits+loss", **{"pass": "fwd"},
             time_ms=round(time_ms(logits_loss_fwd), 4))
        emit(record="step_end", framework="eager", op="logits+loss", **{"pass": "bwd"},
             time_ms=round(time_ms(lambda: torch.autograd.grad(
                 loss, [t_in, out_layer.weight], retain_graph=True)), 4))
        del loss, out_layer
        masters = [torch.nn.Parameter(p.detach().float()) for p in params]
        for m in masters:
            m.grad = torch.randn_like(m)
        opt = torch.optim.AdamW(masters, lr=1e-5, fused=True)
        emit(record="step_end", framework="eager", op="adamw", params=sum(m.numel() for m in masters),
             time_ms=round(time_ms(opt.step), 4))
        emit(record="step_end", framework="eager", op="grad_norm",
             time_ms=round(time_ms(lambda: torch.nn.utils.clip_grad_norm_(masters, 1.0)), 4))

    if not a.no_te:
        try:
            time_transformer_engine(a, emit, time_ms, torch)
        except Exception as e:  # keep the eager records already written
            print(f"layer_check.py: TransformerEngine timing failed: {e!r}", file=sys.stderr)
            return 1
    return 0


def time_transformer_engine(a, emit, time_ms, torch):
    try:
        import transformer_engine.pytorch as te
    except Exception as e:  # not installed, or no matching build
        print(f"layer_check.py: TransformerEngine not importable ({e}); eager only",
              file=sys.stderr)
        return
    dev, bf16 = "cuda", torch.bfloat16
    b, s, h = a.micro_batch, a.seq, a.hidden
    layer = te.TransformerLayer(h, a.ffn, a.heads, num_gqa_groups=a.kv_heads,
                                normalization="RMSNorm", activation="swiglu", bias=False,
                                hidden_dropout=0.0, attention_dropout=0.0,
                                self_attn_mask_type="causal", params_dtype=bf16,
                                fuse_qkv_params=True, device=dev)
    rotary = None
    try:
        try:  # TransformerEngine 2.x
            from transformer_engine.pytorch.attention.rope import RotaryPositionEmbedding
        except ImportError:  # 1.x
            from transformer_engine.pytorch.attention import RotaryPositionEmbedding
        rotary = RotaryPositionEmbedding(h // a.heads)(s).to(dev)
    except Exception as e:
        print(f"layer_check.py: TransformerEngine without RotaryPositionEmbedding ({e}); "
              "timing its layer without RoPE", file=sys.stderr)
    x = torch.randn(s, b, h, device=dev, dtype=bf16, requires_grad=True)  # TE: [s, b, h]
    params = list(layer.parameters())
    kwargs = {"rotary_pos_emb": rotary} if rotary is not None else {}
    grad = torch.randn(s, b, h, device=dev, dtype=bf16)

    def fwd():
        with torch.no_grad():
            layer(x, **kwargs)

    def fwd_bwd():
        torch.autograd.grad(layer(x, **kwargs), [x] + params, grad)

    emit(record="layer", framework="te", **{"pass": "fwd"}, time_ms=round(time_ms(fwd), 4))
    emit(record="layer", framework="te", **{"pass": "fwd+bwd"},
         time_ms=round(time_ms(fwd_bwd), 4))
    norm = te.RMSNorm(h, eps=1e-5, params_dtype=bf16, device=dev)
    out = norm(x)

    emit(record="op", framework="te", op="rmsnorm", paraplan_op="norm", **{"pass": "fwd"},
         time_ms=round(time_ms(lambda: norm(x.detach())), 4))
    emit(record="op", framework="te", op="rmsnorm", paraplan_op="norm", **{"pass": "bwd"},
         time_ms=round(time_ms(lambda: torch.autograd.grad(
             out, [x] + list(norm.parameters()), grad, retain_graph=True)), 4))


def main():
    a = parse_args()
    if a.compare:
        if not a.measured:
            print("layer_check.py: --compare needs --measured LAYER.jsonl", file=sys.stderr)
            return 2
        return compare(a.compare, a.measured, a.framework)
    return main_measure(a)


if __name__ == "__main__":
    sys.exit(main())
