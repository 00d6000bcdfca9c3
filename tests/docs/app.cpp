// SPDX-License-Identifier: BSD-3-Clause
// The program the documented commands run where the docs say ./app, ./my_app or your-program
// (tests/docs/run.sh): an MPI program that calls the library (collectives::allreduce: automatic's
// choice, traced under COLLECTIVES_TRACE, following COLLECTIVES_TUNING) and MPI itself
// (MPI_Allreduce: served by the drop-in when it is preloaded). Exits 1 if a sum is wrong.
#include <mpi.h>

#include <collectives/collectives.hpp>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, p = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  std::vector<double> mine(1000, rank + 1.0), sum(1000);  // every sum must be 1 + 2 + … + p
  collectives::allreduce(mine, sum, collectives::ops::sum{}, MPI_COMM_WORLD);
  int wrong = 0;
  for (double x : sum) wrong += x != p * (p + 1) / 2.0;
  std::vector<int> ranks(100, rank), total(100);
  MPI_Allreduce(ranks.data(), total.data(), 100, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int x : total) wrong += x != p * (p - 1) / 2;
  if (wrong != 0) std::fprintf(stderr, "docs_app: rank %d: %d wrong elements\n", rank, wrong);
  MPI_Finalize();
  return wrong != 0 ? 1 : 0;
}
