// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Open MPI 4.1's own choice of algorithm per call, and the algorithm of SimGrid's SMPI that runs it
// in simulation: the simulated row vendor:ompi41 (smpi_colls.hpp), which stands for the plain vendor
// row of a real Open MPI 4.1 (scripts/mpirun/simulation-check.sh, docs/simulation.md). And which of
// the library's schedules an Open MPI internal algorithm runs (vendor_runs), by which a
// vendor:<name> row gets a model price (price.hpp).
//
// The choice is coll/tuned's fixed decision, ompi/mca/coll/tuned/coll_tuned_decision_fixed.c, the
// same file from v4.1.0 to v4.1.8 (read at v4.1.4), for a commutative op (collbench's ops all are):
// per collective, bands of communicator size, each a list of message-size bounds with the algorithm
// below each. Its measure of a message is the count MPI is given times the element size: the vector
// for broadcast and allreduce, one rank's block for allgather, alltoall and reduce_scatter
// (MPI_Reduce_scatter_block). It passes segment size 0 and fan-out 0 to the algorithms, so every
// tree and chain it picks sends whole messages, and the algorithms' own fallbacks apply (a ring
// all-reduce of fewer elements than ranks is recursive doubling, a recursive-doubling all-gather on a
// rank count that is no power of two is Bruck's, …).
//
// SMPI 3.32's own "ompi" selector takes the same thresholds (the reduce_scatter one excepted: it
// decides MPI_Reduce_scatter_block by MPI_Reduce_scatter's table, on the whole vector) but runs other
// algorithms under Open MPI's names: a pipelined linear broadcast for basic_linear, one pipelined in
// 8 KiB segments for binary_tree, a power-of-two-only exchange for alltoall's pairwise.

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

/// Open MPI 4.1's choice for a call of `c` on `p` ranks of `count` elements of `element_bytes` each
/// (`count` as MPI takes it: see above); nothing for the collectives other than broadcast,
/// allgather, reduce_scatter, alltoall and allreduce.
std::optional<ompi41_choice> ompi41_decision(collectives::collective c, int p, std::size_t count,
                                             std::size_t element_bytes);

/// The library algorithm whose schedule the vendor internal `name` (a row's vendor:<name>, without
/// the prefix) runs for a call of `count` elements on p ranks, where Open MPI switches included;
/// empty when it runs none of them.
std::string_view vendor_runs(collectives::collective c, std::string_view name, int p, std::size_t count);

}  // namespace collbench
