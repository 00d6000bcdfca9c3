// SPDX-License-Identifier: BSD-3-Clause
// Whether repeated runs agree (agreement.hpp): the ratios of two sides per run and timing.

#include "tune/agreement.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "measure/median.hpp"

namespace collbench::tune {

const std::vector<std::string> timings{"imb", "back-to-back", "synchronized"};

side row_of(const std::string& label) {
  return [label](const observation& o) -> std::optional<double> {
    const auto it = o.us.find(label);
    if (it == o.us.end()) return std::nullopt;
    return it->second;
  };
}

bool agreement::a_ahead() const {
  return count > 0 && unpaired.empty() && most * (1 + noise_floor) < 1 &&
         std::all_of(timings.begin(), timings.end(),
                     [](const auto& t) { return t.second.median * (1 + t.second.noise) < 1; });
}

bool agreement::b_ahead() const {
  return count > 0 && unpaired.empty() && least > 1 + noise_floor &&
         std::all_of(timings.begin(), timings.end(),
                     [](const auto& t) { return t.second.median > 1 + t.second.noise; });
}

std::pair<double, double> agreement::worst_timings() const {
  double most = 0, least = HUGE_VAL;
  for (const auto& [t, v] : timings) most = std::max(most, v.median), least = std::min(least, v.median);
  return {most, 1 / least};
}

json agreement::to_json() const {
  json r = json::object();
  for (const auto& [t, v] : timings) r[t] = v.ratios;
  return r;
}

std::string agreement::summary() const {
  std::string s = fmt::format("{:.3f}–{:.3f} over {} run{} in {} timing{}; median, noise:", least, most,
                              count, count == 1 ? "" : "s", timings.size(), timings.size() == 1 ? "" : "s");
  const char* separator = " ";
  for (const auto& [t, v] : timings) {
    s += fmt::format("{}{} {:.3f}, {:.0f}%", separator, t, v.median, v.noise * 100);
    separator = "; ";
  }
  for (const std::string& t : unpaired) s += fmt::format("; {}: one side only", t);
  return s;
}

agreement compare(const observations& obs, const side& a, const side& b) {
  agreement g;
  std::set<std::string> either;
  for (const observation& o : obs) {
    const std::optional<double> x = a(o), y = b(o);
    if ((x && *x > 0) || (y && *y > 0)) either.insert(o.timing);
    if (!x || !y || *x <= 0 || *y <= 0) continue;
    const double r = *x / *y;
    g.timings[o.timing].ratios.push_back(r);
    g.least = g.count ? std::min(g.least, r) : r;
    g.most = g.count ? std::max(g.most, r) : r;
    ++g.count;
  }
  for (auto& [timing, t] : g.timings) {
    t.median = median(t.ratios);
    const auto [lo, hi] = std::minmax_element(t.ratios.begin(), t.ratios.end());
    t.noise = std::max({noise_floor, *hi / t.median - 1, t.median / *lo - 1});
    g.noise = std::max(g.noise, t.noise);
  }
  for (const std::string& t : either)
    if (!g.timings.contains(t)) g.unpaired.insert(t);
  return g;
}

}  // namespace collbench::tune
