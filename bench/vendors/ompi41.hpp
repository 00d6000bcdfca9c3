// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Open MPI 4.1's own choice of algorithm per call, and the algorithm of SimGrid's SMPI that runs it
// in simulation: the simulated row vendor:ompi41 (smpi_colls.hpp), which stands for the plain vendor
// row of a real Open MPI 4.1 (scripts/mpirun/simulation-check.sh, docs/simulation.md, whose table
// lists what SMPI runs for each). And which of the library's schedules an Open MPI internal
// algorithm runs (vendor_runs), by which a vendor:<name> row gets a model price (price.hpp).
//
// The choice is coll/tuned's fixed decision, ompi/mca/coll/tuned/coll_tuned_decision_fixed.c (the
// same in every 4.1 release), for a commutative op (collbench's ops all are), transcribed as data:
// per collective, bands of communicator size, each a list of message-size bounds with the
// algorithm below each. It passes segment size 0 and fan-out 0, so every tree and chain it picks
// sends whole messages, and the algorithms' own fallbacks apply. SMPI's own "ompi" selector takes
// the same thresholds but runs other algorithms under Open MPI's names.

#include <collectives/algorithm.hpp>
#include <cstddef>
#include <optional>
#include <string_view>

namespace collbench {

struct ompi41_choice {
  std::string_view open_mpi;  ///< Open MPI's name, as its coll_tuned_<collective>_algorithm lists it
  std::string_view smpi;      ///< the SMPI algorithm that runs it
  /// false: SMPI has no such algorithm (or not for these sizes) and `smpi` is the nearest
  /// (docs/simulation.md lists them).
  bool exact;
};

/// Open MPI 4.1's choice for a call of `c` on `p` ranks of `count` elements of `element_bytes` each;
/// nothing for the collectives other than broadcast, allgather, reduce_scatter, alltoall and
/// allreduce. `count` is as MPI takes it, and count × element size Open MPI's measure of a
/// message: the vector for broadcast and allreduce, one rank's block for allgather, alltoall and
/// reduce_scatter (MPI_Reduce_scatter_block).
std::optional<ompi41_choice> ompi41_decision(collectives::collective c, int p, std::size_t count,
                                             std::size_t element_bytes);

/// The library algorithm whose schedule the vendor internal `name` (a row's vendor:<name>, without
/// the prefix) runs for a call of `count` elements on p ranks, where Open MPI switches included;
/// empty when it runs none of them.
std::string_view vendor_runs(collectives::collective c, std::string_view name, int p, std::size_t count);

}  // namespace collbench
