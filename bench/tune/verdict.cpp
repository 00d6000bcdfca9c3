// SPDX-License-Identifier: BSD-3-Clause
// The verdict rule per cell (verdict.hpp): the choice against the built-in rule's, and vendor against
// the library.

#include "tune/verdict.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace collbench::tune {

bool tabled(const std::string& label) {
  return !label.starts_with("vendor") && label != "automatic" && label != "hierarchical" &&
         label != "served" && label != "pmpi";
}

// gatherv, scatterv and alltoallv: automatic cannot choose by size (tuning.hpp), so no entry.
bool by_size(collectives::collective c) {
  return c != collectives::collective::gatherv && c != collectives::collective::scatterv &&
         c != collectives::collective::alltoallv;
}

const char* const why_barrier =
    "rule: the barrier stays the built-in rule's choice; the calls timed as applications see them start "
    "from it, so the table keeps the barrier they were measured after";

const char* const why_barrier_library =
    "library: the barrier stays automatic's; the calls timed as applications see them start from it";

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

std::pair<bool, const char*> vendor_or_library(const agreement& g) {
  if (g.a_ahead()) return {true, why_vendor_ahead};
  if (g.b_ahead()) return {false, why_library};
  if (const auto [vendor, library] = g.worst_timings(); vendor < library) return {true, why_vendor_lesser};
  return {false, why_library_lesser};
}

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

}  // namespace collbench::tune
