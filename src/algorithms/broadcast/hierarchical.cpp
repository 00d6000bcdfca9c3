// SPDX-License-Identifier: BSD-3-Clause
// broadcast_hierarchical — node-aware: the vector crosses the network once per host, from the
// root's host to the first rank of every other host, then spreads within each host over
// shared memory.
//
// Steps:   hosts of kit/hosts.hpp:
//          1. within the root's host, broadcast from the root (its first rank then has it);
//          2. among the first ranks of the hosts, broadcast from the root's host's;
//          3. within every other host, broadcast from its first rank.
//          Each step is automatic's choice for its communicator and the vector's size.
//            2 hosts × 2 ranks, ranks 0 1 | 2 3, root 1:   1 → 0,   0 → 2,   2 → 3
// Cost:    2⌈log L⌉(αₛ + nβₛ) + ⌈log H⌉(αₙ + nβₙ). In detail:
//          α_s, β_s within a host and α_n, β_n between hosts (binomial steps, L ranks on the
//          largest host; one-way sends, no exchanges):
//          intra (steps 1 and 3): 2⌈log L⌉(α_s + nβ_s); step 1 is only on the root's host and is
//                empty when the root is its host's first rank;
//          inter (step 2): ⌈log H⌉(α_n + nβ_n).
// Order:   no reduction.
// Limits:  none; any root, hosts of any sizes. One host: binomial (the steps' choice there for
//          small vectors); one rank per host: automatic's flat algorithm.
// Memory:  none extra beyond the steps'.
// Ref:     Karonis et al., "Exploiting hierarchy in parallel computer networks to optimize
//          collective operation performance" (MagPIe/MPICH-G2, 2000); Open MPI coll/han.

#include "algorithms/broadcast/broadcast.hpp"
#include "kit/hosts.hpp"

namespace collectives::detail {

void broadcast_hierarchical(const call& c) {
  if (c.count == 0 || c.size() == 1) return;
  const host_layout& hosts = hosts_of(c.net);
  if (hosts.hosts == 1) return broadcast_binomial(c);
  if (hosts.hosts == c.size()) return run_flat(collective::broadcast, c);
  const transport intra(hosts.intra, transport::on_private_t{}, hosts.intra_eager.data());
  const int root_host = hosts.host_of[static_cast<std::size_t>(c.root)];
  const call within{intra, nullptr, c.recv, c.count, c.elem, nullptr, 0};
  if (hosts.host == root_host) {
    call from_root = within;
    from_root.root = hosts.local_rank_of[static_cast<std::size_t>(c.root)];
    run_flat(collective::broadcast, from_root);
  }
  if (hosts.leaders != MPI_COMM_NULL) {
    const transport leaders(hosts.leaders, transport::on_private_t{}, hosts.leaders_eager.data());
    run_flat(collective::broadcast, {leaders, nullptr, c.recv, c.count, c.elem, nullptr, root_host});
  }
  if (hosts.host != root_host) run_flat(collective::broadcast, within);
}

}  // namespace collectives::detail
