// SPDX-License-Identifier: BSD-3-Clause
// barrier_recursive_doubling — pairwise exchanges with the rank at distance 1, 2, 4, … among a
// power-of-two group; the extra ranks of a non-power-of-two p report to a partner first and are
// released by it last.
//
// Steps:   p = pof2 + rem (pof2_fold): the even rank of each of the first rem pairs sends an
//          empty message to its odd partner and waits for the release. The pof2 group members
//          (a member with a partner first waits for it) exchange empty messages with the member
//          g XOR d for d = 1, 2, …, pof2/2: after the step with distance d, a member knows that
//          the aligned run of 2d members around it has entered, so after log pof2 steps all
//          have. Then members release their partners.
//            4 ranks:  d = 1: 0↔1 2↔3;  d = 2: 0↔2 1↔3
//            6 ranks:  0 → 1, 2 → 3;  core among 1 3 4 5;  1 → 0, 3 → 2
// Cost:    log p·α (+ 2α fold): ⌊log p⌋·α + 2α when p is not a power of two (the fold in and out).
// Order:   no reduction.
// Limits:  none.
// Memory:  none.
// Ref:     Thakur, Rabenseifner, Gropp, "Optimization of collective communication operations
//          in MPICH" (2005); Open MPI's barrier "recursive_doubling".

#include "algorithms/barrier/barrier.hpp"
#include "kit/pof2_fold.hpp"

namespace collectives::detail {

void barrier_recursive_doubling(const call& c) {
  if (c.size() == 1) return;
  const pof2_fold fold(c.rank(), c.size());
  if (fold.sits_out()) {
    c.net.send(fold.partner, nullptr, 0);
    c.net.recv(fold.partner, nullptr, 0);
    return;
  }
  if (fold.carries_partner()) c.net.recv(fold.partner, nullptr, 0);
  for (int d = 1; d < fold.pof2; d *= 2) {
    const int peer = fold.rank_of(fold.group_rank ^ d);
    c.net.exchange(peer, nullptr, 0, peer, nullptr, 0);
  }
  if (fold.carries_partner()) c.net.send(fold.partner, nullptr, 0);
}

}  // namespace collectives::detail
