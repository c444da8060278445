#!/usr/bin/env python3
"""Write an incast as an htsim connection matrix: hosts 1..SENDERS each send SIZE bytes to
host 0 at time 0, on a fabric of HOSTS hosts.

usage: incast.py HOSTS SENDERS SIZE OUT   (incast128_64to1_256KiB.cm: incast.py 128 64 262144 ...)
"""
import sys
n, m, size, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
with open(out, "w") as f:
    f.write(f"Nodes {n}\nConnections {m}\n")
    for i in range(1, m + 1):
        f.write(f"{i}->0 id {i} start 0 size {size}\n")
