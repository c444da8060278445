#!/usr/bin/env python3
"""Collect Netbench flow_completion.csv.log files into one CSV (a row per flow) and write,
per run, the same flows as an htsim connection matrix for fabsim (`workload.kind = "htsim"`).

usage: netbench_results.py OUT_DIR RUN_DIR...   (each RUN_DIR is a Netbench run folder)
Netbench numbers its 32 servers 12..43 (ToR l holds servers 12 + 8 l .. 12 + 8 l + 7, after
the 4 leaves and 8 spines); fabsim's hosts are 0..31 in the same order, so host = server - 12.
Netbench times are nanoseconds; the connection matrix takes picoseconds.
"""
import math, os, sys

FIRST_SERVER, HOSTS = 12, 32

def quantile(xs, q):
    xs = sorted(xs)
    return xs[max(math.ceil(len(xs) * q) - 1, 0)]

out = sys.argv[1]
flows = open(os.path.join(out, "netbench_flows.csv"), "w")
flows.write("run,flow_id,src_host,dst_host,size_bytes,start_ns,end_ns,fct_ns,completed\n")
runs = open(os.path.join(out, "netbench_runs.csv"), "w")
runs.write("run,flows,completed,last_end_ns,fct_p50_ns,fct_p99_ns,fct_mean_ns\n")
for d in sys.argv[2:]:
    name = os.path.basename(os.path.normpath(d))
    rows = [l.strip().split(",") for l in open(os.path.join(d, "flow_completion.csv.log"))]
    done = []
    cm = [f"Nodes {HOSTS}", f"Connections {len(rows)}"]
    for fid, s, t, _sent, size, st, end, dur, ok in rows:
        s, t = int(s) - FIRST_SERVER, int(t) - FIRST_SERVER
        ok = ok == "TRUE"
        flows.write(f"{name},{fid},{s},{t},{size},{st},{end if ok else ''},{dur if ok else ''},{int(ok)}\n")
        if ok:
            done.append((int(dur), int(end)))
        cm.append(f"{s}->{t} id {int(fid) + 1} start {int(st) * 1000} size {size}")
    open(os.path.join(out, name + ".cm"), "w").write("\n".join(cm) + "\n")
    f = [x for x, _ in done]
    runs.write(f"{name},{len(rows)},{len(done)},{max(e for _, e in done)},{quantile(f, .5)},"
               f"{quantile(f, .99)},{sum(f) / len(f):.0f}\n")
