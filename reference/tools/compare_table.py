#!/usr/bin/env python3
"""Print the reference-vs-fabsim tables (markdown) from the CSVs in reference/.

usage (from reference/): compare_table.py
Reference numbers: mean over the seeds of each run's CCT, median and p99 FCT (htsim), or the
one run (Netbench). fabsim numbers: the same statistics from fabsim_runs.csv, mean over its
seeds. Quantiles are nearest rank in both.
"""
import csv, json, math
from collections import defaultdict

def q(xs, p):
    xs = sorted(xs)
    return xs[max(math.ceil(len(xs) * p) - 1, 0)]

mean = lambda xs: sum(xs) / len(xs)
COLS = ("cct_us", "fct_p50_us", "fct_p99_us")
ref = defaultdict(list)
for r in csv.DictReader(open("htsim/htsim_runs.csv")):
    ref[r["run"].rsplit("_s", 1)[0]].append(r)
fab = defaultdict(list)
for r in csv.DictReader(open("fabsim_runs.csv")):
    fab[r["scenario"]].append(r)

def row(name, seeds, a, b):
    cells = []
    for x, y in zip(a, b):
        cells += [f"{x:.1f}", f"{y:.1f}", f"{100 * (y - x) / x:+.1f}%"]
    print(f"| {name} | {seeds} | " + " | ".join(cells) + " |")

print("| scenario | seeds ref/fabsim | CCT ref | CCT fabsim | diff | p50 ref | p50 fabsim | diff "
      "| p99 ref | p99 fabsim | diff |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
HTSIM = ["k8_perm1MiB_reps", "k8_perm1MiB_oblivious", "k12_perm1MiB_reps",
         "k12_perm1MiB_oblivious", "k8_perm4MiB_reps", "k8_perm16MiB_reps", "k8_perm1MiB_ecmp",
         "k8_perm1MiB_dctcp_reps", "k8_incast32_reps", "k8_incast64_reps", "k8_a2a64KiB_reps"]
for k in HTSIM + [k + "_ackall" for k in HTSIM[:4]] + [k + "@htsim" for k in HTSIM]:
    f = fab[k.replace("_ackall", "")]
    r = ref[k.replace("@htsim", "")]
    a = [mean([float(x[c]) for x in r]) for c in COLS]
    b = [mean([float(x[c]) for x in f]) for c in COLS]
    row("htsim " + k, f"{len(r)}/{len(f)}", a, b)
nb = defaultdict(list)
for r in csv.DictReader(open("netbench/netbench_flows.csv")):
    nb[r["run"]].append(r)
for k in ["websearch_replay", "websearch50_replay", "idle_single", "incast16"]:
    fl = nb[k]
    f = [int(r["fct_ns"]) / 1000 for r in fl]
    a = [max(int(r["end_ns"]) for r in fl) / 1000, q(f, .5), q(f, .99)]
    for v in ("", "@netbench"):
        row("netbench " + k + v, "1/1", a, [float(fab["nb_" + k + v][0][c]) for c in COLS])
print()
ws = json.load(open("fabsim_websearch_by_size.json"))
print("| websearch_replay bucket | flows | mean ref | mean fabsim / @netbench | p50 ref "
      "| p50 fabsim / @netbench | p99 ref | p99 fabsim / @netbench |")
print("|---|---|---|---|---|---|---|---|")
for lo, hi, name in [(0, 10**4, "<10KB"), (10**4, 10**5, "10KB-100KB"),
                     (10**5, 10**6, "100KB-1MB"), (10**6, 1 << 62, ">=1MB")]:
    f = [int(r["fct_ns"]) / 1000 for r in nb["websearch_replay"]
         if lo <= int(r["size_bytes"]) < hi]
    w, n = ws["fabsim"][name], ws["netbench"][name]
    print(f"| {name} | {len(f)} | {mean(f):.1f} | {w['mean_us']:.1f} / {n['mean_us']:.1f} | "
          f"{q(f, .5):.1f} | {w['p50_us']:.1f} / {n['p50_us']:.1f} | {q(f, .99):.1f} | "
          f"{w['p99_us']:.1f} / {n['p99_us']:.1f} |")
