// SPDX-License-Identifier: BSD-3-Clause
// barrier_dissemination — in round k every rank signals the rank 2^k above it and waits for the
// rank 2^k below it (mod p): after ⌈log p⌉ rounds every rank has heard, directly or through
// others, from every rank.
//
// Steps:   for d = 1, 2, 4, … < p: rank r sends an empty message to (r + d) mod p and receives
//          one from (r − d) mod p (a shift: the transport orders each cycle so no schedule
//          deadlocks). After the round with distance d, rank r knows that ranks r − 2d + 1 … r
//          have entered (mod p), so after ⌈log p⌉ rounds it knows all p have.
//            4 ranks:  d = 1: 0→1 1→2 2→3 3→0;   d = 2: 0→2 1→3 2→0 3→1
// Cost:    ⌈log p⌉α, for every p (no fold: the fewest rounds of any of the library's barriers
//          when p is not a power of two).
// Order:   no reduction.
// Limits:  none.
// Memory:  none.
// Ref:     Hensgen, Finkel, Manber, "Two algorithms for barrier synchronization" (1988); MPICH's
//          barrier; Open MPI's barrier "bruck".

#include "algorithms/barrier/barrier.hpp"

namespace collectives::detail {

void barrier_dissemination(const call& c) {
  const int p = c.size(), rank = c.rank();
  for (int d = 1; d < p; d *= 2) c.net.exchange((rank + d) % p, nullptr, 0, (rank - d + p) % p, nullptr, 0);
}

}  // namespace collectives::detail
