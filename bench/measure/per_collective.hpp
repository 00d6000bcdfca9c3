// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The benchmark's own tables with a row per collective, row i for collective i as in the library's
// collective descriptor (kit/collective.hpp): the facts about a collective that only the benchmark
// needs (how it is called, what the MPI library names it). A table missing a row or out of order
// fails to compile where it is read (static_assert on in_collective_order).

#include <array>
#include <collectives/algorithm.hpp>
#include <cstddef>

#include "kit/collective.hpp"

namespace collbench {

template <class Row>
using per_collective = std::array<Row, collectives::detail::collective_count>;

/// True when row i of `rows` is collective i's (its member `coll`).
template <class Row>
constexpr bool in_collective_order(const per_collective<Row>& rows) {
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (static_cast<std::size_t>(rows[i].coll) != i) return false;
  return true;
}

template <class Row>
constexpr const Row& row_of(const per_collective<Row>& rows, collectives::collective c) {
  return rows[static_cast<std::size_t>(c)];
}

}  // namespace collbench
