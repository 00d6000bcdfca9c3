#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The emulated cluster end to end: `up` makes 2 hosts × 2 slots, `run` places ranks by block and
# cyclically on hosts with their own hostnames, an MPI test executable passes across the hosts
# (TCP between them, shared memory within each; also on uneven hosts, 2 + 1 ranks), and `down` (twice) leaves no namespace, link or
# file behind. Skipped (exit 77) where the machine does not allow network namespaces.
# Usage: cluster_test.sh <mpi test executable>
set -euo pipefail
cluster=$(cd "$(dirname "$0")/../.." && pwd)/scripts/mpirun/cluster.sh
program=$1

if ! ip netns add collcl-probe 2>/dev/null; then
  echo "cluster_test: skipped: network namespaces are not allowed here (needs root with CAP_NET_ADMIN)"
  exit 77
fi
ip netns del collcl-probe
trap 'bash "$cluster" down' EXIT

fail() { echo "cluster_test: FAILED: $*" >&2; exit 1; }

bash "$cluster" up 2 --slots 2 --rate 1gbit
placement() { bash "$cluster" run -n 4 "$@" sh -c 'echo "$OMPI_COMM_WORLD_RANK $(hostname)"' | sort | tr '\n' ' '; }
got=$(placement --map block)
[ "$got" = "0 collcl-h1 1 collcl-h1 2 collcl-h2 3 collcl-h2 " ] || fail "block placement: $got"
got=$(placement --map cyclic)
[ "$got" = "0 collcl-h1 1 collcl-h2 2 collcl-h1 3 collcl-h2 " ] || fail "cyclic placement: $got"

# Both links are shaped in both directions.
for ns in collcl-h1 collcl-h2; do
  ip netns exec "$ns" tc qdisc show dev eth0 | grep -q tbf || fail "$ns: eth0 is not shaped"
done
[ "$(ip netns exec collcl-switch tc qdisc show | grep -c tbf)" -eq 2 ] || fail "switch ports are not shaped"

bash "$cluster" run -n 4 "$program" || fail "$program across 2 hosts"
COLLECTIVES_SYNCHRONOUS_SENDS=1 bash "$cluster" run -n 4 --map cyclic "$program" ||
  fail "$program across 2 hosts, cyclic, synchronous sends"
COLLECTIVES_TEST_ALGORITHMS=hierarchical,automatic bash "$cluster" run -n 3 "$program" ||
  fail "$program across uneven hosts (2 + 1 ranks)"

bash "$cluster" down
bash "$cluster" down
left=$(ip netns list | grep -c '^collcl-' || true)
[ "$left" -eq 0 ] || fail "down left $left namespaces"
[ ! -e /run/collectives-cluster ] || fail "down left /run/collectives-cluster"
! ls /etc/netns/collcl-* >/dev/null 2>&1 || fail "down left files in /etc/netns"
! ip link show | grep -q collcl || fail "down left links"
bash "$cluster" run -n 2 true 2>/dev/null && fail "run without a cluster should fail"
echo "cluster_test: passed"
