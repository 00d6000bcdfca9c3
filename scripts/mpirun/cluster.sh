#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# An emulated cluster on one machine: H "hosts", each a network namespace entered with its own
# UTS namespace and hostname (so Open MPI's per-host session folders and shared-memory files do
# not collide), joined through veth links to a bridge that lives in a namespace of its own, every
# link shaped in both directions with a token-bucket filter (tc tbf). Open MPI launches from the
# first host with a hostfile and an rsh agent that enters the target namespace: TCP between
# hosts, shared memory within one, exactly as across real nodes.
#
#   cluster.sh up H [--rate 1gbit] [--burst 256kb] [--slots R]
#                                                    create H hosts (default rate 1gbit, R = 2)
#   cluster.sh run -n P [--map block|cyclic] program args…
#   cluster.sh hosts                                 the hosts and their addresses
#   cluster.sh down                                  remove everything `up` made (safe twice)
#
# Needs root with CAP_NET_ADMIN and CAP_SYS_ADMIN. Only the namespaces, links and files named
# below are created, and `run` talks only to the addresses of those namespaces (10.77.0.0/24).
# Delay is not emulated: these kernels have no netem (sch_netem), only bandwidth shaping.
set -euo pipefail

readonly prefix=collcl                      # every namespace and link name starts with this
readonly switch_ns=${prefix}-switch         # holds the bridge; never the machine's own namespace
readonly subnet=10.77.0                     # host i is ${subnet}.i
readonly state=/run/collectives-cluster     # hostfile, settings
readonly netns_etc=/etc/netns               # `ip netns exec` bind-mounts /etc/netns/<ns>/hosts
readonly self=$(readlink -f "$0")

die() { echo "cluster.sh: $*" >&2; exit 1; }
host_name() { echo "${prefix}-h$1"; }

require_privileges() {
  [ "$(id -u)" -eq 0 ] || die "needs root with CAP_NET_ADMIN (network namespaces, veth, tc); run it as root"
  ip netns add "${prefix}-probe" 2>/dev/null && ip netns del "${prefix}-probe" ||
    die "cannot create network namespaces here (no CAP_NET_ADMIN/CAP_SYS_ADMIN)"
}

down() {
  local ns
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^${prefix}-" || true); do
    # Deleting a namespace deletes the veth ends inside it, and with them their peers.
    ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
  done
  rm -rf "${netns_etc:?}/${prefix}"-* "$state"
  rmdir "$netns_etc" 2>/dev/null || true  # only if empty: it may hold other namespaces' files
}

# Shape the egress of one interface inside a namespace to `rate` (a token bucket, queue of 50 ms).
# The bucket's `burst` is what a link idle long enough lets through at once, at the machine's
# speed: no real wire does that, and no simulator models it; a smaller burst makes the link more
# wire-like, until the kernel's timers cannot keep the rate (docs/cluster.md).
shape() {
  local ns=$1 dev=$2 rate=$3 burst=$4
  ip netns exec "$ns" tc qdisc replace dev "$dev" root tbf rate "$rate" burst "$burst" latency 50ms
}

up() {
  local hosts=$1 rate=$2 burst=$3 slots=$4 i ns
  [[ $hosts =~ ^[1-9][0-9]*$ ]] && [ "$hosts" -le 200 ] || die "up: H must be a number of hosts in 1..200, given '$hosts'"
  [[ $slots =~ ^[1-9][0-9]*$ ]] || die "up: --slots must be a positive number, given '$slots'"
  require_privileges
  down
  trap 'echo "cluster.sh: up failed; removing what it made" >&2; down' ERR INT TERM
  mkdir -p "$state"
  ip netns add "$switch_ns"
  ip netns exec "$switch_ns" ip link add br0 type bridge
  ip netns exec "$switch_ns" ip link set br0 up
  for ((i = 1; i <= hosts; i++)); do
    ns=$(host_name "$i")
    ip netns add "$ns"
    ip link add "${prefix}$i" netns "$ns" type veth peer name "port$i" netns "$switch_ns"
    ip netns exec "$ns" ip link set "${prefix}$i" name eth0
    ip netns exec "$ns" ip addr add "${subnet}.$i/24" dev eth0
    ip netns exec "$ns" ip link set lo up
    ip netns exec "$ns" ip link set eth0 up
    ip netns exec "$switch_ns" ip link set "port$i" master br0 up
    shape "$ns" eth0 "$rate" "$burst"                  # host → switch
    shape "$switch_ns" "port$i" "$rate" "$burst"       # switch → host
  done
  # Every host resolves every other by name (ip netns exec mounts this file over /etc/hosts).
  for ((i = 1; i <= hosts; i++)); do
    mkdir -p "$netns_etc/$(host_name "$i")"
    {
      echo "127.0.0.1 localhost"
      for ((j = 1; j <= hosts; j++)); do echo "${subnet}.$j $(host_name "$j")"; done
    } >"$netns_etc/$(host_name "$i")/hosts"
    echo "$(host_name "$i") slots=$slots"
  done >"$state/hostfile"
  printf 'hosts=%s\nrate=%s\nburst=%s\nslots=%s\n' "$hosts" "$rate" "$burst" "$slots" >"$state/settings"
  trap - ERR INT TERM
  echo "cluster.sh: $hosts hosts × $slots slots, links shaped to $rate, burst $burst (no added delay: no netem)"
}

