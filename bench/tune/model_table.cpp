// SPDX-License-Identifier: BSD-3-Clause
// colltune --model (model_table.hpp): every call priced on a few threads, the least priced chosen.

#include "tune/model_table.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <span>
#include <stdexcept>
#include <thread>

#include "measure/metrics.hpp"
#include "measure/types.hpp"
#include "model/price.hpp"
#include "model/simgrid_platform.hpp"
#include "tune/table_json.hpp"
#include "tune/verdict.hpp"

namespace collbench::tune {
namespace {

constexpr std::size_t elem_size = 4;  // float sum, as collbench's default

// Each process count on the smallest platform it fits (as scripts/mpirun/simulate chooses).
struct platforms {
  std::vector<schedule::platform> nets;
  explicit platforms(const std::vector<std::string>& files) {
    for (const std::string& file : files) nets.push_back(simgrid_platform(file));
    std::sort(nets.begin(), nets.end(), [](const auto& a, const auto& b) {
      return static_cast<long long>(a.hosts) * a.ranks_per_host <
             static_cast<long long>(b.hosts) * b.ranks_per_host;
    });
  }
  const schedule::platform& for_ranks(int p) const {
    for (const schedule::platform& net : nets)
      if (net.hosts == 0 || p <= static_cast<long long>(net.hosts) * net.ranks_per_host) return net;
    throw std::runtime_error(fmt::format("{} ranks fit none of the platforms given", p));
  }
};

struct job {
  collectives::collective c;
  int p;
  message m;
  std::map<std::string, double> us;  // by algorithm
};

std::vector<job> jobs_of(const model_options& o, const platforms& nets) {
  std::vector<job> jobs;
  for (collectives::collective c : collectives::all_collectives()) {
    const std::string name(to_string(c));
    if (!by_size(c) || (!o.collectives.empty() &&
                        std::find(o.collectives.begin(), o.collectives.end(), name) == o.collectives.end()))
      continue;
    for (int p : o.ranks) {
      nets.for_ranks(p);
      std::set<std::size_t> seen;
      for (std::size_t bytes = o.min_bytes; bytes <= o.max_bytes; bytes *= o.step)
        if (const auto m = shape(c, bytes, elem_size, p); m && seen.insert(m->bytes).second)
          jobs.push_back({c, p, *m, {}});
    }
  }
  return jobs;
}

// The calls priced on a few threads (recording and replay keep their state per thread); the count
// of calls priced.
std::size_t price_all(std::vector<job>& jobs, const platforms& nets, unsigned threads_wanted) {
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
          const auto s =
              priced_seconds(j.c, label, j.p, j.m.call_count, elem_size, 0, 0, nets.for_ranks(j.p));
          if (s) j.us[label] = *s * 1e6, ++priced;
        } catch (const std::exception& e) {
          const std::lock_guard lock(failure_mutex);
          failure = fmt::format("{} {} at p {}, {} B: {}", to_string(j.c), label, j.p, j.m.bytes, e.what());
        }
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < std::max(threads_wanted, 1U); ++t) threads.emplace_back(work);
  for (std::thread& t : threads) t.join();
  if (!failure.empty()) throw std::runtime_error(failure);
  return priced.load();
}

// The ranges of one collective at one process count, jobs [first, last): the least priced.
json ranges_of(std::span<const job> jobs) {
  std::vector<std::size_t> bytes;
  std::vector<std::string> chosen, whys;
  std::vector<json> points;
  for (const job& j : jobs) {
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
  return ranges_json(bytes, chosen, whys, "algorithm", points);
}

}  // namespace

void write_model_table(const model_options& o) {
  const auto start = std::chrono::steady_clock::now();
  const platforms nets(o.platforms);
  std::vector<job> jobs = jobs_of(o, nets);
  const std::size_t priced = price_all(jobs, nets, o.threads);
  json colls = json::object();
  std::size_t ranges = 0;
  for (std::size_t first = 0; first < jobs.size();) {
    std::size_t last = first;
    while (last < jobs.size() && jobs[last].c == jobs[first].c && jobs[last].p == jobs[first].p) ++last;
    json r = ranges_of(std::span<const job>(jobs).subspan(first, last - first));
    ranges += r.size();
    colls[std::string(to_string(jobs[first].c))][std::to_string(jobs[first].p)] = std::move(r);
    first = last;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::vector<std::string> names, models;
  for (const schedule::platform& net : nets.nets) names.push_back(net.name), models.push_back(describe(net));
  json table = {{"format", "collectives-tuning/1"},
                {"provenance",
                 {{"host", fmt::format("{}", fmt::join(names, ", "))},
                  {"mpi_library", "model (colltune --model): priced schedules, no MPI"},
                  {"model", models},
                  {"date", now_utc()},
                  {"command", o.command},
                  {"type", "float"},
                  {"op", "sum"},
                  {"timing", "model: the last rank's end, every rank starting together"},
                  {"size_key", size_key},
                  {"calls_priced", priced},
                  {"seconds", seconds}}},
                {"collectives", colls}};
  write_checked(o.out, table,
                fmt::format("colltune --model: {}: {} ranges, {} calls priced on {} in {:.1f} s\n", o.out,
                            ranges, priced, fmt::join(names, ", "), seconds));
}

}  // namespace collbench::tune
