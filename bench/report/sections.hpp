// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The sections of collreport's report.md that are tables of numbers: per table its times and
// the model against measurement; across tables one copy against two, back to back against
// synchronized, the simulated MPI libraries' selections, the rows left out; the reading guide.

#include <ostream>
#include <span>

#include "report/tables.hpp"

namespace collbench::report {

void write_times(std::ostream& md, const table& t);

// Measured against predicted at a few sizes spread over the range.
void write_model(std::ostream& md, const table& t);

// Per collective and process count measured on both paths, size by size: vendor and the library's
// fastest algorithm on one copy and on two, and how each moves between them.
void write_paths(std::ostream& md, const std::map<std::string, std::vector<table>>& by_collective);

// Per collective and process count timed back to back (--timing back-to-back: batches of calls
// issued one after the other, as applications issue them), size by size: vendor against the
// library's fastest row of that run (automatic, in compare.sh's back-to-back runs), and the same
// pair in the synchronized run of the same np and path, so the report shows where the vendor's
// advantage comes only from running ahead and overlapping calls.
void write_back_to_back(std::ostream& md, const std::map<std::string, std::vector<table>>& timed_back_to_back,
                        const std::map<std::string, std::vector<table>>& synchronized);

// Simulated runs: the target table (write_targets), then per collective, np and size, the library's
// fastest algorithm against each of the MPI libraries' selections and the fastest of SMPI's single
// algorithms, automatic beside it, and the transport model's time of that algorithm (the floor of
// its schedule on the platform's α and β: simulated computation is free, so the model has no γ).
// Then per collective and np from 64 KiB: at how many sizes the library is no slower than the best
// selection (where it is, how far its best algorithm is from its model) and than the best anchor.
void write_selectors(std::ostream& md, const std::map<std::string, std::vector<table>>& by_collective);

// The target table of the simulated runs, one Markdown table: per collective, np and size, the
// library's fastest algorithm (not automatic) and its µs, automatic's µs, the fastest selection
// (vendor:ompi, vendor:mpich, vendor:mvapich2, vendor:impi, vendor:ompi41) and the fastest of SMPI's
// single algorithms (every other vendor:<name>), each named with its µs, and the library's time ÷
// the best selection's and ÷ the best anchor's (the faster of those two). Only the tables that
// hold a selection.
void write_targets(std::ostream& md, const tables_by_collective& by_collective);

// The rows asked for that a run could not measure at its process count, with the reason
// (collbench's left_out: SimGrid's algorithms that fail there).
void write_left_out(std::ostream& md, std::span<const run_results> runs,
                    std::span<const run_results> b2b_runs);

void write_reading_guide(std::ostream& md);

}  // namespace collbench::report
