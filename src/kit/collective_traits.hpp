// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// What kind of call each collective is, and how many there are: one definition of each, for the
// core (run.cpp, the registry), the drop-in, the schedule recorder (src/schedule/), the benchmark
// and the tests. constexpr: run()'s fast path
// instantiates its checks per collective, where they fold away.

#include <cstddef>

#include "collectives/algorithm.hpp"

namespace collectives::detail {

/// Every collective, for tables indexed by one (the registry's, names.cpp's, the drop-in's plan).
inline constexpr std::size_t collective_count = static_cast<std::size_t>(collective::reduce_scatterv) + 1;

/// Root-only buffers (scatter's and scatterv's send, gather's, gatherv's and reduce's recv) are
/// ignored on the other ranks: neither checked nor passed on.
constexpr bool uses_send(collective c, int root, int rank) {
  return (c != collective::scatter && c != collective::scatterv) || rank == root;
}
constexpr bool uses_recv(collective c, int root, int rank) {
  return (c != collective::gather && c != collective::gatherv && c != collective::reduce) || rank == root;
}

constexpr bool has_root(collective c) {
  return c == collective::broadcast || c == collective::scatter || c == collective::gather ||
         c == collective::reduce || c == collective::gatherv || c == collective::scatterv;
}

/// Takes an op: combines the ranks' contributions.
constexpr bool reduces(collective c) {
  return c == collective::reduce || c == collective::reduce_scatter || c == collective::allreduce ||
         c == collective::scan || c == collective::exscan || c == collective::reduce_scatterv;
}

/// Counts and displacements per rank.
constexpr bool is_v_variant(collective c) {
  return c == collective::gatherv || c == collective::scatterv || c == collective::allgatherv ||
         c == collective::alltoallv || c == collective::reduce_scatterv;
}

/// A size in bytes (collbench's, automatic's key) counts the whole array of p blocks, not one
/// rank's vector: the block collectives (whose calls pass one block) and the v-variants.
constexpr bool counts_whole_array(collective c) {
  return c == collective::scatter || c == collective::gather || c == collective::allgather ||
         c == collective::reduce_scatter || c == collective::alltoall || is_v_variant(c);
}

/// Passing the same range as send and recv means in place.
constexpr bool has_in_place_form(collective c) {
  return c == collective::allreduce || c == collective::scan || c == collective::exscan;
}

}  // namespace collectives::detail
