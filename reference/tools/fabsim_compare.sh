#!/bin/bash
# Run fabsim on the reference traffic files with the nearest settings and print one CSV row
# per run: scenario,seed,cct_us,fct_p50_us,fct_p99_us,flows_completed,flows_total,
# retransmits,trims,drops, and fabsim_websearch_by_size.json. usage: fabsim_compare.sh FABSIM_BINARY (run from reference/)
set -e
F=$1
UEC="--set link.rate_gbps=100 --set link.delay_ns=1000 --set packet.payload_bytes=4096
 --set packet.header_bytes=64 --set switch.overflow=trim --set switch.buffer_bytes=178880
 --set switch.ecn_kmin_bytes=37440 --set switch.ecn_kmax_bytes=145600 --set host.cc=nscc
 --set switch.lb=ecmp --set workload.kind=htsim"
NB="--set topology.tiers=2 --set topology.leaves=4 --set topology.hosts_per_leaf=8
 --set topology.uplinks=8 --set link.rate_gbps=100 --set link.delay_ns=500
 --set packet.payload_bytes=1380 --set packet.header_bytes=120 --set packet.ack_bytes=120
 --set switch.buffer_bytes=400000 --set switch.overflow=drop --set switch.ecn_kmin_bytes=100000
 --set switch.ecn_kmax_bytes=100000 --set host.cc=dctcp --set switch.lb=ecmp --set host.lb=none
 --set workload.kind=htsim --set run.duration_us=20000"
run() { # name, then fabsim arguments
  local name=$1; shift
  "$F" run "$@" --json /tmp/fabsim_compare.json > /dev/null
  jq -r --arg n "$name" '.runs[] | [$n, .seed, .cct_us, .fct_p50_us, .fct_p99_us,
    .flows_completed, .flows_total, .retransmits, .trims, .drops] | @csv' /tmp/fabsim_compare.json
}
echo "scenario,seed,cct_us,fct_p50_us,fct_p99_us,flows_completed,flows_total,retransmits,trims,drops"
for lb in reps oblivious; do
  run k8_perm1MiB_$lb $UEC --set topology.k=8 --set host.lb=$lb --set workload.file=htsim/perm128_1MiB.cm --set run.seeds=5
  run k12_perm1MiB_$lb $UEC --set topology.k=12 --set host.lb=$lb --set workload.file=htsim/perm432_1MiB.cm --set run.seeds=5
done
run k8_perm4MiB_reps $UEC --set topology.k=8 --set host.lb=reps --set workload.file=htsim/perm128_4MiB.cm --set run.seeds=3
run k8_perm1MiB_ecmp $UEC --set topology.k=8 --set host.lb=none --set workload.file=htsim/perm128_1MiB.cm --set run.seeds=3
run k8_incast32_reps $UEC --set topology.k=8 --set host.lb=reps --set workload.file=htsim/incast128_32to1_256KiB.cm --set run.seeds=3
for r in websearch_replay idle_single incast16; do
  run nb_$r $NB --set workload.file=netbench/$r.cm
  run nb_${r}_iw64k $NB --set host.init_window_bytes=65535 --set workload.file=netbench/$r.cm
done
run nb_websearch_replay $NB --set workload.file=netbench/websearch_replay.cm > /dev/null
jq '.runs[0].fct_by_size' /tmp/fabsim_compare.json > fabsim_websearch_by_size.json
# the idle single flows one at a time (fabsim reports no per-flow times): CCT = that flow's FCT
tail -n +3 netbench/idle_single.cm | while read -r conn _ _ _ _ _ size; do
  printf 'Nodes 32\nConnections 1\n%s id 1 start 0 size %s\n' "$conn" "$size" > /tmp/fabsim_idle.cm
  run nb_idle_${size}B $NB --set workload.file=/tmp/fabsim_idle.cm
done
