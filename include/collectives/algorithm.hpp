#pragma once

#include <iosfwd>
#include <optional>
#include <span>
#include <string_view>

namespace collectives {

/// The algorithms a collective may be asked to run. The spelling of each enumerator is its
/// `to_string`, the name of its source file and the row name in the benchmark.
enum class algorithm {
  automatic,  ///< the library's own choice among its algorithms (never vendor)
  vendor,     ///< the MPI library's own collective (MPI_Bcast, MPI_Allreduce, ...)
  naive,
  binomial,
  pipeline,
  scatter_allgather,
  ring,
  recursive_doubling,
  recursive_halving,
  rabenseifner,
  bruck,
  pairwise,
  hierarchical,  ///< node-aware: steps within each host and across hosts (core/hosts.hpp)
};

enum class collective { broadcast, scatter, gather, reduce, allgather, reduce_scatter, alltoall, allreduce };

/// The algorithms `c` supports, vendor included and automatic excluded, in a fixed order.
std::span<const algorithm> algorithms_for(collective c);

/// Every collective, in declaration order.
std::span<const collective> all_collectives();

/// True when `a` is `automatic` or one of `algorithms_for(c)`.
bool supports(collective c, algorithm a);

/// True when `a` computes a reduction in rank order, so it is correct for non-commutative ops.
/// Meaningful for reduce, reduce_scatter and allreduce; true for the other collectives.
bool keeps_rank_order(collective c, algorithm a);

std::string_view to_string(algorithm a);
std::string_view to_string(collective c);

/// Parses the `to_string` spelling; std::nullopt for anything else.
std::optional<algorithm> parse_algorithm(std::string_view name);
std::optional<collective> parse_collective(std::string_view name);

std::ostream& operator<<(std::ostream& os, algorithm a);
std::ostream& operator<<(std::ostream& os, collective c);

}  // namespace collectives
