// SPDX-License-Identifier: BSD-3-Clause
// allgather_hierarchical — node-aware: every rank first gathers, across hosts, the blocks of
// the ranks at its own position on the other hosts, so that all ranks of a host use the network
// at once; then the ranks of each host exchange these bundles over shared memory.
//
// Steps:   H hosts of L ranks each (kit/hosts.hpp), b bytes per rank:
//          1. across hosts, the H ranks with local rank i all-gather their blocks (automatic's
//             choice for H ranks), odd local ranks in the reverse host order (the `across`
//             communicator) so both directions of each link carry data;
//          2. within each host, ring all-gather of the L bundles of H blocks;
//          3. a local copy puts the p blocks in rank order.
//            2 hosts × 2 ranks, ranks 0 1 | 2 3:   1: 0↔2, 1↔3   2: 0↔1, 2↔3   3: reorder
// Cost:    (H−1)(αₙ + n/p·βₙ) + (L−1)(αₛ + n/L·βₛ) + local reordering; hosts of different sizes:
//          flat. In detail:
//          α_s, β_s within a host and α_n, β_n between hosts, n = p·b the whole result; an
//          exchange step of m bytes costs 2(α + mβ) (one side sends, then the other):
//          inter (step 1, ring across H hosts; recursive doubling: 2 log H·α_n):
//                2(H−1)α_n + (H−1)/H·nβ_n, the L ranks of a host sharing its link half each way:
//                the (H−1)·L·b bytes each host must receive, once per direction;
//          intra (step 2, ring of L bundles): 2(L−1)α_s + 2(L−1)/L·nβ_s; plus n bytes copied.
// Order:   no reduction.
// Limits:  one host: ring (what step 2 amounts to there); hosts of different sizes, or one rank
//          per host: automatic's flat algorithm.
// Memory:  p·b bytes of scratch for the bundles before the reordering.
// Ref:     Träff, Hunold, "Decomposing MPI collectives for exploiting multi-lane communication"
//          (2020).

#include "algorithms/allgather/allgather.hpp"
#include "kit/hosts.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void allgather_hierarchical(const call& c) {
  if (c.count == 0) return;
  const host_layout& hosts = hosts_of(c.net);
  if (hosts.hosts == 1) return allgather_ring(c);
  if (!hosts.uniform || hosts.hosts == c.size()) return run_flat(collective::allgather, c);
  const transport intra(hosts.intra, transport::on_private_t{}, hosts.intra_eager.data()),
      across(hosts.across, transport::on_private_t{}, hosts.across_eager.data());
  const int per_host = intra.size();
  const std::size_t block = c.bytes(c.count), bundle = block * static_cast<std::size_t>(hosts.hosts);

  // bundles[l] holds, in `across` order, the blocks of the ranks at local rank l.
  scratch bundles = make_scratch(bundle * static_cast<std::size_t>(per_host));
  std::byte* mine = bundles.get() + bundle * static_cast<std::size_t>(intra.rank());
  run_flat(collective::allgather, {across, c.send, mine, c.count, c.elem, nullptr, 0});
  allgather_ring_blocks(intra, bundles.get(), block_partition(per_host, per_host), bundle);

  for (int r = 0; r < c.size(); ++r) {
    const int local = hosts.local_rank_of[static_cast<std::size_t>(r)];
    const int position = hosts.across_position(hosts.host_of[static_cast<std::size_t>(r)], local);
    copy_bytes(
        c.recv + block * static_cast<std::size_t>(r),
        bundles.get() + bundle * static_cast<std::size_t>(local) + block * static_cast<std::size_t>(position),
        block);
  }
}

}  // namespace collectives::detail
