// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <array>
#include <cstddef>
#include <span>

#include "collectives/algorithm.hpp"
#include "core/call.hpp"
#include "core/collective_traits.hpp"

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

inline constexpr std::size_t algorithm_count =
    static_cast<std::size_t>(algorithm::scatter_recursive_doubling) + 1;

/// Every entry indexed by (collective, algorithm), null where there is none; built by the compiler
/// (registry.cpp), no initialisation at run time.
extern const std::array<std::array<const algorithm_entry*, algorithm_count>, collective_count>
    algorithm_index;

/// The entry for (c, a), or nullptr when c has no such algorithm (automatic included). Inline:
/// every call looks its algorithm up here.
inline const algorithm_entry* find_algorithm(collective c, algorithm a) {
  const auto ci = static_cast<std::size_t>(c), ai = static_cast<std::size_t>(a);
  return ci < collective_count && ai < algorithm_count ? algorithm_index[ci][ai] : nullptr;
}

}  // namespace collectives::detail
