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
// Memory:  scratch for one step's message both ways: 2·2^(L−1) blocks, under 2p (none at p = 2).
// Ref:     Loch, Koslovski, "Sparbit: a new logarithmic-cost and data locality-aware MPI Allgather
//          algorithm", SBAC-PAD 2021; Open MPI 5 coll/base allgather sparbit.

#include <bit>

#include "algorithms/allgather/allgather.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void allgather_sparbit(const call& c) {
  if (c.count == 0) return;
  const int p = c.size(), rank = c.rank();
  const std::size_t block = c.bytes(c.count);
  copy_bytes(c.block(c.recv, rank), c.send, block);
  if (p == 1) return;

  const int steps = std::bit_width(static_cast<unsigned>(p - 1));
  const int left_out = (1 << steps) - p;  // its bits: the steps that leave the last block out
  // The step's message both ways, packed: at most 2^(L−1) blocks (the last step's); none at p = 2.
  const int most_moved = 1 << (steps - 1);
  const scratch packed = make_scratch(most_moved > 1 ? 2 * block * static_cast<std::size_t>(most_moved) : 0);
  std::byte* const out = packed.get();
  std::byte* const in = out + block * static_cast<std::size_t>(most_moved);
  const auto at = [&](int b) { return c.block(c.recv, ((b % p) + p) % p); };

  int held = 1;
  for (int d = most_moved; d >= 1; d /= 2) {
    // At least one: 2^L − p < 2^(L−1), so the first step leaves nothing out.
    const int moved = (left_out & d) != 0 ? held - 1 : held;
    const std::size_t bytes = block * static_cast<std::size_t>(moved);
    const int to = (rank + d) % p, from = (rank - d + p) % p;
    if (moved == 1) {
      c.net.exchange(to, at(rank), bytes, from, at(rank - d), bytes);
    } else {
      for (int j = 0; j < moved; ++j)
        copy_bytes(out + block * static_cast<std::size_t>(j), at(rank - 2 * j * d), block);
      c.net.exchange(to, out, bytes, from, in, bytes);
      for (int j = 0; j < moved; ++j)
        copy_bytes(at(rank - (2 * j + 1) * d), in + block * static_cast<std::size_t>(j), block);
    }
    held += moved;
  }
}

}  // namespace collectives::detail
