// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The measurement of one message size: every variant checked against vendor, warmed up and
// timed, interleaved in a random order so that drift of the machine hits all alike and no variant
// always follows the same one; each call started at an instant common to all ranks
// (synchronized), batches of calls issued back to back (back-to-back), or batches of calls each
// timed on its own with a barrier between them, as IMB-MPI1 times (imb).

#include <mpi.h>

#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "measure/metrics.hpp"
#include "measure/options.hpp"
#include "measure/start_sync.hpp"
#include "measure/variants.hpp"
#include "measure/workload.hpp"

namespace collbench {

struct timing_policy {
  int iterations =
      0;  ///< 0: 1000 up to 8 KiB per rank (the vector, or one block), 100 above (OSU's defaults ÷ 10)
  int warmup = -1;  ///< rounds; -1: 100 up to 8 KiB per rank, 10 above
  int min_iterations = 5;
  double seconds_per_size = 1.0;  ///< 0: unbounded
  timing_mode timing = timing_mode::synchronized;
  int batch = 0;  ///< back-to-back and imb: calls per batch; 0: automatic_batch(bytes)
};

/// What every size of a run shares: the common start instants, and the random order of the
/// variants, drawn from a seed rank 0 broadcasts so that every rank runs the same order.
struct timing_state {
  /// Collective over `comm`.
  timing_state(MPI_Comm comm, bool oversubscribed);
  start_sync start;
  std::mt19937_64 order;
};

/// One variant at one size; times are the per-iteration maximum over ranks (the same on every
/// rank), `wrong` is valid on rank 0. Back-to-back and imb, an iteration is one batch and its time
/// is the batch's per call (imb: the mean over ranks, IMB's t_avg).
struct sample {
  double median = 0, min = 0, max = 0;  ///< seconds
  int iterations = 0;
  int calls = 0;  ///< timed calls (synchronized) or batches (batched modes) made: iterations, and redone ones
  int late = 0;   ///< timed calls some rank started late (redone, unless the attempts ran out); 0 batched
  int batch = 1;  ///< calls per iteration: 1 synchronized, the batch in the batched modes
  std::optional<long long> wrong;  ///< elements differing from vendor's, summed over ranks
};

/// Rank 0 prints where the run is, on stderr, once it has taken more than a few seconds.
class progress {
 public:
  progress(bool enabled, int rank);
  void note(const std::string& what);

 private:
  static double now();
  bool enabled_;
  double start_, last_;
};

/// Measures every variant at one message (collective over `comm`). `variants[0]` must be vendor:
/// its result is the reference of the check. `where` prefixes the progress lines.
std::vector<sample> measure(MPI_Comm comm, collectives::collective c, int root, workload& w,
                            std::span<const variant> variants, const message& m, const timing_policy& policy,
                            timing_state& state, bool check, progress& prog, const std::string& where);

/// The labels named by the test-only COLLBENCH_TEST_CORRUPT (comma-separated): their check
/// result is corrupted on purpose on one rank, to prove that --check notices.
std::vector<std::string> corrupted_labels();

}  // namespace collbench
