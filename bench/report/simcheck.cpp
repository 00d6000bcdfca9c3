// SPDX-License-Identifier: BSD-3-Clause
// collsimcheck's report (simcheck.hpp): the runs paired point by point, a section per collective and
// layout, the real runs against one another.

#include "report/simcheck.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "measure/median.hpp"
#include "report/output.hpp"

namespace collbench::report {
namespace {

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

std::vector<layout_run> read_layouts(const simcheck_options& o) {
  std::vector<layout_run> runs;
  for (const std::string& p : o.pairs) {
    const auto eq = p.find('='), comma = p.find(',', eq == std::string::npos ? 0 : eq);
    if (eq == std::string::npos || comma == std::string::npos)
      throw std::runtime_error(
          fmt::format("'{}': expected LAYOUT=REAL.json[+REAL2.json…],SIMULATED.json", p));
    layout_run run{p.substr(0, eq), {}, {}, read_run(p.substr(comma + 1), o.vendor_row)};
    const std::string reals = p.substr(eq + 1, comma - eq - 1);
    for (std::size_t from = 0; from <= reals.size();) {
      const std::size_t plus = std::min(reals.find('+', from), reals.size());
      run.real_runs.push_back(read_run(reals.substr(from, plus - from), ""));
      from = plus + 1;
    }
    run.real = median_of(run.real_runs);
    runs.push_back(std::move(run));
  }
  return runs;
}

// What every section adds up.
struct totals {
  std::string summary, details;
  std::vector<double> all_errors;
  int all_points = 0, all_agree = 0, all_tie_decided = 0;
};

// One collective on one layout: its row of the summary, its table of ratios per size.
void write_section(const std::string& c, const layout_run& run, double margin, totals& t) {
  // sizes → algorithm → (real, simulated)
  std::map<std::size_t, size_row> table;
  for (const auto& [point, row] : pair_up(run.real, run.simulated))
    if (point.first == c) table[point.second] = row;
  if (table.empty()) return;
  std::vector<double> errors, ratios;
  int agree = 0;
  std::set<std::string> algorithms;
  for (const auto& [bytes, row] : table)
    for (const auto& [a, times] : row) algorithms.insert(a);
  t.details += fmt::format("\n### {} on {}\n\n| size |", c, run.name);
  for (const auto& a : algorithms) t.details += fmt::format(" {} |", a);
  t.details += " real fastest | simulated fastest |\n| --- |";
  for (std::size_t i = 0; i < algorithms.size(); ++i) t.details += " ---: |";
  t.details += " --- | --- |\n";
  for (const auto& [bytes, row] : table) {
    t.details += fmt::format("| {} |", bytes_text(bytes));
    for (const auto& a : algorithms) {
      const auto it = row.find(a);
      if (it == row.end()) {
        t.details += " |";
        continue;
      }
      const double ratio = it->second.second / it->second.first;
      ratios.push_back(ratio), errors.push_back(std::abs(ratio - 1));
      t.details += fmt::format(" {:.2f} |", ratio);
    }
    const verdict v = fastest(row, margin);
    agree += v.agree;
    t.all_tie_decided += v.tie_decides;
    t.details += fmt::format(
        " {} | {}{} |\n", v.real_best, v.simulated_best,
        (v.agree ? (v.simulated_best == v.real_best ? "" : fmt::format(" (within {:.0f}%)", 100 * margin))
                 : fmt::format(" (real: {:.2f}× the fastest)",
                               row.at(v.simulated_best).first / row.at(v.real_best).first)) +
            (v.tied.empty() ? "" : fmt::format(" (tied in simulation with {})", fmt::join(v.tied, ", "))));
  }
  t.all_errors.insert(t.all_errors.end(), errors.begin(), errors.end());
  t.all_points += static_cast<int>(table.size()), t.all_agree += agree;
  t.summary +=
      fmt::format("| {} | {} | {} | {:.1f}% | {:.2f} – {:.2f} | {} of {} |\n", c, run.name, ratios.size(),
                  100 * median(errors), *std::min_element(ratios.begin(), ratios.end()),
                  *std::max_element(ratios.begin(), ratios.end()), agree, table.size());
}

// The real runs of a layout against one another, every pair, as the simulation is held.
std::string resolution(const std::vector<layout_run>& runs, double margin) {
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
  if (real_points == 0) return "";
  return fmt::format(
      "Real runs against one another (each point's real time above is their "
      "median): median |b ÷ a − 1| = {:.1f}%; the fastest agree at {} of {} "
      "(pair, collective, layout, size) points ({:.1f}%).\n\n",
      100 * median(real_errors), real_agree, real_points, 100.0 * real_agree / real_points);
}

}  // namespace

void write_simcheck(const simcheck_options& o) {
  const std::vector<layout_run> runs = read_layouts(o);
  std::set<std::string> collectives;
  for (const auto& run : runs)
    for (const auto& [key, time] : run.real) collectives.insert(std::get<0>(key));
  totals t;
  t.summary +=
      "| collective | layout | points | median \\|sim ÷ real − 1\\| | sim ÷ real, least – most | fastest "
      "agree |\n";
  t.summary += "| --- | --- | ---: | ---: | ---: | ---: |\n";
  for (const std::string& c : collectives)
    for (const auto& run : runs) write_section(c, run, o.margin, t);
  if (t.all_errors.empty()) throw std::runtime_error("no point measured both for real and in simulation");
  const std::string report = fmt::format(
      "Simulated ÷ real median time per call; the simulated row {} stands for the real vendor row. "
      "Fastest: the algorithm the simulation finds fastest is the real fastest, or within {:.0f}% of "
      "it.\n\n"
      "Over all {} points: median |sim ÷ real − 1| = {:.1f}%; the fastest agree at {} of {} "
      "(collective, layout, size) points ({:.1f}%){}.\n\n{}{}\n## Per size (simulated ÷ real)\n{}",
      o.vendor_row, 100 * o.margin, t.all_errors.size(), 100 * median(t.all_errors), t.all_agree,
      t.all_points, 100.0 * t.all_agree / t.all_points,
      t.all_tie_decided == 0
          ? ""
          : fmt::format("; at {} of them the verdict rests on an exact tie in the simulation (algorithms "
                        "simulated in the same time: the first name in alphabetical order is taken as "
                        "the fastest, and another would change the verdict)",
                        t.all_tie_decided),
      resolution(runs, o.margin), t.summary, t.details);
  if (o.out.empty()) {
    std::cout << report;
  } else {
    std::ofstream file(o.out);
    if (!(file << report)) throw std::runtime_error(fmt::format("cannot write {}", o.out));
  }
}

}  // namespace collbench::report
