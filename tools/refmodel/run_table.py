#!/usr/bin/env python3
"""Run every configuration of configs.txt (one argument string per line) with
refmodel.py, 2 at a time, each with a time limit; append each JSON result line
to counts.jsonl as it finishes, and list configurations over the limit in
skipped.txt."""
import subprocess, sys, os, time, json, shlex
from concurrent.futures import ThreadPoolExecutor, as_completed
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
LIMIT = float(os.environ.get("LIMIT", "180"))
JOBS = int(os.environ.get("JOBS", "2"))
cfg_file = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "configs.txt")
out_file = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "counts.jsonl")
skip_file = os.environ.get("SKIPFILE", os.path.join(HERE, "skipped.txt"))
lock = threading.Lock()

def run(args):
    t0 = time.time()
    try:
        p = subprocess.run([sys.executable, os.path.join(HERE, "refmodel.py")] + shlex.split(args),
                           capture_output=True, text=True, timeout=LIMIT)
    except subprocess.TimeoutExpired:
        with lock:
            with open(skip_file, "a") as f:
                f.write(f"{args}\t# over {LIMIT:.0f}s\n")
        return args, None
    with lock:
        if p.returncode == 0 and p.stdout.strip():
            with open(out_file, "a") as f:
                f.write(p.stdout.strip() + "\n")
        else:
            with open(skip_file, "a") as f:
                f.write(f"{args}\t# error rc={p.returncode} {p.stderr.strip()[-300:]!r}\n")
    return args, time.time() - t0

cfgs = [l.strip() for l in open(cfg_file) if l.strip() and not l.startswith("#")]
with ThreadPoolExecutor(JOBS) as ex:
    futs = [ex.submit(run, c) for c in cfgs]
    for f in as_completed(futs):
        a, t = f.result()
        print(("SKIP " if t is None else f"{t:6.1f}s ") + a, flush=True)
