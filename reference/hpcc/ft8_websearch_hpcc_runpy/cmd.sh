#!/bin/bash
# Reference run of case ft8_websearch_hpcc_runpy with the HPCC ns-3 simulator built at /work/ref51/hpcc (commit 9f4be2a9ead8a90e8bf732c66bd758c00e58e5be)
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=/work/ref51/hpcc/simulation/build
nice -n 10 /usr/bin/time -v -o time.txt /work/ref51/hpcc/simulation/build/scratch/third config.txt > stdout.txt 2> stderr.txt
