// SPDX-License-Identifier: BSD-3-Clause
// colltune: turns repeated collbench runs (JSON, --algorithm library, any process counts) into the
// decision table that algorithm::automatic follows (collectives::load_tuning, COLLECTIVES_TUNING),
// with vendor's times beside it for the drop-in's `fastest`.
// scripts/mpirun/tune.sh runs collbench and then this; the table's schema is in docs/tuning.md.
//
// Per collective, process count and size, each library algorithm's time is the least of its
// medians over the runs (the run least disturbed by other work). Noise rule: the candidates are
// the algorithms within 3% of the fastest's time; among them the built-in rule's choice is kept if
// it is one, else the choice at the previous size if it is one (fewer, wider ranges), else the
// fastest. The spread of the medians, (largest − least) ÷ least, is recorded but does not widen
// the 3%: one disturbed run makes it large (tens of % at np 4 on 2 cores), and letting it widen
// the candidates kept the rule's choice where the least times said 20–45% slower; the least of
// three medians is what stays stable between runs (figures:
// docs/measurements/2026-11-26-noise-rule.md). Every
// size records the chosen algorithm's time, its spread, the runner-up (the fastest other
// algorithm) and its margin.
//
// Vendor (the MPI library's default collective, every collbench run's first row) is timed the same
// way and recorded in the table's "fastest" section, which only the drop-in's `fastest` selection
// reads (automatic never chooses vendor): per size, vendor is the fastest only when it is clear of
// the noise, i.e. its time × 1.03 is still below the library choice's time, both the least of their
// medians; otherwise the library keeps the size. The spreads are recorded but, as for the library's
// candidates, do not widen the 3%: one disturbed run would hand the size to whichever side it hit.
//
// Two timings (collbench --timing): the choice among the library's algorithms comes from the
// synchronized runs (every call from a common start: each algorithm's own time). The comparison
// with vendor comes from the back-to-back runs when there are any (batches of calls one after the
// other, as an application issues them, where vendor's rooted collectives gain by running ahead and
// overlapping calls: what the drop-in's user sees); there the library's time is the chosen
// algorithm's row if the runs measured it, else their "automatic" row (tune.sh's back-to-back runs
// measure automatic with the table of the synchronized runs in force, so it runs the choice).
// tune.sh makes its back-to-back runs through the drop-in (-a pmpi with LD_PRELOAD and *=automatic):
// there the library's time is the drop-in's MPI_* row, what it costs to serve a call through MPI,
// and vendor's is the pmpi row (PMPI_*); a run without a pmpi row is read as collbench labels it.
// Without back-to-back runs, the synchronized ones decide, as before. Each "fastest" point says which
// timing decided it, and keeps the other's vendor ratio beside it when both were measured.
// gatherv, scatterv and alltoallv have no per-size choice (every rank must decide alike, and their
// counts are not known alike): from back-to-back runs, their "fastest" section is one range over
// every size per process count, vendor when the geometric mean over the sizes of vendor's time ÷
// automatic's is below 1 / (1 + 3%), else library; each point keeps its own times and ratio.
//
// Usage: colltune --out table.json [--options "collbench options"] [--command "how it was run"]
//                 run1.json run2.json ...   (synchronized and back-to-back runs, in any order)

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <collectives/tuning.hpp>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "cli11.hpp"
#include "output.hpp"
#include "types.hpp"

