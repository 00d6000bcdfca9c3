// SPDX-License-Identifier: BSD-3-Clause
// alltoall_pairwise — p−1 shift steps: at step k every rank sends the block meant for rank+k
// and receives the block rank−k holds for it, so every rank sends and receives once per step.
//
// Steps:   rank r copies its own block, then for k = 1 … p−1 sends send-block r+k to r+k and
//          receives from r−k into recv-block r−k (mod p). Each step is a uniform shift, which
//          the transport's exchange orders deadlock-free even with synchronous sends.
//            k = 1:  0→1  1→2  2→3  3→0
//            k = 2:  0→2  1→3  2→0  3→1   (a pairing: 0↔2, 1↔3)
//            k = 3:  0→3  1→0  2→1  3→2
// Cost:    (p−1)(α + n/p·β), n the whole array (n/p a block): every step is busy on every rank.
// Order:   no reduction.
// Limits:  none; any p (at k = p/2 for even p the shift is a pairing, which exchange handles).
// Memory:  none extra: blocks travel straight between send and recv.
// Ref:     Thakur, Rabenseifner, Gropp, "Optimization of collective communication operations
//          in MPICH", IJHPCA 19(1), 2005 (the pairwise-exchange all-to-all).

#include "algorithms/alltoall/alltoall.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void alltoall_pairwise(const call& c) {
  if (c.count == 0) return;
  const int p = c.size(), rank = c.rank();
  const std::size_t bytes = c.bytes(c.count);
  copy_bytes(c.block(c.recv, rank), c.block(c.send, rank), bytes);
  if (p == 1) return;

  for (int k = 1; k < p; ++k) {
    const int to = (rank + k) % p, from = (rank - k + p) % p;
    c.net.exchange(to, c.block(c.send, to), bytes, from, c.block(c.recv, from), bytes);
  }
}

}  // namespace collectives::detail
