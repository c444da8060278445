#!/usr/bin/env python3
"""Write an all-to-all as an htsim connection matrix: every ordered pair (i, j), i != j,
sends SIZE bytes at time 0. Flow ids run 1.. in order of (i, j).

usage: alltoall.py HOSTS SIZE OUT   (a2a128_64KiB.cm: alltoall.py 128 65536 a2a128_64KiB.cm)
"""
import sys
n, size, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
pairs = [(i, j) for i in range(n) for j in range(n) if i != j]
with open(out, "w") as f:
    f.write(f"Nodes {n}\nConnections {len(pairs)}\n")
    for k, (i, j) in enumerate(pairs, 1):
        f.write(f"{i}->{j} id {k} start 0 size {size}\n")