namespace collbench {
namespace {

using json = nlohmann::json;

constexpr double noise_floor = 0.03;

// The algorithms automatic may choose: the library's flat ones.
bool tabled(const std::string& label) {
  return !label.starts_with("vendor") && label != "automatic" && label != "hierarchical";
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

struct point {
  std::size_t bytes;
  std::string chosen, by, runner_up;
  double chosen_us = 0, runner_up_us = 0, spread = 0;
};

// One size: the choice by the noise rule above.
point choose(std::size_t bytes, const std::map<std::string, sample>& algs, const std::string& rule,
             const std::string& previous) {
  auto fastest = algs.begin();
  for (auto it = algs.begin(); it != algs.end(); ++it)
    if (it->second.least_us < fastest->second.least_us) fastest = it;
  const auto within_noise = [&](const std::string& a) {
    const auto it = algs.find(a);
    if (it == algs.end()) return false;
    return it->second.least_us <= fastest->second.least_us * (1 + noise_floor);
  };
  point p{bytes, fastest->first, "measurement", "", 0, 0, 0};
  if (rule != fastest->first && within_noise(rule))
    p.chosen = rule, p.by = "rule (within noise)";
  else if (!previous.empty() && previous != fastest->first && previous != rule && within_noise(previous))
    p.chosen = previous, p.by = "previous size (within noise)";
  const sample& c = algs.at(p.chosen);
  p.chosen_us = c.least_us;
  p.spread = c.spread();
  for (const auto& [name, s] : algs)
    if (name != p.chosen && (p.runner_up.empty() || s.least_us < p.runner_up_us))
      p.runner_up = name, p.runner_up_us = s.least_us;
  return p;
}

json point_json(const point& p) {
  json j = {{"bytes", p.bytes}, {"median_us", p.chosen_us}, {"spread", p.spread}, {"by", p.by}};
  if (!p.runner_up.empty()) {
    j["runner_up"] = p.runner_up;
    j["runner_up_us"] = p.runner_up_us;
    j["margin"] = p.chosen_us > 0 ? p.runner_up_us / p.chosen_us - 1 : 0.0;
  }
  return j;
}

// Consecutive sizes with one value of `field` form a range; a boundary lies at the geometric
// middle of the two measured sizes either side. The first range starts at 0, the last has no end.
json ranges_json(const std::vector<std::size_t>& bytes, const std::vector<std::string>& values,
                 const char* field, const std::vector<json>& points) {
  json out = json::array();
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i == 0 || values[i] != values[i - 1]) {
      const std::size_t from = i == 0 ? 0
                                      : static_cast<std::size_t>(std::sqrt(static_cast<double>(bytes[i - 1]) *
                                                                           static_cast<double>(bytes[i]))) +
                                            1;
      if (!out.empty()) out.back()["max_bytes"] = from - 1;
      out.push_back(
          {{"min_bytes", from}, {"max_bytes", nullptr}, {field, values[i]}, {"points", json::array()}});
    }
    out.back()["points"].push_back(points[i]);
  }
  return out;
}

// One size of the "fastest" section: vendor or the library's choice, by the rule at the top.
struct verdict {
  bool vendor = false;
  json point;
};

// The two sides of one size in one timing: the library's (its choice, or the row that ran it) and
// vendor's.
struct pairing {
  std::string timing;  // "synchronized" or "back-to-back"
  sample library;
  std::optional<sample> vendor;
};

verdict versus_vendor(const point& library, const pairing& decisive, const std::optional<pairing>& other) {
  json j = {{"bytes", library.bytes},
            {"library", library.chosen},
            {"library_us", decisive.library.least_us},
            {"library_spread", decisive.library.spread()},
            {"timing", decisive.timing}};
  const auto ratio = [](const pairing& x) {
    return x.library.least_us > 0 ? x.vendor->least_us / x.library.least_us : 0.0;
  };
  if (other && other->vendor)
    j[other->timing == "synchronized" ? "synchronized_vendor_ratio" : "back_to_back_vendor_ratio"] =
        ratio(*other);
  if (!decisive.vendor) {
    j["by"] = "library: vendor not measured";
    return {false, j};
  }
  const sample& vendor = *decisive.vendor;
  const double lib = decisive.library.least_us;
  const bool faster = vendor.least_us * (1 + noise_floor) < lib;
  j["vendor_us"] = vendor.least_us;
  j["vendor_spread"] = vendor.spread();
  j["vendor_ratio"] = ratio(decisive);
  j["by"] = faster                  ? "vendor: faster beyond the noise"
            : vendor.least_us < lib ? "library: vendor faster within the noise"
                                    : "library: faster";
  return {faster, j};
}

std::string now_utc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

int run(int argc, char** argv) {
  CLI::App app{"colltune: the decision table of algorithm::automatic from repeated collbench JSON runs",
               "colltune"};
  std::string out, options, command;
  std::vector<std::string> inputs;
  app.add_option("--out", out, "Where to write the table (JSON)")->required();
  app.add_option("--options", options, "The collbench options of the runs, recorded in the table");
  app.add_option("--command", command, "The command that made the runs, recorded in the table");
  app.add_option("inputs", inputs, "collbench --format json files: repeated runs, any process counts")
      ->required();
  CLI11_PARSE(app, argc, argv);

  // The built-in rule's choice is what the noise rule keeps: never a table's.
  collectives::clear_tuning();

  std::vector<run_results> runs;
  for (const std::string& path : inputs) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(fmt::format("cannot read {}", path));
    runs.push_back(read_json(in));
  }
  const auto is_b2b = [](const run_results& r) { return r.info.timing_mode == "back-to-back"; };
  if (std::all_of(runs.begin(), runs.end(), is_b2b))
    throw std::runtime_error(
        "every run is back to back: the choice among the library's algorithms needs "
        "synchronized runs (collbench --timing synchronized, the default)");
  const run_info& first = std::find_if_not(runs.begin(), runs.end(), is_b2b)->info;
  // (collective, p) → bytes → algorithm → times over the runs; and vendor's. Back-to-back runs fill
  // b2b (every label, vendor and automatic included), the synchronized ones the others.
  // unsized: the back-to-back vendor and automatic rows of the collectives without a per-size choice.
  std::map<std::pair<std::string, int>, std::map<std::size_t, std::map<std::string, sample>>> times, b2b,
      unsized;
  std::map<std::pair<std::string, int>, std::map<std::size_t, sample>> vendor;
  // Runs per p: of the runs of each collective at p, the most (a simulated tuning above 256 ranks
  // runs each collective in a launch of its own: one run is then several files).
  std::map<int, int> runs_per_p, b2b_runs_per_p;
  std::map<std::pair<std::string, int>, int> runs_per_collective, b2b_runs_per_collective;
  std::set<std::string> hosts, libraries, skipped;
  std::string b2b_timing;
  bool b2b_through_dropin = false;
  for (const run_results& r : runs) {
    const bool back_to_back = is_b2b(r);
    if (back_to_back && b2b_timing.empty()) b2b_timing = r.info.timing;
    std::set<std::string> collectives_of_run;
    for (const row& x : r.rows) collectives_of_run.insert(x.collective);
    for (const std::string& c : collectives_of_run) {
      const int n = ++(back_to_back ? b2b_runs_per_collective : runs_per_collective)[{c, r.info.ranks}];
      int& most = (back_to_back ? b2b_runs_per_p : runs_per_p)[r.info.ranks];
      most = std::max(most, n);
    }
    hosts.insert(r.info.host);
    libraries.insert(r.info.mpi_library);
    if (r.info.type != first.type || r.info.op != first.op)
      throw std::runtime_error("the runs differ in element type or op: tune one kind of call at a time");
    // A back-to-back run through the drop-in (tune.sh: LD_PRELOAD, *=automatic, -a pmpi) has a pmpi
    // row: the MPI library's collective. Its vendor row (MPI_*) is then the drop-in serving the
    // library's choice: the library's time as an application calling MPI sees it.
    const bool through_dropin = back_to_back && std::any_of(r.rows.begin(), r.rows.end(), [](const row& x) {
                                  return x.algorithm == "pmpi";
                                });
    b2b_through_dropin = b2b_through_dropin || through_dropin;
    for (row x : r.rows) {
      if (through_dropin)
        x.algorithm = x.algorithm == "pmpi" ? "vendor" : x.algorithm == "vendor" ? "automatic" : "";
      const auto c = collectives::parse_collective(x.collective);
      const bool is_vendor = x.algorithm == "vendor";  // its default collective, not vendor:<name>
      const bool usable = is_vendor || tabled(x.algorithm) || (back_to_back && x.algorithm == "automatic");
      if (!c || !usable || (x.wrong && *x.wrong > 0) || x.median_us <= 0) continue;
      const bool skewed_v =
          (*c == collectives::collective::allgatherv || *c == collectives::collective::reduce_scatterv) &&
          r.info.skew != 0;
      if (!by_size(*c) || skewed_v) {
        skipped.insert(x.collective);
        if (!by_size(*c) && back_to_back && (is_vendor || x.algorithm == "automatic"))
          unsized[{x.collective, x.ranks}][x.bytes][x.algorithm].add(x.median_us);
        continue;
      }
      if (back_to_back)
        b2b[{x.collective, x.ranks}][x.bytes][x.algorithm].add(x.median_us);
      else if (is_vendor)
        vendor[{x.collective, x.ranks}][x.bytes].add(x.median_us);
      else
        times[{x.collective, x.ranks}][x.bytes][x.algorithm].add(x.median_us);
    }
  }
  const auto kind = parse_element_kind(first.type);
  if (!kind) throw std::runtime_error(fmt::format("unknown element type '{}'", first.type));

