#!/bin/bash
# Reference run of the repository's example, config exactly as shipped (simulation/mix/config.txt @ 9f4be2a).
# Run from this folder so the config's relative paths mix/... resolve to the copies here.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=/work/ref51/hpcc/simulation/build
nice -n 10 /usr/bin/time -v -o time.txt /work/ref51/hpcc/simulation/build/scratch/third mix/config.txt > stdout.txt 2> stderr.txt
