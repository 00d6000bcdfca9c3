// SPDX-License-Identifier: BSD-3-Clause
// alltoallv_pairwise — p−1 shift steps: at step k every rank sends its block for rank+k and
// receives the block rank−k holds for it, sized by its own recv_counts (MPI semantics).
//
// Steps:   rank r copies its own block, then for k = 1 … p−1 sends send_counts[r+k] elements
//          from send_displs[r+k] to r+k and receives recv_counts[r−k] elements from r−k at
//          recv_displs[r−k] (mod p). Each step is a uniform shift, which the transport's exchange
//          orders deadlock-free even with synchronous sends; empty blocks travel as empty messages.
//            k = 1:  0→1  1→2  2→3  3→0
//            k = 2:  0→2  1→3  2→0  3→1   (a pairing: 0↔2, 1↔3)
//            k = 3:  0→3  1→0  2→1  3→2
// Cost:    (p−1)α + Σ_k (largest block of shift k)·β: (p−1)·b·β for equal blocks b; a step waits
//          for its largest block, so skew shows in every step that carries it.
// Order:   no reduction.
// Limits:  none: any counts (zeros included), any displacements.
// Memory:  none extra: blocks travel straight between send and recv.
// Ref:     Thakur, Rabenseifner, Gropp, "Optimization of collective communication operations
//          in MPICH", IJHPCA 19(1), 2005 (the pairwise-exchange all-to-all); Open MPI
//          alltoallv_intra_pairwise.

#include "algorithms/alltoallv/alltoallv.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void alltoallv_pairwise(const call& c) {
  const int p = c.size(), rank = c.rank();
  const block_layout &out = *c.send_blocks, &in = *c.recv_blocks;
  copy_bytes(c.recv + c.bytes(in.displ(rank)), c.send + c.bytes(out.displ(rank)), c.bytes(in.count(rank)));
  for (int k = 1; k < p; ++k) {
    const int to = (rank + k) % p, from = (rank - k + p) % p;
    c.net.exchange(to, c.send + c.bytes(out.displ(to)), c.bytes(out.count(to)), from,
                   c.recv + c.bytes(in.displ(from)), c.bytes(in.count(from)));
  }
}

}  // namespace collectives::detail
