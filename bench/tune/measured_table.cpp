// SPDX-License-Identifier: BSD-3-Clause
// colltune from stored runs (measured_table.hpp): the runs read and sorted by collective, process
// count and size, each size decided by the verdict rule, the table written with its provenance.

#include "tune/measured_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <collectives/tuning.hpp>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

#include "measure/types.hpp"
#include "report/output.hpp"
#include "tune/table_json.hpp"
#include "tune/verdict.hpp"

namespace collbench::tune {
namespace {

using key = std::pair<std::string, int>;  // (collective, p)
using by_run = std::map<std::size_t, observation>;

// times: each library algorithm's medians over the synchronized runs; seen: every run of every
// timing, row by row; unsized: the same for gatherv, scatterv and alltoallv.
struct gathered {
  std::map<key, std::map<std::size_t, std::map<std::string, sample>>> times;
  std::map<key, std::map<std::size_t, by_run>> seen, unsized;
  // Runs per timing and p: of the runs of each collective at p, the most (a simulated tuning above 256
  // ranks runs each collective in a launch of its own: one run is then several files).
  std::map<std::string, std::map<int, int>> runs_per_p;
  std::map<std::tuple<std::string, std::string, int>, int> runs_per_collective;
  std::set<std::string> hosts, libraries, skipped, timings_seen;
  std::map<std::string, std::string> timing_words;
  bool through_dropin_any = false;
};

// What the summary line counts.
struct counts {
  std::size_t ranges = 0, by_rule = 0, sizes = 0, vendor_sizes = 0, disagreed = 0;
  std::vector<std::string> unsized_verdicts;  // "gatherv 4 vendor"
};

std::vector<run_results> read_runs(const std::vector<std::string>& inputs) {
  std::vector<run_results> runs;
  for (const std::string& path : inputs) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(fmt::format("cannot read {}", path));
    runs.push_back(read_json(in));
  }
  return runs;
}

const run_info& first_synchronized(const std::vector<run_results>& runs) {
  const auto synchronized = [](const run_results& r) { return r.info.timing_mode == "synchronized"; };
  if (std::none_of(runs.begin(), runs.end(), synchronized))
    throw std::runtime_error(
        "no synchronized run: the choice among the library's algorithms needs synchronized runs (collbench "
        "--timing synchronized, the default); back-to-back and imb runs only confirm it");
  return std::find_if(runs.begin(), runs.end(), synchronized)->info;
}

void count_run(gathered& g, const run_results& r) {
  const std::string& mode = r.info.timing_mode;
  g.timings_seen.insert(mode);
  g.timing_words.emplace(mode, r.info.timing);
  std::set<std::string> collectives_of_run;
  for (const row& x : r.rows) collectives_of_run.insert(x.collective);
  for (const std::string& c : collectives_of_run) {
    const int n = ++g.runs_per_collective[{mode, c, r.info.ranks}];
    int& most = g.runs_per_p[mode][r.info.ranks];
    most = std::max(most, n);
  }
  g.hosts.insert(r.info.host);
  g.libraries.insert(r.info.mpi_library);
}

// Run `index`'s rows into g.
void add_rows(gathered& g, const run_results& r, std::size_t index) {
  const std::string& mode = r.info.timing_mode;
  // A run through the drop-in (tune.sh: LD_PRELOAD, *=automatic, -a library,pmpi) has a pmpi row:
  // the MPI library's collective. Its vendor row (MPI_*) is then the drop-in serving the table's
  // choice: the library's time as an application calling MPI sees it.
  const bool through_dropin =
      std::any_of(r.rows.begin(), r.rows.end(), [](const row& x) { return x.algorithm == "pmpi"; });
  g.through_dropin_any = g.through_dropin_any || (through_dropin && mode != "synchronized");
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
      g.skipped.insert(x.collective);
      if (!by_size(*c) && mode != "synchronized") {
        observation& o = g.unsized[k][x.bytes][index];
        o.timing = mode;
        o.run = index;
        o.us[x.algorithm] = x.median_us;
      }
      continue;
    }
    observation& o = g.seen[k][x.bytes][index];
    o.timing = mode;
    o.run = index;
    o.us[x.algorithm] = x.median_us;
    if (mode == "synchronized" && tabled(x.algorithm)) g.times[k][x.bytes][x.algorithm].add(x.median_us);
  }
}

gathered gather(const std::vector<run_results>& runs, const run_info& first) {
  gathered g;
  for (std::size_t index = 0; index < runs.size(); ++index) {
    const run_results& r = runs[index];
    count_run(g, r);
    if (r.info.type != first.type || r.info.op != first.op)
      throw std::runtime_error("the runs differ in element type or op: tune one kind of call at a time");
    add_rows(g, r, index);
  }
  return g;
}

