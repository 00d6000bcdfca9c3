// SPDX-License-Identifier: BSD-3-Clause
#include "model/calibrate_platform.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "model/calibrate_fit.hpp"
#include "model/simgrid_file.hpp"

namespace collbench {
namespace {

struct topology {
  std::string kind;        // FAT_TREE, TORUS, DRAGONFLY
  std::string parameters;  // SimGrid's topo_parameters
  long nodes = 0;
  std::string name;
};

// The number `text` starts with, and how many of its characters it takes (0: none).
std::pair<double, std::size_t> leading_number(const std::string& text) {
  try {
    std::size_t used = 0;
    const double value = std::stod(text, &used);
    return {value, used};
  } catch (const std::exception&) {
    return {0, 0};
  }
}

long positive(const std::string& text, const std::string& spec) {
  const auto [value, used] = leading_number(text);
  if (used != text.size() || value < 1 || value != std::floor(value) || value > 1e9)
    throw std::runtime_error(fmt::format("--topology {}: '{}' is not a positive number", spec, text));
  return static_cast<long>(value);
}

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at; (at = text.find(by, start)) != std::string::npos; start = at + 1)
    parts.push_back(text.substr(start, at - start));
  parts.push_back(text.substr(start));
  return parts;
}

// fat-tree:N (one switch) | fat-tree:KxM (M leaf switches of K nodes, K spines) | torus:AxBxC |
// dragonfly:G,GL;C,CL;R,RL;N (SimGrid's topo_parameters).
topology parse_topology(const std::string& spec) {
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon),
                    shape = colon == std::string::npos ? "" : spec.substr(colon + 1);
  topology t;
  if (kind == "fat-tree" && !shape.empty()) {
    const auto dims = split(shape, 'x');
    if (dims.size() == 1) {
      t.nodes = positive(dims[0], spec);
      t.parameters = fmt::format("1;{};1;1", t.nodes);
    } else if (dims.size() == 2) {
      const long per_leaf = positive(dims[0], spec), leaves = positive(dims[1], spec);
      t.nodes = per_leaf * leaves;
      t.parameters = fmt::format("2;{},{};1,{};1,1", per_leaf, leaves, per_leaf);
    } else {
      throw std::runtime_error(fmt::format("--topology {}: fat-tree:N or fat-tree:KxM", spec));
    }
    t.kind = "FAT_TREE";
  } else if (kind == "torus" && !shape.empty()) {
    t.nodes = 1;
    std::vector<std::string> dims;
    for (const auto& d : split(shape, 'x')) t.nodes *= positive(d, spec), dims.push_back(d);
    t.kind = "TORUS", t.parameters = fmt::format("{}", fmt::join(dims, ","));
  } else if (kind == "dragonfly" && !shape.empty()) {
    const auto levels = split(shape, ';');
    if (levels.size() != 4)
      throw std::runtime_error(fmt::format("--topology {}: dragonfly:G,GL;C,CL;R,RL;N", spec));
    t.nodes = positive(levels[3], spec);
    long counts[3] = {};  // groups, chassis per group, routers per chassis
    for (int l = 0; l < 3; ++l) {
      const auto pair = split(levels[l], ',');
      if (pair.size() != 2)
        throw std::runtime_error(fmt::format("--topology {}: dragonfly:G,GL;C,CL;R,RL;N", spec));
      t.nodes *= counts[l] = positive(pair[0], spec);
      positive(pair[1], spec);
    }
    // SimGrid 3.32 reaches group g through router g of the sender's chassis, and routes within a
    // group from the first chassis whatever the sender's (docs/simulation.md, SMPI's own faults).
    if (counts[0] > counts[2] || counts[1] != 1)
      throw std::runtime_error(fmt::format(
          "--topology {}: SimGrid routes a dragonfly correctly only with one chassis per group and no "
          "more groups than routers (G ≤ R, C = 1: e.g. dragonfly:16,2;1,1;16,1;4)",
          spec));
    t.kind = "DRAGONFLY", t.parameters = shape;
  } else {
    throw std::runtime_error(fmt::format(
        "--topology '{}': expected fat-tree:N, fat-tree:KxM, torus:AxBxC or dragonfly:G,GL;C,CL;R,RL;N",
        spec));
  }
  t.name = fmt::format("calibrated-{}-{}", kind, t.nodes);
  return t;
}
std::string pieces_text(const char* name, const std::vector<piece>& pieces, const char* unit) {
  std::string text;
  for (const piece& p : pieces)
    text += fmt::format("       {:<5} {:>9} – {:>9} B: {:.3f} us + {:.4g} {} (worst {:.1f}%)\n", name,
                        p.first, p.last, p.intercept * 1e6, p.slope * 1e6, unit, 100 * p.worst);
  return text;
}

