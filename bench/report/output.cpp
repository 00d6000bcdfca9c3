// SPDX-License-Identifier: BSD-3-Clause
#include "report/output.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <ostream>

#include "measure/metrics.hpp"
#include "measure/options.hpp"
#include "model/price.hpp"
#include "model/simgrid_platform.hpp"

namespace collbench {
namespace {

using nlohmann::json;

json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
json optional_json(const std::optional<long long>& v) { return v ? json(*v) : json(nullptr); }

json to_json(const std::vector<pingpong_point>& v, const char* key = "one_way_us") {
  json points = json::array();
  for (const pingpong_point& p : v) points.push_back({{"bytes", p.bytes}, {key, p.seconds * 1e6}});
  return points;
}

std::vector<pingpong_point> points_from_json(const json& j, const char* key = "one_way_us") {
  std::vector<pingpong_point> v;
  for (const json& p : j) v.push_back({p.at("bytes").get<std::size_t>(), p.at(key).get<double>() * 1e-6});
  return v;
}

json to_json(const machine& m) {
  return {{"alpha_us", m.alpha * 1e6},
          {"beta_GBps", m.beta > 0 ? 1e-9 / m.beta : 0.0},
          {"beta_clean_GBps", m.beta_clean > 0 ? 1e-9 / m.beta_clean : 0.0},
          {"gamma_GBps", m.gamma > 0 ? 1e-9 / m.gamma : 0.0},
          {"memcpy_GBps", m.memcpy_bandwidth / 1e9},
          {"pingpong", to_json(m.pingpong)},
          {"pingpong_clean", to_json(m.pingpong_clean)},
          {"copy", to_json(m.copy, "us")},
          {"reduce", to_json(m.reduce, "us")},
          {"exchange", to_json(m.exchange, "us")}};
}

machine machine_from_json(const json& j) {
  machine m;
  m.alpha = j.at("alpha_us").get<double>() * 1e-6;
  const double b = j.at("beta_GBps").get<double>(), g = j.at("gamma_GBps").get<double>();
  m.beta = b > 0 ? 1e-9 / b : 0.0;
  // Files from before the clean ping-pong have one β: it prices every message.
  const double c = j.value("beta_clean_GBps", b);
  m.beta_clean = c > 0 ? 1e-9 / c : 0.0;
  m.gamma = g > 0 ? 1e-9 / g : 0.0;
  m.memcpy_bandwidth = j.at("memcpy_GBps").get<double>() * 1e9;
  m.pingpong = points_from_json(j.at("pingpong"));
  if (j.contains("pingpong_clean")) m.pingpong_clean = points_from_json(j.at("pingpong_clean"));
  if (j.contains("copy")) m.copy = points_from_json(j.at("copy"), "us");
  if (j.contains("reduce")) m.reduce = points_from_json(j.at("reduce"), "us");
  if (j.contains("exchange")) m.exchange = points_from_json(j.at("exchange"), "us");
  return m;
}

json to_json(const row& r) {
  return {{"collective", r.collective},
          {"algorithm", r.algorithm},
          {"ranks", r.ranks},
          {"bytes", r.bytes},
          {"count", r.count},
          {"type", r.type},
          {"median_us", r.median_us},
          {"min_us", r.min_us},
          {"max_us", r.max_us},
          {"iterations", r.iterations},
          {"algbw_GBps", r.algbw_GBps},
          {"busbw_GBps", r.busbw_GBps},
          {"vs_vendor", r.vs_vendor},
          {"late_fraction", r.late_fraction},
          {"wrong", optional_json(r.wrong)},
          {"model_us", optional_json(r.model_us)},
          {"busbw_of_memcpy", optional_json(r.busbw_of_memcpy)},
          {"shm_copy", r.shm_copy},
          {"timing", r.timing},
          {"batch", r.batch}};
}

row row_from_json(const json& j) {
  row r;
  j.at("collective").get_to(r.collective);
  j.at("algorithm").get_to(r.algorithm);
  j.at("ranks").get_to(r.ranks);
  j.at("bytes").get_to(r.bytes);
  j.at("count").get_to(r.count);
  j.at("type").get_to(r.type);
  j.at("median_us").get_to(r.median_us);
  j.at("min_us").get_to(r.min_us);
  j.at("max_us").get_to(r.max_us);
  j.at("iterations").get_to(r.iterations);
  j.at("algbw_GBps").get_to(r.algbw_GBps);
  j.at("busbw_GBps").get_to(r.busbw_GBps);
  j.at("vs_vendor").get_to(r.vs_vendor);
  if (j.contains("late_fraction")) j.at("late_fraction").get_to(r.late_fraction);
  if (!j.at("wrong").is_null()) r.wrong = j.at("wrong").get<long long>();
  if (j.contains("model_us") && !j.at("model_us").is_null()) r.model_us = j.at("model_us").get<double>();
  if (j.contains("busbw_of_memcpy") && !j.at("busbw_of_memcpy").is_null())
    r.busbw_of_memcpy = j.at("busbw_of_memcpy").get<double>();
  if (j.contains("shm_copy")) j.at("shm_copy").get_to(r.shm_copy);
  if (j.contains("timing")) j.at("timing").get_to(r.timing);  // absent before --timing: synchronized
  if (j.contains("batch")) j.at("batch").get_to(r.batch);
  return r;
}

}  // namespace

std::string describe_start(const start_info& s) {
  const std::string clock =
      s.offset_error_us > 0
          ? fmt::format(
                "known to within ±{:.2f} µs (ranks off rank 0's node: half the best ping-pong round trip)",
                s.offset_error_us)
          : "on the clock every rank shares (one node: CLOCK_MONOTONIC)";
  return fmt::format(
      "every call started at an instant common to all ranks, {}; start margin {:.1f} µs; {:.2f} % of the "
      "timed "
      "calls redone because a rank reached the start late",
      clock, s.margin_us, 100 * s.late_fraction);
}

std::optional<double> model_us(collectives::collective c, std::string_view algorithm, const run_info& info,
                               std::size_t bytes, std::size_t count) {
  if (info.ranks < 2) return std::nullopt;
  const std::size_t elem_size = count > 0 ? bytes / count : 4;
  const std::size_t call_count = counts_whole_array(c) ? count / static_cast<std::size_t>(info.ranks) : count;
  const auto priced_us = [&](const schedule::platform& net) -> std::optional<double> {
    const auto seconds =
        priced_seconds(c, algorithm, info.ranks, call_count, elem_size, info.root, info.skew, net);
    return seconds ? std::optional(*seconds * 1e6) : std::nullopt;
  };
  // A simulated cluster: the platform the simulation runs on; the vendor rows are SimGrid's own.
  if (const char* file = std::getenv("COLLBENCH_PLATFORM"); file != nullptr && *file != '\0') {
    if (algorithm.starts_with("vendor")) return std::nullopt;
    static const schedule::platform simulated = simgrid_platform(file);
    return priced_us(simulated);
  }
  if (!info.model) return std::nullopt;
  const machine& m = *info.model;
  const cost_params params{.alpha = m.alpha,
                           .beta = m.beta,
                           .gamma = m.gamma,
                           .delta = m.memcpy_bandwidth > 0 ? 1 / m.memcpy_bandwidth : 0.0,
                           .beta_clean = m.beta_clean,
                           .forward = m.pingpong,
                           .clean = m.pingpong_clean,
                           .copy = m.copy,
                           .reduce = m.reduce,
                           .exchange = m.exchange};
  auto net = measured_platform(params, c, info.ranks, static_cast<double>(bytes),
                               info.hosts ? &*info.hosts : nullptr, info.eager ? &*info.eager : nullptr);
  if (!net) return std::nullopt;
#if !COLLBENCH_SMPI  // simulated ranks do not share the machine's cores
  if (!info.hosts || info.hosts->layout.hosts <= 1) net->cores = info.cores;
#endif
  return priced_us(*net);
}

void write_csv(std::ostream& os, std::span<const row> rows, bool header) {
  if (header) fmt::print(os, "{}\n", csv_header);
  for (const row& r : rows)
    fmt::print(os, "{},{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.6g},{:.6g},{:.4g},{},{},{}\n", r.collective,
               r.algorithm, r.ranks, r.bytes, r.count, r.type, r.median_us, r.min_us, r.max_us, r.algbw_GBps,
               r.busbw_GBps, r.vs_vendor, r.wrong ? fmt::format("{}", *r.wrong) : std::string(), r.shm_copy,
               r.timing);
}

void write_json(std::ostream& os, const run_info& info, std::span<const row> rows) {
  json run = {{"version", info.version},
              {"mpi_library", info.mpi_library},
              {"host", info.host},
              {"date", info.date},
              {"ranks", info.ranks},
              {"cores", info.cores},
              {"oversubscribed", info.oversubscribed},
              {"type", info.type},
              {"op", info.op},
              {"root", info.root},
              {"skew", info.skew},
              {"check", info.check},
              {"timing", info.timing},
              {"timing_mode", info.timing_mode},
              {"start", info.start ? json{{"offset_error_us", info.start->offset_error_us},
                                          {"margin_us", info.start->margin_us},
                                          {"late_fraction", info.start->late_fraction}}
                                   : json(nullptr)},
              {"vendor_internals", info.vendor_internals},
              {"shm_copy",
               {{"path", info.shm_copy.path},
                {"mechanism", info.shm_copy.mechanism},
                {"source", info.shm_copy.source}}},
              {"eager", info.eager ? json{{"same_host", info.eager->same_host},
                                          {"other_host", info.eager->other_host},
                                          {"from_mpi", info.eager->from_mpi},
                                          {"source", info.eager->source},
                                          {"segments_across", info.eager->segments_across}}
                                   : json(nullptr)}};
  json left_out = json::array();
  for (const left_out_row& l : info.left_out)
    left_out.push_back({{"collective", l.collective}, {"algorithm", l.algorithm}, {"reason", l.reason}});
  run["left_out"] = left_out;
  json results = json::array();
  for (const row& r : rows) results.push_back(to_json(r));
  json doc = {{"collbench", run},
              {"model", info.model ? to_json(*info.model) : json(nullptr)},
              {"hosts", info.hosts ? to_json(*info.hosts) : json(nullptr)},
              {"results", results}};
  os << doc.dump(1) << '\n';
}

run_results read_json(std::istream& is) {
  run_results out;
  try {
    const json doc = json::parse(is);
    const json& run = doc.at("collbench");
    run_info& i = out.info;
    run.at("version").get_to(i.version);
    run.at("mpi_library").get_to(i.mpi_library);
    run.at("host").get_to(i.host);
    run.at("date").get_to(i.date);
    run.at("ranks").get_to(i.ranks);
    run.at("cores").get_to(i.cores);
    run.at("oversubscribed").get_to(i.oversubscribed);
    run.at("type").get_to(i.type);
    run.at("op").get_to(i.op);
    run.at("root").get_to(i.root);
    if (run.contains("skew")) run.at("skew").get_to(i.skew);  // absent before --skew
    run.at("check").get_to(i.check);
    run.at("timing").get_to(i.timing);
    if (run.contains("timing_mode")) run.at("timing_mode").get_to(i.timing_mode);  // absent: synchronized
    if (run.contains("start") && !run.at("start").is_null()) {
      const json& s = run.at("start");
      i.start = start_info{s.at("offset_error_us").get<double>(), s.at("margin_us").get<double>(),
                           s.at("late_fraction").get<double>()};
    }
    run.at("vendor_internals").get_to(i.vendor_internals);
    if (run.contains("shm_copy")) {
      const json& s = run.at("shm_copy");
      i.shm_copy = {s.at("path").get<std::string>(), s.at("mechanism").get<std::string>(),
                    s.at("source").get<std::string>()};
    }
    if (run.contains("eager") && !run.at("eager").is_null()) {
      const json& e = run.at("eager");
      // A file from before segments_across was written prices as it did: cut wherever E across
      // hosts is known.
      i.eager = collectives::eager_limits{
          e.at("same_host").get<std::size_t>(), e.at("other_host").get<std::size_t>(),
          e.at("from_mpi").get<bool>(), e.at("source").get<std::string>(), e.value("segments_across", true)};
    }
    if (!doc.at("model").is_null()) i.model = machine_from_json(doc.at("model"));
    if (run.contains("left_out"))
      for (const json& l : run.at("left_out"))
        i.left_out.push_back({l.at("collective").get<std::string>(), l.at("algorithm").get<std::string>(),
                              l.at("reason").get<std::string>()});
    if (doc.contains("hosts") && !doc.at("hosts").is_null()) i.hosts = host_links_from_json(doc.at("hosts"));
    for (const json& r : doc.at("results")) {
      out.rows.push_back(row_from_json(r));
      if (!r.contains("shm_copy")) out.rows.back().shm_copy = i.shm_copy.path;
    }
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("not a collbench JSON file: {}", e.what()));
  }
  return out;
}

