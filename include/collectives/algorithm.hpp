// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "collectives/export.hpp"

namespace collectives {

/// The algorithms a collective may be asked to run. The spelling of each enumerator is its
/// `to_string`, the name of its source file and the row name in the benchmark. algorithms_for()
/// says which collective has which; docs/algorithms.md what each costs.
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
  dissemination,
  hierarchical,                ///< node-aware: steps within each host and across hosts (kit/hosts.hpp)
  pipelined_tree,              ///< segments down (or up) a binary tree: pipeline with a depth of log p
  scatter_recursive_doubling,  ///< broadcast: scatter, then a recursive-doubling all-gather
  swing_bandwidth,             ///< allreduce: Swing's reduce-scatter, then its all-gather
  swing,                       ///< Swing's halving (reduce_scatter) or doubling (allgather) at ρ(s)
  bine,                        ///< Bine trees and butterflies (negabinary distances ρ(s), De Sensi et al. SC 2025)
  swing_latency,               ///< allreduce: whole-vector exchanges with Swing's partners, far first
  bine_bandwidth,              ///< broadcast, reduce: Swing's scatter + all-gather, reduce-scatter + gather
  knomial,                     ///< the tree of radix k (default 4): up to k − 1 children per level
  recursive_multiplying,       ///< recursive doubling (halving) of radix k (default 4): groups of k swap their data
  k_dissemination,             ///< barrier: dissemination of radix k (default 4), k − 1 shifts a round
  k_bruck,                     ///< allgather, alltoall: Bruck of radix k (default 4), k − 1 shifts a step
  sparbit,                     ///< allgather(v): distance halving, far partners first, blocks in place
};

enum class collective {
  broadcast,
  scatter,
  gather,
  reduce,
  allgather,
  reduce_scatter,
  alltoall,
  allreduce,
  barrier,
  scan,
  exscan,
  gatherv,
  scatterv,
  allgatherv,
  alltoallv,
  reduce_scatterv,
};

/// What a call runs: an algorithm and, for the radix-k algorithms (`knomial`,
/// `recursive_multiplying`, `k_dissemination`, `k_bruck`), the radix k: up to k − 1 peers a step,
/// ⌈log_k p⌉ steps. 0 takes the algorithm's default_radix(); otherwise 2 ≤ k ≤ p (p = 1: any
/// k ≥ 2), a power of two for recursive_multiplying; a radix given to another algorithm is an
/// error. Made from an algorithm, so `algorithm::ring` and `{algorithm::knomial, 8}` both name one.
struct selection {
  algorithm alg = algorithm::automatic;
  int radix = 0;

  constexpr selection() = default;
  constexpr selection(algorithm a, int k = 0) noexcept : alg(a), radix(k) {}  // implicit, on purpose
  friend constexpr bool operator==(const selection&, const selection&) = default;
};

/// The algorithms `c` supports, vendor included and automatic excluded, in a fixed order.
COLLECTIVES_EXPORT std::span<const algorithm> algorithms_for(collective c);

/// Every collective, in declaration order.
COLLECTIVES_EXPORT std::span<const collective> all_collectives();

/// True when `a` is `automatic` or one of `algorithms_for(c)`.
COLLECTIVES_EXPORT bool supports(collective c, algorithm a);

/// True when `a` computes a reduction in rank order, so it is correct for non-commutative ops.
/// Meaningful for reduce, reduce_scatter, reduce_scatterv, allreduce, scan and exscan (the
/// algorithms of the last two all keep it); true for the other collectives.
COLLECTIVES_EXPORT bool keeps_rank_order(collective c, algorithm a);

/// The radix `a` runs at in `c` when a call names none; 0 when `a` takes no radix there.
COLLECTIVES_EXPORT int default_radix(collective c, algorithm a);

COLLECTIVES_EXPORT std::string_view to_string(algorithm a);
COLLECTIVES_EXPORT std::string_view to_string(collective c);
/// "knomial:8" for a radix, the algorithm's name alone for radix 0.
COLLECTIVES_EXPORT std::string to_string(const selection& s);

/// Parses the `to_string` spelling; std::nullopt for anything else.
COLLECTIVES_EXPORT std::optional<algorithm> parse_algorithm(std::string_view name);
COLLECTIVES_EXPORT std::optional<collective> parse_collective(std::string_view name);
/// Parses "name" or "name:k" (k a whole number of at least 2); std::nullopt for anything else.
/// Whether the collective takes that radix is checked where it runs.
COLLECTIVES_EXPORT std::optional<selection> parse_selection(std::string_view text);

COLLECTIVES_EXPORT std::ostream& operator<<(std::ostream& os, algorithm a);
COLLECTIVES_EXPORT std::ostream& operator<<(std::ostream& os, collective c);
COLLECTIVES_EXPORT std::ostream& operator<<(std::ostream& os, const selection& s);

}  // namespace collectives
