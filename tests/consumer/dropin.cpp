// SPDX-License-Identifier: BSD-3-Clause
// An unmodified MPI program linked with collectives::mpi (the drop-in) ahead of MPI: its
// MPI_Allreduce is served by the library; check_install.sh checks the report says so.
#include <mpi.h>

#include <cstdio>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, sum = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  const bool ok = sum == size * (size - 1) / 2;
  if (!ok) std::fprintf(stderr, "consumer_dropin: rank %d got %d\n", rank, sum);
  MPI_Finalize();
  return ok ? 0 : 1;
}
