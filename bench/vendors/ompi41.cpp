// SPDX-License-Identifier: BSD-3-Clause
#include "vendors/ompi41.hpp"

#include <mpi.h>  // OMPI_MAJOR_VERSION: vendor_runs describes Open MPI's internals

#include <bit>
#include <climits>
#include <cstdint>
#include <span>
#include <vector>

namespace collbench {
namespace {

using collectives::collective;

bool power_of_two(int p) { return std::has_single_bit(static_cast<unsigned>(p)); }
bool off_power_of_two(int p, std::size_t) { return !power_of_two(p); }
bool fewer_elements_than_ranks(int p, std::size_t count) { return count < static_cast<std::size_t>(p); }

// The vendor internals that run one of the library's schedules: Open MPI's coll/base (4.1)
// algorithm of that name (vendor:pipeline with the library's segment, which variants.cpp sets), or
// the library's algorithm `runs`; `fallback` where Open MPI switches itself, for the calls of p
// ranks and `count` elements that `falls_back` names. Every other internal (chain, knomial,
// segmented_ring, …) runs none.
struct vendor_twin {
  collective coll;
  std::string_view name, runs = {};
  bool (*falls_back)(int p, std::size_t count) = nullptr;
  std::string_view fallback = {};
};
// clang-format off
const vendor_twin vendor_twins[] = {
    {collective::broadcast, "binomial"}, {collective::broadcast, "pipeline"},
    {collective::scatter, "binomial"}, {collective::gather, "binomial"}, {collective::reduce, "binomial"},
    {collective::allgather, "ring"}, {collective::allgather, "bruck"},
    {collective::allgather, "recursive_doubling", {}, &off_power_of_two, "bruck"},
    {collective::alltoall, "pairwise"}, {collective::alltoallv, "pairwise"},
    {collective::allreduce, "ring", {}, &fewer_elements_than_ranks, "recursive_doubling"},
    {collective::allreduce, "recursive_doubling"},
    {collective::barrier, "linear", "naive"}, {collective::barrier, "bruck", "dissemination"},
    {collective::barrier, "recursive_doubling"},
    {collective::scan, "linear", "naive"}, {collective::scan, "recursive_doubling"},
    {collective::exscan, "linear", "naive"}, {collective::exscan, "recursive_doubling"},
};
// clang-format on

// Open MPI's decision as data: the first band whose `below_p` exceeds the rank count, then in it the
// first rule whose `below` exceeds the message's bytes names the algorithm, by its number in Open
// MPI's coll_tuned_<collective>_algorithm. Transcribed from the commutative branch of each
// ompi_coll_tuned_<collective>_intra_dec_fixed (reduce_scatter: _reduce_scatter_block_), the same
// from v4.1.0 to v4.1.8 (read at v4.1.4).
struct rule {
  std::size_t below;
  int algorithm;
};
struct band {
  int below_p;
  std::vector<rule> rules;
};
constexpr std::size_t rest = SIZE_MAX;
constexpr int any = INT_MAX;

const band broadcast_bands[] = {
    {4,
     {{32, 3},
      {256, 5},
      {512, 3},
      {1024, 7},
      {32768, 1},
      {131072, 5},
      {262144, 2},
      {524288, 1},
      {1048576, 6},
      {rest, 5}}},
    {8, {{64, 5}, {128, 6}, {2048, 5}, {8192, 6}, {1048576, 1}, {rest, 2}}},
    {16, {{8, 7}, {64, 5}, {4096, 7}, {16384, 5}, {32768, 6}, {rest, 1}}},
    {32, {{4096, 7}, {1048576, 6}, {rest, 8}}},
    {64, {{2048, 6}, {rest, 7}}},
    {128, {{rest, 7}}},
    {256, {{2, 6}, {16384, 5}, {32768, 1}, {65536, 5}, {rest, 7}}},
    {1024, {{16384, 7}, {32768, 4}, {rest, 7}}},
    {2048, {{524288, 7}, {rest, 8}}},
    {4096, {{262144, 7}, {rest, 8}}},
    {any, {{8192, 7}, {16384, 5}, {262144, 7}, {rest, 8}}},
};
const band allgather_bands[] = {
    // p == 2
    {3, {{rest, 6}}},
    {32, {{rest, 3}}},
    {64, {{1024, 3}, {65536, 5}, {rest, 4}}},
    {128, {{512, 3}, {65536, 5}, {rest, 4}}},
    {256, {{512, 3}, {131072, 5}, {524288, 4}, {1048576, 5}, {rest, 4}}},
    {512, {{32, 3}, {128, 2}, {1024, 3}, {131072, 5}, {524288, 4}, {1048576, 5}, {rest, 4}}},
    {1024, {{64, 3}, {256, 2}, {2048, 3}, {rest, 5}}},
    {2048, {{4, 3}, {8, 2}, {16, 3}, {32, 2}, {256, 3}, {512, 2}, {4096, 3}, {rest, 5}}},
    {4096, {{32, 2}, {128, 3}, {512, 2}, {4096, 3}, {rest, 5}}},
    {any, {{2, 3}, {8, 2}, {16, 3}, {512, 2}, {4096, 3}, {rest, 5}}},
};
const band reduce_scatter_bands[] = {
    {4, {{4, 2}, {8, 4}, {16, 3}, {128, 4}, {256, 3}, {4096, 4}, {8192, 3}, {131072, 4}, {rest, 1}}},
    {8, {{8, 3}, {32, 2}, {256, 4}, {8192, 3}, {16384, 4}, {1048576, 3}, {rest, 1}}},
    {16, {{4, 1}, {32, 3}, {128, 4}, {524288, 3}, {4194304, 1}, {rest, 4}}},
    {32, {{32, 1}, {524288, 3}, {2097152, 1}, {4194304, 3}, {rest, 4}}},
    {any, {{4, 3}, {16, 1}, {65536, 4}, {262144, 1}, {rest, 4}}},
};
const band alltoall_bands[] = {
    // p == 2
    {3,
     {{2, 2},
      {4, 5},
      {16, 2},
      {64, 5},
      {256, 2},
      {4096, 5},
      {32768, 2},
      {262144, 4},
      {1048576, 5},
      {rest, 2}}},
    {8, {{8192, 4}, {16384, 1}, {65536, 4}, {524288, 1}, {1048576, 2}, {rest, 1}}},
    {16, {{262144, 4}, {rest, 1}}},
    {32, {{4, 4}, {512, 3}, {8192, 4}, {32768, 1}, {262144, 4}, {524288, 1}, {rest, 4}}},
    {64, {{512, 3}, {524288, 1}, {rest, 4}}},
    {128, {{1024, 3}, {2048, 1}, {4096, 4}, {262144, 1}, {rest, 2}}},
    {256, {{1024, 3}, {2048, 4}, {262144, 1}, {rest, 2}}},
    {512, {{1024, 3}, {8192, 4}, {32768, 1}, {rest, 2}}},
    {1024, {{512, 3}, {8192, 4}, {16384, 1}, {131072, 4}, {262144, 1}, {rest, 2}}},
    {2048, {{512, 3}, {1024, 4}, {2048, 1}, {16384, 4}, {262144, 1}, {rest, 4}}},
    {4096, {{1024, 3}, {4096, 4}, {8192, 1}, {131072, 4}, {rest, 1}}},
    {any, {{2048, 3}, {8192, 4}, {16384, 1}, {32768, 4}, {65536, 1}, {rest, 4}}},
};
const band allreduce_bands[] = {
    {4, {{8, 4}, {4096, 3}, {8192, 4}, {16384, 3}, {65536, 4}, {262144, 5}, {rest, 6}}},
    {8, {{16, 4}, {8192, 3}, {rest, 6}}},
    {16, {{8192, 3}, {rest, 6}}},
    {32, {{64, 5}, {4096, 3}, {rest, 6}}},
    {64, {{128, 5}, {rest, 6}}},
    {128, {{262144, 3}, {rest, 6}}},
    {256, {{131072, 2}, {262144, 3}, {rest, 6}}},
    {512, {{4096, 2}, {rest, 6}}},
    {2048, {{2048, 2}, {16384, 3}, {rest, 6}}},
    {4096, {{2048, 2}, {4096, 5}, {16384, 3}, {rest, 6}}},
    {any, {{2048, 2}, {16384, 5}, {32768, 3}, {rest, 6}}},
};

int decide(std::span<const band> bands, int p, std::size_t bytes) {
  for (const band& b : bands) {
    if (p >= b.below_p) continue;
    for (const rule& r : b.rules)
      if (bytes < r.below) return r.algorithm;
  }
  return 0;  // unreachable: every table ends in {any, {…, {rest, …}}}
}

// Open MPI's algorithm number `a` of each collective, as SMPI runs it (Open MPI's own fallbacks
// first), for a call of `count` elements, `bytes` in all, on p ranks.
ompi41_choice broadcast_algorithm(int a, int p, std::size_t count, std::size_t bytes) {
  switch (a) {
    case 1:
      return {"basic_linear", "flattree", true};
    case 2:
    case 3:
      // Unsegmented (segment size 0), a chain of whole messages; SMPI's Open MPI pipeline cuts
      // messages above its smallest segment, 16 KiB. Two ranks: one message either way.
      return {a == 2 ? "chain" : "pipeline", p <= 2 ? "flattree" : "ompi_pipeline", p <= 2 || bytes <= 16384};
    case 4:
      return {"split_binary_tree", "ompi_split_bintree", false};
    case 5:
      // Up to 3 ranks a binary tree is the root sending to each; NTSB cuts messages above 8 KiB.
      if (p <= 3) return {"binary_tree", "flattree", true};
      return {"binary_tree", "NTSB", bytes <= 8192};
    case 6:
      return {"binomial", "binomial_tree", true};
    case 7:
      // Radix 4 (coll_tuned_bcast_algorithm_knomial_radix): up to 4 ranks, the root sends to each.
      if (p <= 4) return {"knomial", "flattree", true};
      return {"knomial", "mvapich2_knomial_intra_node", true};
    case 8:
      if (count < static_cast<std::size_t>(p)) return {"scatter_allgather", "flattree", true};
      return {"scatter_allgather", "scatter_rdb_allgather", true};
    default:
      if (count < static_cast<std::size_t>(p)) return {"scatter_allgather_ring", "flattree", true};
      return {"scatter_allgather_ring", "scatter_LR_allgather", true};
  }
}

ompi41_choice allgather_algorithm(int a, int p, std::size_t, std::size_t) {
  switch (a) {
    case 1:
      return {"linear", "GB", false};
    case 2:
      return {"bruck", "bruck", true};
    case 3:
      return {"recursive_doubling", power_of_two(p) ? "rdb" : "bruck", true};
    case 4:
      return {"ring", "ring", true};
    case 5:
      return {"neighbor", "ompi_neighborexchange", true};
    default:
      return {"two_proc", "ring", true};
  }
}

ompi41_choice reduce_scatter_algorithm(int a, int, std::size_t, std::size_t) {
  switch (a) {
    case 1:
      // Open MPI reduces with its own reduce's choice, then scatters; SMPI's default with the
      // launch's reduce and scatterv.
      return {"basic_linear", "default", false};
    case 2:
      return {"recursive_doubling", "mpich_rdb", true};
    case 3:
      return {"recursive_halving", "ompi_basic_recursivehalving", true};
    default:
      return {"butterfly", "ompi_butterfly", true};
  }
}

ompi41_choice alltoall_algorithm(int a, int, std::size_t, std::size_t) {
  switch (a) {
    case 1:
      return {"linear", "basic_linear", true};
    case 2:
      // Open MPI's pairwise exchange sends to rank + i and receives from rank − i: SMPI's ring
      // (SMPI's "pair" exchanges with rank XOR i, on powers of two only).
      return {"pairwise", "ring", true};
    case 3:
      return {"modified_bruck", "bruck", true};
    case 4:
      // coll_tuned_alltoall_max_requests 0: every request at once, as linear.
      return {"linear_sync", "basic_linear", true};
    default:
      return {"two_proc", "ring", true};
  }
}

ompi41_choice allreduce_algorithm(int a, int p, std::size_t count, std::size_t) {
  const auto pof2 = static_cast<std::size_t>(std::bit_floor(static_cast<unsigned>(p)));
  switch (a) {
    case 1:
    case 2:
      // Open MPI reduces and broadcasts with its own choices; SMPI with the launch's.
      return {a == 1 ? "basic_linear" : "nonoverlapping", "redbcast", false};
    case 3:
      return {"recursive_doubling", "rdb", true};
    case 4:
    case 5: {
      // segmented_ring with segment size 0 is the ring; the ring of fewer elements than ranks is
      // recursive doubling. SMPI's ring (lr) cuts equal blocks and all-reduces the remainder
      // again; Open MPI's early blocks are one element larger.
      const std::string_view name = a == 4 ? "ring" : "segmented_ring";
      if (count < static_cast<std::size_t>(p)) return {name, "rdb", true};
      return {name, "lr", count % static_cast<std::size_t>(p) == 0};
    }
    default:
      if (count < pof2) return {"rabenseifner", "redbcast", false};  // Open MPI: basic_linear
      return {"rabenseifner", "rab_rdb", true};
  }
}

// The collectives Open MPI 4.1 decides here: its bands, and what each algorithm number runs.
struct decision {
  collective coll;
  std::span<const band> bands;
  ompi41_choice (*algorithm)(int a, int p, std::size_t count, std::size_t bytes);
};
const decision decisions[] = {
    {collective::broadcast, broadcast_bands, &broadcast_algorithm},
    {collective::allgather, allgather_bands, &allgather_algorithm},
    {collective::reduce_scatter, reduce_scatter_bands, &reduce_scatter_algorithm},
    {collective::alltoall, alltoall_bands, &alltoall_algorithm},
    {collective::allreduce, allreduce_bands, &allreduce_algorithm},
};

}  // namespace

std::optional<ompi41_choice> ompi41_decision(collective c, int p, std::size_t count,
                                             std::size_t element_bytes) {
  for (const decision& d : decisions)
    if (d.coll == c) {
      const std::size_t bytes = count * element_bytes;
      return d.algorithm(decide(d.bands, p, bytes), p, count, bytes);
    }
  return std::nullopt;
}

std::string_view vendor_runs([[maybe_unused]] collective c, [[maybe_unused]] std::string_view name,
                             [[maybe_unused]] int p, [[maybe_unused]] std::size_t count) {
  // Another MPI library's internals of the same name need not be these (MPICH's recursive
  // doubling allgather, for one, is not Bruck's when p is not a power of two).
#ifdef OMPI_MAJOR_VERSION
  for (const vendor_twin& v : vendor_twins) {
    if (v.coll != c || v.name != name) continue;
    if (v.falls_back != nullptr && v.falls_back(p, count)) return v.fallback;
    return v.runs.empty() ? v.name : v.runs;
  }
#endif
  return {};
}

}  // namespace collbench
