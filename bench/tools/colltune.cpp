// SPDX-License-Identifier: BSD-3-Clause
// colltune: turns repeated collbench runs (JSON, --algorithm library, any process counts) into the
// decision table that algorithm::automatic follows (collectives::load_tuning, COLLECTIVES_TUNING),
// with vendor's times beside it for the drop-in's `fastest`.
// scripts/mpirun/tune.sh runs collbench and then this; the table's schema is in docs/tuning.md.
//
// Which runs: the synchronized ones (collbench's default: every call from a common start, each
// algorithm's own time) measure every library algorithm and vendor; tune.sh then makes, with the
// table of the synchronized runs in force, as many runs in each timing an application sees: back to
// back (--timing back-to-back: calls one after another) and as IMB-MPI1 times (--timing imb: each
// call timed apart, a barrier between calls, the mean over ranks). Those go through the drop-in
// when it is built (LD_PRELOAD, *=automatic, -a library,pmpi): their MPI_* row is the drop-in
// serving the table's choice ("served" below, its own cost included), their pmpi row the MPI
// library's collective ("vendor"), their other rows the library's algorithms called in C++. A
// run without a pmpi row is read as collbench labels it (vendor = MPI_*, automatic = the table's
// choice in C++).
//
// The verdict rule: a decision is kept only where every run of every timing agrees by more than
// the measured noise. Per size, for two sides a and b, each run gives the ratio of their medians
// in that run (rows that ran interleaved in one launch, so the machine's drift cancels); a timing's
// noise is how far one of its runs' ratios moved from the median ratio of its runs (either way, as
// a factor: most ÷ median − 1 or median ÷ least − 1), never below 3%; a is ahead when every ratio
// a ÷ b, in every run and timing, is below 1 ÷ (1 + 3%), and in every timing the median ratio is
// below 1 ÷ (1 + that timing's noise): every run agrees, and a re-run of any timing that moves its
// ratio from its typical value by less than the noise it showed still agrees. (The noise is not
// asked of the least ratio: runs that all put a ahead, by 1.3× in one and 2.6× in the others, have
// a noise of 100%, yet not one of them doubts the verdict.) Measured from the median, not as the
// runs' whole spread: that would count as a re-run's expected move twice what any run moved from
// the typical value (docs/measurements/2026-11-29-imb-barrier.md). Each timing against its own
// median and noise, not the median of all of them against the largest noise: the timings differ
// by design (one timing's typical ratio far from another's is their difference, not noise), and
// setting one timing's noise against another's median doubted verdicts that no run of any timing
// doubted (docs/measurements/2026-11-29-imb-resolution.md).
//   - "collectives" (what automatic runs): b is the built-in rule's choice (automatic_choice with no
//     table); an algorithm that is ahead of it replaces it (the one whose worst ratio is least, or
//     the previous size's choice if its worst ratio is within 3% of that: fewer, wider ranges).
//     Elsewhere the rule's choice stays: the built-in rule decides.
//   - "fastest" (the drop-in's vendor-or-library verdict): vendor, the MPI library's collective,
//     against the library's choice (as `automatic` runs it: the built-in rule, or a measured
//     choice): the side ahead of the other. Where neither is, `fastest` must still send the call
//     one way, and a verdict kept from one run would not survive the next: it takes the side that
//     loses less where it is wrong, the one whose worst timing is better (vendor where the largest
//     of the timings' median ratios vendor ÷ library is below the largest library ÷ vendor; on a
//     tie the library). Such a size may go either way in another tuning run, but only between two
//     sides that each timing puts close, or one timing puts each ahead: whichever it takes, it is
//     never behind by more than the other side would be in its worst timing.
//   - The barrier keeps the built-in rule's choice in both sections (why_barrier below).
// Every point says which and why ("by"), with the ratios per timing and the noise; every range
// says why ("why"): colltune starts a new range where the verdict or its reason changes.
// Each point also keeps what the table showed before: the chosen algorithm's least median over the
// synchronized runs with their spread, the runner-up and the margin.
// gatherv, scatterv and alltoallv have no per-size choice (every rank must decide alike, and their
// counts are not known alike): from the runs timed as applications see calls, one range over every
// size per process count, decided by the same rule as a size, each such run giving one ratio: the
// geometric mean over the sizes of vendor's time ÷ the library's.
//
// Usage: colltune --out table.json [--options "collbench options"] [--command "how it was run"]
//                 run1.json run2.json ...   (synchronized, back-to-back and imb runs, in any order)
//        colltune --out table.json --model PLATFORM.xml [--np 16 32 …] [--min-bytes 8]
//                 [--max-bytes 16777216] [--step 2] [-c allreduce,…]   (no runs: priced schedules)

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <collectives/tuning.hpp>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>
#include <tuple>

#include "cli11.hpp"
#include "measure/median.hpp"
#include "measure/metrics.hpp"
#include "report/output.hpp"
#include "model/price.hpp"
#include "model/simgrid_platform.hpp"
#include "measure/types.hpp"

