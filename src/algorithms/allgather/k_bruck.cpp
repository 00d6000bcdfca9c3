// SPDX-License-Identifier: BSD-3-Clause
// allgather_k_bruck — Bruck's dissemination of radix k (any k, default 4): each step a rank
// passes everything gathered so far to k − 1 ranks at once, so the blocks it holds multiply by k:
// ⌈log_k p⌉ steps for any p; a final local rotation puts the blocks in rank order.
//
// Steps:   rank r keeps its blocks rotated: position i of recv holds the block of rank r+i.
//          At the step of d = 1, k, k², … it sends its first min(d, p − j·d) positions to r − j·d
//          and receives as many from r + j·d into positions j·d, j·d + 1, …, for each
//          j = 1 … k − 1 with j·d < p (the last step is partial when p is not a power of k).
//          Then recv is rotated by r so that position i holds block i.
//            p = 5, k = 3, positions of rank r:
//            start:   [r . . . .]
//            d = 1:   [r r+1 r+2 . .]        from r+1 and r+2
//            d = 3:   [r r+1 r+2 r+3 r+4]    from r+3 (two positions: p − 3)
//            rotate:  every rank [0 1 2 3 4]
// Cost:    below E ⌈log_k p⌉α + (p−1)/p·nβ + local rotation, above (k−1)⌈log_k p⌉α + (p−1)/p·nβ
//          + local rotation, n the N-byte result: the rotation is a local pass over N bytes. Below
//          E a step's k − 1 sends leave together and their latencies overlap; every rank sends
//          (k − 1)·d blocks a step, the same blocks to each peer, and receives p − 1 in all.
// Transport: the peers of a step are shifts (r − j·d to, r + j·d from): below E every send of a
//          step goes before any receive (exchange_with_peers); above E the exchanges go one after
//          the other, which blocking sends cannot deadlock. The partial peer of the last step
//          (fewer positions) is an exchange of its own after the full ones.
// Order:   no reduction.
// Limits:  2 ≤ k ≤ p (the call's radix); any p.
// Memory:  recv is the working buffer; the step's peers (a vector of k − 1 entries); the rotation
//          parks the shorter of its two parts, min(r, p−r) blocks, in scratch (rotate_bytes).
// Ref:     Bruck, Ho, Kipnis, Upfal, Weathersby, "Efficient algorithms for all-to-all
//          communications in multiport message-passing systems", IEEE TPDS 8(11), 1997 (the
//          k-port algorithm); Open MPI coll/base allgather k_bruck; MPICH allgather k_brucks.

#include <algorithm>
#include <span>
#include <vector>

#include "algorithms/allgather/allgather.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void allgather_k_bruck(const call& c) {
  if (c.count == 0) return;
  const int p = c.size(), rank = c.rank(), radix = c.radix;
  const std::size_t block = c.bytes(c.count);
  copy_bytes(c.recv, c.send, block);
  if (p == 1) return;

  std::vector<step_peer> peers;
  peers.reserve(radix - 1);
  for (int d = 1; d < p; d *= radix) {
    // Peers j·d < p; all but maybe the last take d positions, the last min(d, p − j·d).
    peers.clear();
    int partial = 0;  // positions the partial peer takes, 0: none
    for (int j = 1; j < radix && j * d < p; ++j) {
      const int positions = std::min(d, p - j * d);
      const step_peer peer{(rank - j * d + p) % p, (rank + j * d) % p, c.block(c.recv, j * d),
                           block * static_cast<std::size_t>(positions)};
      if (positions < d) partial = positions;
      peers.push_back(peer);
    }
    const std::size_t full = partial != 0 ? peers.size() - 1 : peers.size();
    exchange_with_peers(c.net, std::span(peers.data(), full), c.recv, block * static_cast<std::size_t>(d), p);
    if (partial != 0)
      exchange_with_peers(c.net, std::span(peers.data() + full, 1), c.recv,
                          block * static_cast<std::size_t>(partial), p);
  }

  // Position i holds block r+i: rotating right by r brings block i to position i.
  std::byte* const end = c.block(c.recv, p);
  rotate_bytes(c.recv, end - block * static_cast<std::size_t>(rank), end);
}

}  // namespace collectives::detail
