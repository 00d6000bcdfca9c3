// The drop-in's own cost: time per 8-byte MPI_Allreduce at the same algorithm through
//   - the drop-in (this program is linked with libcollectives_mpi.so ahead of the MPI library,
//     so its MPI_Allreduce is the drop-in's; COLLECTIVES_ALGORITHMS picks the algorithm),
//   - the library's C++ call collectives::allreduce with the algorithm given as argument,
//   - the MPI library itself (PMPI_Allreduce, "vendor").
// Rows alternate within every round (same conditions for all three); per round each row times
// `calls` back-to-back calls, the slowest rank counts; the median over rounds is printed.
// Usage: dropin_overhead <algorithm> [rounds] [calls]   (bench/dropin_overhead.sh runs it)

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <collectives/collectives.hpp>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace co = collectives;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string name = argc > 1 ? argv[1] : "recursive_doubling";
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 30;
  const int calls = argc > 3 ? std::atoi(argv[3]) : 2000;
  const auto alg = co::parse_algorithm(name);
  if (!alg) {
    if (rank == 0) fmt::print(stderr, "dropin_overhead: unknown algorithm '{}'\n", name);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char* selection = std::getenv("COLLECTIVES_ALGORITHMS");

  double in = rank + 1.0, out = 0.0;  // 8 bytes
  std::array<double, 1> in_c{in}, out_c{};
  struct row {
    std::string label;
    std::function<void()> call;
    std::vector<double> per_call_us;
  };
  std::vector<row> rows{
      {fmt::format("drop-in MPI_Allreduce (COLLECTIVES_ALGORITHMS={})", selection ? selection : "unset"),
       [&] { MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); },
       {}},
      {fmt::format("C++ collectives::allreduce({})", name),
       [&] { co::allreduce(in_c, out_c, co::ops::sum{}, MPI_COMM_WORLD, *alg); },
       {}},
      {"vendor PMPI_Allreduce",
       [&] { PMPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); },
       {}},
  };
  for (row& r : rows)
    for (int i = 0; i < 200; ++i) r.call();  // warm-up: private communicators, caches
  for (int round = 0; round < rounds; ++round)
    for (row& r : rows) {
      PMPI_Barrier(MPI_COMM_WORLD);
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < calls; ++i) r.call();
      double us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / calls;
      PMPI_Allreduce(MPI_IN_PLACE, &us, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      r.per_call_us.push_back(us);
    }
  if (rank == 0) {
    fmt::print("np {}, 8-byte MPI_SUM all-reduce of one double, {} rounds x {} calls, median of rounds\n",
               size, rounds, calls);
    for (row& r : rows) {
      std::sort(r.per_call_us.begin(), r.per_call_us.end());
      fmt::print("{:<62} {:8.2f} us/call  (min {:.2f}, max {:.2f})\n", r.label,
                 r.per_call_us[r.per_call_us.size() / 2], r.per_call_us.front(), r.per_call_us.back());
    }
  }
  MPI_Finalize();
  return out == 0.0 ? 1 : 0;
}
