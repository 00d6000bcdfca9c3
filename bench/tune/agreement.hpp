// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Whether repeated runs agree: each run's medians by row at one collective, process count and
// size, and two sides set against each other over every run and timing (the verdict rule's
// measure: ratios, each timing's median and noise).

#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace collbench::tune {

using json = nlohmann::json;

constexpr double noise_floor = 0.03;

// The timings, in the order a point shows its times: what an application sees first.
extern const std::vector<std::string> timings;

// The least and the most of a row's medians over runs.
struct sample {
  double least_us = 0, most_us = 0;
  double spread() const { return least_us > 0 ? (most_us - least_us) / least_us : 0; }
  void add(double median_us) {
    least_us = least_us > 0 ? std::min(least_us, median_us) : median_us;
    most_us = std::max(most_us, median_us);
  }
};

// One run's medians at one collective, process count and size, by row: the library's algorithms by
// name, "vendor" (the MPI library's collective), "served" (the drop-in's MPI_* serving the table's
// choice, in runs through the drop-in) and "automatic" (the table's choice called in C++).
struct observation {
  std::string timing;
  std::size_t run = 0;
  std::map<std::string, double> us;
};
using observations = std::vector<observation>;
using side = std::function<std::optional<double>(const observation&)>;

side row_of(const std::string& label);

// Side a against side b over every run and timing that measured both: the ratios a ÷ b per timing,
// one per run; each timing's median ratio and its noise, the most one of its runs' ratios moved from
// that median (the floor at least); a is ahead where every ratio × (1 + floor) is below 1 and, in
// every timing, its median × (1 + its noise) too; b where every ratio is above 1 + floor and every
// timing's median above 1 + its noise; neither where a timing measured one side only (it cannot
// agree: `unpaired`).
// The verdict rule: a decision is kept only where every run of every timing agrees by more than the
// measured noise, measured from each timing's median, not as the runs' whole spread (that would
// count as a re-run's expected move twice what any run moved from the typical value:
// docs/measurements/2026-11-29-imb-barrier.md); each timing against its own median and noise, as the
// timings differ by design (docs/measurements/2026-11-29-imb-resolution.md). The noise is not asked
// of the least ratio: runs that all put a ahead, by 1.3× in one and 2.6× in the others, have a noise
// of 100%, yet not one of them doubts the verdict.
struct agreement {
  struct timing_ratios {
    std::vector<double> ratios;
    double median = 0, noise = noise_floor;
  };
  std::map<std::string, timing_ratios> timings;
  std::set<std::string> unpaired;  // timings that measured a or b but never both in one run
  double noise = noise_floor;      // the largest of the timings'
  double least = 0, most = 0;      // over every ratio
  std::size_t count = 0;
  bool a_ahead() const;
  bool b_ahead() const;
  // Each side's worst timing: a's largest median ratio a ÷ b, and b's largest b ÷ a (the inverse of
  // the least). Where neither side is ahead, the one whose worst timing is better loses less where
  // the verdict is wrong.
  std::pair<double, double> worst_timings() const;
  json to_json() const;
  // "0.812–0.874 over 9 runs in 3 timings; median, noise: back-to-back 0.840, 4%; imb …", and any
  // timing that measured one side only
  std::string summary() const;
};

agreement compare(const observations& obs, const side& a, const side& b);

}  // namespace collbench::tune
