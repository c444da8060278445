#!/usr/bin/env bash
# CI against a real single-node Slurm: install Debian's slurm-wlm and munge, start munged,
# slurmctld and slurmd on localhost (generated slurm.conf: one node, 2 CPUs, everything under
# a temporary directory, non-default ports), run a small sweep as a job array, merge it and
# check the merged JSON equals a local `fabsim run --json` apart from `perf`; then drop one
# result (and leave a torn temporary file, as a killed task would), resubmit the remaining
# runs and check again. Never hangs: Slurm must come up within SLURM_UP_TIMEOUT seconds and
# each array job finish within SLURM_JOB_TIMEOUT. A second sweep is cancelled (scancel)
# while its tasks compute, resubmitted, and checked the same way. Cleans up (daemons, temp
# dirs) on any exit.
# Needs root (apt-get, daemons).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
UP_TIMEOUT=${SLURM_UP_TIMEOUT:-60}
JOB_TIMEOUT=${SLURM_JOB_TIMEOUT:-300}
started=$(date +%s)

say() { echo "slurm-test: $*"; }
fail() {
    echo "slurm-test: FAILED: $*" >&2
    exit 1
}

if [ "$(id -u)" != 0 ]; then
    fail "needs root (installs packages and starts munged, slurmctld, slurmd)"
fi

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
    ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null
    apt-get install -y -q slurm-wlm munge >/dev/null
fi
# Debian's packages may have started system daemons; ours use their own config, socket and
# ports, so they do not interfere.

cargo build --release -q
FABSIM=${CARGO_TARGET_DIR:-$ROOT/target}/release/fabsim
[ -x "$FABSIM" ] || fail "no $FABSIM after cargo build --release"

