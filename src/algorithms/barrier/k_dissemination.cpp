// SPDX-License-Identifier: BSD-3-Clause
// barrier_k_dissemination — dissemination of radix k (default 4): in each round every rank
// signals the k − 1 ranks j·d above it and hears from the k − 1 ranks j·d below it (mod p), so
// what a rank has heard multiplies by k: ⌈log_k p⌉ rounds instead of ⌈log₂ p⌉.
//
// Steps:   for d = 1, k, k², … < p: rank r sends an empty message to (r + j·d) mod p and
//          receives one from (r − j·d) mod p, j = 1 … J with J = min(k − 1, ⌈p/d⌉ − 1) (the last
//          round needs only the shifts that reach ranks not yet heard from). After the round
//          with distance d, rank r knows that ranks r − kd + 1 … r have entered (mod p), so after
//          ⌈log_k p⌉ rounds it knows all p have.
//            16 ranks, k = 4:  d = 1: r → r+1, r+2, r+3;   d = 4: r → r+4, r+8, r+12   (mod 16)
// Cost:    ⌈log_k p⌉α below E; (k−1)⌈log_k p⌉α with synchronous sends. Every MPI sends the
//          empty messages eagerly: a round's k − 1 sends leave together and their latencies
//          overlap; with synchronous sends one shift waits for the other.
// Transport: each round's shifts through exchange_with_peers: all sends first where they are
//          eager, else one ordered exchange per shift (a shift: no schedule deadlocks).
// Order:   no reduction.
// Limits:  2 ≤ k ≤ p (the call's radix); any p, no fold.
// Memory:  the round's k − 1 peers (a vector of k − 1 entries).
// Ref:     Hensgen, Finkel, Manber, "Two algorithms for barrier synchronization" (1988), the
//          n-way dissemination of Hoefler, Mehlan, Mietke, Rehm, "Fast barrier synchronization
//          for InfiniBand" (2006); MPICH barrier k_dissemination.

#include <vector>

#include "algorithms/barrier/barrier.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

void barrier_k_dissemination(const call& c) {
  const int radix = c.radix;
  const int p = c.size(), rank = c.rank();
  std::vector<step_peer> peers(radix - 1);
  for (long long d = 1; d < p; d *= radix) {
    int shifts = 0;
    for (long long shift = d; shift < p && shifts < radix - 1; shift += d, ++shifts)
      peers[shifts] = {static_cast<int>((rank + shift) % p), static_cast<int>((rank - shift % p + p) % p),
                       nullptr, 0};
    exchange_with_peers(c.net, std::span(peers.data(), shifts), nullptr, 0, 0);
  }
}

}  // namespace collectives::detail
