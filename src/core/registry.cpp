// SPDX-License-Identifier: BSD-3-Clause
#include "core/registry.hpp"

#include <array>

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

namespace collectives::detail {
namespace {

// Every collective's table, in this order (the order of algorithms_for()).
constexpr std::span<const algorithm_entry> tables[] = {
    broadcast_algorithms, scatter_algorithms,        gather_algorithms,    reduce_algorithms,
    allgather_algorithms, reduce_scatter_algorithms, alltoall_algorithms,  allreduce_algorithms,
    barrier_algorithms,   scan_algorithms,           exscan_algorithms,    gatherv_algorithms,
    scatterv_algorithms,  allgatherv_algorithms,     alltoallv_algorithms, reduce_scatterv_algorithms};

constexpr std::size_t entry_count = [] {
  std::size_t n = 0;
  for (std::span<const algorithm_entry> t : tables) n += t.size();
  return n;
}();

// All of them in one array, built by the compiler: no initialisation at run time, no guard.
constexpr std::array<algorithm_entry, entry_count> entries = [] {
  std::array<algorithm_entry, entry_count> all{};
  std::size_t i = 0;
  for (std::span<const algorithm_entry> t : tables)
    for (const algorithm_entry& e : t) all[i++] = e;
  return all;
}();

}  // namespace

// A collective or algorithm added to the enums but not to the bounds of registry.hpp fails to
// compile here (.at).
constinit const std::array<std::array<const algorithm_entry*, algorithm_count>, collective_count>
    algorithm_index = [] {
      std::array<std::array<const algorithm_entry*, algorithm_count>, collective_count> t{};
      for (const algorithm_entry& e : entries)
        t.at(static_cast<std::size_t>(e.coll)).at(static_cast<std::size_t>(e.alg)) = &e;
      return t;
    }();

std::span<const algorithm_entry> registry() { return entries; }

}  // namespace collectives::detail
