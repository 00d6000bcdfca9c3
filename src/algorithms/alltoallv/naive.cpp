// SPDX-License-Identifier: BSD-3-Clause
// alltoallv_naive — every pair of ranks exchanges its two blocks, peers taken in rank order; what
// a rank receives is sized by its own recv_counts (MPI semantics).
//
// Steps:   rank r copies its own block, then for peer = 0, 1, …, p−1 (peer ≠ r) exchanges
//          send_counts[peer] elements from send_displs[peer] for recv_counts[peer] elements at
//          recv_displs[peer]. Every rank walks its peers in increasing order, so the
//          lexicographically first pending pair can always proceed: no deadlock, but ranks may
//          wait on each other (a chain of up to p−1 steps). Empty blocks still travel as empty
//          messages, so both sides of every pair take the same steps.
// Cost:    (p−1)α + Σ_peers max(sent, received)·β, up to twice that on the critical path.
// Order:   no reduction.
// Limits:  none: any counts (zeros included), any displacements.
// Memory:  none extra.
// Ref:     the textbook "ordered exchanges" all-to-all.

#include "algorithms/alltoallv/alltoallv.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void alltoallv_naive(const call& c) {
  const block_layout &out = *c.send_blocks, &in = *c.recv_blocks;
  for (int peer = 0; peer < c.size(); ++peer)
    c.net.exchange(peer, c.send + c.bytes(out.displ(peer)), c.bytes(out.count(peer)), peer,
                   c.recv + c.bytes(in.displ(peer)), c.bytes(in.count(peer)));
}

}  // namespace collectives::detail
