#!/usr/bin/env bash
# One prepared calibration sweep for a single-GPU machine: memory, GEMMs (a fit set and a held-out
# set of shapes), the element-wise ops (ops mode, layer_check.py) and attention (the harness's cuDNN SDPA, cuDNN SDPA through PyTorch as a
# cross-check, and the harness's naive kernel). NCCL
# needs two GPUs or more (the harness refuses one), so collectives are not part of this sweep.
# Each step has its own time limit, so one slow step cannot starve the rest; rows finished before a limit stay in the CSV (the harness writes atomically).
# Usage: calibrate/tools/one-gpu-sweep.sh HARNESS_BINARY OUT_DIR
set -uo pipefail
BIN="${1:?path to paraplan-calibrate}"
OUT="${2:?output folder}"
mkdir -p "$OUT"
LOG="$OUT/sweep.log"
here="$(cd "$(dirname "$0")" && pwd)"

# cuBLASLt and NCCL: the toolkit's folder first, then the pip wheels PyTorch brings.
libdirs=""
for lib in libcublasLt.so.13 libnccl.so.2; do
  d="$(find /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/lib/x86_64-linux-gnu /opt /usr/local/lib \
        -name "$lib" 2>/dev/null | head -1)"
  [ -n "$d" ] && libdirs="$libdirs:$(dirname "$d")"
done
export LD_LIBRARY_PATH="${libdirs#:}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
{
  date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit \
    --format=csv; echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"; ldd "$BIN" | grep -E "cublas|nccl|cudnn"
} >"$LOG" 2>&1
cat "$LOG"

step() {  # step NAME SECONDS COMMAND...
  local name="$1" secs="$2"; shift 2
  local t0=$SECONDS
  echo "=== $name (limit ${secs}s)" | tee -a "$LOG"
  timeout "$secs" "$@" >>"$LOG" 2>&1
  echo "=== $name: exit $? after $((SECONDS - t0))s" | tee -a "$LOG"
}

step memory 40 "$BIN" memory -o "$OUT/memory.csv"
# Fit set: the generic grid and a Llama-3 70B layer under tp 1-8, micro-batch 1-4 (seq 8192).
step gemm-fit 120 "$BIN" gemm --hidden 8192 --ffn 28672 --heads 64 \
  --kv-heads 8 --seq 8192 --tp-list 1,2,4,8 --mb-list 1,2,4 -o "$OUT/gemm_fit.csv"
# PyTorch brings its own cuDNN; the library path set above would load an older one.
step attention-sdpa 80 env -u LD_LIBRARY_PATH python3 "$here/attention_sdpa.py" \
  -o "$OUT/attention_sdpa.csv"
# Held out of the fit: GPT-3 175B (GELU, seq 2048) and Llama-3 8B layers, no grid.
step gemm-holdout-gpt3 45 "$BIN" gemm --no-grid --hidden 12288 \
  --ffn 49152 --heads 96 --seq 2048 --no-gated --tp-list 1,2,4,8 --mb-list 1,2 \
  -o "$OUT/gemm_holdout.csv"
step gemm-holdout-llama8b 35 "$BIN" gemm --no-grid --resume \
  --hidden 4096 --ffn 14336 --heads 32 --kv-heads 8 --seq 8192 --tp-list 1,2,4,8 \
  --mb-list 1,2 -o "$OUT/gemm_holdout.csv"
# The harness's cuDNN SDPA (fwd + bwd, checked against a host reference first), with PyTorch's
# cuDNN first on the library path (the CUDA wheels' folder may hold an older cuDNN 9).
cudnn_so="$(find /opt /usr -name libcudnn.so.9 2>/dev/null | grep nvidia/cudnn/lib | head -1)"
[ -z "$cudnn_so" ] && cudnn_so="$(find /opt /usr -name libcudnn.so.9 2>/dev/null | head -1)"
cudnn_path="${cudnn_so:+$(dirname "$cudnn_so"):}$LD_LIBRARY_PATH"
step attention-cudnn 60 env LD_LIBRARY_PATH="$cudnn_path" "$BIN" attention --backend cudnn \
  --seq-list 1024,2048,4096,8192 --heads 8 --head-dim 128 --tokens 32768 \
  -o "$OUT/attention_cudnn_harness.csv"
step attention-cudnn-d64 40 env LD_LIBRARY_PATH="$cudnn_path" "$BIN" attention --backend cudnn \
  --resume --skip-check --seq-list 1024,2048,4096,8192 --heads 16 --head-dim 64 --tokens 32768 \
  -o "$OUT/attention_cudnn_harness.csv"
# Our kernels of the element-wise ops, the loss, Adam and grad-norm (checked against host
# references first), then one layer op by op and whole in PyTorch (and TransformerEngine if
# installed): docs/calibration.md, "Element-wise ops" and "One layer, op by op".
step ops 120 "$BIN" ops -o "$OUT/ops.csv"
step layer-check 180 sh -c "env -u LD_LIBRARY_PATH python3 '$here/layer_check.py' > '$OUT/layer_llama3_8b.jsonl'"
step attention-naive 40 "$BIN" attention --backend naive --seq-list 1024,2048,4096,8192 --heads 32 --head-dim 128 \
  -o "$OUT/attention_naive.csv"
wc -l "$OUT"/*.csv | tee -a "$LOG"