void write_table(std::ostream& os, const run_info& info, std::span<const row> rows) {
  fmt::print(os, "# collbench {} — {} ranks on {} cores{}; {} ({}), root {}, v-variants' skew {}\n",
             info.version, info.ranks, info.cores, info.oversubscribed ? " (oversubscribed)" : "", info.type,
             info.op, info.root, info.skew);
  fmt::print(os, "# {}\n# {}\n", info.mpi_library, info.timing);
  if (info.timing_mode == "back-to-back")
    fmt::print(os,
               "# back-to-back: what an application issuing these calls one after another sees, vendor's "
               "overlap included; to compare algorithms, the synchronized mode (--timing synchronized)\n");
  if (info.timing_mode == "imb")
    fmt::print(
        os,
        "# imb: what the Intel MPI Benchmarks (IMB-MPI1) print as t_avg, each call timed apart with a "
        "barrier between calls; to compare algorithms, the synchronized mode (--timing synchronized)\n");
  if (info.start) fmt::print(os, "# start: {}\n", describe_start(*info.start));
  fmt::print(os, "# vendor internals: {}\n", info.vendor_internals);
  fmt::print(os, "# shared memory: {}; {}\n", describe(info.shm_copy), info.shm_copy.source);
  for (const left_out_row& l : info.left_out)
    fmt::print(os, "# left out: {} {}: {}\n", l.collective, l.algorithm, l.reason);
  if (info.eager)
    fmt::print(os, "# eager exchanges: E = {} B on this host, {} B to other hosts; {}\n", info.eager->same_host,
               info.eager->other_host, info.eager->source);
  if (info.model) {
    const machine& m = *info.model;
    fmt::print(
        os,
        "# model: α = {:.2f} µs, β = {:.3f} ns/B ({:.2f} GB/s) forwarding, β_u = {:.3f} ns/B ({:.2f} GB/s) "
        "untouched, γ = {:.3f} ns/B ({:.2f} GB/s), memcpy {:.2f} GB/s; a message costs the ping-pong's time "
        "at its size\n",
        m.alpha * 1e6, m.beta * 1e9, m.beta > 0 ? 1e-9 / m.beta : 0.0, m.beta_clean * 1e9,
        m.beta_clean > 0 ? 1e-9 / m.beta_clean : 0.0, m.gamma * 1e9, m.gamma > 0 ? 1e-9 / m.gamma : 0.0,
        m.memcpy_bandwidth / 1e9);
  }
  if (info.hosts && info.hosts->layout.hosts > 1) {
    const host_links& h = *info.hosts;
    fmt::print(os, "# hosts: {}", h.layout.describe());
    if (info.model)
      fmt::print(
          os, "; within a host α = {:.2f} µs, β = {:.3f} ns/B; between hosts α = {:.2f} µs, β = {:.3f} ns/B",
          h.alpha_intra * 1e6, h.beta_intra * 1e9, h.alpha_inter * 1e6, h.beta_inter * 1e9);
    fmt::print(os, " (model_us: the schedules priced on these links, bench/model/price.hpp)\n");
  }
  fmt::print(
      os,
      "# busbw = algbw × factor (allreduce 2(p−1)/p; allgather, reduce_scatter, alltoall, gather, "
      "scatter (p−1)/p; broadcast, reduce, scan, exscan 1; barrier 0: time only); vs_vendor = median / "
      "vendor's median\n");
  std::size_t width = 9;
  for (const row& r : rows) width = std::max(width, r.algorithm.size());
  std::string current;
  for (const row& r : rows) {
    if (r.collective != current) {
      current = r.collective;
      fmt::print(os, "\n{} ({} ranks)\n", current, r.ranks);
      fmt::print(os, "{:>10} {:>10}  {:<{}} {:>11} {:>11} {:>11} {:>9} {:>9} {:>9} {:>6}", "bytes", "count",
                 "algorithm", width, "median_us", "min_us", "max_us", "algbw", "busbw", "vs_vendor", "wrong");
      if (info.model) fmt::print(os, " {:>11} {:>9}", "model_us", "bw/memcpy");
      fmt::print(os, "\n");
    }
    fmt::print(os, "{:>10} {:>10}  {:<{}} {:>11.2f} {:>11.2f} {:>11.2f} {:>9.3g} {:>9.3g} {:>9.3f} {:>6}",
               r.bytes, r.count, r.algorithm, width, r.median_us, r.min_us, r.max_us, r.algbw_GBps,
               r.busbw_GBps, r.vs_vendor, r.wrong ? fmt::format("{}", *r.wrong) : "-");
    if (info.model)
      fmt::print(os, " {:>11} {:>9}", r.model_us ? fmt::format("{:.2f}", *r.model_us) : "-",
                 r.busbw_of_memcpy ? fmt::format("{:.3g}", *r.busbw_of_memcpy) : "-");
    fmt::print(os, "\n");
  }
}

}  // namespace collbench
