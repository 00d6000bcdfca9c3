// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// collreport: collbench's JSON files (one per process count) turned into the comparison report:
// report.md (per collective and process count the median time per algorithm and size, the best
// algorithm per size and its speedup over vendor, model against measurement, the plots; automatic's
// summary), results.csv (every row of every run), results.json ({"runs": [each run as collbench
// wrote it]}, with --reprice model_us recomputed), plots/*.dat and plots/plots.gp (gnuplot); or,
// for simulated runs, their target table alone.

#include <string>
#include <vector>

namespace collbench::report {

struct report_options {
  std::string out;                  // the directory (with `targets`: the file, or stdout if empty)
  std::vector<std::string> inputs;  // collbench JSON files, or results directories (their results.json)
  bool reprice = false;
  std::string tuning;    // the decision table automatic followed, if any
  bool targets = false;  // the target table alone (sections.hpp's write_targets), nothing else
};

void write_report(const report_options& o);

// The target table of the inputs' simulated runs, in Markdown, to `o.out` or stdout.
void write_target_table(const report_options& o);

}  // namespace collbench::report
