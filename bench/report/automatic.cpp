// SPDX-License-Identifier: BSD-3-Clause
// collreport's section on automatic (automatic.hpp).

#include "report/automatic.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cmath>
#include <collectives/algorithm.hpp>

#include "measure/options.hpp"

namespace collbench::report {

tuned_times read_tuned_times(const nlohmann::json& table) {
  tuned_times times;
  for (const auto& [collective, by_np] : table.at("collectives").items())
    for (const auto& [np, ranges] : by_np.items())
      for (const nlohmann::json& range : ranges)
        for (const nlohmann::json& point : range.at("points"))
          times[{collective, std::stoi(np), point.at("bytes").get<std::size_t>()}] =
              point.at("median_us").get<double>();
  return times;
}

void write_automatic(std::ostream& md, const std::map<std::string, std::vector<table>>& by_collective,
                     const tuned_times& tuned) {
  const auto flat = [](const std::string& l) {
    return is_library(l) && l != "automatic" && l != "hierarchical";
  };
  struct tally {
    int within = 0, points = 0;
    double worst = 0, log_sum = 0;
    std::string where;
    void add(double ratio, const std::string& at) {
      ++points;
      within += ratio <= 1.05;
      log_sum += std::log(ratio);
      if (ratio > worst) worst = ratio, where = at;
    }
    std::string row() const {
      return fmt::format("{} of {} ({:.0f}%) | {:.2f}× {} | {:.3f} |", within, points,
                         100.0 * within / points, worst, where, std::exp(log_sum / points));
    }
  };
  std::map<std::string, tally> overall;  // by "np" (and path)
  struct drift {
    int points = 0, far = 0;
    double log_sum = 0;
  };
  std::map<std::string, drift> against_tuning;  // likewise
  std::vector<std::string> lines;
  for (const auto it : in_collective_order(by_collective)) {
    for (const table& t : it->second) {
      tally mine;
      for (std::size_t bytes : t.sizes) {
        const row* a = t.at("automatic", bytes);
        const row* best = t.fastest(bytes, flat);
        if (!a || !best || a->median_us <= 0 || (a->wrong && *a->wrong > 0)) continue;
        const std::string at =
            fmt::format("at {} ({} {})", format_size(bytes), best->algorithm, us(best->median_us));
        const std::string np = fmt::format("{}{}", t.info->ranks, path_note(t));
        const double ratio = a->median_us / best->median_us;
        mine.add(ratio, at);
        overall[np].add(ratio, fmt::format("{} {}", t.collective, at));
        if (const auto when_tuned = tuned.find({t.collective, t.info->ranks, bytes});
            when_tuned != tuned.end() && when_tuned->second > 0) {
          const double speed = a->median_us / when_tuned->second;
          drift& d = against_tuning[np];
          ++d.points;
          d.far += speed < 0.8 || speed > 1.25;
          d.log_sum += std::log(speed);
        }
      }
      if (mine.points > 0)
        lines.push_back(
            fmt::format("| {} | {}{} | {}\n", t.collective, t.info->ranks, path_note(t), mine.row()));
    }
  }
  if (lines.empty()) return;  // no automatic rows
  fmt::print(
      md,
      "## automatic against the library's best\n\nPer size, automatic's median time ÷ that of the "
      "library's fastest algorithm in the same run (vendor, vendor internals and hierarchical left out: "
      "automatic never chooses them): at how many sizes it is within 5%, its worst ratio and where (the "
      "fastest algorithm and its µs there), and the geometric mean of the ratios. Rows measured in one "
      "run, so the ratios hold under load; the fastest of several rows is itself a little lucky, so a "
      "ratio slightly above 1 can be noise.\n\n| collective | np | within 5% | worst | geometric mean "
      "|\n|---|---:|---:|---|---:|\n");
  for (const std::string& l : lines) md << l;
  for (const auto& [np, all] : overall) fmt::print(md, "| **all** | {} | {}\n", np, all.row());
  fmt::print(md, "\n");
  if (against_tuning.empty()) return;
  fmt::print(
      md,
      "Against the tuning runs: automatic's time here ÷ the time the decision table recorded for the "
      "algorithm it chose, at the same size (geometric mean over the sizes both measured, and how many "
      "of them are outside 0.8–1.25×). Far from 1, the machine ran at another speed when tuned than "
      "now, and the table's choices were made for that speed.\n\n| np | here ÷ tuned | sizes outside "
      "0.8–1.25× |\n|---:|---:|---:|\n");
  for (const auto& [np, d] : against_tuning)
    fmt::print(md, "| {} | {:.2f}× | {} of {} |\n", np, std::exp(d.log_sum / d.points), d.far, d.points);
  fmt::print(md, "\n");
}

}  // namespace collbench::report