// The measurement, as the platform's comment lists it.
std::string measured_text(const measurement& m) {
  std::string text = fmt::format(
      "     Measured ({}); microseconds, ping-pong one way, MPI_Send's, MPI_Recv's and\n"
      "     MPI_Isend's own time with the receiver late (recv: the message there first), per message of a "
      "stream\n"
      "     one way and of streams both ways at once:\n"
      "         bytes   ping-pong      send      recv     isend     stream     duplex  protocol\n",
      m.command);
  for (const point& p : m.points)
    text += fmt::format("     {:>9}  {:>10.2f} {:>9.2f} {:>9.2f} {:>9.2f} {:>10.2f} {:>10.2f}  {}\n", p.bytes,
                        p.ping_pong * 1e6, p.send * 1e6, p.recv * 1e6, p.isend * 1e6, p.stream * 1e6,
                        p.duplex * 1e6, p.rendezvous ? "rendezvous" : "eager");
  return text;
}

std::string eager_text(const fitted& f) {
  std::string text = fmt::format(
      "     Eager limit: {}.\n",
      f.eager_limit
          ? fmt::format("{} B (a send of this size waits for its receiver){}", *f.eager_limit,
                        f.detached_below ? fmt::format(".\n     Sends below {} B are detached: their "
                                                       "receiver, coming late, found most of the "
                                                       "message there",
                                                       *f.detached_below)
                                         : "")
          : std::string("none (every size measured went eagerly)"));
  if (f.first_streamed)
    text += fmt::format(
        "     From {} B (the eager sizes priced from their stream) a message starts when its receive is "
        "posted:\n     SMPI would move a sender's messages all at once, sharing the link, where TCP sends "
        "them one after another.\n",
        *f.first_streamed);
  return text;
}

// The fit's pieces and the link, as the platform's comment states them.
std::string fit_text(const fitted& f, double tolerance, bool rendezvous_streamed) {
  return fmt::format(
      "     Fit (pieces of at most {:.0f}% error; transfer = {} when eager,\n"
      "     the {} for a rendezvous{}; sizes + 16 B of envelope):\n"
      "{}{}{}{}     Link: L = {:.3f} us end to end (two links of {:.3f} us), B = {:.4g} MB/s{}.",
      100 * tolerance, f.exchanges ? "duplex - isend - recv" : "ping-pong - send - recv",
      rendezvous_streamed ? "stream's time per message" : "ping-pong",
      rendezvous_streamed
          ? "; for an eager size whose stream is slower than its ping-pong, that stream's less recv"
          : "",
      pieces_text("os", f.os, "us/B"), pieces_text("or", f.or_, "us/B"), pieces_text("ois", f.ois, "us/B"),
      pieces_text("wire", f.wire, "us/B"), f.latency * 1e6, f.latency / 2 * 1e6, f.bandwidth / 1e6,
      f.limiter > 0
          ? fmt::format("; both ways at once {:.4g} MB/s per direction: a limiter link of {:.4g} MB/s "
                        "per node",
                        f.limiter / 2e6, f.limiter / 1e6)
          : "");
}

