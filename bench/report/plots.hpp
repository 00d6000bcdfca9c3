// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// collreport's plots: per table gnuplot's data blocks and commands (latency and busbw against
// size, log-log, vendor highlighted), and the section of runs on one host and across hosts with
// its busbw plot of both layouts.

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "report/tables.hpp"

namespace collbench::report {

namespace fs = std::filesystem;

// Data blocks (one per algorithm: bytes, median µs, busbw GB/s) and the gnuplot commands for
// this table's two plots. A value that cannot sit on a log scale (busbw is 0 for most collectives
// at p = 1: nothing crosses a link) is written NaN, which gnuplot skips; a line with no value left
// is left out, and a plot with no line is not drawn (gnuplot would stop the whole script). Returns
// the plots drawn ("latency", "busbw").
std::vector<std::string> write_plots(const fs::path& dir, std::ostream& gp, const table& t);

// Per collective and process count measured on one host and across hosts: vendor's and the
// library's algorithms side by side, and one busbw plot with both layouts (solid: across hosts,
// dashed: one host).
void write_layouts(std::ostream& md, const fs::path& plots, std::ostream& gp,
                   const std::map<std::string, std::vector<table>>& by_collective);

}  // namespace collbench::report