  json colls = json::object(), fastest = json::object();
  std::size_t ranges = 0, by_rule = 0, sizes = 0, vendor_sizes = 0, b2b_sizes = 0;
  std::vector<std::string> unsized_verdicts;  // "gatherv 4 vendor"
  for (const auto& [key, by_bytes] : times) {
    const auto& [name, p] = key;
    const collectives::collective c = *collectives::parse_collective(name);
    std::vector<point> points;
    for (const auto& [bytes, algs] : by_bytes) {
      const std::string rule(to_string(collectives::automatic_choice(
          {.coll = c, .p = p, .bytes = bytes, .elem_size = size_of(*kind), .commutative = true})));
      points.push_back(choose(bytes, algs, rule, points.empty() ? "" : points.back().chosen));
      by_rule += points.back().by.starts_with("rule");
    }
    sizes += points.size();
    std::vector<std::size_t> bytes;
    std::vector<std::string> chosen, verdicts;
    std::vector<json> point_jsons, verdict_jsons;
    const auto v = vendor.find(key);
    const auto b = b2b.find(key);
    for (const point& pt : points) {
      bytes.push_back(pt.bytes);
      chosen.push_back(pt.chosen);
      point_jsons.push_back(point_json(pt));
      pairing sync{"synchronized", by_bytes.at(pt.bytes).at(pt.chosen), std::nullopt};
      if (v != vendor.end() && v->second.contains(pt.bytes)) sync.vendor = v->second.at(pt.bytes);
      // Back to back: the chosen algorithm's own row if measured, else automatic's (the choice).
      std::optional<pairing> back;
      if (b != b2b.end() && b->second.contains(pt.bytes)) {
        const std::map<std::string, sample>& rows = b->second.at(pt.bytes);
        const auto lib = rows.contains(pt.chosen) ? rows.find(pt.chosen) : rows.find("automatic");
        if (lib != rows.end()) {
          back = pairing{"back-to-back", lib->second, std::nullopt};
          if (rows.contains("vendor")) back->vendor = rows.at("vendor");
        }
      }
      const bool by_b2b = back && back->vendor;
      const verdict d = by_b2b ? versus_vendor(pt, *back, sync) : versus_vendor(pt, sync, back);
      b2b_sizes += by_b2b;
      verdicts.emplace_back(d.vendor ? "vendor" : "library");
      verdict_jsons.push_back(d.point);
      vendor_sizes += d.vendor;
    }
    json r = ranges_json(bytes, chosen, "algorithm", point_jsons);
    ranges += r.size();
    colls[name][std::to_string(p)] = std::move(r);
    if (v != vendor.end() || b != b2b.end())  // no vendor rows at all: no section, `fastest` = automatic
      fastest[name][std::to_string(p)] = ranges_json(bytes, verdicts, "fastest", verdict_jsons);
  }

