// SPDX-License-Identifier: BSD-3-Clause
// collbench: every collective algorithm of the library against the MPI library's own, in one
// run (bench/measure/run.hpp). See bench/README.md for the options, docs/benchmark.md for how to
// read the numbers.

#include <fmt/format.h>
#include <mpi.h>

#include <exception>

#include "measure/options.hpp"
#include "measure/run.hpp"
#include "measure/variants.hpp"

int main(int argc, char** argv) {
  // Before MPI_Init, where Open MPI reads it: lets vendor:<name> rows force an internal algorithm.
  const bool forcing_set_here = collbench::enable_vendor_forcing();
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = 0;
  try {
    const collbench::parse_result parsed = collbench::parse_options(argc, argv);
    if (parsed.run) {
      status = collbench::run(MPI_COMM_WORLD, parsed.opts, forcing_set_here);
    } else {
      if (rank == 0) fmt::print(parsed.exit_code == 0 ? stdout : stderr, "{}", parsed.message);
      status = parsed.exit_code;
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "collbench: rank {}: {}\n", rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}
