// SPDX-License-Identifier: BSD-3-Clause
// Sums rank + 1 over every rank with collectives::allreduce and checks the result on every rank;
// exits non-zero on any rank's wrong answer, so the packaging test fails.

#include <mpi.h>

#include <collectives/collectives.hpp>
#include <cstdio>
#include <vector>

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int rank = 0, p = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);

  const std::vector<long> mine(1000, rank + 1);
  std::vector<long> sum(mine.size());
  collectives::allreduce(mine, sum, collectives::ops::sum{}, MPI_COMM_WORLD);

  const long expected = static_cast<long>(p) * (p + 1) / 2;
  int wrong = 0;
  for (long v : sum) wrong += v != expected;
  if (wrong != 0)
    std::fprintf(stderr, "rank %d: %d of %zu elements differ from %ld\n", rank, wrong, sum.size(), expected);

  int any_wrong = 0;
  MPI_Allreduce(&wrong, &any_wrong, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("consumer: allreduce over %d ranks %s\n", p, any_wrong == 0 ? "correct" : "WRONG");
  MPI_Finalize();
  return any_wrong == 0 ? 0 : 1;
}