// SMPI's settings of the fit, the cluster of N nodes, and the library's eager limit on every node.
simgrid_file platform_of(const fitted& f, const topology& t, int cores) {
  const std::size_t detached =
      f.detached_below.value_or(f.eager_limit.value_or(static_cast<std::size_t>(INT32_MAX)));
  simgrid_file file;
  file.config = {{"smpi/send-is-detached-thresh", fmt::format("{}", detached)},
                 {"smpi/async-small-thresh",
                  fmt::format("{}", f.first_streamed.value_or(f.eager_limit.value_or(detached)))},
                 {"smpi/os", f.os.empty() ? "0:0:0" : overhead_setting(f.os)},
                 {"smpi/or", f.or_.empty() ? "0:0:0" : overhead_setting(f.or_)},
                 {"smpi/ois", overhead_setting(f.ois)},
                 {"smpi/lat-factor", factor_setting(f.lat_factor)},
                 {"smpi/bw-factor", factor_setting(f.bw_factor)}};
  // The two measured nodes are a route of two links (node → switch → node): each link carries
  // half the latency.
  file.cluster = {{"id", t.name},
                  {"prefix", "node-"},
                  {"suffix", ""},
                  {"radical", fmt::format("0-{}", t.nodes - 1)},
                  {"speed", "1Gf"},
                  {"core", fmt::format("{}", cores)},
                  {"bw", fmt::format("{:.6g}Bps", f.bandwidth)},
                  {"lat", fmt::format("{:.6g}s", f.latency / 2)},
                  {"topology", t.kind},
                  {"topo_parameters", t.parameters}};
  if (f.limiter > 0) file.cluster.emplace_back("limiter_link", fmt::format("{:.6g}Bps", f.limiter));
  // What the simulated MPI library itself takes for its eager limit, on every node: SMPI's
  // detached sizes may go further (src/kit/eager.cpp reads it).
  if (f.eager_limit) file.host_props = {{"collectives/eager-limit", fmt::format("{}", *f.eager_limit)}};
  return file;
}

}  // namespace

int write_platform(const std::string& path, const fit_options& o) {
  const measurement m = read_measurement(path);
  const fitted f = fit(m, o.tolerance, o.rendezvous_streamed);
  const topology t = parse_topology(o.spec);
  simgrid_file file = platform_of(f, t, o.cores);
  std::string on_node_text;
  if (!o.on_node.empty()) {
    const measurement local = read_measurement(o.on_node);
    const fitted lf = fit(local, o.tolerance, o.rendezvous_streamed);
    // Before the limiter, as SimGrid's own files order them.
    const auto at = file.cluster.begin() + 10;
    file.cluster.insert(at, {{"loopback_bw", fmt::format("{:.6g}Bps", lf.bandwidth)},
                             {"loopback_lat", fmt::format("{:.6g}s", lf.latency)}});
    on_node_text = fmt::format("     On one node ({}): {}, fitted L = {:.3f} us, B = {:.4g} MB/s.\n",
                               o.on_node, local.command, lf.latency * 1e6, lf.bandwidth / 1e6);
  }
  const std::string comment =
      fmt::format(
          "{}: {} nodes of {} core(s), {} ({}), calibrated by collcalibrate from two\n"
          "     nodes ({}, {}). Written by: {}\n",
          t.name, t.nodes, o.cores, t.kind, t.parameters, m.hosts.size() > 0 ? m.hosts[0] : "?",
          m.hosts.size() > 1 ? m.hosts[1] : "?", o.command) +
      measured_text(m) + eager_text(f) + on_node_text + fit_text(f, o.tolerance, o.rendezvous_streamed);
  std::ofstream out(o.out);
  if (!out) throw std::runtime_error(fmt::format("cannot write {}", o.out));
  write_simgrid_file(out, file, comment);
  fmt::print(stderr, "collcalibrate: {} ({} nodes; L = {:.3f} us, B = {:.4g} MB/s, eager limit {})\n", o.out,
             t.nodes, f.latency * 1e6, f.bandwidth / 1e6,
             f.eager_limit ? fmt::format("{} B", *f.eager_limit) : "none");
  return 0;
}

namespace {

// What a platform prices in SMPI's terms: its settings and the two-link route's L and B.
struct smpi_settings {
  std::optional<std::size_t> eager_limit;
  std::string os, or_, ois, lat_factor, bw_factor;
  double latency = 0, bandwidth = 0;

