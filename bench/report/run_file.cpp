// SPDX-License-Identifier: BSD-3-Clause
// collreport's inputs (run_file.hpp).

#include "report/run_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <collectives/algorithm.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "model/price.hpp"
#include "report/tables.hpp"

namespace collbench::report {
namespace {

// One run read from `in` (from `path`); with `reprice`, every row's model_us recomputed. Its JSON
// goes into `merged`.
run_results read_run_stream(std::istream& in, const std::string& path, bool reprice, nlohmann::json& merged) {
  run_results run = read_json(in);
  if (reprice) {
    for (row& r : run.rows) {
      const auto c = collectives::parse_collective(r.collective);
      if (!c) throw std::runtime_error(fmt::format("{}: unknown collective '{}'", path, r.collective));
      r.model_us = model_us(*c, r.algorithm, run.info, r.bytes, r.count);
    }
    std::ostringstream repriced;
    write_json(repriced, run.info, run.rows);
    merged["runs"].push_back(nlohmann::json::parse(repriced.str()));
  } else {
    in.clear();
    in.seekg(0);
    merged["runs"].push_back(nlohmann::json::parse(in));
  }
  return run;
}

run_results read_run(const std::string& path, bool reprice, nlohmann::json& merged) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", path));
  return read_run_stream(in, path, reprice, merged);
}

// A results directory (compare.sh's, collreport's --out): the runs of its results.json, each read as
// its own file would be.
std::vector<run_results> read_results_directory(const std::string& dir, bool reprice,
                                                nlohmann::json& merged) {
  const std::string path = (std::filesystem::path(dir) / "results.json").string();
  std::ifstream in(path);
  if (!in) throw std::runtime_error(fmt::format("cannot read {}", path));
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", path, e.what()));
  }
  if (!doc.contains("runs") || !doc.at("runs").is_array())
    throw std::runtime_error(fmt::format("{}: no \"runs\" array (collreport's results.json)", path));
  std::vector<run_results> out;
  for (const nlohmann::json& run : doc.at("runs")) {
    std::istringstream text(run.dump());
    out.push_back(read_run_stream(text, path, reprice, merged));
  }
  return out;
}

// Launches that split one run (compare.sh --simulate: one per collective, and its sizes over
// several at a time) are one run: the same process count, library, timing, path and data. The
// first file's description stands for all.
bool same_run(const run_info& a, const run_info& b) {
  return a.ranks == b.ranks && a.mpi_library == b.mpi_library && a.timing_mode == b.timing_mode &&
         a.shm_copy.path == b.shm_copy.path && a.type == b.type && a.op == b.op && a.root == b.root &&
         a.skew == b.skew;
}

void merge_split_runs(std::vector<run_results>& runs) {
  for (auto it = runs.begin(); it != runs.end(); ++it) {
    bool merged_any = false;
    for (auto later = std::next(it); later != runs.end();)
      if (same_run(it->info, later->info)) {
        it->rows.insert(it->rows.end(), later->rows.begin(), later->rows.end());
        for (left_out_row& l : later->info.left_out)
          if (std::find(it->info.left_out.begin(), it->info.left_out.end(), l) == it->info.left_out.end())
            it->info.left_out.push_back(std::move(l));
        later = runs.erase(later);
        merged_any = true;
      } else {
        ++later;
      }
    if (!merged_any) continue;
    // Each collective's rows in size order, the collectives in the order they first came.
    std::vector<std::string> order;
    for (const row& r : it->rows)
      if (std::find(order.begin(), order.end(), r.collective) == order.end()) order.push_back(r.collective);
    const auto place = [&](const row& r) {
      return std::pair(std::find(order.begin(), order.end(), r.collective) - order.begin(), r.bytes);
    };
    std::stable_sort(it->rows.begin(), it->rows.end(),
                     [&](const row& a, const row& b) { return place(a) < place(b); });
  }
}

}  // namespace

report_runs read_runs(const std::vector<std::string>& inputs, bool reprice) {
  report_runs r;
  std::vector<run_results>& runs = r.runs;
  r.merged = {{"runs", nlohmann::json::array()}};
  for (const std::string& path : inputs)
    if (std::filesystem::is_directory(path))
      for (run_results& run : read_results_directory(path, reprice, r.merged)) runs.push_back(std::move(run));
    else
      runs.push_back(read_run(path, reprice, r.merged));
  merge_split_runs(runs);
  // By process count, the single-copy run before the two-copy one.
  std::stable_sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
    return std::pair(a.info.ranks, b.info.shm_copy.path) < std::pair(b.info.ranks, a.info.shm_copy.path);
  });
  // Runs timed back to back get a section of their own; the rest of the report is the synchronized
  // runs' (or, if every run is back to back, theirs).
  if (std::any_of(runs.begin(), runs.end(), [](const auto& x) { return !back_to_back(x.info); })) {
    for (auto it = runs.begin(); it != runs.end();)
      if (back_to_back(it->info)) {
        r.b2b_runs.push_back(std::move(*it));
        it = runs.erase(it);
      } else {
        ++it;
      }
  }
  return r;
}

}  // namespace collbench::report
