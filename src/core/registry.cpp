#include "core/registry.hpp"

#include <vector>

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/allgatherv/allgatherv.hpp"
#include "algorithms/allreduce/allreduce.hpp"
#include "algorithms/alltoall/alltoall.hpp"
#include "algorithms/barrier/barrier.hpp"
#include "algorithms/alltoallv/alltoallv.hpp"
#include "algorithms/broadcast/broadcast.hpp"
#include "algorithms/exscan/exscan.hpp"
#include "algorithms/gather/gather.hpp"
#include "algorithms/gatherv/gatherv.hpp"
#include "algorithms/reduce/reduce.hpp"
#include "algorithms/reduce_scatter/reduce_scatter.hpp"
#include "algorithms/scan/scan.hpp"
#include "algorithms/reduce_scatterv/reduce_scatterv.hpp"
#include "algorithms/scatter/scatter.hpp"
#include "algorithms/scatterv/scatterv.hpp"

namespace collectives::detail {

std::span<const algorithm_entry> registry() {
  static const std::vector<algorithm_entry> entries = [] {
    std::vector<algorithm_entry> all;
    for (std::span<const algorithm_entry> table :
         {std::span<const algorithm_entry>(broadcast_algorithms),
          std::span<const algorithm_entry>(scatter_algorithms),
          std::span<const algorithm_entry>(gather_algorithms),
          std::span<const algorithm_entry>(reduce_algorithms),
          std::span<const algorithm_entry>(allgather_algorithms),
          std::span<const algorithm_entry>(reduce_scatter_algorithms),
          std::span<const algorithm_entry>(alltoall_algorithms),
          std::span<const algorithm_entry>(allreduce_algorithms),
          std::span<const algorithm_entry>(barrier_algorithms),
          std::span<const algorithm_entry>(scan_algorithms),
          std::span<const algorithm_entry>(exscan_algorithms),
          std::span<const algorithm_entry>(gatherv_algorithms),
          std::span<const algorithm_entry>(scatterv_algorithms),
          std::span<const algorithm_entry>(allgatherv_algorithms),
          std::span<const algorithm_entry>(alltoallv_algorithms),
          std::span<const algorithm_entry>(reduce_scatterv_algorithms)})
      all.insert(all.end(), table.begin(), table.end());
    return all;
  }();
  return entries;
}

const algorithm_entry* find_algorithm(collective c, algorithm a) {
  for (const algorithm_entry& e : registry())
    if (e.coll == c && e.alg == a) return &e;
  return nullptr;
}

}  // namespace collectives::detail
