#!/usr/bin/env python3
"""Checks paraplan's progress bars under a pseudo terminal, and their silence when piped.

Usage: progress_pty_check.py PARAPLAN

For each long-running command (a study, a GPU-count sweep of `plan`, `validate --cv source`) on
a small input, with PARAPLAN_PROGRESS_DELAY_S=0 so that the bar does not wait its usual second:
  * with stderr on a pseudo terminal (the pty module), stderr shows a bar line
    "[###...]  NN % of N UNIT, ETA ..." and ends erased (no bar left on screen);
  * with stderr piped, stderr holds no bar;
  * stdout (a pipe both times) is byte for byte the same with and without the terminal (but for
    `plan`'s search time).
"""
import os
import pty
import re
import subprocess
import sys
import tempfile

STUDY = """study: pty-progress
model: llama3-8b
cluster: dgx-h100
gpus: 8
plan: {tp: 1, pp: 1, cp: 1, micro_batch: 1, zero: 1, recompute: full}
mode: simulate
metric: step_time_s
zip:
  gpus: [8, 16, 32, 64, 128, 256]
  global_batch: [8, 16, 32, 64, 128, 256]
"""

RUNS = """runs:
  - id: P1
    source: "Paper A, Table 1"
    model: llama3-8b
    cluster: dgx-h100
    gpus: 8
    plan: {tp: 1, pp: 1, dp: 8, micro_batch: 1, global_batch: 8, recompute: full, zero: 1}
    measured: {step_time_s: 2.0}
  - id: P2
    source: "Paper B, Table 2"
    model: llama3-8b
    cluster: dgx-h100
    gpus: 16
    plan: {tp: 1, pp: 1, dp: 16, micro_batch: 1, global_batch: 16, recompute: full, zero: 1}
    measured: {step_time_s: 2.1}
  - id: P3
    source: "Paper C, Figure 3"
    model: llama3-8b
    cluster: dgx-h100
    gpus: 8
    plan: {tp: 2, pp: 1, dp: 4, micro_batch: 1, global_batch: 8, recompute: full, zero: 1}
    measured: {step_time_s: 1.9}
"""

WALL_CLOCK = re.compile(rb" in [0-9.]+ s$", re.M)
BAR = re.compile(r"\[[#.]{30}\] +\d+ % of [\d,]+ (\w[\w -]*), ETA \d")


def run(cmd, tty, env):
    """Runs cmd with stdout piped and stderr on a pseudo terminal (tty) or a pipe."""
    if not tty:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                           timeout=120)
        return p.returncode, p.stdout, p.stderr
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, env=env)
    os.close(slave)
    err = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        err += chunk
    out = p.stdout.read()
    p.wait(timeout=120)
    os.close(master)
    return p.returncode, out, err


def check(name, cmd, unit, env, failures):
    code_tty, out_tty, err_tty = run(cmd, True, env)
    code_pipe, out_pipe, err_pipe = run(cmd, False, env)
    text = err_tty.decode("utf-8", "replace")
    units = [m.group(1) for m in BAR.finditer(text)]
    problems = []
    if code_tty != 0 or code_pipe != 0:
        problems.append(f"exit {code_tty} (terminal), {code_pipe} (piped)")
    if unit not in units:
        problems.append(f"no bar with an ETA counting '{unit}' on the terminal: {text[-400:]!r}")
    if not text.endswith("\r\x1b[K"):
        problems.append(f"the bar is not erased at the end: {text[-80:]!r}")
    if b"% of" in err_pipe or b"\r" in err_pipe:
        problems.append(f"piped stderr shows progress: {err_pipe[-300:]!r}")
    # `plan`'s search time ("in 0.15 s", docs/cli.md "Wall-clock time in the output") is the
    # one part of stdout that changes from run to run.
    if WALL_CLOCK.sub(b"", out_tty) != WALL_CLOCK.sub(b"", out_pipe):
        problems.append("stdout differs with stderr on a terminal")
    for p in problems:
        failures.append(f"{name}: {p}")
    print(f"{name}: {'FAIL' if problems else 'ok'} ({len(units)} bar lines on the terminal)")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    paraplan = sys.argv[1]
    env = dict(os.environ, PARAPLAN_PROGRESS_DELAY_S="0")
    failures = []
    with tempfile.TemporaryDirectory() as work:
        study = os.path.join(work, "study.yaml")
        with open(study, "w") as f:
            f.write(STUDY)
        runs = os.path.join(work, "runs.yaml")
        with open(runs, "w") as f:
            f.write(RUNS)
        check("study", [paraplan, "study", study, "-o", os.path.join(work, "out"),
                        "--threads", "1"], "points", env, failures)
        check("plan sweep", [paraplan, "plan", "-m", "llama3-8b", "-c", "dgx-h100", "-g",
                             "8,16", "--global-batch", "16", "--plan", "tp=1|2,pp=1,cp=1",
                             "--threads", "1"], "GPU counts", env, failures)
        check("plan --exhaustive", [paraplan, "plan", "-m", "llama3-8b", "-c", "dgx-h100", "-g",
                                    "64", "--global-batch", "64", "--exhaustive", "--threads",
                                    "1"], "plans", env, failures)
        check("validate --cv", [paraplan, "validate", runs, "--cv", "source", "--threads", "1"],
              "source folds", env, failures)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
