// SPDX-License-Identifier: BSD-3-Clause
// trace_overhead: back-to-back 8-byte allreduce calls (float sum, recursive_doubling: one
// exchange per step, no reduction kernel beyond one element), µs per call, for
// bench/trace_overhead.sh to compare a build with trace hooks (tracing off) against one without.
// Prints on rank 0: "<min µs per call> <median µs per call>" over the rounds.

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <collectives/collectives.hpp>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 30, calls = argc > 2 ? std::atoi(argv[2]) : 2000;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<float> in(2, 1.0f), out(2);
  for (int i = 0; i < 200; ++i)
    collectives::allreduce(in, out, collectives::ops::sum{}, MPI_COMM_WORLD,
                           collectives::algorithm::recursive_doubling);
  std::vector<double> per_call;
  for (int r = 0; r < rounds; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < calls; ++i)
      collectives::allreduce(in, out, collectives::ops::sum{}, MPI_COMM_WORLD,
                             collectives::algorithm::recursive_doubling);
    double t = (MPI_Wtime() - t0) / calls, slowest = 0;
    MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    per_call.push_back(slowest * 1e6);
  }
  std::sort(per_call.begin(), per_call.end());
  if (rank == 0) fmt::print("{:.3f} {:.3f}\n", per_call.front(), per_call[per_call.size() / 2]);
  MPI_Finalize();
  return 0;
}
