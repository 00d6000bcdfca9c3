// SPDX-License-Identifier: BSD-3-Clause
// reduce_scatter_pairwise — every rank sends each other rank the block that rank owns, directly.
// At step k rank r sends its input of block r+k to r+k and folds in r−k's input of block r.
//
// Steps:   for k = 1 … p−1 rank r sends its input of block (r + k) mod p to rank r+k and
//          receives rank (r − k)'s input of block r (a shift by k: no rank waits on two others in
//          one step). The first lands in recv itself and r's own input of block r is added to it,
//          so nothing is copied; later ones land in a scratch block and are added to recv.
//            k = 1: 0→1 x0[1]  1→2 x1[2]  2→3 x2[3]  3→0 x3[0]
//            k = 2: 0→2 x0[2]  1→3 x1[3]  2→0 x2[0]  3→1 x3[1]
//            k = 3: 0→3 x0[3]  1→0 x1[0]  2→1 x2[1]  3→2 x3[2]
// Cost:    (p−1)α + (p−1)/p·n(β + γ), n the whole vector: like the ring, but every block goes
//          straight from its source to its owner, so no partial sum depends on the previous step.
// Order:   block r gathers its terms in the order r−1, r, r−2, r−3, …: commutative ops only.
// Limits:  none.
// Memory:  one block from p = 3 on, where the incoming blocks after the first land before they
//          are added to recv; none at p = 2.
// Ref:     Thakur, Rabenseifner, Gropp, "Optimization of collective communication operations
//          in MPICH" (2005), the pairwise-exchange reduce-scatter.

#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "kit/primitives.hpp"
#include "kit/scratch.hpp"

namespace collectives::detail {

void reduce_scatter_pairwise(const call& c) {
  const std::size_t bytes = c.bytes(c.count);
  if (c.count == 0) return;
  if (c.size() == 1) {
    copy_bytes(c.recv, c.send, bytes);
    return;
  }
  const int p = c.size(), rank = c.rank();
  scratch incoming = p > 2 ? make_scratch(bytes) : nullptr;
  for (int k = 1; k < p; ++k) {
    const int to = (rank + k) % p, from = (rank - k + p) % p;
    const trace_blocks mark(to, rank, p);
    std::byte* landing = k == 1 ? c.recv : incoming.get();
    c.net.exchange(to, c.block(c.send, to), bytes, from, landing, bytes);
    combine(*c.op, k == 1 ? c.block(c.send, rank) : incoming.get(), c.recv, c.count);
  }
}

}  // namespace collectives::detail
