// SPDX-License-Identifier: BSD-3-Clause
// alltoall_k_bruck — Bruck's all-to-all of radix k (any k, default 4): every block travels to its
// destination in ⌈log_k p⌉ hops, one per base-k digit of its distance, and each step sends to
// k − 1 ranks at once; local rotations around it. Radix 2 is alltoall_bruck (bruck.cpp).
//
// Steps:   rotate: position j of recv takes send-block r+j (the block travelling j ranks on).
//          For each place d = 1, k, k², … < p and each digit v = 1 … k − 1 with v·d < p: pack the
//          positions j whose digit at d is v (runs of d positions, k·d apart) into one message,
//          send it to r + v·d and receive r − v·d's into the same positions. A block at position
//          j has then moved j ranks, so position j of rank r holds the block rank r − j sent to r.
//          Inverse rotation: recv-block i takes position r−i (a swap of block pairs, in place).
//            p = 5, k = 3, distances j in base 3: 0, 1, 2, 10, 11
//            d = 1:   j = 1, 4 to r+1 (digit 1);  j = 2 to r+2 (digit 2)
//            d = 3:   j = 3, 4 to r+3 (digit 1)
// Cost:    below E ⌈log_k p⌉α + ⌈log_k p⌉·(k−1)/k·nβ + local packing, above (k−1)⌈log_k p⌉α +
//          the same bytes, n the whole array: each step moves the positions with a nonzero digit,
//          about (k−1)/k of them. The packing moves about (2 + 2⌈log_k p⌉(k−1)/k)·n bytes
//          locally. k = 2 is Bruck's ⌈log p⌉(α + n/2·β); k = p is one step of p − 1 messages, all
//          sent first below E.
// Transport: the peers of a step are shifts (r + v·d to, r − v·d from), each with its own
//          message (exchange_with_peers): below E every send of a step goes before any receive;
//          above E the exchanges go one after the other, in the same order of v on every rank,
//          which blocking sends cannot deadlock.
// Order:   no reduction.
// Limits:  2 ≤ k ≤ p (the call's radix); any p (the last place has fewer digits or shorter
//          runs when p is not a power of k).
// Memory:  two buffers of the most positions a step moves, at most p − ⌈p/k⌉ blocks (the packed
//          messages out and those coming in); recv is the rotated copy and both rotations work in
//          place there; the step's peers (a vector of k − 1 entries).
// Ref:     Bruck, Ho, Kipnis, Upfal, Weathersby, "Efficient algorithms for all-to-all
//          communications in multiport message-passing systems", IEEE TPDS 8(11), 1997 (the
//          k-port index algorithm); MPICH alltoall k_brucks.

#include <algorithm>
#include <span>
#include <vector>

#include "algorithms/alltoall/alltoall.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

namespace {

// The positions j < p whose base-k digit at place d is v: runs [start, start + d) for
// start = v·d, v·d + k·d, …, the last cut at p. f(start, length) for each run, in order.
template <class F>
void for_each_run(int p, int d, int radix, int v, F&& f) {
  for (long long start = static_cast<long long>(v) * d; start < p; start += static_cast<long long>(radix) * d)
    f(static_cast<int>(start), static_cast<int>(std::min<long long>(d, p - start)));
}

// Positions j < p with a nonzero digit at place d: the ones a step moves.
int moving_positions(int p, int d, int radix) {
  int moving = 0;
  for (int v = 1; v < radix && static_cast<long long>(v) * d < p; ++v)
    for_each_run(p, d, radix, v, [&](int, int length) { moving += length; });
  return moving;
}

}  // namespace

void alltoall_bruck_of_radix(const call& c, int radix) {
  if (c.count == 0) return;
  const int p = c.size(), rank = c.rank();
  const std::size_t block = c.bytes(c.count);
  if (p == 1) {
    copy_bytes(c.recv, c.send, block);
    return;
  }

  // Position j holds the block bound for rank r+j: j is the distance it still has to travel.
  for (int j = 0; j < p; ++j) copy_bytes(c.block(c.recv, j), c.block(c.send, (rank + j) % p), block);

  int most = 0;
  for (long long d = 1; d < p; d *= radix)
    most = std::max(most, moving_positions(p, static_cast<int>(d), radix));
  const scratch out = make_scratch(block * static_cast<std::size_t>(most));
  const scratch in = make_scratch(block * static_cast<std::size_t>(most));
  std::vector<step_peer> peers;
  peers.reserve(radix - 1);
  for (long long place = 1; place < p; place *= radix) {
    const int d = static_cast<int>(place);
    peers.clear();
    std::size_t packed = 0;  // bytes of the step's messages so far, out and in alike
    for (int v = 1; v < radix && static_cast<long long>(v) * d < p; ++v) {
      const std::size_t first = packed;
      for_each_run(p, d, radix, v, [&](int start, int length) {
        const std::size_t bytes = block * static_cast<std::size_t>(length);
        copy_bytes(out.get() + packed, c.block(c.recv, start), bytes);
        packed += bytes;
      });
      peers.push_back({.to = (rank + v * d) % p,
                       .from = (rank - v * d + p) % p,
                       .in = in.get() + first,
                       .in_bytes = packed - first,
                       .out = out.get() + first,
                       .out_bytes = packed - first});
    }
    exchange_with_peers(c.net, peers, p);
    packed = 0;
    for (int v = 1; v < radix && static_cast<long long>(v) * d < p; ++v)
      for_each_run(p, d, radix, v, [&](int start, int length) {
        const std::size_t bytes = block * static_cast<std::size_t>(length);
        copy_bytes(c.block(c.recv, start), in.get() + packed, bytes);
        packed += bytes;
      });
  }

  // Position j now holds the block from rank r−j; i ↦ r−i is its own inverse, so swap pairs.
  for (int i = 0; i < p; ++i) {
    const int j = (rank - i + p) % p;
    if (i < j) swap_bytes(c.block(c.recv, i), c.block(c.recv, j), block);
  }
}

void alltoall_k_bruck(const call& c) { alltoall_bruck_of_radix(c, c.radix); }

}  // namespace collectives::detail