  double overhead(const std::string& setting, std::size_t bytes) const {
    return smpi_value(setting, static_cast<double>(bytes), false);
  }
  // lat-factor · L + payload / (bw-factor · B), the factors at the payload (16 bytes of envelope).
  double transfer(std::size_t bytes) const {
    return latency_of(bytes) + payload(bytes) / bandwidth_of(bytes);
  }
  double latency_of(std::size_t bytes) const {
    return latency * smpi_value(lat_factor, payload(bytes), true);
  }
  double bandwidth_of(std::size_t bytes) const {
    return bandwidth * smpi_value(bw_factor, payload(bytes), true);
  }
  static double payload(std::size_t bytes) { return static_cast<double>(bytes) + smpi_envelope; }
};

smpi_settings read_settings(const std::string& path) {
  const simgrid_file file = read_simgrid_file(path);
  smpi_settings p;
  // The simulated library's eager limit, which SMPI's detached sizes may exceed.
  if (auto e = file.prop("collectives/eager-limit")
                   .value_or(file.prop("smpi/send-is-detached-thresh").value_or(""));
      !e.empty())
    p.eager_limit = std::stoul(e);
  auto prop = [&](const char* id) { return file.prop(id).value_or(""); };
  p.os = prop("smpi/os"), p.or_ = prop("smpi/or"), p.ois = prop("smpi/ois");
  p.lat_factor = prop("smpi/lat-factor"), p.bw_factor = prop("smpi/bw-factor");
  p.latency = 2 * si_value(file.attribute("lat"), false, path);
  p.bandwidth = si_value(file.attribute("bw"), true, path);
  return p;
}

}  // namespace

int compare_platforms(const std::string& first_path, const std::string& second_path,
                      const std::string& sizes_path, double within) {
  const smpi_settings a = read_settings(first_path), b = read_settings(second_path);
  const measurement m = read_measurement(sizes_path);
  struct row {
    std::string name;
    double worst = 0;
    std::size_t at = 0;
  };
  std::vector<row> rows{{"os"}, {"or"}, {"ois"}, {"latency"}, {"bandwidth"}};
  for (const point& p : m.points) {
    const std::size_t s = p.bytes;
    const bool eager = !a.eager_limit || s < *a.eager_limit;
    const std::vector<std::optional<std::pair<double, double>>> values{
        eager ? std::optional(std::pair(a.overhead(a.os, s), b.overhead(b.os, s))) : std::nullopt,
        eager ? std::optional(std::pair(a.overhead(a.or_, s), b.overhead(b.or_, s))) : std::nullopt,
        std::pair(a.overhead(a.ois, s), b.overhead(b.ois, s)), std::pair(a.latency_of(s), b.latency_of(s)),
        std::pair(a.bandwidth_of(s), b.bandwidth_of(s))};
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (!values[i]) continue;
      const auto [x, y] = *values[i];
      const double off = x == y ? 0 : std::abs(y / x - 1);
      if (off > rows[i].worst) rows[i].worst = off, rows[i].at = p.bytes;
    }
  }
  bool held = a.eager_limit == b.eager_limit;
  fmt::print("eager limit: {} against {}\n", a.eager_limit ? fmt::format("{} B", *a.eager_limit) : "none",
             b.eager_limit ? fmt::format("{} B", *b.eager_limit) : "none");
  for (const row& r : rows) {
    held = held && r.worst <= within;
    fmt::print("{:<10} largest difference {:6.2f}% (at {} B)\n", r.name, 100 * r.worst, r.at);
  }
  fmt::print("{} within {:.1f}% at the {} sizes of {}\n", held ? "all" : "NOT all", 100 * within,
             m.points.size(), sizes_path);
  return held ? 0 : 1;
}

int price_on_platform(const std::string& path, const std::optional<std::string>& prop, std::size_t bytes) {
  if (prop) {
    const auto value = read_simgrid_file(path).prop(*prop);
    if (!value) throw std::runtime_error(fmt::format("platform {}: no prop {}", path, *prop));
    fmt::print("{}\n", *value);
    return 0;
  }
  const smpi_settings p = read_settings(path);
  const double os = p.overhead(p.os, bytes), or_ = p.overhead(p.or_, bytes), ois = p.overhead(p.ois, bytes),
               transfer = p.transfer(bytes);
  fmt::print("os {:.9g}\nor {:.9g}\nois {:.9g}\ntransfer {:.9g}\nsend {:.9g}\nisend {:.9g}\n", os, or_, ois,
             transfer, os + transfer + or_, ois + transfer + or_);
  return 0;
}

}  // namespace collbench