observations all_of(const by_run& runs) {
  observations v;
  for (const auto& [i, o] : runs) v.push_back(o);
  return v;
}

// The choice at every size of one collective and p from every timing, and the one the synchronized
// runs alone make (tune.sh's first pass: the table in force when the other timings were run, so what
// their "served" rows ran).
std::pair<std::vector<point>, std::vector<point>> choices(
    const key& k, const std::map<std::size_t, std::map<std::string, sample>>& by_bytes, const gathered& g,
    std::size_t elem_size, counts& n) {
  const collectives::collective c = *collectives::parse_collective(k.first);
  const bool barrier = c == collectives::collective::barrier;  // keeps the rule's choice (why_barrier)
  std::vector<point> points, first_pass;
  for (const auto& [bytes, algs] : by_bytes) {
    const std::string rule(to_string(collectives::automatic_choice(
        {.coll = c, .p = k.second, .bytes = bytes, .elem_size = elem_size, .commutative = true})));
    const observations all = all_of(g.seen.at(k).at(bytes));
    observations sync;
    std::copy_if(all.begin(), all.end(), std::back_inserter(sync),
                 [](const observation& o) { return o.timing == "synchronized"; });
    points.push_back(choose(bytes, algs, all, rule, points.empty() ? "" : points.back().chosen, barrier));
    first_pass.push_back(
        choose(bytes, algs, sync, rule, first_pass.empty() ? "" : first_pass.back().chosen, barrier));
    n.by_rule += points.back().by_rule;
  }
  n.sizes += points.size();
  return {points, first_pass};
}

// One collective and p with a choice per size: its "collectives" ranges, and its "fastest" ranges
// where vendor was measured.
void decide_sized(const key& k, const std::map<std::size_t, std::map<std::string, sample>>& by_bytes,
                  const gathered& g, std::size_t elem_size, json& colls, json& fastest, counts& n) {
  const bool barrier = *collectives::parse_collective(k.first) == collectives::collective::barrier;
  const auto [points, first_pass] = choices(k, by_bytes, g, elem_size, n);
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
    const observations all = all_of(g.seen.at(k).at(pt.bytes));
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
    n.vendor_sizes += d.vendor;
    n.disagreed += d.why == why_vendor_lesser || d.why == why_library_lesser;
  }
  json r = ranges_json(bytes, chosen, whys, "algorithm", point_jsons);
  n.ranges += r.size();
  colls[k.first][std::to_string(k.second)] = std::move(r);
  if (any_vendor)  // no vendor rows at all: no section, `fastest` = automatic
    fastest[k.first][std::to_string(k.second)] =
        ranges_json(bytes, verdicts, verdict_whys, "fastest", verdict_jsons);
}

