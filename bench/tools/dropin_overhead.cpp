// SPDX-License-Identifier: BSD-3-Clause
// The drop-in's own cost: time per 8-byte MPI_Allreduce at the same algorithm through
//   - the drop-in (this program is linked with libcollectives_mpi.so ahead of the MPI library,
//     so its MPI_Allreduce is the drop-in's; COLLECTIVES_ALGORITHMS picks the algorithm): served
//     by the library, or forwarded to the MPI library when the selection is `vendor`,
//   - the library's C++ call collectives::allreduce with the algorithm given as argument,
//   - the MPI library itself (PMPI_Allreduce, "vendor").
// Rows alternate within every round (same conditions for all three); per round each row times
// `calls` back-to-back calls, the slowest rank counts; the median over rounds is printed, and the
// drop-in's ratio to the other two rows: the median of the rounds' ratios (each round's rows ran
// side by side, so drift of the machine cancels).
// Under valgrind --tool=callgrind (bench/dropin_instructions.sh) each row's timed loop is also a
// callgrind dump of its own, named after the row, so instructions per call = the dump's total ÷
// calls: a measure that does not depend on the machine's load.
// Usage: dropin_overhead <algorithm> [rounds] [calls]   (bench/dropin_overhead.sh runs it)

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <collectives/collectives.hpp>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "measure/median.hpp"

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(label)
#endif

namespace co = collectives;

using collbench::median;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  CALLGRIND_START_INSTRUMENTATION;  // bench/dropin_instructions.sh starts valgrind with it off
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string name = argc > 1 ? argv[1] : "recursive_doubling";
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 30;
  const int calls = argc > 3 ? std::atoi(argv[3]) : 2000;
  // `fastest`: run with COLLECTIVES_ALGORITHMS=allreduce=fastest and a table that sends it to
  // vendor, so the drop-in forwards by the table's verdict; the C++ row then calls vendor.
  const bool by_fastest = name == "fastest";
  const auto alg = by_fastest ? std::optional(co::algorithm::vendor) : co::parse_algorithm(name);
  if (!alg) {
    if (rank == 0) fmt::print(stderr, "dropin_overhead: unknown algorithm '{}'\n", name);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const char* selection = std::getenv("COLLECTIVES_ALGORITHMS");
  // Run with COLLECTIVES_ALGORITHMS=allreduce=vendor, or allreduce=fastest as above.
  const bool forwarded = *alg == co::algorithm::vendor;
  const char* how = by_fastest ? "forwarded by fastest" : forwarded ? "forwarded" : "served";

  double in = rank + 1.0, out = 0.0;  // 8 bytes
  std::array<double, 1> in_c{in}, out_c{};
  struct row {
    std::string label;
    std::function<void()> call;
    std::vector<double> per_call_us;
  };
  std::vector<row> rows{
      {fmt::format("drop-in {} (COLLECTIVES_ALGORITHMS={})", how, selection ? selection : "unset"),
       [&] { MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); },
       {}},
      {fmt::format("C++ collectives::allreduce({})", to_string(*alg)),
       [&] { co::allreduce(in_c, out_c, co::ops::sum{}, MPI_COMM_WORLD, *alg); },
       {}},
      {"PMPI_Allreduce", [&] { PMPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }, {}},
  };
  for (row& r : rows)
    for (int i = 0; i < 200; ++i) r.call();  // warm-up: private communicators, caches
  for (int round = 0; round < rounds; ++round)
    for (row& r : rows) {
      PMPI_Barrier(MPI_COMM_WORLD);
      CALLGRIND_ZERO_STATS;
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < calls; ++i) r.call();
      double us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / calls;
      CALLGRIND_DUMP_STATS_AT(r.label.c_str());
      PMPI_Allreduce(MPI_IN_PLACE, &us, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      r.per_call_us.push_back(us);
    }
  if (rank == 0) {
    fmt::print("np {}, 8-byte MPI_SUM all-reduce of one double, {} rounds x {} calls, median of rounds{}\n",
               size, rounds, calls, RUNNING_ON_VALGRIND ? " (under valgrind: times are not meaningful)" : "");
    const auto ratios = [&](const row& a, const row& b) {
      std::vector<double> v;
      for (std::size_t i = 0; i < a.per_call_us.size(); ++i) v.push_back(a.per_call_us[i] / b.per_call_us[i]);
      return median(v);
    };
    const auto least = [](const row& r) {
      return *std::min_element(r.per_call_us.begin(), r.per_call_us.end());
    };
    const double to_cxx = ratios(rows[0], rows[1]), to_vendor = ratios(rows[0], rows[2]);
    for (row& r : rows)
      fmt::print("{:<74} {:8.2f} us/call  (min {:.2f}, max {:.2f})\n", r.label, median(r.per_call_us),
                 least(r), *std::max_element(r.per_call_us.begin(), r.per_call_us.end()));
    // The median of the rounds' ratios, and the ratio of the minima (the least disturbed rounds).
    fmt::print("{:<74} {:8.3f}  (minima {:.3f})\n", fmt::format("ratio drop-in {} / C++ call", how), to_cxx,
               least(rows[0]) / least(rows[1]));
    fmt::print("{:<74} {:8.3f}  (minima {:.3f})\n", fmt::format("ratio drop-in {} / PMPI_Allreduce", how),
               to_vendor, least(rows[0]) / least(rows[2]));
  }
  MPI_Finalize();
  return out == 0.0 ? 1 : 0;
}
