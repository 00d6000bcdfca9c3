#pragma once

#include <span>

#include "collectives/algorithm.hpp"
#include "core/call.hpp"

namespace collectives::detail {

/// One algorithm of one collective: the single table that dispatch, algorithms_for() and
/// keeps_rank_order() all read.
struct algorithm_entry {
  collective coll;
  algorithm alg;
  algorithm_fn run;
  bool keeps_rank_order;  ///< correct for non-commutative ops
};

std::span<const algorithm_entry> registry();

/// The entry for (c, a), or nullptr when c has no such algorithm (automatic included).
const algorithm_entry* find_algorithm(collective c, algorithm a);

}  // namespace collectives::detail
