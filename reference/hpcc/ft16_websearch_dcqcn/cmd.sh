#!/bin/bash
# Reference run of case ft16_websearch_dcqcn with the HPCC ns-3 simulator built at /work/ref51/hpcc (commit 9f4be2a9ead8a90e8bf732c66bd758c00e58e5be)
# CPU limit 25 min (1500 s): the kernel stops the run with SIGXCPU if it needs more; fct.txt is flushed per flow.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=/work/ref51/hpcc/simulation/build
ulimit -t 1500
nice -n 10 /usr/bin/time -v -o time.txt /work/ref51/hpcc/simulation/build/scratch/third config.txt > stdout.txt 2> stderr.txt
