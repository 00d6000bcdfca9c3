#pragma once

// The measurement of one message size: every variant checked against vendor, warmed up and
// timed, interleaved so that drift of the machine hits all alike.

#include <mpi.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "metrics.hpp"
#include "variants.hpp"
#include "workload.hpp"

namespace collbench {

struct timing_policy {
  int iterations = 0;  ///< 0: 1000 up to 8 KiB, 100 above (OSU's defaults, divided by ten)
  int warmup = -1;     ///< rounds; -1: 100 up to 8 KiB, 10 above
  int min_iterations = 5;
  double seconds_per_size = 1.0;  ///< 0: unbounded
};

/// One variant at one size; times are the per-iteration maximum over ranks (valid on rank 0).
struct sample {
  double median = 0, min = 0, max = 0;  ///< seconds
  int iterations = 0;
  std::optional<long long> wrong;  ///< elements differing from vendor's, summed over ranks
};

/// Rank 0 prints where the run is, on stderr, once it has taken more than a few seconds.
class progress {
 public:
  progress(bool enabled, int rank);
  void note(const std::string& what);

 private:
  bool enabled_;
  double start_, last_;
};

/// Measures every variant at one message (collective over `comm`). `variants[0]` must be vendor:
/// its result is the reference of the check. `where` prefixes the progress lines.
std::vector<sample> measure(MPI_Comm comm, collectives::collective c, int root, workload& w,
                            std::span<const variant> variants, const message& m, const timing_policy& policy,
                            bool check, progress& prog, const std::string& where);

/// The labels named by the test-only COLLBENCH_TEST_CORRUPT (comma-separated): their check
/// result is corrupted on purpose on one rank, to prove that --check notices.
std::vector<std::string> corrupted_labels();

}  // namespace collbench