  for (const auto& [key, by_bytes] : unsized) {
    const auto& [name, p] = key;
    std::vector<std::size_t> bytes;
    std::vector<json> points;
    double log_sum = 0;
    for (const auto& [size, rows] : by_bytes) {
      if (!rows.contains("vendor") || !rows.contains("automatic")) continue;
      const sample &vendor_sample = rows.at("vendor"), &library = rows.at("automatic");
      const double ratio = vendor_sample.least_us / library.least_us;
      log_sum += std::log(ratio);
      bytes.push_back(size);
      points.push_back({{"bytes", size},
                        {"library", "automatic"},
                        {"library_us", library.least_us},
                        {"library_spread", library.spread()},
                        {"vendor_us", vendor_sample.least_us},
                        {"vendor_spread", vendor_sample.spread()},
                        {"vendor_ratio", ratio},
                        {"timing", "back-to-back"}});
    }
    if (points.empty()) continue;
    const double mean_ratio = std::exp(log_sum / static_cast<double>(points.size()));
    const bool vendor_faster = mean_ratio * (1 + noise_floor) < 1;
    for (json& pt : points)
      pt["by"] = fmt::format(
          "{}: one verdict for every size (counts are not known alike on every rank): "
          "vendor ÷ library {:.3f} in geometric mean over the sizes",
          vendor_faster ? "vendor" : "library", mean_ratio);
    unsized_verdicts.push_back(fmt::format("{} {} {}", name, p, vendor_faster ? "vendor" : "library"));
    fastest[name][std::to_string(p)] =
        ranges_json(bytes, std::vector<std::string>(bytes.size(), vendor_faster ? "vendor" : "library"),
                    "fastest", points);
  }

