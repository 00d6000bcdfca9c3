// SPDX-License-Identifier: BSD-3-Clause
// collreport's tables and cells (tables.hpp).

#include "report/tables.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <collectives/algorithm.hpp>

namespace collbench::report {

std::vector<tables_by_collective::const_iterator> in_collective_order(
    const tables_by_collective& by_collective) {
  std::vector<tables_by_collective::const_iterator> out;
  for (collectives::collective c : collectives::all_collectives())
    if (const auto it = by_collective.find(std::string(to_string(c))); it != by_collective.end())
      out.push_back(it);
  return out;
}

bool is_library(const std::string& label) { return !label.starts_with("vendor"); }

std::string us(double v) {
  if (v < 10) return fmt::format("{:.2f}", v);
  if (v < 100) return fmt::format("{:.1f}", v);
  return fmt::format("{:.0f}", v);
}

std::vector<table> tables_of(const run_results& run, bool several_paths) {
  std::vector<table> out;
  for (const row& r : run.rows) {
    if (out.empty() || out.back().collective != r.collective)
      out.push_back({r.collective, &run.info, several_paths, {}, {}, {}});
    table& t = out.back();
    if (!t.cell.contains(r.algorithm)) t.labels.push_back(r.algorithm);
    if (std::find(t.sizes.begin(), t.sizes.end(), r.bytes) == t.sizes.end()) t.sizes.push_back(r.bytes);
    t.cell[r.algorithm][r.bytes] = &r;
  }
  return out;
}

std::string stem(const table& t) {
  const std::string layout = t.info->hosts ? t.info->hosts->layout.tag() : std::string();
  return fmt::format("{}_np{}{}{}", t.collective, t.info->ranks, layout.empty() ? "" : "_" + layout,
                     t.several_paths ? "_" + t.info->shm_copy.path : std::string());
}

bool across_hosts(const run_info& info) { return info.hosts && info.hosts->layout.hosts > 1; }

std::string layout_note(const run_info& info) {
  return across_hosts(info) ? ", across " + info.hosts->layout.describe() : std::string();
}

std::string plot_name(const table& t, std::string_view what) {
  return fmt::format("{}_{}.png", stem(t), what);
}

std::string path_note(const table& t) {
  return t.several_paths ? ", " + describe(t.info->shm_copy) : std::string();
}

std::string speedup(const row* vendor, const row* r) {
  return vendor && r && r->median_us > 0 ? fmt::format("{:.2f}×", vendor->median_us / r->median_us) : "–";
}

std::string describe_ranks(const run_info& info) {
  // SimGrid SMPI: every rank in one process, timed on the platform's model, not on these cores.
  if (info.mpi_library.find("SMPI") != std::string::npos)
    return fmt::format("{} simulated ranks (SimGrid SMPI: simulated time, whatever the cores)", info.ranks);
  return fmt::format("{} rank{} on {} cores{}", info.ranks, info.ranks == 1 ? "" : "s", info.cores,
                     info.oversubscribed
                         ? " — oversubscribed: ranks share cores, so times include waiting for a "
                           "core"
                         : "");
}

std::string ratio(const row* one, const row* two) {
  return one && two && one->median_us > 0 ? fmt::format("{:.2f}", two->median_us / one->median_us) : "–";
}

std::string time_of(const row* r, bool named) {
  if (!r) return "–";
  return named ? fmt::format("{} {}", r->algorithm, us(r->median_us)) : us(r->median_us);
}

bool back_to_back(const run_info& info) { return info.timing_mode != "synchronized"; }

}  // namespace collbench::report
