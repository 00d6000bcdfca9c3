// SPDX-License-Identifier: BSD-3-Clause
// broadcast_naive — the root sends the whole buffer to every other rank in turn.
//
// Steps:   root sends n bytes to root+1, root+2, ..., root−1 (mod p); every other rank
//          receives once from the root.
// Cost:    (p−1)·(α + nβ) at the root, which is the critical path.
// Order:   no reduction.
// Limits:  none.
// Memory:  none extra.
// Ref:     the textbook linear broadcast (e.g. Pacheco, "Parallel Programming with MPI").

#include "algorithms/broadcast/broadcast.hpp"

namespace collectives::detail {

void broadcast_naive(const call& c) {
  if (c.count == 0 || c.size() == 1) return;
  const int p = c.size();
  if (c.rank() != c.root) {
    c.net.recv(c.root, c.recv, c.bytes(c.count));
    return;
  }
  for (int step = 1; step < p; ++step) c.net.send((c.root + step) % p, c.recv, c.bytes(c.count));
}

}  // namespace collectives::detail
