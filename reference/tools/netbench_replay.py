#!/usr/bin/env python3
"""Turn a Netbench run's flow_completion.csv.log into a replay properties file: a copy of
TEMPLATE whose traffic is the run's flows as an explicit `traffic_arrivals_list`
((start ns, src, dst, bytes); every flow, finished or not), with the given run name, seed
and run time.

usage: netbench_replay.py TEMPLATE RUN_DIR NAME SEED RUN_TIME_NS OUT
"""
import sys
tpl, rundir, name, seed, runtime, out = sys.argv[1:7]
rows = [l.strip().split(",") for l in open(rundir + "/flow_completion.csv.log")]
arr = ";".join(f"({st},{s},{t},{size})" for _fid, s, t, _sent, size, st, *_ in rows)
keep = []
for line in open(tpl):
    k = line.split("=", 1)[0].strip()
    if k in ("seed", "run_time_ns", "run_folder_name", "traffic", "traffic_lambda_flow_starts_per_s",
             "traffic_flow_size_dist", "traffic_probabilities_generator", "traffic_arrivals_list"):
        continue
    if line.startswith("# pFabric") or line.startswith("# the "):
        continue
    keep.append(line.rstrip("\n"))
while keep and keep[-1] == "":
    keep.pop()
keep[4:4] = [f"seed={seed}", f"run_time_ns={runtime}", f"run_folder_name={name}"]
keep += ["", f"# the {len(rows)} flows of {rundir.rstrip('/').split('/')[-1]} (start ns, src, dst, bytes), run to completion",
         "traffic=traffic_arrivals_string", f"traffic_arrivals_list={arr}"]
open(out, "w").write("\n".join(keep) + "\n")
