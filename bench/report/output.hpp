// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// collbench's results and how they are written: an aligned table (fmt), CSV with a fixed header,
// or JSON (nlohmann) carrying the run's description and the model too. collreport reads the JSON
// back with read_json.

#include <collectives/algorithm.hpp>
#include <collectives/eager.hpp>
#include <cstddef>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/host_links.hpp"
#include "model/model.hpp"
#include "measure/mpit.hpp"

namespace collbench {

/// One algorithm at one size. Times in µs, bandwidths in GB/s (10⁹ B/s).
struct row {
  std::string collective;
  std::string algorithm;
  int ranks = 0;
  std::size_t bytes = 0;
  std::size_t count = 0;
  std::string type;
  double median_us = 0, min_us = 0, max_us = 0;
  int iterations = 0;
  double algbw_GBps = 0, busbw_GBps = 0;
  double vs_vendor = 0;                   ///< median / vendor's median at the same size
  double late_fraction = 0;               ///< of the timed calls, those some rank started late
  std::optional<long long> wrong;         ///< unset without --check
  std::optional<double> model_us;         ///< --model: predicted time
  std::optional<double> busbw_of_memcpy;  ///< --model: busbw / memcpy bandwidth
  std::string shm_copy = "unknown";       ///< the run's shared-memory path (shm_copy_info::path)
  /// How the row was timed (options.hpp, timing_mode): "synchronized" (files from before the
  /// option say nothing and were), "back-to-back" or "imb".
  std::string timing = "synchronized";
  int batch = 1;  ///< calls per timed iteration: 1 synchronized, the batch back to back and imb
};

/// How well the ranks started together (start_sync.hpp).
struct start_info {
  double offset_error_us = 0;  ///< half the best ping-pong round trip, worst rank
  double margin_us = 0;        ///< the start margin measured at the beginning
  double late_fraction = 0;    ///< of all timed calls, those some rank started late
};

/// A row asked for but not measured at this process count, and why (SimGrid's algorithms that fail
/// there: variants.hpp, vendor_internals::left_out).
struct left_out_row {
  std::string collective;
  std::string algorithm;
  std::string reason;
  bool operator==(const left_out_row&) const = default;
};

/// What the run was: enough to reproduce it and to read its numbers.
struct run_info {
  std::string version;
  std::string mpi_library;
  std::string host;
  std::string date;
  int ranks = 0;
  int cores = 0;
  bool oversubscribed = false;
  std::string type;
  std::string op;
  int root = 0;
  double skew = 0;  ///< the v-variants' imbalance (--skew)
  bool check = true;
  std::string timing;                        ///< the iteration policy, in words
  std::string timing_mode = "synchronized";  ///< "synchronized", "back-to-back" or "imb" (--timing)
  std::optional<start_info> start;  ///< absent in files of collbench before common starts, and batched
  std::string vendor_internals;     ///< how they were forced, or why there are none
  shm_copy_info shm_copy{"unknown", "", "not recorded (a file of collbench before it was)"};
  /// The library's eager sizes (collectives/eager.hpp); absent in files of collbench before them.
  std::optional<collectives::eager_limits> eager;
  std::optional<machine> model;
  std::optional<host_links> hosts;     ///< where the ranks sit (α-β within and between hosts with --model)
  std::vector<left_out_row> left_out;  ///< absent in files of collbench before it said them
};

/// The CSV header, exactly.
inline constexpr std::string_view csv_header =
    "collective,algorithm,ranks,bytes,count,type,median_us,min_us,max_us,algbw_GBps,busbw_GBps,vs_vendor,"
    "wrong,shm_copy,timing";

/// One sentence for the table's header and the report.
std::string describe_start(const start_info& s);

/// The model's time in µs for a row of `bytes` (`count` elements) of a run described by `info`: the
/// row's schedule recorded and priced (price.hpp) on a simulated cluster's platform
/// (COLLBENCH_PLATFORM, which scripts/mpirun/simulate sets), else on the machine the run measured:
/// on one host, whose cores its ranks share; across hosts with messages between them timed by the
/// ping-pong between two (with one rank per host the run's own ping-pong already is that one). A
/// vendor:<name> row is priced by the library schedule it runs (vendor_runs). None for a row
/// without a schedule (vendor, automatic, the other vendor internals), without a measured machine,
/// or on one rank. collbench fills model_us with it (--model); collreport --reprice recomputes it.
std::optional<double> model_us(collectives::collective c, std::string_view algorithm, const run_info& info,
                               std::size_t bytes, std::size_t count);

void write_csv(std::ostream& os, std::span<const row> rows, bool header = true);
void write_json(std::ostream& os, const run_info& info, std::span<const row> rows);
void write_table(std::ostream& os, const run_info& info, std::span<const row> rows);

struct run_results {
  run_info info;
  std::vector<row> rows;
};
/// Reads what write_json wrote; throws std::runtime_error on malformed input.
run_results read_json(std::istream& is);

}  // namespace collbench
