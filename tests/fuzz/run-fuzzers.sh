#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each, seeded from the shipped files. A crash keeps its
# input under tests/data/fuzz-regressions/<target>/ (commit it: the regression test replays it)
# and fails the script. Usage: tests/fuzz/run-fuzzers.sh BUILD_DIR [SECONDS]
# Each target stops after PARAPLAN_FUZZ_RUNS inputs (default 50000) or SECONDS, whichever comes
# first. PARAPLAN_FUZZ_SEED (default 1) fixes libFuzzer's random seed, so every machine explores
# the same inputs in the same order: CI replays a prefix of what a developer ran to the end.
# Set the seed to 0 (a fresh random seed each time) and raise both limits to hunt for new bugs.
set -uo pipefail
BUILD="${1:?build dir configured with -DPARAPLAN_FUZZ=ON}"
SECS="${2:-60}"
SEED="${PARAPLAN_FUZZ_SEED:-1}"
RUNS="${PARAPLAN_FUZZ_RUNS:-50000}"
cd "$(dirname "$0")/../.."
seeds_for() {
  case "$1" in
    model_yaml) ls models/*.yaml ;;
    hardware_yaml) ls hardware/*.yaml ;;
    plan_string) ls tests/fuzz/seeds/plan_string/* ;;
    set_string) ls tests/fuzz/seeds/set_string/* ;;
    cli_args) ls tests/fuzz/seeds/cli_args/* ;;
    runs_file) ls docs/validation/*.yaml 2>/dev/null ;;
    study_file) ls plans/*.yaml ;;
    hf_config_json) ls tests/data/config/hf/*.json tests/data/config/hf/*/config.json 2>/dev/null ;;
    calibration_csv) ls tests/data/calib/*.csv tests/data/calib/*.txt 2>/dev/null ;;
    calibration_profile) ls tests/fuzz/seeds/calibration_profile/* calibrate/data/*.yaml 2>/dev/null ;;
  esac
}
failed=0
for bin in "$BUILD"/fuzz/fuzz_*; do
  name="$(basename "$bin")"; name="${name#fuzz_}"
  corpus="$(mktemp -d)"
  i=0; for s in $(seeds_for "$name"); do i=$((i + 1)); cp "$s" "$corpus/seed-$i"; done
  out="tests/data/fuzz-regressions/$name"; mkdir -p "$out"
  echo "--- fuzz $name: $RUNS runs or ${SECS}s, seed $SEED ($(ls "$corpus" | wc -l) seeds)"
  if ! "$bin" "$corpus" -max_total_time="$SECS" -runs="$RUNS" -seed="$SEED" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix="$out/" -print_final_stats=1 2>"$corpus.log"; then
    tail -40 "$corpus.log"; failed=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$corpus.log" | tr '\n' ' '; echo
  fi
  rm -rf "$corpus" "$corpus.log"
done
exit $failed
