// SPDX-License-Identifier: BSD-3-Clause
// collsimcheck: sets simulated collbench runs against real ones of the same collectives, algorithms
// and sizes (scripts/mpirun/simulation-check.sh): per point simulated ÷ real, and per collective,
// layout and size whether the simulation names the real fastest algorithm (or one within --margin of
// it). Writes Markdown: a summary per collective and layout, the overall figures, and per collective
// and layout the ratio of every algorithm at every size. Given several real runs of a layout
// (REAL.json+REAL2.json…), each point's real time is their median, and the report says how far the
// real runs agree with one another by the same measures (every pair): what the machine resolves.
//
// Usage: collsimcheck [--vendor-row vendor:ompi41] [--margin 0.05] [-o FILE]
//                     LAYOUT=REAL.json[+REAL2.json…],SIMULATED.json ...
//   --vendor-row  the simulated row that stands for the real vendor row: vendor:ompi41 (Open MPI
//                 4.1's decision per call, ompi41.hpp) for a real Open MPI 4.1, vendor:ompi (SMPI's
//                 reproduction of Open MPI's selection), …; the simulated plain vendor row is left out
#include <fmt/format.h>
#include <fmt/ranges.h>

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
#include "measure/median.hpp"
#include "report/output.hpp"

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

// Each point's median over the runs that have it.
timings median_of(const std::vector<timings>& runs) {
  std::map<timings::key_type, std::vector<double>> all;
  for (const timings& run : runs)
    for (const auto& [key, time] : run) all[key].push_back(time);
  timings t;
  for (const auto& [key, times] : all) t[key] = median(times);
  return t;
}

// One size's algorithms, each with its (real, simulated) time.
using size_row = std::map<std::string, std::pair<double, double>>;
// (collective, bytes) → the algorithms both runs have.
using side_by_side = std::map<std::pair<std::string, std::size_t>, size_row>;

side_by_side pair_up(const timings& real, const timings& simulated) {
  side_by_side table;
  for (const auto& [key, time] : real) {
    const auto& [collective, bytes, algorithm] = key;
    if (const auto s = simulated.find(key); s != simulated.end() && time > 0)
      table[{collective, bytes}][algorithm] = {time, s->second};
  }
  return table;
}

struct verdict {
  std::string real_best, simulated_best;
  bool agree;  ///< the simulated fastest is the real fastest, or within the margin of it (in real time)
  /// Algorithms the simulation times exactly as simulated_best (identical schedules, e.g. the
  /// hierarchical one with one rank per host): simulated_best is the first of them by name.
  /// tie_decides: the verdict would differ for one of them.
  std::vector<std::string> tied;
  bool tie_decides = false;
};

// Equal simulated times: the same to within rounding.
constexpr double simulated_tie = 1e-9;

verdict fastest(const size_row& row, double margin) {
  auto best = [&](bool simulated) {
    return std::min_element(row.begin(), row.end(),
                            [&](const auto& x, const auto& y) {
                              return simulated ? x.second.second < y.second.second
                                               : x.second.first < y.second.first;
                            })
        ->first;
  };
  const std::string real_best = best(false), simulated_best = best(true);
  const double real_fastest = row.at(real_best).first, simulated_fastest = row.at(simulated_best).second;
  auto agrees = [&](const std::string& a) { return row.at(a).first <= (1 + margin) * real_fastest; };
  verdict v{real_best, simulated_best, agrees(simulated_best), {}, false};
  for (const auto& [a, times] : row)
    if (a != simulated_best && times.second <= (1 + simulated_tie) * simulated_fastest) {
      v.tied.push_back(a);
      v.tie_decides = v.tie_decides || agrees(a) != v.agree;
    }
  return v;
}

std::string bytes_text(std::size_t b) {
  if (b >= (1u << 20) && b % (1u << 20) == 0) return fmt::format("{} MiB", b >> 20);
  if (b >= 1024 && b % 1024 == 0) return fmt::format("{} KiB", b >> 10);
  return fmt::format("{} B", b);
}