T=$(mktemp -d /tmp/fabsim-slurm.XXXXXX)
chmod 755 "$T"
JOBS=()
# Our daemons (and any job step still running) are the processes whose command line names
# the unique temporary directory; pid files alone are not enough (slurmctld removes its pid
# file as soon as it starts shutting down, then takes seconds to exit).
our_pids() { pgrep -f -- "$T/" || true; }
cleanup() {
    local rc=$?
    set +e
    for j in "${JOBS[@]}"; do scancel "$j" >/dev/null 2>&1; done
    pids=$(our_pids)
    [ -n "$pids" ] && kill $pids 2>/dev/null
    for _ in $(seq 30); do
        [ -z "$(our_pids)" ] && break
        sleep 0.5
    done
    pids=$(our_pids)
    [ -n "$pids" ] && kill -9 $pids 2>/dev/null
    if [ $rc != 0 ]; then
        for log in slurmctld.log slurmd.log munge/munged.log; do
            if [ -f "$T/$log" ]; then
                echo "---- last lines of $log" >&2
                tail -n 15 "$T/$log" >&2
            fi
        done
        for out in "$T"/work/sweep/slurm/*.out; do
            [ -f "$out" ] || continue
            echo "---- $out" >&2
            tail -n 15 "$out" >&2
        done
    fi
    rm -rf "$T"
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Two free TCP ports (nothing answering on them).
free_port() {
    local p=$1
    while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done
    echo "$p"
}
CTLD_PORT=$(free_port $((20000 + $$ % 20000)))
SLURMD_PORT=$(free_port $((CTLD_PORT + 1)))
NODE=$(hostname -s)

# munge, with its own key and socket.
mkdir -p "$T/munge"
chmod 700 "$T/munge"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$T/munge/munge.key"
SOCK=$T/munge/munge.sock
munged --force --key-file="$T/munge/munge.key" --socket="$SOCK" \
    --pid-file="$T/munge/munged.pid" --log-file="$T/munge/munged.log" \
    --seed-file="$T/munge/munged.seed" ||
    fail "munged did not start"
munge -n -S "$SOCK" | unmunge -S "$SOCK" >/dev/null || fail "munge round trip failed"

mkdir -p "$T/ctld" "$T/spool"
export SLURM_CONF=$T/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=fabsimci
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCK
StateSaveLocation=$T/ctld
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=ci Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -c -f "$SLURM_CONF" || fail "slurmctld did not start (see $T/slurmctld.log)"
slurmd -f "$SLURM_CONF" -N "$NODE" || fail "slurmd did not start (see $T/slurmd.log)"

say "waiting up to ${UP_TIMEOUT}s for node $NODE to be idle"
deadline=$(($(date +%s) + UP_TIMEOUT))
while :; do
    state=$(sinfo -h -N -n "$NODE" -o %t 2>/dev/null | head -n 1 || true)
    [ "$state" = idle ] && break
    if [ "$(date +%s)" -ge "$deadline" ]; then
        fail "Slurm did not come up within ${UP_TIMEOUT}s (node state: '${state:-unknown}')"
    fi
    sleep 1
done
say "slurm is up ($(sinfo -h -o '%P %D %c %t' | head -n 1))"

wait_job() {
    local job=$1 deadline=$(($(date +%s) + JOB_TIMEOUT))
    while [ -n "$(squeue -h -j "$job" -o %i 2>/dev/null || true)" ]; do
        if [ "$(date +%s)" -ge "$deadline" ]; then
            squeue -j "$job" >&2 || true
            fail "job $job did not finish within ${JOB_TIMEOUT}s"
        fi
        sleep 1
    done
}

strip_perf() { grep -v -e '"wall_s"' -e '"packet_hops_per_s"' "$1"; }
# Merges DIR's results; they must equal the local run LOCAL (apart from perf), in exactly
# FILES result files (no duplicates, no temporary files left).
merge_and_compare() {
    local dir=$1 local_json=$2 files=$3 what=$4 n
    "$FABSIM" sweep merge "$dir" || fail "merge $what"
    cmp <(strip_perf "$dir/merged.json") <(strip_perf "$local_json") ||
        fail "merged results differ from the local run $what"
    n=$(find "$dir/results" -type f | wc -l)
    [ "$n" = "$files" ] || fail "expected exactly $files result files $what, found $n: $(ls -AR "$dir/results")"
}

W=$T/work
mkdir -p "$W"
cat >"$W/s.toml" <<'EOF'
[topology]
k = 4

[switch]
lb = ["ecmp", "rr", "ofan"]

[workload]
message_bytes = 65536

[run]
seeds = 2
EOF
"$FABSIM" run "$W/s.toml" --json "$W/local.json" >/dev/null

"$FABSIM" sweep plan "$W/s.toml" --out "$W/sweep"
job=$("$FABSIM" sweep slurm "$W/sweep" --chunk 2 --max-parallel 2 --submit)
JOBS+=("$job")
say "submitted array job $job: $(grep -- '--array' "$W/sweep/sweep.sbatch")"
wait_job "$job"
"$FABSIM" sweep status "$W/sweep"
merge_and_compare "$W/sweep" "$W/local.json" 6 "after the array job"
say "merged array results are identical to the local run (apart from perf)"

# A killed task: no result for run 3, a torn temporary file left behind.
rm "$W/sweep/results/000003.json"
head -c 100 "$W/sweep/results/000002.json" >"$W/sweep/results/.tmp/000003.json.$NODE.999999"
if "$FABSIM" sweep merge "$W/sweep" 2>/dev/null; then
    fail "merge succeeded with a missing result"
fi
job=$("$FABSIM" sweep slurm "$W/sweep" --chunk 2 --submit)
JOBS+=("$job")
grep -q -- '--array=1$' "$W/sweep/sweep.sbatch" || fail "resubmission should cover task 1 only"
wait_job "$job"
merge_and_compare "$W/sweep" "$W/local.json" 6 "after resubmission"
say "resubmitted the killed task: complete, no duplicates or temporary files"
# A task really killed mid-run: scancel the array while its runs (about 2 s each) compute,
# then resubmit what is missing.
cat >"$W/heavy.toml" <<'EOF'
[topology]
k = 8

[switch]
lb = "ecmp"

[workload]
message_bytes = 33554432

[run]
seeds = 2
EOF
"$FABSIM" sweep plan "$W/heavy.toml" --out "$W/heavy"
"$FABSIM" run "$W/heavy.toml" --json "$W/heavy-local.json" >/dev/null
job=$("$FABSIM" sweep slurm "$W/heavy" --submit)
JOBS+=("$job")
deadline=$(($(date +%s) + JOB_TIMEOUT))
until squeue -h -j "$job" -t R -o %i 2>/dev/null | grep -q .; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "job $job never started running"
    sleep 0.2
done
sleep 0.5
scancel "$job"
wait_job "$job"
n=$(find "$W/heavy/results" -name '*.json' | wc -l)
say "cancelled job $job mid-run: $n of 2 results written"
[ "$n" -lt 2 ] || fail "the runs finished before scancel; make them longer"
if "$FABSIM" sweep merge "$W/heavy" 2>/dev/null; then
    fail "merge succeeded after a cancelled task"
fi
job=$("$FABSIM" sweep slurm "$W/heavy" --submit)
JOBS+=("$job")
wait_job "$job"
merge_and_compare "$W/heavy" "$W/heavy-local.json" 2 "after a cancelled task"
say "resubmitted the cancelled task: complete, identical to the local run, no duplicates"

say "passed in $(($(date +%s) - started))s"