namespace collbench {
namespace {

using json = nlohmann::json;

constexpr double noise_floor = 0.03;

// The timings, in the order a point shows its times: what an application sees first.
const std::vector<std::string> timings{"imb", "back-to-back", "synchronized"};

// The algorithms automatic may choose: the library's flat ones.
bool tabled(const std::string& label) {
  return !label.starts_with("vendor") && label != "automatic" && label != "hierarchical" &&
         label != "served" && label != "pmpi";
}

// gatherv, scatterv and alltoallv: automatic cannot choose by size (tuning.hpp), so no entry.
bool by_size(collectives::collective c) {
  return c != collectives::collective::gatherv && c != collectives::collective::scatterv &&
         c != collectives::collective::alltoallv;
}

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

side row_of(const std::string& label) {
  return [label](const observation& o) -> std::optional<double> {
    const auto it = o.us.find(label);
    if (it == o.us.end()) return std::nullopt;
    return it->second;
  };
}

// Side a against side b over every run and timing that measured both: the ratios a ÷ b per timing,
// one per run; each timing's median ratio and its noise, the most one of its runs' ratios moved from
// that median (the floor at least); a is ahead where every ratio × (1 + floor) is below 1 and, in
// every timing, its median × (1 + its noise) too; b where every ratio is above 1 + floor and every
// timing's median above 1 + its noise; neither where a timing measured one side only (it cannot
// agree: `unpaired`).
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
  bool a_ahead() const {
    return count > 0 && unpaired.empty() && most * (1 + noise_floor) < 1 &&
           std::all_of(timings.begin(), timings.end(),
                       [](const auto& t) { return t.second.median * (1 + t.second.noise) < 1; });
  }
  bool b_ahead() const {
    return count > 0 && unpaired.empty() && least > 1 + noise_floor &&
           std::all_of(timings.begin(), timings.end(),
                       [](const auto& t) { return t.second.median > 1 + t.second.noise; });
  }
  // Each side's worst timing: a's largest median ratio a ÷ b, and b's largest b ÷ a (the inverse of
  // the least). Where neither side is ahead, the one whose worst timing is better loses less where
  // the verdict is wrong.
  std::pair<double, double> worst_timings() const {
    double most = 0, least = HUGE_VAL;
    for (const auto& [t, v] : timings) most = std::max(most, v.median), least = std::min(least, v.median);
    return {most, 1 / least};
  }
  json to_json() const {
    json r = json::object();
    for (const auto& [t, v] : timings) r[t] = v.ratios;
    return r;
  }
  // "0.812–0.874 over 9 runs in 3 timings; median, noise: back-to-back 0.840, 4%; imb …", and any
  // timing that measured one side only
  std::string summary() const {
    std::string s = fmt::format("{:.3f}–{:.3f} over {} run{} in {} timing{}; median, noise:", least, most, count,
                                count == 1 ? "" : "s", timings.size(), timings.size() == 1 ? "" : "s");
    const char* separator = " ";
    for (const auto& [t, v] : timings) {
      s += fmt::format("{}{} {:.3f}, {:.0f}%", separator, t, v.median, v.noise * 100);
      separator = "; ";
    }
    for (const std::string& t : unpaired) s += fmt::format("; {}: one side only", t);
    return s;
  }
};

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

// The barrier stays the built-in rule's choice, in both sections: every call timed as applications
// see calls (back to back, and as IMB times) starts from a barrier, and the order in which the
// ranks leave it decides who waits in the call after it. A table that changed the barrier would
// change what its own measurements of every other collective mean, and what IMB then measures
// (docs/tuning.md, "The barrier"). Its rows are still measured and shown.
const char* const why_barrier =
    "rule: the barrier stays the built-in rule's choice; the calls timed as applications see them start "
    "from it, so the table keeps the barrier they were measured after";

const char* const why_barrier_library =
    "library: the barrier stays automatic's; the calls timed as applications see them start from it";

struct point {
  std::size_t bytes = 0;
  std::string chosen, by, runner_up, rule;
  bool by_rule = false;  // the built-in rule's choice, kept because nothing was ahead of it
  double chosen_us = 0, runner_up_us = 0, spread = 0;
  std::string contender;  // the algorithm set against the rule's choice: the chosen one, or the closest
  agreement against_rule;
};

// One size: the choice by the verdict rule at the top. `algs`: each algorithm's least median over
// the synchronized runs; `obs`: every run of every timing at this size.
point choose(std::size_t bytes, const std::map<std::string, sample>& algs, const observations& obs,
             const std::string& rule, const std::string& previous, bool keep_rule) {
  point p;
  p.bytes = bytes;
  p.chosen = p.rule = rule;
  if (keep_rule) {
    p.by_rule = true;
    p.by = why_barrier;
  } else if (!algs.contains(rule)) {
    // The rule's choice was not measured (runs limited by -a): nothing can be shown ahead of it.
    p.by_rule = true;
    p.by = "rule: the built-in rule's choice was not measured, so no algorithm can be shown ahead of it";
  } else {
    struct rival {
      std::string name;
      agreement g;
    };
    std::vector<rival> rivals;
    for (const auto& [name, s] : algs)
      if (name != rule) rivals.push_back({name, compare(obs, row_of(name), row_of(rule))});
    const rival* best = nullptr;     // ahead of the rule's choice, with the least worst ratio
    const rival* closest = nullptr;  // the least worst ratio of all
    for (const rival& r : rivals) {
      if (r.g.count == 0) continue;
      if (!closest || r.g.most < closest->g.most) closest = &r;
      if (r.g.a_ahead() && (!best || r.g.most < best->g.most)) best = &r;
    }
    if (best) {
      for (const rival& r : rivals)
        if (r.name == previous && r.g.a_ahead() && r.g.most <= best->g.most * (1 + noise_floor)) best = &r;
      p.chosen = best->name;
      p.contender = best->name;
      p.against_rule = best->g;
      p.by = fmt::format(
          "measurement: ahead of the built-in rule's choice ({}) in every run and timing by more than the "
          "noise ({} ÷ {}: {})",
          rule, best->name, rule, best->g.summary());
    } else {
      p.by_rule = true;
      if (closest) {
        p.contender = closest->name;
        p.against_rule = closest->g;
        p.by = fmt::format(
            "rule: no algorithm ahead of it in every run and timing by more than the noise (the closest, {} "
            "÷ {}: {})",
            closest->name, rule, closest->g.summary());
      } else {
        p.by = "rule: no other algorithm measured beside it";
      }
    }
  }
  const sample c = algs.contains(p.chosen) ? algs.at(p.chosen) : sample{};
  p.chosen_us = c.least_us;
  p.spread = c.spread();
  for (const auto& [name, s] : algs)
    if (name != p.chosen && (p.runner_up.empty() || s.least_us < p.runner_up_us))
      p.runner_up = name, p.runner_up_us = s.least_us;
  return p;
}

json point_json(const point& p) {
  json j = {
      {"bytes", p.bytes}, {"median_us", p.chosen_us}, {"spread", p.spread}, {"by", p.by}, {"rule", p.rule}};
  if (!p.runner_up.empty()) {
    j["runner_up"] = p.runner_up;
    j["runner_up_us"] = p.runner_up_us;
    j["margin"] = p.chosen_us > 0 ? p.runner_up_us / p.chosen_us - 1 : 0.0;
  }
  if (!p.contender.empty())
    j["against_rule"] = {
        {"contender", p.contender}, {"ratios", p.against_rule.to_json()}, {"noise", p.against_rule.noise}};
  return j;
}

// Consecutive sizes with one value of `field` and one reason form a range, which says why; a
// boundary lies at the geometric middle of the two measured sizes either side. The first range
// starts at 0, the last has no end.
json ranges_json(const std::vector<std::size_t>& bytes, const std::vector<std::string>& values,
                 const std::vector<std::string>& whys, const char* field, const std::vector<json>& points) {
  json out = json::array();
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i == 0 || values[i] != values[i - 1] || whys[i] != whys[i - 1]) {
      const std::size_t from = i == 0 ? 0
                                      : static_cast<std::size_t>(std::sqrt(static_cast<double>(bytes[i - 1]) *
                                                                           static_cast<double>(bytes[i]))) +
                                            1;
      if (!out.empty()) out.back()["max_bytes"] = from - 1;
      out.push_back({{"min_bytes", from},
                     {"max_bytes", nullptr},
                     {field, values[i]},
                     {"why", whys[i]},
                     {"points", json::array()}});
    }
    out.back()["points"].push_back(points[i]);
  }
  return out;
}

