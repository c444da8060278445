#!/usr/bin/env python3
"""Turn htsim_uec stdout files into two CSVs: one row per flow and one row per run.

usage: htsim_results.py COMMANDS_TXT RUN_DIR OUT_DIR
COMMANDS_TXT holds one `name|command line` per run; RUN_DIR holds `name.out` (stdout) and
the connection files named in the commands. htsim prints, per flow, the time at which the
sender holds the ACK of its last byte ("finished at", in microseconds); all flows in these
files start at 0, so that time is the flow completion time. Quantiles are nearest rank.
"""
import math, os, re, sys

def quantile(xs, q):
    xs = sorted(xs)
    return xs[max(math.ceil(len(xs) * q) - 1, 0)]

def conns(path):
    out = {}
    for line in open(path):
        m = re.match(r"(\d+)->(\d+) id (\d+) start (\d+) size (\d+)", line)
        if m:
            s, d, i, st, sz = map(int, m.groups())
            out[i] = (s, d, st, sz)
    return out

cmds, rundir, outdir = sys.argv[1:4]
flows = open(os.path.join(outdir, "htsim_flows.csv"), "w")
flows.write("run,flow_id,src,dst,size_bytes,start_us,fct_us\n")
runs = open(os.path.join(outdir, "htsim_runs.csv"), "w")
runs.write("run,traffic,lb,paths,seed,flows,cct_us,fct_p50_us,fct_p99_us,"
           "fct_mean_us,new_pkts,rtx_pkts,nacks,acks\n")
for line in open(cmds):
    name, cmd = line.rstrip("\n").split("|", 1)
    args = cmd.split()
    arg = lambda k, d=None: args[args.index(k) + 1] if k in args else d
    tm = conns(os.path.join(rundir, arg("-tm")))
    text = open(os.path.join(rundir, name + ".out")).read()
    fin = {int(i): float(t) for i, t in re.findall(r"flowId (\d+) \S+ \d+ finished at (\S+)", text)}
    assert len(fin) == len(tm), (name, len(fin), len(tm))
    for i in sorted(tm):
        s, d, st, sz = tm[i]
        flows.write(f"{name},{i},{s},{d},{sz},{st},{fin[i] - st:.4f}\n")
    f = [fin[i] - tm[i][2] for i in tm]
    st = dict(re.findall(r"(New|Rtx|NACKs|ACKs): (\d+)", text))
    runs.write(f"{name},{arg('-tm')},{arg('-load_balancing_algo')},{arg('-paths', '64')},"
               f"{arg('-seed')},{len(f)},{max(fin.values()):.4f},{quantile(f, .5):.4f},"
               f"{quantile(f, .99):.4f},{sum(f) / len(f):.4f},{st['New']},{st['Rtx']},"
               f"{st['NACKs']},{st['ACKs']}\n")