  json runs_json = json::object(), b2b_runs_json = json::object();
  for (const auto& [p, n] : runs_per_p) runs_json[std::to_string(p)] = n;
  for (const auto& [p, n] : b2b_runs_per_p) b2b_runs_json[std::to_string(p)] = n;
  const auto joined = [](const std::set<std::string>& s) {
    std::string out;
    for (const std::string& x : s) out += (out.empty() ? "" : ", ") + x;
    return out;
  };
  json table = {
      {"format", "collectives-tuning/1"},
      {"provenance",
       {{"host", joined(hosts)},
        {"mpi_library", joined(libraries)},
        {"date", now_utc()},
        {"collbench", first.version},
        {"collbench_options", options},
        {"command", command},
        {"runs", runs_json},
        {"cores", first.cores},
        {"shm_copy", first.shm_copy.path},
        {"type", first.type},
        {"op", first.op},
        {"timing", first.timing},
        {"not_tabled", joined(skipped)},
        {"size_key",
         "bytes as collbench counts them: the vector (broadcast, reduce, allreduce, scan, exscan), the whole "
         "p-block array (scatter, gather, allgather, reduce_scatter, alltoall), the whole result or vector "
         "(allgatherv, reduce_scatterv), 0 (barrier)"},
        {"noise_rule",
         fmt::format("per size, an algorithm's time is the least of its medians over the runs; the "
                     "candidates are within {:.0f}% of the fastest; the built-in rule's choice is kept if a "
                     "candidate, else the previous size's, else the fastest",
                     noise_floor * 100)},
        {"fastest_rule",
         fmt::format(
             "per size, vendor (the MPI library's default collective) is timed as the algorithms are; "
             "the \"fastest\" section says vendor only where vendor's time (the least of its medians) × "
             "(1 + {:.0f}%) is below the library choice's, else library (what automatic runs); gatherv, "
             "scatterv and alltoallv (no per-size choice: their counts are not known alike on every rank) "
             "get one range per process count from the back-to-back runs, vendor where the geometric mean "
             "over the sizes of vendor's time ÷ automatic's × (1 + {:.0f}%) is below 1; read by the "
             "drop-in's COLLECTIVES_ALGORITHMS=*=fastest only",
             noise_floor * 100, noise_floor * 100)},
        {"fastest_timing",
         b2b_runs_per_p.empty()
             ? std::string("synchronized: the comparison with vendor is the synchronized runs' (no "
                           "back-to-back runs were given)")
             : fmt::format("back-to-back: the comparison with vendor is the back-to-back runs' (what an "
                           "application issuing calls one after another sees), the choice among the "
                           "library's algorithms the synchronized runs' (each algorithm's own time); each "
                           "\"fastest\" point's \"timing\" says which decided it{}. {}",
                           b2b_through_dropin
                               ? "; the back-to-back runs went through the drop-in (the library's "
                                 "time is its MPI_* call served with automatic, vendor's PMPI_*)"
                               : "",
                           b2b_timing)},
        {"back_to_back_runs", b2b_runs_json}}},
      {"collectives", colls}};
  if (!fastest.empty()) table["fastest"] = std::move(fastest);
  std::ofstream(out) << table.dump(1) << '\n';
  fmt::print(
      stderr,
      "colltune: {}: {} ranges over {} sizes ({} kept the rule's choice within noise); vendor clearly "
      "faster than the library's choice at {} of them ({} compared back to back){}{}\n",
      out, ranges, sizes, by_rule, vendor_sizes, b2b_sizes,
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