const char* const why_measured =
    "measured: ahead of the built-in rule's choice in every run and timing by more than the noise";
const char* const why_rule =
    "rule: the built-in rule's choice; no algorithm was ahead of it in every run and timing by more than the "
    "noise";
const char* const why_library = "library: ahead of vendor in every run and timing by more than the noise";
const char* const why_vendor_ahead =
    "vendor: ahead of the library in every run and timing by more than the noise";
const char* const why_library_kept =
    "library: as automatic; the library's choice was never measured beside vendor";
const char* const why_vendor_lesser =
    "vendor: neither side ahead in every run and timing by more than the noise; vendor's worst timing is "
    "better than the library's";
const char* const why_library_lesser =
    "library: neither side ahead in every run and timing by more than the noise; vendor's worst timing is "
    "no better than the library's";
const char* const why_unmeasured = "library: vendor not measured";

// The least medians of both sides in each timing, and the first timing (imb, back-to-back,
// synchronized) that measured both: the times a point shows.
struct shown {
  std::string timing;
  sample library, vendor;
};
std::optional<shown> times_to_show(const observations& obs, const side& library, const side& vendor) {
  for (const std::string& t : timings) {
    shown s{t, {}, {}};
    for (const observation& o : obs) {
      if (o.timing != t) continue;
      const std::optional<double> l = library(o), v = vendor(o);
      if (!l || !v) continue;
      s.library.add(*l);
      s.vendor.add(*v);
    }
    if (s.library.least_us > 0) return s;
  }
  return std::nullopt;
}

