// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// collsimcheck: simulated collbench runs set against real ones of the same collectives, algorithms
// and sizes (scripts/mpirun/simulation-check.sh): per point simulated ÷ real, and per collective,
// layout and size whether the simulation names the real fastest algorithm (or one within the margin
// of it). The report, in Markdown: a summary per collective and layout, the overall figures, and per
// collective and layout the ratio of every algorithm at every size. Given several real runs of a
// layout, each point's real time is their median, and the report says how far the real runs agree
// with one another by the same measures (every pair): what the machine resolves.

#include <string>
#include <vector>

namespace collbench::report {

struct simcheck_options {
  std::vector<std::string> pairs;  // LAYOUT=REAL.json[+REAL2.json…],SIMULATED.json
  // The simulated row that stands for the real vendor row: vendor:ompi41 (Open MPI 4.1's decision
  // per call, ompi41.hpp) for a real Open MPI 4.1, vendor:ompi (SMPI's reproduction of Open MPI's
  // selection), …; the simulated plain vendor row is left out.
  std::string vendor_row = "vendor:ompi41";
  double margin = 0.05;
  std::string out;  // empty: stdout
};

void write_simcheck(const simcheck_options& o);

}  // namespace collbench::report
