// SPDX-License-Identifier: BSD-3-Clause
// collsimcheck: sets simulated collbench runs against real ones of the same collectives, algorithms
// and sizes (scripts/mpirun/simulation-check.sh): per point simulated ÷ real, and per collective,
// layout and size whether the simulation names the real fastest algorithm (or one within --margin of
// it). Writes Markdown: a summary per collective and layout, the overall figures, and per collective
// and layout the ratio of every algorithm at every size.
//
// Usage: collsimcheck [--vendor-row vendor:ompi41] [--margin 0.05] [-o FILE] LAYOUT=REAL.json,SIMULATED.json ...
//   --vendor-row  the simulated row that stands for the real vendor row: vendor:ompi41 (Open MPI
//                 4.1's decision per call, ompi41.hpp) for a real Open MPI 4.1, vendor:ompi (SMPI's
//                 reproduction of Open MPI's selection), …; the simulated plain vendor row is left out
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "cli11.hpp"
#include "output.hpp"
#include "median.hpp"

namespace {

using collbench::median;

// (collective, bytes, algorithm) → median µs
using timings = std::map<std::tuple<std::string, std::size_t, std::string>, double>;

timings read_run(const std::string& path, const std::string& vendor_row) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error(fmt::format("cannot read {}", path));
  collbench::run_results run;
  try {
    run = collbench::read_json(file);
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", path, e.what()));
  }
  timings t;
  for (const collbench::row& r : run.rows) {
    std::string algorithm = r.algorithm;
    if (!vendor_row.empty()) {
      if (algorithm == "vendor") continue;
      if (algorithm == vendor_row) algorithm = "vendor";
    }
    if (r.median_us > 0) t[{r.collective, r.bytes, algorithm}] = r.median_us;
  }
  return t;
}

std::string bytes_text(std::size_t b) {
  if (b >= (1u << 20) && b % (1u << 20) == 0) return fmt::format("{} MiB", b >> 20);
  if (b >= 1024 && b % 1024 == 0) return fmt::format("{} KiB", b >> 10);
  return fmt::format("{} B", b);
}

struct layout_run {
  std::string name;
  timings real, simulated;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"collsimcheck: simulated collbench runs against real ones"};
  std::vector<std::string> pairs;
  std::string vendor_row = "vendor:ompi41", out;
  double margin = 0.05;
  app.add_option("runs", pairs, "LAYOUT=REAL.json,SIMULATED.json")->required();
  app.add_option("--vendor-row", vendor_row, "the simulated row standing for the real vendor row")
      ->capture_default_str();
  app.add_option("--margin", margin, "the simulated fastest agrees when within this of the real fastest")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("-o,--output", out, "the report (default: stdout)");
  CLI11_PARSE(app, argc, argv);

  try {
    std::vector<layout_run> runs;
    for (const std::string& p : pairs) {
      const auto eq = p.find('='), comma = p.find(',', eq == std::string::npos ? 0 : eq);
      if (eq == std::string::npos || comma == std::string::npos)
        throw std::runtime_error(fmt::format("'{}': expected LAYOUT=REAL.json,SIMULATED.json", p));
      runs.push_back({p.substr(0, eq), read_run(p.substr(eq + 1, comma - eq - 1), ""),
                      read_run(p.substr(comma + 1), vendor_row)});
    }
    std::string summary, details;
    std::vector<double> all_errors;
    int all_points = 0, all_agree = 0;
    std::set<std::string> collectives;
    for (const auto& run : runs)
      for (const auto& [key, time] : run.real) collectives.insert(std::get<0>(key));
    summary +=
        "| collective | layout | points | median \\|sim ÷ real − 1\\| | sim ÷ real, least – most | fastest "
        "agree |\n";
    summary += "| --- | --- | ---: | ---: | ---: | ---: |\n";
    for (const std::string& c : collectives) {
      for (const auto& run : runs) {
        // sizes → algorithm → (real, simulated)
        std::map<std::size_t, std::map<std::string, std::pair<double, double>>> table;
        for (const auto& [key, real] : run.real) {
          const auto& [coll, bytes, algorithm] = key;
          if (coll != c) continue;
          if (const auto s = run.simulated.find(key); s != run.simulated.end() && real > 0)
            table[bytes][algorithm] = {real, s->second};
        }
        if (table.empty()) continue;
        std::vector<double> errors, ratios;
        int agree = 0;
        std::set<std::string> algorithms;
        for (const auto& [bytes, row] : table)
          for (const auto& [a, times] : row) algorithms.insert(a);
        details += fmt::format("\n### {} on {}\n\n| size |", c, run.name);
        for (const auto& a : algorithms) details += fmt::format(" {} |", a);
        details += " real fastest | simulated fastest |\n| --- |";
        for (std::size_t i = 0; i < algorithms.size(); ++i) details += " ---: |";
        details += " --- | --- |\n";
        for (const auto& [bytes, row] : table) {
          details += fmt::format("| {} |", bytes_text(bytes));
          for (const auto& a : algorithms) {
            const auto it = row.find(a);
            if (it == row.end()) {
              details += " |";
              continue;
            }
            const double ratio = it->second.second / it->second.first;
            ratios.push_back(ratio), errors.push_back(std::abs(ratio - 1));
            details += fmt::format(" {:.2f} |", ratio);
          }
          auto fastest = [&](bool simulated) {
            return std::min_element(row.begin(), row.end(),
                                    [&](const auto& x, const auto& y) {
                                      return simulated ? x.second.second < y.second.second
                                                       : x.second.first < y.second.first;
                                    })
                ->first;
          };
          const std::string real_best = fastest(false), sim_best = fastest(true);
          const bool ok = row.at(sim_best).first <= (1 + margin) * row.at(real_best).first;
          agree += ok;
          details +=
              fmt::format(" {} | {}{} |\n", real_best, sim_best,
                          ok ? (sim_best == real_best ? "" : fmt::format(" (within {:.0f}%)", 100 * margin))
                             : fmt::format(" (real: {:.2f}× the fastest)",
                                           row.at(sim_best).first / row.at(real_best).first));
        }
        all_errors.insert(all_errors.end(), errors.begin(), errors.end());
        all_points += static_cast<int>(table.size()), all_agree += agree;
        summary +=
            fmt::format("| {} | {} | {} | {:.1f}% | {:.2f} – {:.2f} | {} of {} |\n", c, run.name,
                        ratios.size(), 100 * median(errors), *std::min_element(ratios.begin(), ratios.end()),
                        *std::max_element(ratios.begin(), ratios.end()), agree, table.size());
      }
    }
    if (all_errors.empty()) throw std::runtime_error("no point measured both for real and in simulation");
    std::string report = fmt::format(
        "Simulated ÷ real median time per call; the simulated row {} stands for the real vendor row. "
        "Fastest: the algorithm the simulation finds fastest is the real fastest, or within {:.0f}% of "
        "it.\n\n"
        "Over all {} points: median |sim ÷ real − 1| = {:.1f}%; the fastest agree at {} of {} "
        "(collective, layout, size) points ({:.0f}%).\n\n{}\n## Per size (simulated ÷ real)\n{}",
        vendor_row, 100 * margin, all_errors.size(), 100 * median(all_errors), all_agree, all_points,
        100.0 * all_agree / all_points, summary, details);
    if (out.empty()) {
      std::cout << report;
    } else {
      std::ofstream file(out);
      if (!(file << report)) throw std::runtime_error(fmt::format("cannot write {}", out));
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "collsimcheck: {}\n", e.what());
    return 2;
  }
  return 0;
}
