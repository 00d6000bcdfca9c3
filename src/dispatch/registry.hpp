// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Every algorithm's descriptor (kit/descriptor.hpp), collected from the families' tables by the
// compiler: dispatch, names.cpp (to_string, algorithms_for(), keeps_rank_order()), automatic, the
// schedule checks, the benchmark's textbook lines and the lists (tests/lists.cpp) all read this.
// Nothing is initialised at run time.

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <string>

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/allgatherv/allgatherv.hpp"
#include "algorithms/allreduce/allreduce.hpp"
#include "algorithms/alltoall/alltoall.hpp"
#include "algorithms/alltoallv/alltoallv.hpp"
#include "algorithms/barrier/barrier.hpp"
#include "algorithms/broadcast/broadcast.hpp"
#include "algorithms/exscan/exscan.hpp"
#include "algorithms/gather/gather.hpp"
#include "algorithms/gatherv/gatherv.hpp"
#include "algorithms/reduce/reduce.hpp"
#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "algorithms/reduce_scatterv/reduce_scatterv.hpp"
#include "algorithms/scan/scan.hpp"
#include "algorithms/scatter/scatter.hpp"
#include "algorithms/scatterv/scatterv.hpp"
#include "kit/collective_traits.hpp"
#include "kit/descriptor.hpp"

namespace collectives::detail {

/// Every collective's table, in the order of the enum `collective` (checked below).
inline constexpr std::span<const algorithm_descriptor> registry_tables[] = {
    broadcast_algorithms, scatter_algorithms,        gather_algorithms,    reduce_algorithms,
    allgather_algorithms, reduce_scatter_algorithms, alltoall_algorithms,  allreduce_algorithms,
    barrier_algorithms,   scan_algorithms,           exscan_algorithms,    gatherv_algorithms,
    scatterv_algorithms,  allgatherv_algorithms,     alltoallv_algorithms, reduce_scatterv_algorithms};

static_assert(std::size(registry_tables) == collective_count, "registry_tables: one table per collective");
static_assert(
    [] {
      for (std::size_t c = 0; c < collective_count; ++c)
        for (const algorithm_descriptor& d : registry_tables[c])
          if (static_cast<std::size_t>(d.coll) != c) return false;
      return true;
    }(),
    "registry_tables: in the enum's order, each table's rows of its own collective");

/// One past the last algorithm any table names: the bound of every table indexed by algorithm.
inline constexpr std::size_t algorithm_count = [] {
  std::size_t n = static_cast<std::size_t>(algorithm::automatic) + 1;
  for (std::span<const algorithm_descriptor> t : registry_tables)
    for (const algorithm_descriptor& d : t) n = std::max(n, static_cast<std::size_t>(d.alg) + 1);
  return n;
}();

/// All descriptors in one array, collective by collective, each family's rows in its order.
inline constexpr auto registry_entries = [] {
  constexpr std::size_t size = [] {
    std::size_t n = 0;
    for (std::span<const algorithm_descriptor> t : registry_tables) n += t.size();
    return n;
  }();
  std::array<algorithm_descriptor, size> all{};
  std::size_t i = 0;
  for (std::span<const algorithm_descriptor> t : registry_tables)
    for (const algorithm_descriptor& d : t) all[i++] = d;
  return all;
}();

inline constexpr std::span<const algorithm_descriptor> registry() { return registry_entries; }

/// Every descriptor indexed by (collective, algorithm), null where there is none. A collective with
/// the same algorithm twice fails to compile here.
inline constexpr std::array<std::array<const algorithm_descriptor*, algorithm_count>, collective_count>
    algorithm_index = [] {
      std::array<std::array<const algorithm_descriptor*, algorithm_count>, collective_count> t{};
      for (const algorithm_descriptor& d : registry_entries) {
        const algorithm_descriptor*& slot =
            t[static_cast<std::size_t>(d.coll)][static_cast<std::size_t>(d.alg)];
        if (slot != nullptr) throw "an algorithm listed twice for one collective";
        slot = &d;
      }
      return t;
    }();

/// The descriptor of (c, a), or nullptr when c has no such algorithm (automatic included). Inline:
/// every call looks its algorithm up here.
constexpr const algorithm_descriptor* find_algorithm(collective c, algorithm a) {
  const auto ci = static_cast<std::size_t>(c), ai = static_cast<std::size_t>(a);
  return ci < collective_count && ai < algorithm_count ? algorithm_index[ci][ai] : nullptr;
}

/// The properties of (c, a), false where c has no such algorithm.
constexpr bool cuts_vector(collective c, algorithm a) {
  const algorithm_descriptor* d = find_algorithm(c, a);
  return d != nullptr && d->cuts_vector;
}
constexpr bool node_aware(collective c, algorithm a) {
  const algorithm_descriptor* d = find_algorithm(c, a);
  return d != nullptr && d->node_aware;
}

/// What is wrong with radix k (≥ 1 given) for the algorithm `d` (null: automatic) on `size`
/// ranks, as the end of a sentence naming it: "takes no radix", "takes a power of two as its
/// radix, given 3", "takes a radix from 2 to the 4 ranks, given 9"; "" when it fits. size 0:
/// the communicator is not known yet (the drop-in's settings), only 2 ≤ k is checked.
std::string radix_problem(const algorithm_descriptor* d, int k, int size);

}  // namespace collectives::detail