# Runs a command inside host `name`: its network namespace, a fresh UTS namespace with its
# hostname. The rsh agent Open MPI uses to start its daemons on the other hosts.
agent() {
  local name=$1
  shift
  [[ $name == "${prefix}-h"* ]] && ip netns list | grep -q "^$name\b" || die "agent: '$name' is not a host of this cluster"
  exec ip netns exec "$name" unshare --uts sh -c 'hostname "$1"; shift; exec sh -c "$*"' sh "$name" "$@"
}

run() {
  local np="" map=block
  while [ $# -gt 0 ]; do
    case $1 in
      -n | -np) np=$2; shift 2 ;;
      --map) map=$2; shift 2 ;;
      --) shift; break ;;
      *) break ;;
    esac
  done
  [ -f "$state/hostfile" ] || die "run: no cluster; start one with 'cluster.sh up H'"
  [[ $np =~ ^[1-9][0-9]*$ ]] || die "run: -n P is required (a positive number of ranks)"
  [ $# -gt 0 ] || die "run: no program given"
  local mapping
  case $map in
    block) mapping=slot ;;
    cyclic) mapping=node ;;
    *) die "run: --map must be block or cyclic, given '$map'" ;;
  esac
  local program
  program=$(command -v "$1") || die "run: program '$1' not found"
  shift
  # The settings of scripts/mpirun/run, except the transports: TCP on the cluster links only.
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
  export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_pml=ob1
  export OMPI_MCA_btl_tcp_if_include=${subnet}.0/24 OMPI_MCA_oob_tcp_if_include=${subnet}.0/24
  export OMPI_MCA_plm_rsh_agent="$self agent" OMPI_MCA_plm_rsh_no_tree_spawn=1
  # Poll the TCP sockets on every progress call. By default Open MPI polls them (libevent) only
  # once per 10000 µs of progress (opal_progress_set_event_poll_rate), and with more ranks than
  # cores every idle progress call also yields the core, so small messages between the hosts
  # took milliseconds (docs/cluster.md). The vendor's collectives and the library's run on the
  # same setting.
  export OMPI_MCA_mpi_event_tick_rate=${OMPI_MCA_mpi_event_tick_rate:-1}
  # The shared-memory path within each host: the launcher's choice (its probe, or
  # COLLECTIVES_SHM_COPY), as on one machine.
  [ "$(bash "$(dirname "$self")/run" --which)" = double ] && export OMPI_MCA_btl_vader_single_copy_mechanism=none
  local env_args=() var
  # Every COLLECTIVES_* setting reaches every rank, on every host.
  for var in $(compgen -e | grep -E '^(COLLECTIVES_|OMPI_MCA_btl_vader)' || true); do env_args+=(-x "$var"); done
  ip netns exec "$(host_name 1)" unshare --uts sh -c 'hostname "$1"; shift; exec "$@"' sh "$(host_name 1)" \
    mpiexec --hostfile "$state/hostfile" --map-by "$mapping" -n "$np" "${env_args[@]}" "$program" "$@"
}

hosts() {
  [ -f "$state/hostfile" ] || die "hosts: no cluster"
  cat "$state/settings"
  awk '{print $1}' "$state/hostfile" | while read -r h; do echo "$h ${subnet}.${h##*h}"; done
}

case ${1:-} in
  up)
    shift
    hosts_wanted=${1:-}
    shift || true
    rate=1gbit burst=256kb slots=2
    while [ $# -gt 0 ]; do
      case $1 in
        --rate) rate=$2; shift 2 ;;
        --burst) burst=$2; shift 2 ;;
        --slots) slots=$2; shift 2 ;;
        *) die "up: unknown option '$1'" ;;
      esac
    done
    up "$hosts_wanted" "$rate" "$burst" "$slots"
    ;;
  run) shift; run "$@" ;;
  agent) shift; agent "$@" ;;
  hosts) hosts ;;
  down) down ;;
  *) sed -n '3,18p' "$self" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
