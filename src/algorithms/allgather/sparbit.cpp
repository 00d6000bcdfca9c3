// SPDX-License-Identifier: BSD-3-Clause
// allgather_sparbit — distance halving: ⌈log p⌉ steps for any p, the first to the farthest
// partner with one block, the last to the nearest with half the result, every block straight to
// its place in rank order (no final rotation, no fold).
//
// Steps:   L = ⌈log₂ p⌉, d = 2^(L−1), 2^(L−2), …, 1. Before the step of d rank r holds the blocks
//          r, r − 2d, r − 4d, … (mod p), `held` of them; it sends them to r + d and receives from
//          r − d the blocks r − d, r − 3d, … (its partner's), so it then holds r, r − d, r − 2d, …
//          For p not a power of two, the steps whose d is a bit of 2^L − p leave out the last
//          block each way (it would arrive twice): held becomes 2·held − 1, p after the last step.
//            p = 6 (2^L − p = 2: the step of d = 2 leaves one out), blocks of rank 0:
//            d = 4:  sends {0} to 4, receives {2} from 2:       holds 0, 2
//            d = 2:  sends {0} to 2, receives {4} from 4:       holds 0, 2, 4
//            d = 1:  sends {0, 4, 2} to 1, receives {5, 3, 1}:  holds every block
// Cost:    ⌈log p⌉α + (p−1)/p·nβ + local packing, n the N-byte result: a step's blocks are not
//          contiguous, so each message is packed into scratch and unpacked on arrival, two local
//          passes over (p−1)/p·N bytes in all (none where a step moves one block).
// Transport: one shift a step (r + d to, r − d from): transport::exchange, deadlock-free whatever
//          the size; below E the send goes first (one latency).
// Order:   no reduction.
// Limits:  none; any p.
// Memory:  scratch for the largest step's message both ways: 2·2^(L−1) blocks, under 2p (none
//          at p = 2); the partition's p + 1 offsets.
// Ref:     Loch, Koslovski, "Sparbit: a new logarithmic-cost and data locality-aware MPI Allgather
//          algorithm", SBAC-PAD 2021; Open MPI 5 coll/base allgather sparbit.

#include <algorithm>
#include <bit>

#include "algorithms/allgather/allgather.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void allgather_sparbit_blocks(const transport& net, std::byte* buf, const block_partition& blocks,
                              std::size_t elem_size) {
  const int p = net.size(), rank = net.rank();
  const int steps = std::bit_width(static_cast<unsigned>(p - 1));
  const int left_out = (1 << steps) - p;  // its bits: the steps that leave the last block out
  const auto wrapped = [&](int b) { return ((b % p) + p) % p; };
  const auto at = [&](int b) { return buf + blocks.offset(wrapped(b)) * elem_size; };
  const auto bytes_of = [&](int b) { return blocks.length(wrapped(b)) * elem_size; };
  // The step of d moves `moved` blocks each way: rank − 2j·d out, rank − (2j + 1)·d in, j < moved
  // (at least one: 2^L − p < 2^(L−1), so the first step leaves nothing out).
  const auto for_each_step = [&](auto&& step) {
    int held = 1;
    for (int d = 1 << (steps - 1); d >= 1; d /= 2) {
      const int moved = (left_out & d) != 0 ? held - 1 : held;
      step(d, moved);
      held += moved;
    }
  };
  const auto run_bytes = [&](int first, int d, int moved) {
    std::size_t sum = 0;
    for (int j = 0; j < moved; ++j) sum += bytes_of(rank - (2 * j + first) * d);
    return sum;
  };

  // A step of several blocks goes packed: scratch for the largest message each way.
  std::size_t most_out = 0, most_in = 0;
  for_each_step([&](int d, int moved) {
    if (moved == 1) return;
    most_out = std::max(most_out, run_bytes(0, d, moved));
    most_in = std::max(most_in, run_bytes(1, d, moved));
  });
  const scratch packed = make_scratch(most_out + most_in);
  std::byte* const out = packed.get();
  std::byte* const in = out + most_out;

  for_each_step([&](int d, int moved) {
    const int to = (rank + d) % p, from = (rank - d + p) % p;
    if (moved == 1) {
      net.exchange(to, at(rank), bytes_of(rank), from, at(rank - d), bytes_of(rank - d));
      return;
    }
    std::size_t sent = 0;
    for (int j = 0; j < moved; ++j) {
      copy_bytes(out + sent, at(rank - 2 * j * d), bytes_of(rank - 2 * j * d));
      sent += bytes_of(rank - 2 * j * d);
    }
    net.exchange(to, out, sent, from, in, run_bytes(1, d, moved));
    std::size_t received = 0;
    for (int j = 0; j < moved; ++j) {
      copy_bytes(at(rank - (2 * j + 1) * d), in + received, bytes_of(rank - (2 * j + 1) * d));
      received += bytes_of(rank - (2 * j + 1) * d);
    }
  });
}

void allgather_sparbit(const call& c) {
  if (c.count == 0) return;
  const int p = c.size();
  copy_bytes(c.block(c.recv, c.rank()), c.send, c.bytes(c.count));
  if (p > 1)
    allgather_sparbit_blocks(c.net, c.recv, block_partition(c.count * static_cast<std::size_t>(p), p),
                             c.elem.size);
}

}  // namespace collectives::detail
