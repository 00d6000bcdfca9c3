// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <cstdint>

#include "collectives/algorithm.hpp"
#include "dispatch/tuning.hpp"

namespace collectives::detail {

/// Each thread's last choice, with everything it was made from. Calls repeat their shapes (a
/// solver's all-reduce of one vector, a benchmark's loop), and the lookup and the rule cost a
/// share of a small call that shows (docs/measurements/2026-11-28-figures-from-comments.md). The
/// table's generation is read before choosing: a table installed meanwhile makes the next call
/// choose afresh, never keeps a stale choice.
struct automatic_key {
  std::uint64_t generation = 0;  // no table has generation 0: a thread's first call chooses
  collective c{};
  int p = 0;
  std::size_t bytes = 0, count = 0, largest_block = 0;
  bool commutative = false;
  bool operator==(const automatic_key&) const = default;
};
struct automatic_memo {
  automatic_key key;
  algorithm chosen{};
};
extern constinit thread_local automatic_memo last_automatic_choice;

/// The choice for a shape not seen last by this thread: made, and remembered.
algorithm choose_and_remember(const automatic_key& k);

/// The rule behind algorithm::automatic: one of the library's own algorithms (never vendor)
/// for collective `c` on `p` ranks moving `count` elements of `bytes` bytes in all (the vector of
/// broadcast, reduce and allreduce, one block otherwise). A non-commutative op always gets an
/// order-keeping one. The rule is documented in automatic.cpp.
/// The v-variants pass what every rank knows alike, or 0: `bytes` and `count` the whole result
/// of allgatherv and the whole vector of reduce_scatterv, `largest_block` their largest block
/// in bytes; their choice must not depend on anything only some ranks know.
/// Inline, so that a call repeating its shape is compared in the caller's frame, with the
/// generation read in place: out of line, the compiler saved and restored six registers and called
/// out for the generation on every call, which small calls' times showed
/// (docs/measurements/2026-11-28-figures-from-comments.md).
inline algorithm choose_automatic(collective c, int p, std::size_t bytes, std::size_t count, bool commutative,
                                  std::size_t largest_block = 0) {
  const automatic_key key{tuning_generation(), c, p, bytes, count, largest_block, commutative};
  if (key == last_automatic_choice.key) [[likely]]
    return last_automatic_choice.chosen;
  return choose_and_remember(key);
}

/// For the drop-in's `fastest` (never for automatic): true where the table in force has a
/// "fastest" section that measured the MPI library's own collective clearly faster than the
/// library's choice for such a call; false without one, for sizes it has no range for and for
/// skewed blocks. The v-variants whose sizes are not known alike (gatherv, scatterv, alltoallv)
/// pass 0 bytes and get the table's one verdict for every size. The arguments are
/// choose_automatic's, so every rank answers alike.
bool vendor_fastest(collective c, int p, std::size_t bytes, std::size_t largest_block = 0);

}  // namespace collectives::detail
