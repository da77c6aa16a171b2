# NOT RUNNABLE in torchtitan: the best plan (tp=8 pp=8 dp=16 vpp=3 mb=1 recompute=selective zero=1 sp interleaved tp-overlap) cannot be launched there, so no config is written:
#   - zero=1: FSDP2 shards gradients with the optimizer state; torchtitan runs zero=0 (replicate), zero=2 (fsdp_reshard_after_forward=never) or zero=3 (always)
#   - recompute=selective is Megatron-LM's (core attention only); torchtitan's selective is per-op SAC: recompute=op
#   - torchtitan/async-tp-needs-compile: overlap_tp_comm=true (async TP) needs torch.compile (--plan fusion=compile): "Async TP requires 'model' in --compile.components and --compile.enable" (torchtitan b5bcd76 (2026-08-21) and 238fa99 (2026-02-23), torchtitan/config (CompileConfig, b5bcd76); models/llama3/parallelize.py (238fa99))
# Re-run with --framework torchtitan to search only plans torchtitan can run.