struct layout_run {
  std::string name;
  std::vector<timings> real_runs;
  timings real, simulated;  ///< real: the median of real_runs
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"collsimcheck: simulated collbench runs against real ones"};
  std::vector<std::string> pairs;
  std::string vendor_row = "vendor:ompi41", out;
  double margin = 0.05;
  app.add_option("runs", pairs, "LAYOUT=REAL.json[+REAL2.json…],SIMULATED.json")->required();
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
        throw std::runtime_error(
            fmt::format("'{}': expected LAYOUT=REAL.json[+REAL2.json…],SIMULATED.json", p));
      layout_run run{p.substr(0, eq), {}, {}, read_run(p.substr(comma + 1), vendor_row)};
      const std::string reals = p.substr(eq + 1, comma - eq - 1);
      for (std::size_t from = 0; from <= reals.size();) {
        const std::size_t plus = std::min(reals.find('+', from), reals.size());
        run.real_runs.push_back(read_run(reals.substr(from, plus - from), ""));
        from = plus + 1;
      }
      run.real = median_of(run.real_runs);
      runs.push_back(std::move(run));
    }
    std::string summary, details;
    std::vector<double> all_errors;
    int all_points = 0, all_agree = 0, all_tie_decided = 0;
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
        std::map<std::size_t, size_row> table;
        for (const auto& [point, row] : pair_up(run.real, run.simulated))
          if (point.first == c) table[point.second] = row;
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
          const verdict v = fastest(row, margin);
          agree += v.agree;
          all_tie_decided += v.tie_decides;
          details += fmt::format(
              " {} | {}{} |\n", v.real_best, v.simulated_best,
              (v.agree
                   ? (v.simulated_best == v.real_best ? "" : fmt::format(" (within {:.0f}%)", 100 * margin))
                   : fmt::format(" (real: {:.2f}× the fastest)",
                                 row.at(v.simulated_best).first / row.at(v.real_best).first)) +
                  (v.tied.empty() ? ""
                                  : fmt::format(" (tied in simulation with {})", fmt::join(v.tied, ", "))));
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
    // The real runs of a layout against one another, every pair, as the simulation is held.
    std::vector<double> real_errors;
    int real_points = 0, real_agree = 0;
    for (const auto& run : runs)
      for (std::size_t a = 0; a < run.real_runs.size(); ++a)
        for (std::size_t b = a + 1; b < run.real_runs.size(); ++b)
          for (const auto& [point, row] : pair_up(run.real_runs[a], run.real_runs[b])) {
            for (const auto& [algorithm, times] : row)
              real_errors.push_back(std::abs(times.second / times.first - 1));
            ++real_points, real_agree += fastest(row, margin).agree;
          }
    const std::string resolution =
        real_points == 0
            ? ""
            : fmt::format(
                  "Real runs against one another (each point's real time above is their "
                  "median): median |b ÷ a − 1| = {:.1f}%; the fastest agree at {} of {} "
                  "(pair, collective, layout, size) points ({:.1f}%).\n\n",
                  100 * median(real_errors), real_agree, real_points, 100.0 * real_agree / real_points);
    std::string report = fmt::format(
        "Simulated ÷ real median time per call; the simulated row {} stands for the real vendor row. "
        "Fastest: the algorithm the simulation finds fastest is the real fastest, or within {:.0f}% of "
        "it.\n\n"
        "Over all {} points: median |sim ÷ real − 1| = {:.1f}%; the fastest agree at {} of {} "
        "(collective, layout, size) points ({:.1f}%){}.\n\n{}{}\n## Per size (simulated ÷ real)\n{}",
        vendor_row, 100 * margin, all_errors.size(), 100 * median(all_errors), all_agree, all_points,
        100.0 * all_agree / all_points,
        all_tie_decided == 0
            ? ""
            : fmt::format("; at {} of them the verdict rests on an exact tie in the simulation (algorithms "
                          "simulated in the same time: the first name in alphabetical order is taken as "
                          "the fastest, and another would change the verdict)",
                          all_tie_decided),
        resolution, summary, details);
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
