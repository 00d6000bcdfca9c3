// SPDX-License-Identifier: BSD-3-Clause
// reduce_hierarchical — node-aware: every host reduces among its ranks over shared memory, the
// hosts' results meet over the network at the root's host, and reach the root there.
//
// Steps:   hosts of kit/hosts.hpp:
//          1. within every host, reduce to its first rank;
//          2. among the first ranks of the hosts, reduce to the root's host's;
//          3. on the root's host, that rank sends the result to the root (nothing to do when
//             the root is its host's first rank).
//          Steps 1 and 2 are automatic's choice for their communicator and the vector's size.
//            2 hosts × 2 ranks, ranks 0 1 | 2 3, root 1:   1 → 0, 3 → 2;   2 → 0;   0 → 1
// Cost:    ⌈log L⌉(αₛ + nβₛ + nγ) + ⌈log H⌉(αₙ + nβₙ + nγ) (+ αₛ + nβₛ when the root is not its
//          host's first rank). In detail:
//          α_s, β_s within a host and α_n, β_n between hosts (binomial steps, L ranks on the
//          largest host; one-way sends, no exchanges):
//          intra (steps 1 and 3): ⌈log L⌉(α_s + nβ_s + nγ), plus α_s + nβ_s when the root is not
//                its host's first rank;
//          inter (step 2): ⌈log H⌉(α_n + nβ_n + nγ).
// Order:   hosts need not hold consecutive ranks: commutative ops only.
// Limits:  none; any root, hosts of any sizes. One host: binomial (the steps' choice there for
//          small vectors); one rank per host: automatic's flat algorithm.
// Memory:  an n-byte accumulator on the first rank of each host (the root's host's first rank
//          uses recv when it is the root), a second one on the root's host for step 2.
// Ref:     Karonis et al., "Exploiting hierarchy in parallel computer networks to optimize
//          collective operation performance" (MagPIe/MPICH-G2, 2000); Open MPI coll/han.

#include "algorithms/reduce/reduce.hpp"
#include "kit/hosts.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void reduce_hierarchical(const call& c) {
  if (c.count == 0) return;
  const host_layout& hosts = hosts_of(c.net);
  if (hosts.hosts == 1) return reduce_binomial(c);
  if (hosts.hosts == c.size()) return run_flat(collective::reduce, c);
  const transport intra(hosts.intra, transport::on_private_t{}, hosts.intra_eager.data());
  const int root_host = hosts.host_of[static_cast<std::size_t>(c.root)];
  const int root_local = hosts.local_rank_of[static_cast<std::size_t>(c.root)];
  const std::size_t bytes = c.bytes(c.count);
  const bool is_root = c.rank() == c.root;
  const bool is_leader = hosts.leaders != MPI_COMM_NULL;

  // The host's result, on its first rank.
  scratch host_acc = is_leader && !is_root ? make_scratch(bytes) : nullptr;
  std::byte* host_result = is_root ? c.recv : host_acc.get();
  run_flat(collective::reduce, {intra, c.send, host_result, c.count, c.elem, c.op, 0});
  if (is_leader) {
    const transport leaders(hosts.leaders, transport::on_private_t{}, hosts.leaders_eager.data());
    const bool root_leader = hosts.host == root_host;
    scratch total_acc = root_leader && !is_root ? make_scratch(bytes) : nullptr;
    std::byte* total = is_root ? c.recv : total_acc.get();
    run_flat(collective::reduce, {leaders, host_result, total, c.count, c.elem, c.op, root_host});
    if (root_leader && !is_root) intra.send(root_local, total, bytes);
  } else if (is_root) {
    intra.recv(0, c.recv, bytes);
  }
}

}  // namespace collectives::detail