// The "fastest" verdict from g, vendor ÷ library: the side ahead of the other in every run and
// timing by more than the noise; where neither is, the side whose worst timing is better (the
// lesser loss where the verdict is wrong; on a tie, the library, as automatic).
std::pair<bool, const char*> vendor_or_library(const agreement& g) {
  if (g.a_ahead()) return {true, why_vendor_ahead};
  if (g.b_ahead()) return {false, why_library};
  if (const auto [vendor, library] = g.worst_timings(); vendor < library) return {true, why_vendor_lesser};
  return {false, why_library_lesser};
}

// One size of the "fastest" section: vendor ÷ library decided by vendor_or_library.
struct verdict {
  bool vendor = false;
  std::string why;
  json point;
};

verdict versus_vendor(std::size_t bytes, const std::string& chosen, const observations& obs,
                      const side& library) {
  const side vendor = row_of("vendor");
  json j = {{"bytes", bytes}, {"library", chosen}};
  const agreement g = compare(obs, vendor, library);  // vendor ÷ library
  if (g.count == 0 && !g.unpaired.empty() &&
      std::any_of(obs.begin(), obs.end(), [](const observation& o) { return o.us.contains("vendor"); })) {
    // Vendor measured, the library's choice never beside it: nothing shows vendor ahead.
    j["by"] = why_library_kept;
    return {false, why_library_kept, j};
  }
  if (g.count == 0) {
    j["by"] = why_unmeasured;
    if (const auto s = times_to_show(obs, library, library)) {
      j["library_us"] = s->library.least_us;
      j["library_spread"] = s->library.spread();
      j["timing"] = s->timing;
    }
    return {false, why_unmeasured, j};
  }
  const shown s = *times_to_show(obs, library, vendor);
  j["library_us"] = s.library.least_us;
  j["library_spread"] = s.library.spread();
  j["timing"] = s.timing;
  j["vendor_us"] = s.vendor.least_us;
  j["vendor_spread"] = s.vendor.spread();
  j["vendor_ratio"] = s.vendor.least_us / s.library.least_us;
  j["ratios"] = g.to_json();
  j["noise"] = g.noise;
  const auto [takes_vendor, why] = vendor_or_library(g);
  const auto [vendor_worst, library_worst] = g.worst_timings();
  j["by"] = fmt::format(
      "{} (vendor ÷ library: {}; worst timings: vendor ÷ library {:.3f}, library ÷ vendor {:.3f})", why,
      g.summary(), vendor_worst, library_worst);
  return {takes_vendor, why, j};
}

std::string now_utc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// --model: the table from priced schedules instead of runs (bench/model/price.hpp): at every process count
// and size, every algorithm automatic may choose is recorded and priced on the platform, and the
// least priced is chosen. No vendor section: the MPI library's collectives have no schedule here.
struct model_options {
  std::vector<std::string> platforms;
  std::string out, command;
  std::vector<int> ranks;
  std::size_t min_bytes = 8, max_bytes = std::size_t{16} << 20, step = 2;
  std::vector<std::string> collectives;
  unsigned threads = 2;
};

