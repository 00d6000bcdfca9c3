// SPDX-License-Identifier: BSD-3-Clause
// reduce_scatterv_pairwise — reduce_scatter_pairwise for blocks of any size: every rank sends each
// other rank its input of the block that rank owns, directly, and folds in what it receives.
//
// Steps:   for k = 1 … p−1 rank r sends its input of block (r + k) mod p (recv_counts[r+k]
//          elements) to rank r+k and receives rank (r − k)'s input of block r (recv_counts[r]
//          elements; a shift by k: no rank waits on two others in one step). The first lands in
//          recv itself and r's own input of block r is added to it, so nothing is copied; later
//          ones land in a scratch block and are added to recv.
//            k = 1: 0→1 x0[1]  1→2 x1[2]  2→3 x2[3]  3→0 x3[0]
//            k = 2: 0→2 x0[2]  1→3 x1[3]  2→0 x2[0]  3→1 x3[1]
//            k = 3: 0→3 x0[3]  1→0 x1[0]  2→1 x2[1]  3→2 x3[2]
// Cost:    (p−1)(α + b_max(β + γ)), at the rank with the largest block: (p−1)/p·N(β + γ) for equal
//          blocks (N = the whole vector).
// Order:   block r gathers its terms in the order r−1, r, r−2, r−3, …: commutative ops only.
// Limits:  none: any counts (empty blocks travel as empty messages).
// Memory:  from p = 3 on, one block of this rank's size, where the incoming blocks after the first
//          land before they are added; none at p = 2.
// Ref:     Thakur, Rabenseifner, Gropp, "Optimization of collective communication operations
//          in MPICH" (2005), the pairwise-exchange reduce-scatter (MPICH
//          reduce_scatter_intra_pairwise).

#include "algorithms/reduce_scatterv/reduce_scatterv.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void reduce_scatterv_pairwise(const call& c) {
  const block_partition blocks = c.recv_blocks->partition();
  if (blocks.count() == 0) return;
  const int p = c.size(), rank = c.rank();
  const auto input = [&](int r) { return c.send + c.bytes(blocks.offset(r)); };
  const std::size_t bytes = c.bytes(c.count);
  if (p == 1) {
    copy_bytes(c.recv, input(rank), bytes);
    return;
  }
  scratch incoming = p > 2 ? make_scratch(bytes) : nullptr;
  for (int k = 1; k < p; ++k) {
    const int to = (rank + k) % p, from = (rank - k + p) % p;
    std::byte* landing = k == 1 ? c.recv : incoming.get();
    c.net.exchange(to, input(to), c.bytes(blocks.length(to)), from, landing, bytes);
    combine(*c.op, k == 1 ? input(rank) : incoming.get(), c.recv, c.count);
  }
}

}  // namespace collectives::detail
