// SPDX-License-Identifier: BSD-3-Clause
// allreduce_hierarchical — node-aware: the ranks of each host reduce among themselves over
// shared memory, only each host's share crosses the network, and the hosts' results spread
// back within each host.
//
// Steps:   H hosts of L ranks each (kit/hosts.hpp).
//          Two ranks per host (L = 2), the crossed ring: the vector cut into H blocks, host h
//          finishes block h. Each host's sender (local rank 0) only sends across hosts and its
//          receiver (local rank 1) only receives during the reduce-scatter, and the roles swap
//          for the all-gather, so each direction of every link carries one stream at a time,
//          however far the ranks drift apart (under load, pairs of ordered exchanges drift out
//          of step and then send both ways at once on one link direction):
//          1. reduce-scatter ring across hosts, H−1 steps: at step k host h's sender sends the
//             partial sums of block h−k−1 to host h+1's receiver (at k = 0 its own input plus
//             its receiver's, handed over first); the receiver adds its own and its sender's
//             input (handed over before the sender sends across, so no step waits on another
//             host in a cycle) and hands the sums to its sender for the next step. After H−1
//             steps host h's receiver holds block h reduced over every rank.
//          2. all-gather ring across hosts, H−1 steps: host h's receiver sends block h−k to host
//             h+1's sender, which hands it to its receiver to pass on at the next step.
//          3. within each host, one exchange: the receiver's block h for the sender's last block.
//            2 hosts × 2 ranks, ranks 0 1 | 2 3 (senders 0 and 2):
//            0: 1 → 0 its half b1 of host 0, 0 → 1 its b0;   3 → 2 b0, 2 → 3 b1   (shared memory)
//            1: 0 → 3 b1 of host 0,  2 → 1 b0 of host 1   (both link directions at once)
//            2: 1 → 2 b0 reduced,    3 → 0 b1 reduced      (both link directions at once)
//            3: 0↔1, 2↔3 exchange the block each lacks   (shared memory)
//          Not segmented: on the emulated cluster, cutting the blocks into segments to overlap
//          the steps was slower than whole blocks (docs/measurements/2026-11-28-figures-from-comments.md):
//          every segment adds a rendezvous round trip and hand-offs that wait for descheduled ranks.
//          More ranks per host (L > 2), the vector cut into L blocks:
//          1. within each host, ring reduce-scatter: local rank i holds block i reduced over
//             its host;
//          2. across hosts, the H ranks with local rank i all-reduce block i (automatic's choice
//             for H ranks and n/L bytes), every local rank carrying its own shard, so all L
//             ranks of a host use the network at once, odd local ranks in the reverse direction
//             (the `across` communicator), which keeps both directions of each link busy;
//          3. within each host, ring all-gather of the L reduced blocks.
//          Hosts of different sizes: within each host reduce to its first rank, all-reduce
//          among the first ranks, broadcast within each host (automatic's choices).
// Cost:    two per host: (3H−2)(αₛ + n/H·βₛ) + 2(H−1)(αₙ + n/H·βₙ) + γ terms; more:
//          2(L−1)αₛ + 2(L−1)/L·nβₛ + 2(H−1)αₙ + 2(H−1)/H·(n/L)βₙ + γ terms; hosts of different
//          sizes: reduce, all-reduce among hosts' first ranks, broadcast. In detail:
//          α_s, β_s within a host and α_n, β_n between hosts; an exchange step of m bytes costs
//          2(α + mβ), as the transport runs it (one side sends, then the other).
//          L = 2: intra (3H − 2)(α_s + n/H·β_s); inter 2(H−1)(α_n + n/H·β_n), each host link
//                carrying 2(H−1)/H·n per direction, one stream each way; + 2(H−1)/H·nγ.
//          L > 2: intra (steps 1 and 3, ring):  4(L−1)α_s + 4(L−1)/L·nβ_s + (L−1)/L·nγ
//                inter (step 2, Rabenseifner across H hosts, H a power of two; ring otherwise:
//                4(H−1)α_n): 4 log H·α_n + 2(H−1)/H·nβ_n + (H−1)/H·(n/L)γ
//          Either way the network carries 2(H−1)/H·n per host and direction, the minimum any
//          all-reduce needs across the host boundary, on both directions of the link at once.
// Order:   hosts need not hold consecutive ranks, and the blocks are reduced host by host:
//          commutative ops only. Every block is reduced by one set of ranks and then copied, so
//          every rank holds identical bits.
// Limits:  none. One host: ring (what the steps amount to there); one rank per host: automatic's
//          flat algorithm.
// Memory:  L = 2: one block (the sender), two (the receiver). L > 2: that of the ring steps (one
//          block in place) and of the step across hosts.
// Ref:     Träff, Hunold, "Decomposing MPI collectives for exploiting multi-lane communication"
//          (2020); Open MPI coll/han; MPICH's SMP-aware allreduce.

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/allreduce/allreduce.hpp"
#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "kit/hosts.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {
namespace {

// Two ranks per host: the crossed ring across hosts (the header's second scheme). Host h's
// sender (local rank 0) sends the partial sums to the next host's receiver (local rank 1), whose
// receiver sends the final blocks on to the following host's sender.
void crossed_ring(const call& c, const host_layout& hosts, const transport& intra) {
  const int H = hosts.hosts, h = hosts.host;
  const bool sender = hosts.local_rank == 0;
  const int partner = 1 - hosts.local_rank;  // in `intra`
  const block_partition blocks(c.count, H);
  const auto block = [&](int b) { return ((b % H) + H) % H; };
  const auto at = [&](int b) { return c.bytes(blocks.offset(block(b))); };
  const auto length = [&](int b) { return blocks.length(block(b)); };
  // Every incoming block lands in one slot first (the largest block, the first).
  scratch landing = make_scratch(c.bytes(blocks.length(0)) * (sender ? 1 : 2));
  std::byte* const theirs = landing.get() + (sender ? 0 : c.bytes(blocks.length(0)));
  if (sender) {
    const int next = hosts.rank_at((h + 1) % H, 1), previous = hosts.rank_at((h - 1 + H) % H, 1);
    // Reduce-scatter: step k sends the partial sums of block h−k−1 (this host's own at k = 0).
    for (int k = 0; k < H - 1; ++k) {
      const int out = h - k - 1;
      if (k == 0) {
        intra.recv(partner, landing.get(), c.bytes(length(out)));
        combine(*c.op, c.send + at(out), landing.get(), length(out));
      }
      // The receiver adds this rank's input of the block arriving at step k.
      intra.send(partner, c.send + at(h - k - 2), c.bytes(length(h - k - 2)));
      c.net.send(next, k == 0 ? landing.get() : c.recv + at(out), c.bytes(length(out)));
      if (k < H - 2) intra.recv(partner, c.recv + at(h - k - 2), c.bytes(length(h - k - 2)));
    }
    // All-gather: the final blocks arrive from the previous host's receiver, block h−k−1 at step
    // k; all but the last go on through this host's receiver.
    for (int k = 0; k < H - 1; ++k) {
      c.net.recv(previous, c.recv + at(h - k - 1), c.bytes(length(h - k - 1)));
      if (k < H - 2) intra.send(partner, c.recv + at(h - k - 1), c.bytes(length(h - k - 1)));
    }
  } else {
    const int next = hosts.rank_at((h + 1) % H, 0), previous = hosts.rank_at((h - 1 + H) % H, 0);
    for (int k = 0; k < H - 1; ++k) {
      const int in = h - k - 2;
      if (k == 0) intra.send(partner, c.send + at(h - 1), c.bytes(length(h - 1)));
      intra.recv(partner, theirs, c.bytes(length(in)));
      c.net.recv(previous, landing.get(), c.bytes(length(in)));
      combine(*c.op, theirs, landing.get(), length(in));
      if (c.send != c.recv) copy_bytes(c.recv + at(in), c.send + at(in), c.bytes(length(in)));
      combine(*c.op, landing.get(), c.recv + at(in), length(in));
      if (k < H - 2) intra.send(partner, c.recv + at(in), c.bytes(length(in)));
    }
    // Block h is final here; send it on, then the blocks the sender passes in from the hosts
    // before.
    for (int k = 0; k < H - 1; ++k) {
      c.net.send(next, c.recv + at(h - k), c.bytes(length(h - k)));
      if (k < H - 2) intra.recv(partner, c.recv + at(h - k - 1), c.bytes(length(h - k - 1)));
    }
  }
  // The one block each side still lacks: block h (the receiver's) and block h+1 (the last the
  // sender received).
  const int mine = sender ? h + 1 : h, missing = sender ? h : h + 1;
  intra.exchange(partner, c.recv + at(mine), c.bytes(length(mine)), partner, c.recv + at(missing),
                 c.bytes(length(missing)));
}

}  // namespace

