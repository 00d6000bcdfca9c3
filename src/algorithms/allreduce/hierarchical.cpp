// allreduce_hierarchical — node-aware: the ranks of each host reduce among themselves over
// shared memory, only each host's share crosses the network, and the hosts' results spread
// back within each host.
//
// Steps:   H hosts of L ranks each (core/hosts.hpp), the vector cut into L blocks:
//          1. within each host, ring reduce-scatter: local rank i holds block i reduced over
//             its host;
//          2. across hosts, the H ranks with local rank i all-reduce block i (automatic's choice
//             for H ranks and n/L bytes), every local rank carrying its own shard, so all L
//             ranks of a host use the network at once, odd local ranks in the reverse direction
//             (the `across` communicator), which keeps both directions of each link busy;
//          3. within each host, ring all-gather of the L reduced blocks.
//            2 hosts × 2 ranks, ranks 0 1 | 2 3:
//            1: 0↔1 and 2↔3: rank 0 holds b0 of host 0, rank 1 b1, rank 2 b0 of host 1, rank 3 b1
//            2: 0↔2 reduce b0 (0 → 2 first),  1↔3 reduce b1 (3 → 1 first)
//            3: 0↔1 and 2↔3 exchange b0, b1
//          Hosts of different sizes: within each host reduce to its first rank, all-reduce
//          among the first ranks, broadcast within each host (automatic's choices).
// Cost:    with α_s, β_s within a host and α_n, β_n between hosts (ring across hosts):
//          2(L−1)α_s + 2(L−1)/L·nβ_s + (L−1)/L·nγ            (steps 1 and 3)
//          + 2(H−1)α_n + 2(H−1)/H·(n/L)β_n + (H−1)/H·(n/L)γ  (step 2, per local rank)
//          The network carries 2(H−1)/H·n per host and direction, shared by L ranks: the
//          minimum any all-reduce needs across the host boundary.
// Order:   hosts need not hold consecutive ranks, and the blocks are reduced host by host:
//          commutative ops only. Every block is reduced by one set of ranks and then copied, so
//          every rank holds identical bits.
// Limits:  none. One host: ring (what the steps amount to there); one rank per host: automatic's
//          flat algorithm.
// Memory:  that of the ring steps (one block in place) and of the step across hosts.
// Ref:     Träff, Hunold, "Decomposing MPI collectives for exploiting multi-lane communication"
//          (2020); Open MPI coll/han; MPICH's SMP-aware allreduce.

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/allreduce/allreduce.hpp"
#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "core/hosts.hpp"

namespace collectives::detail {

void allreduce_hierarchical(const call& c) {
  if (c.count == 0) return;
  const host_layout& hosts = hosts_of(c.net);
  if (hosts.hosts == 1) return allreduce_ring(c);
  if (hosts.hosts == c.size()) return run_flat(collective::allreduce, c);
  const transport intra(hosts.intra, transport::on_private_t{});
  if (!hosts.uniform) {
    run_flat(collective::reduce, {intra, c.send, c.recv, c.count, c.elem, c.op, 0});
    if (hosts.leaders != MPI_COMM_NULL) {
      const transport leaders(hosts.leaders, transport::on_private_t{});
      run_flat(collective::allreduce, {leaders, c.recv, c.recv, c.count, c.elem, c.op, 0});
    }
    return run_flat(collective::broadcast, {intra, nullptr, c.recv, c.count, c.elem, nullptr, 0});
  }
  const transport across(hosts.across, transport::on_private_t{});
  const block_partition blocks(c.count, intra.size());
  reduce_scatter_ring_blocks(intra, c.send, c.recv, blocks, c.elem.size, *c.op);
  std::byte* shard = c.recv + c.bytes(blocks.offset(intra.rank()));
  run_flat(collective::allreduce, {across, shard, shard, blocks.length(intra.rank()), c.elem, c.op, 0});
  allgather_ring_blocks(intra, c.recv, blocks, c.elem.size);
}

}  // namespace collectives::detail
