// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// collreport's inputs: collbench's JSON files, or results directories (the runs of their
// results.json), read (with --reprice, their model figures priced again), the launches that split
// one run merged into it, in the report's order, and the runs timed back to back set apart.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/output.hpp"

namespace collbench::report {

struct report_runs {
  std::vector<run_results> runs;      // the synchronized runs (or, if every run is back to back, all)
  std::vector<run_results> b2b_runs;  // the runs timed back to back, when there are synchronized ones
  nlohmann::json merged;              // {"runs": [each run as collbench wrote it, or repriced]}
};

report_runs read_runs(const std::vector<std::string>& inputs, bool reprice);

}  // namespace collbench::report