void allreduce_hierarchical(const call& c) {
  if (c.count == 0) return;
  const host_layout& hosts = hosts_of(c.net);
  if (hosts.hosts == 1) return allreduce_ring(c);
  if (hosts.hosts == c.size()) return run_flat(collective::allreduce, c);
  const transport intra(hosts.intra, transport::on_private_t{}, hosts.intra_eager.data());
  if (!hosts.uniform) {
    run_flat(collective::reduce, {intra, c.send, c.recv, c.count, c.elem, c.op, 0});
    if (hosts.leaders != MPI_COMM_NULL) {
      const transport leaders(hosts.leaders, transport::on_private_t{}, hosts.leaders_eager.data());
      run_flat(collective::allreduce, {leaders, c.recv, c.recv, c.count, c.elem, c.op, 0});
    }
    return run_flat(collective::broadcast, {intra, nullptr, c.recv, c.count, c.elem, nullptr, 0});
  }
  if (intra.size() == 2) return crossed_ring(c, hosts, intra);
  const transport across(hosts.across, transport::on_private_t{}, hosts.across_eager.data());
  const block_partition blocks(c.count, intra.size());
  reduce_scatter_ring_blocks(intra, c.send, c.recv, blocks, c.elem.size, *c.op);
  std::byte* shard = c.recv + c.bytes(blocks.offset(intra.rank()));
  run_flat(collective::allreduce, {across, shard, shard, blocks.length(intra.rank()), c.elem, c.op, 0});
  allgather_ring_blocks(intra, c.recv, blocks, c.elem.size);
}

}  // namespace collectives::detail
