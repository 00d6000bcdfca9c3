// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// What the drop-in did, counted per MPI function: calls served per algorithm and forwarded per
// reason, the bytes of each rank's data, the time spent inside. Printed by rank 0 at MPI_Finalize
// (COLLECTIVES_MPI_REPORT=1 for stderr, =<file> for a file).

#include <chrono>
#include <cstddef>

#include "pmpi/functions.hpp"
#include "pmpi/settings.hpp"

namespace collectives::pmpi {

/// How one call ended: served by `alg`, or forwarded for `reason`.
struct outcome {
  bool served;
  algorithm alg;
  forward_reason reason;
  std::size_t bytes;  ///< this rank's data: its vector, its block, or its p blocks for alltoall
  int code;           ///< what the entry point returns
};

/// Thread-safe: counters are atomic. Called only with the report on (at_boundary reads no clock and
/// records nothing otherwise).
void record(mpi_function f, const outcome& o, std::chrono::steady_clock::duration inside);

/// Collective over MPI_COMM_WORLD (through PMPI_ calls); rank 0 writes the table.
void print_report(const settings& s);

}  // namespace collectives::pmpi
