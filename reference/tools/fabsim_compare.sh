#!/bin/bash
# Run fabsim on the reference traffic files with the nearest settings (htsim/uec.toml,
# netbench/leafspine.toml), under fabsim's own host stack and under the reference's profile
# (scenario name suffixed @htsim or @netbench), and print one CSV row per run:
# scenario,seed,cct_us,fct_p50_us,fct_p99_us,flows_completed,flows_total,retransmits,trims,drops;
# also writes fabsim_websearch_by_size.json. usage (from reference/): fabsim_compare.sh FABSIM_BINARY
set -e
F=$1
run() { # name, then fabsim arguments
  local name=$1; shift
  "$F" run "$@" --json /tmp/fabsim_compare.json > /dev/null
  jq -r --arg n "$name" '.runs[] | [$n, .seed, .cct_us, .fct_p50_us, .fct_p99_us,
    .flows_completed, .flows_total, .retransmits, .trims, .drops] | @csv' /tmp/fabsim_compare.json
}
echo "scenario,seed,cct_us,fct_p50_us,fct_p99_us,flows_completed,flows_total,retransmits,trims,drops"
for p in fabsim htsim; do
  s=; [ $p = fabsim ] || s=@$p
  U="htsim/uec.toml --set host.profile=$p"
  for lb in reps oblivious; do
    run k8_perm1MiB_$lb$s $U --set topology.k=8 --set host.lb=$lb --set workload.file=perm128_1MiB.cm --set run.seeds=12
    run k12_perm1MiB_$lb$s $U --set topology.k=12 --set host.lb=$lb --set workload.file=perm432_1MiB.cm --set run.seeds=5
  done
  run k8_perm4MiB_reps$s $U --set topology.k=8 --set host.lb=reps --set workload.file=perm128_4MiB.cm --set run.seeds=10
  run k8_perm16MiB_reps$s $U --set topology.k=8 --set host.lb=reps --set workload.file=perm128_16MiB.cm --set run.seeds=8
  run k8_perm1MiB_ecmp$s $U --set topology.k=8 --set host.lb=host-ecmp --set host.path_labels=1 --set workload.file=perm128_1MiB.cm --set run.seeds=12
  run k8_perm1MiB_dctcp_reps$s $U --set topology.k=8 --set host.lb=reps --set host.cc=dctcp --set workload.file=perm128_1MiB.cm --set run.seeds=10
  run k8_incast32_reps$s $U --set topology.k=8 --set host.lb=reps --set workload.file=incast128_32to1_256KiB.cm --set run.seeds=8
  run k8_incast64_reps$s $U --set topology.k=8 --set host.lb=reps --set workload.file=incast128_64to1_256KiB.cm --set run.seeds=5
  run k8_a2a64KiB_reps$s $U --set topology.k=8 --set host.lb=reps --set workload.file=a2a128_64KiB.cm --set run.seeds=5
done
echo '{}' > fabsim_websearch_by_size.json
for p in fabsim netbench; do
  s=; [ $p = fabsim ] || s=@$p
  N="netbench/leafspine.toml --set host.profile=$p"
  for r in websearch_replay websearch50_replay idle_single incast16; do
    run nb_$r$s $N --set workload.file=$r.cm
  done
  run nb_websearch_replay$s $N --set workload.file=websearch_replay.cm > /dev/null
  jq --arg p $p --slurpfile r /tmp/fabsim_compare.json '.[$p] = $r[0].runs[0].fct_by_size' \
    fabsim_websearch_by_size.json > /tmp/fabsim_by_size.json
  mv /tmp/fabsim_by_size.json fabsim_websearch_by_size.json
done
