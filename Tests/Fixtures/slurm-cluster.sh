#!/usr/bin/env bash
# A real single-node Slurm cluster under one folder, for the catalogue's cluster test: munged,
# slurmctld and slurmd started as daemons of this user (root), no systemd, nothing outside DIR.
#   slurm-cluster.sh start DIR   prints the SLURM_CONF path when the node is up (exit 0),
#                                or one line saying why it cannot run (exit 1)
#   slurm-cluster.sh stop DIR    stops the daemons it started
set -uo pipefail
action=${1:?start or stop}
dir=${2:?folder}

stop() {
    for name in slurmd slurmctld munged; do
        if [ -s "$dir/$name.pid" ]; then kill "$(cat "$dir/$name.pid")" 2>/dev/null; fi
    done
    for _ in $(seq 50); do
        alive=0
        for name in slurmd slurmctld munged; do
            [ -s "$dir/$name.pid" ] && kill -0 "$(cat "$dir/$name.pid")" 2>/dev/null && alive=1
        done
        [ $alive -eq 0 ] && return 0
        sleep 0.1
    done
    for name in slurmd slurmctld munged; do
        [ -s "$dir/$name.pid" ] && kill -9 "$(cat "$dir/$name.pid")" 2>/dev/null
    done
    return 0
}

if [ "$action" = stop ]; then stop; exit 0; fi

# Descriptors a caller leaked to us (the write ends of its own pipes) would live on in the daemons
# and keep the caller reading for ever: only 0, 1 and 2 go on.
for fd in /proc/$$/fd/*; do
    fd=${fd##*/}
    [ "$fd" -gt 2 ] && eval "exec $fd>&-" 2>/dev/null
done
fail() { echo "$*"; stop; exit 1; }
for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol; do
    command -v $tool >/dev/null || fail "$tool is not installed (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" -eq 0 ] || fail "slurmd must run as root to start jobs as their user"
mkdir -p "$dir"/{state,spool,log,munge}
chmod 700 "$dir/munge"
mungekey --create --keyfile="$dir/munge/munge.key" --force 2>/dev/null \
    || dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munge.seed" \
    </dev/null >>"$dir/log/start.log" 2>&1 || fail "munged did not start: $(tail -1 "$dir/log/munged.log" 2>/dev/null)"

host=$(hostname -s)
cpus=$(nproc)
# Ports from the free range, picked per run so that two runs never meet.
port=$(( 20000 + RANDOM % 20000 ))
cat > "$dir/slurm.conf" <<CONF
ClusterName=lyricposter-test
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
KillWait=5
MaxArraySize=1001
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO
CONF
export SLURM_CONF=$dir/slurm.conf
# The daemons get no end of the caller's pipes (it reads them to their end).
slurmctld -i </dev/null >>"$dir/log/start.log" 2>&1 || fail "slurmctld did not start: $(tail -1 "$dir/log/slurmctld.log" 2>/dev/null)"
slurmd </dev/null >>"$dir/log/start.log" 2>&1 || fail "slurmd did not start: $(tail -1 "$dir/log/slurmd.log" 2>/dev/null)"
for _ in $(seq 150); do
    state=$(sinfo -h -o %T 2>/dev/null | head -1)
    case "$state" in idle|mixed|allocated) echo "$SLURM_CONF"; exit 0;; esac
    sleep 0.2
done
fail "the node did not come up (state '${state:-none}'): $(tail -1 "$dir/log/slurmd.log" 2>/dev/null)"
