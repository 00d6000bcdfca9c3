// SPDX-License-Identifier: BSD-3-Clause
// The library's own cost per call: an 8-byte all-reduce (one double, sum) with the naive algorithm
// through collectives::allreduce against the same schedule written by hand with MPI_Send and
// MPI_Recv on a duplicated communicator — reduce_naive then broadcast_naive, root 0: every other
// rank sends its value to rank 0 and waits for the sum; rank 0 receives from p−1 down to 1,
// adding each value on the left (x(r) + acc, the library's operand order), then sends the sum to
// ranks 1 … p−1. The difference between the two is everything the library does per call before
// and around its messages: communicator lookup, argument checks, choosing the algorithm, scratch.
//
// The rows alternate within every round (same machine state for both, and neither always runs
// first): per round each row times `calls` back-to-back calls and the slowest rank counts. Printed:
// per row the median and the minimum over rounds of the time per call, and the ratio
// library ÷ hand-written: the median of the rounds' ratios (each round's two rows ran side by
// side, so drift of the machine cancels), and the ratio of the minima.
// Usage: call_overhead [rounds] [calls]   (default 2000 x 20: scripts/mpirun/run -n 2 build/bench/call_overhead)

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <collectives/collectives.hpp>
#include <cstdlib>
#include <vector>

#include "measure/median.hpp"

namespace co = collectives;

namespace {

using collbench::median;

// allreduce_naive's messages, straight on MPI: reduce to rank 0 (from the top rank down), then
// broadcast from rank 0.
void hand_written(const double* in, double* out, MPI_Comm comm, int rank, int size) {
  if (rank != 0) {
    MPI_Send(in, 1, MPI_DOUBLE, 0, 0, comm);
    MPI_Recv(out, 1, MPI_DOUBLE, 0, 0, comm, MPI_STATUS_IGNORE);
    return;
  }
  double acc = 0, received = 0;
  MPI_Recv(&acc, 1, MPI_DOUBLE, size - 1, 0, comm, MPI_STATUS_IGNORE);
  for (int r = size - 2; r >= 1; --r) {
    MPI_Recv(&received, 1, MPI_DOUBLE, r, 0, comm, MPI_STATUS_IGNORE);
    acc = received + acc;
  }
  *out = *in + acc;
  for (int r = 1; r < size; ++r) MPI_Send(out, 1, MPI_DOUBLE, r, 0, comm);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // Short rounds, many of them: the minimum and the median of the rounds' ratios resist a loaded machine.
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int calls = argc > 2 ? std::atoi(argv[2]) : 20;
  if (size < 2 || rounds < 1 || calls < 1) {
    if (rank == 0) fmt::print(stderr, "call_overhead: needs ≥ 2 ranks, rounds ≥ 1 and calls ≥ 1\n");
    MPI_Finalize();
    return 2;
  }
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);

  std::array<double, 1> in{rank + 1.0}, out{};
  double hand_out = 0;
  const auto library = [&] { co::allreduce(in, out, co::ops::sum{}, MPI_COMM_WORLD, co::algorithm::naive); };
  const auto direct = [&] { hand_written(in.data(), &hand_out, dup, rank, size); };

  // Both must compute the same sum: p(p+1)/2.
  library();
  direct();
  const double expected = size * (size + 1) / 2.0;
  int wrong = out[0] != expected || hand_out != expected;
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (wrong) {
    if (rank == 0)
      fmt::print(stderr, "call_overhead: wrong sum (library {}, hand-written {})\n", out[0], hand_out);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }

  // Warm-up (caches, the private communicator): as many calls as one row times, at most 1000.
  for (int i = 0; i < std::min(1000, rounds * calls); ++i) library(), direct();
  std::vector<double> library_us, direct_us;
  const auto time_calls = [&](auto&& f) {
    MPI_Barrier(MPI_COMM_WORLD);
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) f();
    double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / calls;
    MPI_Allreduce(MPI_IN_PLACE, &us, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return us;
  };
  for (int round = 0; round < rounds; ++round) {
    // Alternate which row goes first.
    if (round % 2 == 0) {
      library_us.push_back(time_calls(library));
      direct_us.push_back(time_calls(direct));
    } else {
      direct_us.push_back(time_calls(direct));
      library_us.push_back(time_calls(library));
    }
  }
  if (rank == 0) {
    const double lib_med = median(library_us), dir_med = median(direct_us);
    const double lib_min = *std::min_element(library_us.begin(), library_us.end());
    const double dir_min = *std::min_element(direct_us.begin(), direct_us.end());
    fmt::print("np {}, 8-byte sum all-reduce (naive), {} rounds x {} calls, alternating\n", size, rounds,
               calls);
    fmt::print("{:<44} {:8.3f} us/call median  {:8.3f} min\n", "library collectives::allreduce(naive)",
               lib_med, lib_min);
    fmt::print("{:<44} {:8.3f} us/call median  {:8.3f} min\n", "hand-written MPI_Send/MPI_Recv (dup comm)",
               dir_med, dir_min);
    std::vector<double> ratios;
    for (std::size_t i = 0; i < library_us.size(); ++i) ratios.push_back(library_us[i] / direct_us[i]);
    fmt::print("ratio library / hand-written: {:.4f} (median of rounds)  {:.4f} (minima)\n", median(ratios),
               lib_min / dir_min);
  }
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
