// SPDX-License-Identifier: BSD-3-Clause
// barrier_naive — every rank reports to rank 0; once it has heard from all of them, rank 0
// releases every rank.
//
// Steps:   every rank r ≠ 0 sends an empty message to rank 0 and waits for one back. Rank 0
//          receives from ranks 1 … p−1 in order, then sends to ranks 1 … p−1. No rank is
//          released before rank 0 has heard from every rank, so none leaves before all entered.
//            4 ranks:  1 → 0, 2 → 0, 3 → 0;  then 0 → 1, 0 → 2, 0 → 3
// Cost:    2(p−1)α at rank 0 (the critical path), 2α elsewhere.
// Order:   no reduction.
// Limits:  none.
// Memory:  none.
// Ref:     the textbook linear (centralised) barrier; Open MPI's barrier "linear".

#include "algorithms/barrier/barrier.hpp"

namespace collectives::detail {

void barrier_naive(const call& c) {
  if (c.size() == 1) return;
  if (c.rank() != 0) {
    c.net.send(0, nullptr, 0);
    c.net.recv(0, nullptr, 0);
    return;
  }
  for (int r = 1; r < c.size(); ++r) c.net.recv(r, nullptr, 0);
  for (int r = 1; r < c.size(); ++r) c.net.send(r, nullptr, 0);
}

}  // namespace collectives::detail
