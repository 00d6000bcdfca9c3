// SPDX-License-Identifier: BSD-3-Clause
// main() of every MPI test executable: Boost.Test between MPI_Init and MPI_Finalize. A failed
// check on any rank fails the process on every rank (the exit codes are combined with a
// max-reduction), so a failure on rank 5 cannot hide behind rank 0's clean report.

#define BOOST_TEST_NO_MAIN
#define BOOST_TEST_ALTERNATIVE_INIT_API
#include <mpi.h>

#include <boost/test/results_reporter.hpp>
#include <boost/test/unit_test.hpp>
#include <cstdio>

namespace {

bool init_tests() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // Every rank reports its failed checks; only rank 0 prints the summary.
  if (rank != 0) boost::unit_test::results_reporter::set_level(boost::unit_test::NO_REPORT);
  return true;
}

}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  const int local = boost::unit_test::unit_test_main(&init_tests, argc, argv);
  int worst = 0;
  MPI_Allreduce(&local, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0 && worst != 0 && local == 0)
    std::fprintf(stderr, "a check failed on another rank (see above)\n");
  MPI_Finalize();
  return worst;
}
