// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// collbench's command line (CLI11). Everything that can be checked without MPI is checked here;
// what needs the communicator (root < p, which algorithms exist) is checked in run.cpp.
// A bad option is a usage error: the message goes to stderr and the exit code is 2.

#include <collectives/algorithm.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "measure/types.hpp"

namespace collbench {

enum class output_format { table, csv, json };

/// How the calls of a row are timed (--timing).
///   synchronized: every call after a barrier, started at an instant common to all ranks
///     (start_sync.hpp): each algorithm's own time, for comparing algorithms;
///   back_to_back: a barrier, then a batch of calls issued one after the other, as applications
///     and OSU's benchmarks issue them, so that a rooted collective's root may run ahead and
///     successive calls overlap: what an application sees;
///   imb: as the Intel MPI Benchmarks (IMB-MPI1) time a collective: two barriers, then a batch of
///     calls, each timed on its own by every rank and followed by a barrier; each rank's mean per
///     call, averaged over the ranks (IMB's t_avg): what an engineer measuring with IMB sees.
enum class timing_mode { synchronized, back_to_back, imb };

/// "synchronized", "back-to-back", "imb": the spelling of the option, the outputs and the report.
std::string_view to_string(timing_mode m);

/// Calls per batch in back-to-back and imb modes when --batch is 0 (auto) for a call of `bytes` (as
/// collbench counts them): IMB's rule scaled down, as collbench's iteration counts are OSU's ÷ 10:
/// as many calls as move 32 MiB, at least 2 (so that calls can overlap) and at most 100.
int automatic_batch(std::size_t bytes);

/// The largest --iterations: every sample of one size is kept in memory.
inline constexpr int most_iterations = 1'000'000;

struct options {
  std::vector<collectives::collective> collectives;
  /// As given: algorithm names, vendor:<name>, or the groups all, library, vendor:all.
  std::vector<std::string> algorithms;
  std::size_t min_bytes = 8;
  std::size_t max_bytes = std::size_t{16} << 20;
  std::size_t step = 2;
  element_kind type = element_kind::float32;
  op_kind op = op_kind::sum;
  int root = 0;
  /// The v-variants' imbalance: rank r's block ∝ 1 + skew·r/(p−1); 0 = equal blocks.
  double skew = 0;
  int iterations = 0;  ///< 0: auto, OSU-like (1000 up to 8 KiB per rank, 100 above)
  int warmup = -1;     ///< -1: auto (100 rounds up to 8 KiB per rank, 10 above)
  int min_iterations = 5;
  double seconds_per_size = 1.0;  ///< bound on one size's timed iterations; 0: none
  timing_mode timing = timing_mode::synchronized;
  int batch = 0;  ///< back-to-back and imb: calls per batch; 0: automatic_batch
  bool check = true;
  output_format format = output_format::table;
  std::string output;  ///< empty: stdout
  bool model = false;
  bool quiet = false;
  bool list = false;
  bool skip_left_out = false;  ///< --skip-left-out
  /// --draw: "collective:algorithm" entries or "all"; empty: measure instead.
  std::vector<std::string> draw;
  std::string draw_dir = ".";
  bool draw_logical = false;  ///< --draw-time logical

  /// The powers of two from min_bytes up to max_bytes, multiplying by `step`.
  std::vector<std::size_t> sizes() const;
};

/// The outcome of parsing: either options, or a message and the exit code to leave with
/// (0 after --help, 2 for a usage error).
struct parse_result {
  options opts;
  bool run = true;
  int exit_code = 0;
  std::string message;
};

parse_result parse_options(int argc, char** argv);

/// "8", "4K", "4KiB", "16M", "1G" (binary multiples) → bytes; std::nullopt if malformed.
std::optional<std::size_t> parse_size(std::string_view text);
/// 8 B, 4 KiB, 16 MiB: the shortest exact spelling.
std::string format_size(std::size_t bytes);

}  // namespace collbench
