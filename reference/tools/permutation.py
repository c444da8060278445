"""Write a random permutation (a derangement: nobody sends to itself) as an htsim connection
matrix: every host sends SIZE bytes to its partner at time 0.

usage: permutation.py HOSTS SIZE SEED OUT   (perm*.cm here: SEED 1)
"""
import random, sys
n, size, seed, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = random.Random(seed)
while True:
    p = list(range(n)); rng.shuffle(p)
    if all(p[i] != i for i in range(n)): break
with open(out, "w") as f:
    f.write(f"Nodes {n}\nConnections {n}\n")
    for i in range(n):
        f.write(f"{i}->{p[i]} id {i+1} start 0 size {size}\n")
