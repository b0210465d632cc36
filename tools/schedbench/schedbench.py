#!/usr/bin/env python3
"""Compare the simulation schedulers (uniform, faults) as BENCHMARKS.md reports them.

  go build -o /tmp/mcheck ./cmd/mcheck
  (cd examples/coursework && go build -o /tmp/mycheck ./cmd/mycheck)
  python3 tools/schedbench/schedbench.py /tmp/mcheck /tmp/mycheck

One worker per check (--workers 1), so the seconds compare on a shared machine.
Part 1: distinct states per run and per second at a fixed number of runs.
Part 2: runs and seconds to the first violation of the seeded bugs of
examples/coursework (and two of mcheck's own), median over five seeds.
"""
import json
import statistics
import subprocess
import sys

RUNS = "5000"
SEEDS = ["1", "2", "3", "4", "5"]
CONFIGS = [
    "--algo bully --n 8 --crash-any",
    "--algo bully --n 4 --crash-any --restarts 1",
    "--algo bully --n 5 --crashes 2 --detector unreliable",
    "--algo chang-roberts --n 8 --crashes 2",
    "--algo ring --n 5 --crash-any",
    "--algo lelann --n 6 --crashes 1",
    "--algo hirschberg-sinclair --n 8 --crashes 1",
    "--algo bully --n 4 --crash-any --timing partial --timeout 3",
]
BUGS = [
    "--algo cr-no-marks --n 3",
    "--algo ring-no-check --n 3 --crash-any",
    "--algo ring-detect --n 3 --crash-any",
    "--algo bully-no-ok --n 3 --detector unreliable",
    "--algo lelann-notes-order --n 3",
    "--algo bully --n 4 --crashes 1 --restarts 1",
    "--algo chang-roberts --n 4 --crashes 1",
]


def check(binary, args):
    out = subprocess.run([binary] + args.split() + ["--simulate", "--workers", "1", "--json", "--quiet"],
                         capture_output=True, text=True)
    if not out.stdout.strip():
        raise SystemExit("%s %s: %s" % (binary, args, out.stderr.strip()))
    return json.loads(out.stdout)


def main():
    mcheck, mycheck = sys.argv[1], sys.argv[2]
    print("| configuration | scheduler | distinct states | states/run | states/s | crashes+restarts / step |")
    print("|---|---|---:|---:|---:|---:|")
    for c in CONFIGS:
        for s in ["uniform", "faults"]:
            d = check(mcheck, c + " --runs " + RUNS + " --continue --scheduler " + s)
            sim = d["simulation"]
            faults = sum(a["taken"] for a in sim["actions"] if a["kind"] in ("crash", "restart"))
            print("| `%s` | %s | %s | %.1f | %s | %.0f %% |" % (c, s, format(sim["distinct_states"], ","),
                  sim["distinct_states"] / sim["runs"], format(int(sim["distinct_states"] / d["seconds"]), ","),
                  100 * faults / max(sim["steps"], 1)))
    print()
    print("| seeded bug | scheduler | runs to the first violation (median of 5 seeds) | seconds (median) | found |")
    print("|---|---|---:|---:|---:|")
    for c in BUGS:
        for s in ["uniform", "faults"]:
            runs, secs, found = [], [], 0
            for seed in SEEDS:
                d = check(mycheck, c + " --scheduler " + s + " --seed " + seed + " --time-limit 60s")
                sim = d["simulation"]
                if sim["ends"]["violation"] > 0:
                    found += 1
                runs.append(sim["runs"])
                secs.append(d["seconds"])
            print("| `%s` | %s | %s | %.3f | %d/5 |" % (c, s, format(int(statistics.median(runs)), ","), statistics.median(secs), found))


main()