// One of gatherv, scatterv and alltoallv at one p: one verdict for every size, from each run's
// geometric mean over the sizes of vendor ÷ library.
void decide_unsized(const key& k, const std::map<std::size_t, by_run>& by_bytes, json& fastest, counts& n) {
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
  for (const auto& [size, runs] : by_bytes) {
    const observations all = all_of(runs);
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
  if (points.empty()) return;
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
  n.unsized_verdicts.push_back(fmt::format("{} {} {}", name, p, takes_vendor ? "vendor" : "library"));
  const std::vector<std::string> verdicts(bytes.size(), takes_vendor ? "vendor" : "library");
  fastest[name][std::to_string(p)] =
      ranges_json(bytes, verdicts, std::vector<std::string>(bytes.size(), why), "fastest", points);
}

std::string joined(const std::set<std::string>& s) {
  std::string out;
  for (const std::string& x : s) out += (out.empty() ? "" : ", ") + x;
  return out;
}

std::string joined(const std::vector<std::string>& s) { return fmt::format("{}", fmt::join(s, ", ")); }

const char* const fastest_rule =
    "per size, \"vendor\" (the MPI library's default collective) where it is ahead of the library's "
    "choice in every run and timing by more than the noise, \"library\" where the library is ahead so; "
    "where neither is, the side whose worst timing is better (each timing's median ratio of it to the "
    "other, the largest; on a tie the library, as automatic); gatherv, scatterv and alltoallv (no "
    "per-size choice: their counts are not known alike on every rank) get one range per process "
    "count, each run timed as applications see calls giving one ratio, the geometric mean over the "
    "sizes of vendor's time ÷ the library's, decided by the same rule; read by the drop-in's "
    "COLLECTIVES_ALGORITHMS=*=fastest only";

std::string noise_rule() {
  return fmt::format(
      "a verdict is kept only where every run of every timing agrees by more than the noise: per "
      "size, each run gives the ratio of the two sides' medians in that run; a timing's noise is how "
      "far one of its runs' ratios moved from the median ratio of its runs (most ÷ median − 1 or "
      "median ÷ least − 1), at least {:.0f}%; one side is ahead when every ratio, in every run and "
      "timing, is beyond 1 + {:.0f}% and every timing's median beyond 1 + that timing's noise. "
      "\"collectives\": an algorithm replaces the built-in rule's choice only where it is ahead of it "
      "(the one with the least worst ratio, or the previous size's if within {:.0f}% of that), else "
      "the rule's choice stays. Each range's \"why\" and each point's \"by\" say which; the least "
      "median over the synchronized runs is the time shown",
      noise_floor * 100, noise_floor * 100, noise_floor * 100);
}

// `used`: the timings given, in the order back-to-back, imb, synchronized.
json provenance(const gathered& g, const run_info& first, const measured_options& o,
                const std::vector<std::string>& used) {
  const auto per_p = [&](const std::string& mode) {
    json j = json::object();
    if (g.runs_per_p.contains(mode))
      for (const auto& [p, n] : g.runs_per_p.at(mode)) j[std::to_string(p)] = n;
    return j;
  };
  std::string timing_detail;
  for (const std::string& t : used)
    if (t != "synchronized") timing_detail += fmt::format(" {}: {}.", t, g.timing_words.at(t));
  return {
      {"host", joined(g.hosts)},
      {"mpi_library", joined(g.libraries)},
      {"date", now_utc()},
      {"collbench", first.version},
      {"collbench_options", o.options},
      {"command", o.command},
      {"runs", per_p("synchronized")},
      {"cores", first.cores},
      {"shm_copy", first.shm_copy.path},
      {"type", first.type},
      {"op", first.op},
      {"timing", first.timing},
      {"timings", joined(used)},
      {"not_tabled", joined(g.skipped)},
      {"size_key", size_key},
      {"noise_rule", noise_rule()},
      {"fastest_rule", fastest_rule},
      {"fastest_timing",
       fmt::format("{}: every timing given decides, and must agree{}.{}", joined(used),
                   g.through_dropin_any ? "; the runs other than synchronized went through the drop-in (the "
                                          "library's time is its MPI_* call serving the table's choice, "
                                          "vendor's PMPI_*)"
                                        : "",
                   timing_detail)},
      {"back_to_back_runs", per_p("back-to-back")},
      {"imb_runs", per_p("imb")}};
}

}  // namespace

void write_measured_table(const measured_options& o) {
  if (o.inputs.empty()) throw std::runtime_error("no runs given (collbench JSON files), and no --model");
  // The built-in rule's choice is what the verdict rule keeps: never a table's.
  collectives::clear_tuning();
  const std::vector<run_results> runs = read_runs(o.inputs);
  const run_info& first = first_synchronized(runs);
  const gathered g = gather(runs, first);
  const auto kind = parse_element_kind(first.type);
  if (!kind) throw std::runtime_error(fmt::format("unknown element type '{}'", first.type));

  json colls = json::object(), fastest = json::object();
  counts n;
  for (const auto& [k, by_bytes] : g.times) decide_sized(k, by_bytes, g, size_of(*kind), colls, fastest, n);
  for (const auto& [k, by_bytes] : g.unsized) decide_unsized(k, by_bytes, fastest, n);

  std::vector<std::string> used;
  for (const char* t : {"back-to-back", "imb", "synchronized"})
    if (g.timings_seen.contains(t)) used.emplace_back(t);
  json table = {{"format", "collectives-tuning/1"},
                {"provenance", provenance(g, first, o, used)},
                {"collectives", colls}};
  if (!fastest.empty()) table["fastest"] = std::move(fastest);
  write_checked(
      o.out, table,
      fmt::format(
          "colltune: {}: {} ranges over {} sizes ({} kept the built-in rule's choice: nothing ahead of it "
          "in every run and timing); vendor at {} sizes; at {} sizes neither side was ahead in every run "
          "and timing (the side whose worst timing is better); timings: {}{}{}\n",
          o.out, n.ranges, n.sizes, n.by_rule, n.vendor_sizes, n.disagreed, joined(used),
          n.unsized_verdicts.empty() ? "" : "; one verdict for every size: ",
          fmt::join(n.unsized_verdicts, ", ")));
}

}  // namespace collbench::tune
