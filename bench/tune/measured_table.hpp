// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// colltune from stored runs: repeated collbench runs (JSON, --algorithm library, any process counts,
// any timings) turned into the decision table that algorithm::automatic follows
// (collectives::load_tuning, COLLECTIVES_TUNING), with vendor's times beside it for the drop-in's
// `fastest`; every cell decided by the verdict rule (verdict.hpp).

#include <string>
#include <vector>

namespace collbench::tune {

struct measured_options {
  std::string out, options, command;  // options, command: recorded in the provenance
  std::vector<std::string> inputs;
};

// Which runs: the synchronized ones (collbench's default: every call from a common start, each
// algorithm's own time) measure every library algorithm and vendor; tune.sh then makes, with the
// table of the synchronized runs in force, as many runs in each timing an application sees: back to
// back and as IMB-MPI1 times. Those go through the drop-in when it is built (LD_PRELOAD,
// *=automatic, -a library,pmpi): their MPI_* row is the drop-in serving the table's choice
// ("served", its own cost included), their pmpi row the MPI library's collective ("vendor"), their
// other rows the library's algorithms called in C++. A run without a pmpi row is read as collbench
// labels it (vendor = MPI_*, automatic = the table's choice in C++). gatherv, scatterv and
// alltoallv have no per-size choice (every rank must decide alike, and their counts are not known
// alike): from the runs timed as applications see calls, one range over every size per process
// count, each such run giving one ratio: the geometric mean over the sizes of vendor ÷ the library.
// Writes the table to o.out and loads it back.
void write_measured_table(const measured_options& o);

}  // namespace collbench::tune
