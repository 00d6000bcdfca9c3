// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// collreport's tables: one collective at one process count on one shared-memory path, its
// rows by algorithm and size, and the cells and notes every section of the report writes.

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "report/output.hpp"

namespace collbench::report {

// One collective at one process count on one shared-memory path: the rows by algorithm and size.
struct table {
  std::string collective;
  const run_info* info = nullptr;
  bool several_paths = false;       ///< the report holds runs on more than one shared-memory path
  std::vector<std::string> labels;  ///< row order of the run: vendor first
  std::vector<std::size_t> sizes;
  std::map<std::string, std::map<std::size_t, const row*>> cell;

  const row* at(const std::string& label, std::size_t bytes) const {
    const auto a = cell.find(label);
    if (a == cell.end()) return nullptr;
    const auto b = a->second.find(bytes);
    return b == a->second.end() ? nullptr : b->second;
  }
  // The fastest row at `bytes` among the labels `keep` accepts; a wrong result is no result.
  const row* fastest(std::size_t bytes, bool (*keep)(const std::string&)) const {
    const row* best = nullptr;
    for (const std::string& l : labels) {
      const row* r = at(l, bytes);
      if (!r || !keep(l) || (r->wrong && *r->wrong > 0) || r->median_us <= 0) continue;
      if (!best || r->median_us < best->median_us) best = r;
    }
    return best;
  }
};

// The tables by collective, each a list by process count and path.
using tables_by_collective = std::map<std::string, std::vector<table>>;

// The collectives measured, in the order of collectives::all_collectives().
std::vector<tables_by_collective::const_iterator> in_collective_order(
    const tables_by_collective& by_collective);

bool is_library(const std::string& label);

// µs with about three significant digits.
std::string us(double v);

std::vector<table> tables_of(const run_results& run, bool several_paths);

// "allreduce_np2", or "allreduce_np2_single" when the report compares shared-memory paths.
std::string stem(const table& t);

bool across_hosts(const run_info& info);

// ", across 2 hosts × 2 ranks (block)" for a run across hosts.
std::string layout_note(const run_info& info);

std::string plot_name(const table& t, std::string_view what);

// ", single copy (cma)" when the report compares shared-memory paths.
std::string path_note(const table& t);

// Vendor's time ÷ the row's, as a speedup, or "–".
std::string speedup(const row* vendor, const row* r);

std::string describe_ranks(const run_info& info);

// Time on two copies ÷ time on one, or "–".
std::string ratio(const row* one, const row* two);

std::string time_of(const row* r, bool named);

// Runs timed as applications see calls: back to back, or as IMB-MPI1 times them (--timing imb).
bool back_to_back(const run_info& info);

}  // namespace collbench::report