int run_model(const model_options& o) {
  const auto start = std::chrono::steady_clock::now();
  // Each process count on the smallest platform it fits (as scripts/mpirun/simulate chooses).
  std::vector<schedule::platform> nets;
  for (const std::string& file : o.platforms) nets.push_back(simgrid_platform(file));
  std::sort(nets.begin(), nets.end(), [](const auto& a, const auto& b) {
    return static_cast<long long>(a.hosts) * a.ranks_per_host < static_cast<long long>(b.hosts) * b.ranks_per_host;
  });
  const auto net_for = [&](int p) -> const schedule::platform& {
    for (const schedule::platform& net : nets)
      if (net.hosts == 0 || p <= static_cast<long long>(net.hosts) * net.ranks_per_host) return net;
    throw std::runtime_error(fmt::format("{} ranks fit none of the platforms given", p));
  };
  const std::size_t elem_size = 4;  // float sum, as collbench's default
  struct job {
    collectives::collective c;
    int p;
    message m;
    std::map<std::string, double> us;  // by algorithm
  };
  std::vector<job> jobs;
  for (collectives::collective c : collectives::all_collectives()) {
    const std::string name(to_string(c));
    if (!by_size(c) || (!o.collectives.empty() && std::find(o.collectives.begin(), o.collectives.end(),
                                                           name) == o.collectives.end()))
      continue;
    for (int p : o.ranks) {
      net_for(p);
      std::set<std::size_t> seen;
      for (std::size_t bytes = o.min_bytes; bytes <= o.max_bytes; bytes *= o.step)
        if (const auto m = shape(c, bytes, elem_size, p); m && seen.insert(m->bytes).second)
          jobs.push_back({c, p, *m, {}});
    }
  }
  // The calls priced on a few threads (recording and replay keep their state per thread).
  std::atomic<std::size_t> next{0}, priced{0};
  std::string failure;
  std::mutex failure_mutex;
  const auto work = [&] {
    for (std::size_t i; (i = next++) < jobs.size();) {
      job& j = jobs[i];
      for (collectives::algorithm a : collectives::algorithms_for(j.c)) {
        const std::string label(to_string(a));
        if (!tabled(label)) continue;
        try {
          const auto s = priced_seconds(j.c, label, j.p, j.m.call_count, elem_size, 0, 0, net_for(j.p));
          if (s) j.us[label] = *s * 1e6, ++priced;
        } catch (const std::exception& e) {
          const std::lock_guard lock(failure_mutex);
          failure = fmt::format("{} {} at p {}, {} B: {}", to_string(j.c), label, j.p, j.m.bytes, e.what());
        }
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(o.threads, 1U); ++t) threads.emplace_back(work);
  for (std::thread& t : threads) t.join();
  if (!failure.empty()) throw std::runtime_error(failure);

  json colls = json::object();
  std::size_t ranges = 0;
  for (std::size_t first = 0; first < jobs.size();) {
    std::size_t last = first;
    while (last < jobs.size() && jobs[last].c == jobs[first].c && jobs[last].p == jobs[first].p) ++last;
    std::vector<std::size_t> bytes;
    std::vector<std::string> chosen, whys;
    std::vector<json> points;
    for (std::size_t i = first; i < last; ++i) {
      const job& j = jobs[i];
      if (j.us.empty()) continue;
      std::vector<std::pair<double, std::string>> order;
      for (const auto& [label, us] : j.us) order.emplace_back(us, label);
      std::sort(order.begin(), order.end());
      json pt = {{"bytes", j.m.bytes}, {"median_us", order[0].first}, {"by", "model: the least priced"}};
      if (order.size() > 1)
        pt.update({{"runner_up", order[1].second},
                   {"runner_up_us", order[1].first},
                   {"margin", order[1].first / order[0].first - 1}});
      bytes.push_back(j.m.bytes);
      chosen.push_back(order[0].second);
      whys.emplace_back("model: the least priced of the algorithms automatic may choose");
      points.push_back(std::move(pt));
    }
    json r = ranges_json(bytes, chosen, whys, "algorithm", points);
    ranges += r.size();
    colls[std::string(to_string(jobs[first].c))][std::to_string(jobs[first].p)] = std::move(r);
    first = last;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<std::string> names, models;
  for (const schedule::platform& net : nets) names.push_back(net.name), models.push_back(describe(net));
  json table = {
      {"format", "collectives-tuning/1"},
      {"provenance",
       {{"host", fmt::format("{}", fmt::join(names, ", "))},
        {"mpi_library", "model (colltune --model): priced schedules, no MPI"},
        {"model", models},
        {"date", now_utc()},
        {"command", o.command},
        {"type", "float"},
        {"op", "sum"},
        {"timing", "model: the last rank's end, every rank starting together"},
        {"size_key",
         "bytes as collbench counts them: the vector (broadcast, reduce, allreduce, scan, exscan), the whole "
         "p-block array (scatter, gather, allgather, reduce_scatter, alltoall), the whole result or vector "
         "(allgatherv, reduce_scatterv), 0 (barrier)"},
        {"calls_priced", priced.load()},
        {"seconds", seconds}}},
      {"collectives", colls}};
  std::ofstream(o.out) << table.dump(1) << '\n';
  fmt::print(stderr, "colltune --model: {}: {} ranges, {} calls priced on {} in {:.1f} s\n", o.out, ranges,
             priced.load(), fmt::join(names, ", "), seconds);
  collectives::load_tuning(o.out);
  collectives::clear_tuning();
  return 0;
}

int run(int argc, char** argv) {
  CLI::App app{"colltune: the decision table of algorithm::automatic from repeated collbench JSON runs",
               "colltune"};
  std::string out, options, command;
  std::vector<std::string> inputs;
  app.add_option("--out", out, "Where to write the table (JSON)")->required();
  app.add_option("--options", options, "The collbench options of the runs, recorded in the table");
  app.add_option("--command", command, "The command that made the runs, recorded in the table");
  model_options model;
  app.add_option("--model", model.platforms,
                 "No runs: price every algorithm's schedule on these SimGrid platform files "
                 "(scripts/mpirun/platforms/; each process count on the smallest that fits it) and choose "
                 "the least priced")
      ->delimiter(',');
  app.add_option("--np", model.ranks, "--model: the process counts")->expected(1, -1);
  app.add_option("--min-bytes", model.min_bytes, "--model: the least size in bytes");
  app.add_option("--max-bytes", model.max_bytes, "--model: the largest size in bytes");
  app.add_option("--step", model.step, "--model: the factor between sizes")->check(CLI::Range(2, 1 << 20));
  app.add_option("-c,--collective", model.collectives, "--model: these collectives only")->delimiter(',');
  app.add_option("--threads", model.threads, "--model: threads pricing at once");
  app.add_option(
      "inputs", inputs,
      "collbench --format json files: repeated runs, any process counts, any timings (at least one "
      "synchronized); none with --model");
  CLI11_PARSE(app, argc, argv);
  if (!model.platforms.empty()) {
    if (model.ranks.empty()) model.ranks = {16, 32, 64, 128, 256, 512, 1024};
    model.out = out;
    model.command = command;
    return run_model(model);
  }
  if (inputs.empty()) throw std::runtime_error("no runs given (collbench JSON files), and no --model");

  // The built-in rule's choice is what the verdict rule keeps: never a table's.
  collectives::clear_tuning();

  std::vector<run_results> runs;
  for (const std::string& path : inputs) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(fmt::format("cannot read {}", path));
    runs.push_back(read_json(in));
  }
  const auto synchronized = [](const run_results& r) { return r.info.timing_mode == "synchronized"; };
  if (std::none_of(runs.begin(), runs.end(), synchronized))
    throw std::runtime_error(
        "no synchronized run: the choice among the library's algorithms needs synchronized runs (collbench "
        "--timing synchronized, the default); back-to-back and imb runs only confirm it");
  const run_info& first = std::find_if(runs.begin(), runs.end(), synchronized)->info;
  using key = std::pair<std::string, int>;  // (collective, p)
  // times: each library algorithm's medians over the synchronized runs; observations: every run of
  // every timing, row by row; unsized: the same for gatherv, scatterv and alltoallv.
  std::map<key, std::map<std::size_t, std::map<std::string, sample>>> times;
  std::map<key, std::map<std::size_t, std::map<std::size_t, observation>>> seen, unsized;
  // Runs per timing and p: of the runs of each collective at p, the most (a simulated tuning above 256
  // ranks runs each collective in a launch of its own: one run is then several files).
  std::map<std::string, std::map<int, int>> runs_per_p;
  std::map<std::tuple<std::string, std::string, int>, int> runs_per_collective;
  std::set<std::string> hosts, libraries, skipped, timings_seen;
  std::map<std::string, std::string> timing_words;
  bool through_dropin_any = false;
  for (std::size_t index = 0; index < runs.size(); ++index) {
    const run_results& r = runs[index];
    const std::string& mode = r.info.timing_mode;
    timings_seen.insert(mode);
    timing_words.emplace(mode, r.info.timing);
    std::set<std::string> collectives_of_run;
    for (const row& x : r.rows) collectives_of_run.insert(x.collective);
    for (const std::string& c : collectives_of_run) {
      const int n = ++runs_per_collective[{mode, c, r.info.ranks}];
      int& most = runs_per_p[mode][r.info.ranks];
      most = std::max(most, n);
    }
    hosts.insert(r.info.host);
    libraries.insert(r.info.mpi_library);
    if (r.info.type != first.type || r.info.op != first.op)
      throw std::runtime_error("the runs differ in element type or op: tune one kind of call at a time");
    // A run through the drop-in (tune.sh: LD_PRELOAD, *=automatic, -a library,pmpi) has a pmpi row:
    // the MPI library's collective. Its vendor row (MPI_*) is then the drop-in serving the table's
    // choice: the library's time as an application calling MPI sees it.
    const bool through_dropin =
        std::any_of(r.rows.begin(), r.rows.end(), [](const row& x) { return x.algorithm == "pmpi"; });
    through_dropin_any = through_dropin_any || (through_dropin && mode != "synchronized");
    for (row x : r.rows) {
      if (through_dropin)
        x.algorithm = x.algorithm == "pmpi" ? "vendor" : x.algorithm == "vendor" ? "served" : x.algorithm;
      const auto c = collectives::parse_collective(x.collective);
      const bool usable = x.algorithm == "vendor" || x.algorithm == "served" || x.algorithm == "automatic" ||
                          tabled(x.algorithm);
      if (!c || !usable || (x.wrong && *x.wrong > 0) || x.median_us <= 0) continue;
      const bool skewed_v =
          (*c == collectives::collective::allgatherv || *c == collectives::collective::reduce_scatterv) &&
          r.info.skew != 0;
      const key k{x.collective, x.ranks};
      if (!by_size(*c) || skewed_v) {
        skipped.insert(x.collective);
        if (!by_size(*c) && mode != "synchronized") {
          observation& o = unsized[k][x.bytes][index];
          o.timing = mode;
          o.run = index;
          o.us[x.algorithm] = x.median_us;
        }
        continue;
      }
      observation& o = seen[k][x.bytes][index];
      o.timing = mode;
      o.run = index;
      o.us[x.algorithm] = x.median_us;
      if (mode == "synchronized" && tabled(x.algorithm)) times[k][x.bytes][x.algorithm].add(x.median_us);
    }
  }
  const auto kind = parse_element_kind(first.type);
  if (!kind) throw std::runtime_error(fmt::format("unknown element type '{}'", first.type));
  const auto all_of = [](const std::map<std::size_t, observation>& by_run) {
    observations v;
    for (const auto& [i, o] : by_run) v.push_back(o);
    return v;
  };

  json colls = json::object(), fastest = json::object();
  std::size_t ranges = 0, by_rule = 0, sizes = 0, vendor_sizes = 0, disagreed = 0;
  std::vector<std::string> unsized_verdicts;  // "gatherv 4 vendor"
  for (const auto& [k, by_bytes] : times) {
    const auto& [name, p] = k;
    const collectives::collective c = *collectives::parse_collective(name);
    const bool barrier = c == collectives::collective::barrier;  // keeps the rule's choice (why_barrier)
    // The choice from every timing, and the one the synchronized runs alone make (tune.sh's first
    // pass: the table in force when the other timings were run, so what their "served" rows ran).
    std::vector<point> points, first_pass;
    for (const auto& [bytes, algs] : by_bytes) {
      const std::string rule(to_string(collectives::automatic_choice(
          {.coll = c, .p = p, .bytes = bytes, .elem_size = size_of(*kind), .commutative = true})));
      const observations all = all_of(seen.at(k).at(bytes));
      observations sync;
      std::copy_if(all.begin(), all.end(), std::back_inserter(sync),
                   [](const observation& o) { return o.timing == "synchronized"; });
      points.push_back(choose(bytes, algs, all, rule, points.empty() ? "" : points.back().chosen, barrier));
      first_pass.push_back(
          choose(bytes, algs, sync, rule, first_pass.empty() ? "" : first_pass.back().chosen, barrier));
      by_rule += points.back().by_rule;
    }
    sizes += points.size();
    std::vector<std::size_t> bytes;
    std::vector<std::string> chosen, whys, verdicts, verdict_whys;
    std::vector<json> point_jsons, verdict_jsons;
    bool any_vendor = false;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const point& pt = points[i];
      bytes.push_back(pt.bytes);
      chosen.push_back(pt.chosen);
      whys.emplace_back(barrier ? why_barrier : pt.by_rule ? why_rule : why_measured);
      point_jsons.push_back(point_json(pt));
      // The library's side: in a run through the drop-in, its MPI_* row where it served this choice,
      // else the choice's own row; in other runs the choice's own row, else automatic's where it ran it.
      const bool served_this = first_pass[i].chosen == pt.chosen;
      const side library = [&pt, served_this](const observation& o) -> std::optional<double> {
        if (served_this && o.us.contains("served")) return o.us.at("served");
        if (o.us.contains(pt.chosen)) return o.us.at(pt.chosen);
        if (served_this && o.timing != "synchronized" && o.us.contains("automatic"))
          return o.us.at("automatic");
        return std::nullopt;
      };
      const observations all = all_of(seen.at(k).at(pt.bytes));
      any_vendor = any_vendor || std::any_of(all.begin(), all.end(),
                                             [](const observation& o) { return o.us.contains("vendor"); });
      verdict d = versus_vendor(pt.bytes, pt.chosen, all, library);
      if (barrier) {  // the library's, as automatic: the barrier the other calls were measured after
        d.vendor = false;
        d.why = why_barrier_library;
        d.point["by"] = why_barrier_library;  // its "ratios" still show vendor ÷ library
      }
      verdicts.emplace_back(d.vendor ? "vendor" : "library");
      verdict_whys.push_back(d.why);
      verdict_jsons.push_back(d.point);
      vendor_sizes += d.vendor;
      disagreed += d.why == why_vendor_lesser || d.why == why_library_lesser;
    }
    json r = ranges_json(bytes, chosen, whys, "algorithm", point_jsons);
    ranges += r.size();
    colls[name][std::to_string(p)] = std::move(r);
    if (any_vendor)  // no vendor rows at all: no section, `fastest` = automatic
      fastest[name][std::to_string(p)] = ranges_json(bytes, verdicts, verdict_whys, "fastest", verdict_jsons);
  }

  for (const auto& [k, by_bytes] : unsized) {
    const auto& [name, p] = k;
    // The library's side: the drop-in's MPI_* row through the drop-in, else automatic's.
    const side library = [](const observation& o) -> std::optional<double> {
      if (o.us.contains("served")) return o.us.at("served");
      if (o.us.contains("automatic")) return o.us.at("automatic");
      return std::nullopt;
    };
    const side vendor = row_of("vendor");
    std::vector<std::size_t> bytes;
    std::vector<json> points;
    std::map<std::size_t, observation> per_run;  // each run: the geometric mean of vendor ÷ library
    std::map<std::size_t, std::pair<double, int>> logs;
    for (const auto& [size, by_run] : by_bytes) {
      const observations all = all_of(by_run);
      const auto s = times_to_show(all, library, vendor);
      if (!s) continue;
      for (const observation& o : all) {
        const std::optional<double> l = library(o), v = vendor(o);
        if (!l || !v) continue;
        logs[o.run].first += std::log(*v / *l);
        ++logs[o.run].second;
        per_run[o.run].timing = o.timing;
        per_run[o.run].run = o.run;
      }
      bytes.push_back(size);
      points.push_back({{"bytes", size},
                        {"library", "automatic"},
                        {"library_us", s->library.least_us},
                        {"library_spread", s->library.spread()},
                        {"vendor_us", s->vendor.least_us},
                        {"vendor_spread", s->vendor.spread()},
                        {"vendor_ratio", s->vendor.least_us / s->library.least_us},
                        {"timing", s->timing}});
    }
    if (points.empty()) continue;
    observations means;
    for (auto& [run, o] : per_run) {
      o.us["vendor"] = std::exp(logs[run].first / logs[run].second);
      o.us["library"] = 1;
      means.push_back(o);
    }
    const agreement g = compare(means, vendor, row_of("library"));
    const auto [takes_vendor, why] = vendor_or_library(g);
    for (json& pt : points)
      pt["by"] = fmt::format(
          "{}: one verdict for every size (counts are not known alike on every rank), from each run's "
          "geometric mean over the sizes of vendor ÷ library: {}",
          why, g.summary());
    unsized_verdicts.push_back(fmt::format("{} {} {}", name, p, takes_vendor ? "vendor" : "library"));
    const std::vector<std::string> verdicts(bytes.size(), takes_vendor ? "vendor" : "library");
    fastest[name][std::to_string(p)] =
        ranges_json(bytes, verdicts, std::vector<std::string>(bytes.size(), why), "fastest", points);
  }

  const auto per_p = [&](const std::string& mode) {
    json j = json::object();
    if (runs_per_p.contains(mode))
      for (const auto& [p, n] : runs_per_p.at(mode)) j[std::to_string(p)] = n;
    return j;
  };
  const auto joined = [](const auto& s) {
    std::string out;
    for (const std::string& x : s) out += (out.empty() ? "" : ", ") + x;
    return out;
  };
  std::vector<std::string> used;  // the timings given, in the order back-to-back, imb, synchronized
  for (const char* t : {"back-to-back", "imb", "synchronized"})
    if (timings_seen.contains(t)) used.emplace_back(t);
  std::string timing_detail;
  for (const std::string& t : used)
    if (t != "synchronized") timing_detail += fmt::format(" {}: {}.", t, timing_words.at(t));
  json table = {
      {"format", "collectives-tuning/1"},
      {"provenance",
       {{"host", joined(hosts)},
        {"mpi_library", joined(libraries)},
        {"date", now_utc()},
        {"collbench", first.version},
        {"collbench_options", options},
        {"command", command},
        {"runs", per_p("synchronized")},
        {"cores", first.cores},
        {"shm_copy", first.shm_copy.path},
        {"type", first.type},
        {"op", first.op},
        {"timing", first.timing},
        {"timings", joined(used)},
        {"not_tabled", joined(skipped)},
        {"size_key",
         "bytes as collbench counts them: the vector (broadcast, reduce, allreduce, scan, exscan), the whole "
         "p-block array (scatter, gather, allgather, reduce_scatter, alltoall), the whole result or vector "
         "(allgatherv, reduce_scatterv), 0 (barrier)"},
        {"noise_rule",
         fmt::format(
             "a verdict is kept only where every run of every timing agrees by more than the noise: per "
             "size, each run gives the ratio of the two sides' medians in that run; a timing's noise is how "
             "far one of its runs' ratios moved from the median ratio of its runs (most ÷ median − 1 or "
             "median ÷ least − 1), at least {:.0f}%; one side is ahead when every ratio, in every run and "
             "timing, is beyond 1 + {:.0f}% and every timing's median beyond 1 + that timing's noise. "
             "\"collectives\": an algorithm replaces the built-in rule's choice only where it is ahead of it "
             "(the one with the least worst ratio, or the previous size's if within {:.0f}% of that), else "
             "the rule's choice stays. Each range's \"why\" and each point's \"by\" say which; the least "
             "median over the synchronized runs is the time shown",
             noise_floor * 100, noise_floor * 100, noise_floor * 100)},
        {"fastest_rule",
         "per size, \"vendor\" (the MPI library's default collective) where it is ahead of the library's "
         "choice in every run and timing by more than the noise, \"library\" where the library is ahead so; "
         "where neither is, the side whose worst timing is better (each timing's median ratio of it to the "
         "other, the largest; on a tie the library, as automatic); gatherv, scatterv and alltoallv (no "
         "per-size choice: their counts are not known alike on every rank) get one range per process "
         "count, each run timed as applications see calls giving one ratio, the geometric mean over the "
         "sizes of vendor's time ÷ the library's, decided by the same rule; read by the drop-in's "
         "COLLECTIVES_ALGORITHMS=*=fastest only"},
        {"fastest_timing",
         fmt::format("{}: every timing given decides, and must agree{}.{}", joined(used),
                     through_dropin_any ? "; the runs other than synchronized went through the drop-in (the "
                                          "library's time is its MPI_* call serving the table's choice, "
                                          "vendor's PMPI_*)"
                                        : "",
                     timing_detail)},
        {"back_to_back_runs", per_p("back-to-back")},
        {"imb_runs", per_p("imb")}}},
      {"collectives", colls}};
  if (!fastest.empty()) table["fastest"] = std::move(fastest);
  std::ofstream(out) << table.dump(1) << '\n';
  fmt::print(
      stderr,
      "colltune: {}: {} ranges over {} sizes ({} kept the built-in rule's choice: nothing ahead of it "
      "in every run and timing); vendor at {} sizes; at {} sizes neither side was ahead in every run "
      "and timing (the side whose worst timing is better); timings: {}{}{}\n",
      out, ranges, sizes, by_rule, vendor_sizes, disagreed, joined(used),
      unsized_verdicts.empty() ? "" : "; one verdict for every size: ", fmt::join(unsized_verdicts, ", "));
  // What the library will load must load: the table checks itself.
  collectives::load_tuning(out);
  collectives::clear_tuning();
  return 0;
}

}  // namespace
}  // namespace collbench

int main(int argc, char** argv) {
  try {
    return collbench::run(argc, argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "colltune: {}\n", e.what());
    return 1;
  }
}
