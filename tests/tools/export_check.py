#!/usr/bin/env python3
"""paraplan's launch exports through the frameworks' own configuration code (issue 33).

    export_check.py PARAPLAN REALCLIENTS [--sample N] [--seed S] [-v]

REALCLIENTS is ../shared/realclients (check-megatron, check-torchtitan: Megatron-LM d98e8a6's and
torchtitan 238fa99's own argument parsing and start-up checks, see its README). For a table of
models and clusters (dense, GQA, MoE, MLA with MTP) the best plan of `plan --framework X` is
exported with `--format X`, checked, and every value the checker resolves (parallel sizes,
layout, batch, recompute, SP, distributed optimizer / FSDP, fp8, and the model's shape and
launch fields) is compared with the plan paraplan predicted and with the model file. Then N plans
per framework, drawn with a fixed seed from the plans the search ranks, are exported and checked
the same way. A rejected export or a differing value fails (exit 1); exit 77 (skipped) when the
checkers are absent. Python 3 standard library only.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (model, cluster, gpus, global batch): the best plan of each is exported.
BEST = {
    "megatron": [
        ("llama3-8b", "dgx-h100", 8, 64),  # dense GQA
        ("llama3-70b", "dgx-h100", 64, 64),  # dense GQA, ZeRO/FSDP
        ("gpt3-5b", "dgx-a100-80gb", 16, 256),  # dense MHA, biases, LayerNorm
        ("mixtral-8x7b", "dgx-h100", 64, 256),  # MoE
        ("qwen3-30b-a3b", "dgx-h100", 32, 256),  # MoE, many experts
        ("deepseek-v3", "hgx-h800", 256, 1024),  # MLA, MTP, sigmoid router
        ("llama3.1-405b", "dgx-h100", 1024, 512),  # dense, deep pipeline
    ],
    "torchtitan": [
        ("llama3-8b", "dgx-h100", 8, 64),
        ("llama3-70b", "dgx-h100", 64, 64),
        ("llama3.1-405b", "dgx-h100", 512, 512),
    ],
}
BEST["torchtitan-toml"] = BEST["torchtitan"]
# The configurations plans are drawn from (fast searches).
SAMPLE_POOL = {
    "megatron": [
        ("llama3-8b", "dgx-h100", 16, 128),
        ("llama3-70b", "dgx-h100", 64, 128),
        ("mixtral-8x7b", "dgx-h100", 64, 256),
        ("gpt3-5b", "dgx-a100-80gb", 32, 256),
        ("qwen3-30b-a3b", "dgx-h100", 32, 128),
    ],
    "torchtitan": [
        ("llama3-8b", "dgx-h100", 16, 128),
        ("llama3-70b", "dgx-h100", 64, 128),
    ],
}
SAMPLE_POOL["torchtitan-toml"] = SAMPLE_POOL["torchtitan"]
# export kind -> (--framework, --format, file extension)
KINDS = {"megatron": ("megatron", "megatron", ".sh"),
         "torchtitan": ("torchtitan", "torchtitan-py", ".py"),
         "torchtitan-toml": ("torchtitan", "torchtitan", ".toml")}


def load_model(name):
    """The shipped models/NAME.yaml: `key: value` lines and one level of nested maps."""
    model, section = {}, None
    with open(os.path.join(ROOT, "models", name + ".yaml")) as f:
        for line in f:
            line = line.split("#", 1)[0].rstrip()
            if not line.strip():
                continue
            key, _, value = line.strip().partition(":")
            value = value.strip()
            if not line.startswith(" "):
                section = None
                if value == "":
                    section = model.setdefault(key, {})
                    continue
                model[key] = parse_scalar(value)
            elif section is not None:
                section[key] = parse_scalar(value)
    return model


def parse_scalar(text):
    if text in ("true", "false"):
        return text == "true"
    if text == "null":
        return None
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text.strip('"')


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


class Checker:
    def __init__(self, paraplan, clients, verbose):
        self.paraplan, self.clients, self.verbose = paraplan, clients, verbose
        self.failures, self.checked = [], 0
        self.tmp = tempfile.mkdtemp(prefix="paraplan-export-check-")

    def plans(self, kind, model, cluster, gpus, batch, top, plan=None):
        cmd = [self.paraplan, "plan", "-m", model, "-c", cluster, "-g", str(gpus),
               "--global-batch", str(batch), "--framework", KINDS[kind][0], "--format", "json",
               "--top", str(top)]
        if plan:
            cmd += ["--plan", plan]
        r = run(cmd)
        if r.returncode != 0:
            raise RuntimeError(" ".join(cmd) + ": " + r.stderr)
        return json.loads(r.stdout)["plans"]

    def export(self, kind, model, cluster, gpus, batch, plan_string):
        framework, fmt, _ = KINDS[kind]
        cmd = [self.paraplan, "plan", "-m", model, "-c", cluster, "-g", str(gpus),
               "--global-batch", str(batch), "--framework", framework, "--format", fmt,
               "--top", "1", "--plan", plan_string]
        r = run(cmd)
        if r.returncode != 0:
            raise RuntimeError(" ".join(cmd) + ": " + r.stderr)
        return r.stdout

    def check(self, kind, case, plan, label):
        model_name, cluster, gpus, batch = case
        text = self.export(kind, model_name, cluster, gpus, batch, plan["plan_string"])
        path = os.path.join(self.tmp, "paraplan_export%d%s" % (self.checked, KINDS[kind][2]))
        with open(path, "w") as f:
            f.write(text)
        self.checked += 1
        if kind == "megatron":
            cmd = [os.path.join(self.clients, "check-megatron"), "--json", "--world-size",
                   str(gpus), path]
        elif kind == "torchtitan":
            cmd = [os.path.join(self.clients, "check-torchtitan"), "--version", "current",
                   "--config", "paraplan_plan", "--json", "--world-size", str(gpus), path]
        else:
            cmd = [os.path.join(self.clients, "check-torchtitan"), "--version", "toml-2026-02",
                   "--json", "--world-size", str(gpus), path]
        r = run(cmd)
        try:
            got = json.loads(r.stdout)
        except ValueError:
            got = {"status": "ERROR", "message": r.stdout[-400:] + r.stderr[-400:]}
        name = "%s %s: %s %s %d GPUs: %s" % (kind, label, model_name, cluster, gpus,
                                            plan["plan_string"])
        if got.get("status") != "OK":
            self.failures.append("%s\n  %s: %s %s" % (name, got.get("status"), got.get("stage", ""),
                                                     got.get("message", "")))
            return
        expect = (megatron_expected if kind == "megatron" else titan_expected)(
            plan, load_model(model_name), kind == "torchtitan")
        values = got["values"]
        diffs = ["%s: export resolves %r, plan has %r" % (k, values.get(k), v)
                 for k, v in expect.items() if not same(values.get(k), v)]
        if diffs:
            self.failures.append(name + "\n  " + "\n  ".join(diffs))
        elif self.verbose:
            print("ok  " + name)


def exportable(kind, plan):
    """torchtitan 238fa99 replicates (DDP) only on a 1-D mesh; its TOML export refuses the rest."""
    p = plan["plan"]
    return not (kind == "torchtitan-toml" and p["zero"] == 0 and p["dp"] > 1
                and p["tp"] * p["pp"] * p["cp"] > 1)


def same(a, b):
    if isinstance(b, float) or isinstance(a, float):
        try:
            return abs(float(a) - float(b)) <= 1e-12 * max(1.0, abs(float(b)))
        except (TypeError, ValueError):
            return False
    return a == b


def megatron_expected(plan, model, _current):
    p = plan["plan"]
    e = {"tp": p["tp"], "pp": p["pp"], "vpp": p["vpp"], "cp": p["cp"], "dp": p["dp"],
         "micro_batch": p["micro_batch"], "global_batch": p["global_batch"],
         "num_microbatches": p["global_batch"] // (p["micro_batch"] * p["dp"]),
         "sequence_parallel": p["sequence_parallel"] and p["tp"] > 1,
         "recompute_granularity": {"none": None}.get(p["recompute"], p["recompute"]),
         "distributed_optimizer": p["zero"] >= 1, "megatron_fsdp": p["zero"] >= 2,
         "fp8": "hybrid" if p["precision"] == "fp8" else None,
         "overlap_moe_expert_parallel_comm": p["overlap_ep_comm"]}
    if p["zero"] >= 2:
        e["fsdp_sharding"] = "optim_grads" if p["zero"] == 2 else "optim_grads_params"
    if p["pp"] > 1:
        e["stage_layers"] = plan["layout"]["virtual_stage_layers"]
    moe = model.get("moe")
    if moe:
        e.update(ep=p["ep"], etp=p["etp"], num_experts=moe["experts"],
                 moe_router_topk=moe["top_k"],
                 moe_ffn_hidden=moe.get("expert_ffn_hidden", model.get("ffn_hidden")),
                 moe_router_score_function=moe.get("router_score", "softmax"))
    attention = model.get("attention", {})
    mla = attention.get("kind") == "mla"
    e.update(num_layers=model["layers"], hidden=model["hidden"], heads=model["heads"],
             vocab_size=model["vocab"],
             add_bias_linear=model.get("linear_bias", False),
             add_qkv_bias=model.get("linear_bias", False) or model.get("qkv_bias", False),
             hidden_dropout=model.get("dropout", 0.0), attention_dropout=model.get("dropout", 0.0),
             norm_epsilon=model.get("norm_epsilon", 1e-5),
             multi_latent_attention=mla,
             mtp_num_layers=model.get("mtp_layers") or None)
    if "ffn_hidden" in model:
        e["ffn_hidden"] = model["ffn_hidden"]
    if model.get("position", "rope") == "rope" and model["activation"] == "swiglu":
        e["rotary_base"] = model.get("rotary_base", 10000)
    if mla:
        e.update(kv_lora_rank=attention["kv_lora_rank"], qk_head_dim=attention["qk_nope_head_dim"],
                 qk_pos_emb_head_dim=attention["qk_rope_head_dim"],
                 v_head_dim=attention["v_head_dim"], q_lora_rank=attention.get("q_lora_rank"))
    else:
        e["query_groups"] = model.get("kv_heads", model["heads"])
        e["kv_channels"] = model.get("head_dim", model["hidden"] // model["heads"])
    return e


def titan_expected(plan, model, current):
    p = plan["plan"]
    shard = p["zero"] >= 1
    e = {"tp": p["tp"], "pp": p["pp"], "cp": p["cp"],
         "dp_shard": p["dp"] if shard else 1, "dp_replicate": 1 if shard else p["dp"],
         "global_batch": p["global_batch"], "n_layers": model["layers"], "dim": model["hidden"],
         "n_heads": model["heads"], "n_kv_heads": model.get("kv_heads", model["heads"]),
         "vocab_size": model["vocab"], "async_tp": p["overlap_tp_comm"]}
    seq = p["seq_len"] or model["seq_len"]
    if p["pp"] > 1:
        e["stage_layers"] = plan["layout"]["virtual_stage_layers"]
        e["pp_microbatches"] = p["global_batch"] // (p["dp"] * p["micro_batch"])
    if current:
        e.update(tokens_per_microbatch_per_dp_rank=p["micro_batch"] * seq,
                 max_context_length=seq, num_tokens_per_train_step=p["global_batch"] * seq)
    else:
        e["activation_checkpoint"] = {"op": "selective"}.get(p["recompute"], p["recompute"])
        if p["pp"] > 1:
            e["pp_microbatch"] = p["micro_batch"]
        else:
            e["local_batch"] = p["micro_batch"]
    return e


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paraplan")
    ap.add_argument("realclients")
    ap.add_argument("--sample", type=int, default=10, help="drawn plans per framework")
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--kinds", default="megatron,torchtitan,torchtitan-toml",
                    help="exports to check: megatron, torchtitan (current), torchtitan-toml")
    ap.add_argument("--only-if-env", metavar="VAR",
                    help="skip (77) unless the environment variable VAR is 1")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if args.only_if_env and os.environ.get(args.only_if_env) != "1":
        print("skipped: set %s=1 to run this sample" % args.only_if_env)
        return 77
    if not os.path.exists(os.path.join(args.realclients, "check-megatron")):
        print("skipped: no checkers at " + args.realclients)
        return 77
    c = Checker(os.path.abspath(args.paraplan), args.realclients, args.verbose)
    rng = random.Random(args.seed)
    for kind in args.kinds.split(","):
        for case in BEST[kind]:
            plans = c.plans(kind, *case, top=1)
            if plans and exportable(kind, plans[0]):
                c.check(kind, case, plans[0], "best")
        pool = []
        for case in SAMPLE_POOL[kind]:
            pool += [(case, p) for p in c.plans(kind, *case, top=200) if exportable(kind, p)]
        for case, plan in rng.sample(pool, min(args.sample, len(pool))):
            c.check(kind, case, plan, "drawn")
    for failure in c.failures:
        print("FAIL " + failure)
    print("%d exports checked, %d failed" % (c.checked, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
