// SPDX-License-Identifier: BSD-3-Clause
#include "model/calibrate_measurement.hpp"

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace collbench {
namespace {

using json = nlohmann::json;

// Under one protocol a larger message never crosses clearly faster than a smaller one: where it
// does, the machine was disturbed while the smaller one was measured, and a fit would price that.
// Clearly: this much faster, and by at least this many seconds.
constexpr double disturbed_ratio = 0.75;
constexpr double disturbed_seconds = 10e-6;

}  // namespace

// A disturbance only slows: a size faster than both its neighbours (of its protocol) is the
// network's own (over TCP, 2 KiB crosses a third faster than 1 and 4 KiB), not a disturbance.
std::optional<std::pair<std::size_t, std::size_t>> disturbed_pair(const std::vector<point>& pts) {
  auto dip = [&](std::size_t k) {
    return k > 0 && k + 1 < pts.size() && pts[k - 1].rendezvous == pts[k].rendezvous &&
           pts[k + 1].rendezvous == pts[k].rendezvous && pts[k].ping_pong < pts[k - 1].ping_pong &&
           pts[k].ping_pong < pts[k + 1].ping_pong;
  };
  for (std::size_t i = 0; i < pts.size(); ++i)
    for (std::size_t k = i + 1; k < pts.size(); ++k) {
      const point &small = pts[i], &large = pts[k];
      if (small.rendezvous == large.rendezvous && !dip(k) &&
          large.ping_pong < small.ping_pong * disturbed_ratio &&
          small.ping_pong - large.ping_pong > disturbed_seconds)
        return std::pair(i, k);
    }
  return std::nullopt;
}

measurement read_measurement(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error(fmt::format("cannot read {}", path));
  json j;
  try {
    file >> j;
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("{}: not JSON ({})", path, e.what()));
  }
  if (j.value("program", "") != "collcalibrate" || !j.contains("points") || j["points"].empty())
    throw std::runtime_error(fmt::format("{}: not a measurement of collcalibrate measure", path));
  measurement m;
  if (!j["eager_limit"].is_null()) m.eager_limit = j["eager_limit"].get<std::size_t>();
  for (const auto& h : j["hosts"]) m.hosts.push_back(h.get<std::string>());
  m.command = j.value("command", "");
  m.time_per_size = j.value("time_per_size", 0.0);
  for (const auto& p : j["points"])
    m.points.push_back({p["bytes"].get<std::size_t>(), p["ping_pong"].get<double>(), p["send"].get<double>(),
                        p["recv"].get<double>(), p["isend"].get<double>(), p["stream"].get<double>(),
                        p.value("duplex", 0.0), p["rendezvous"].get<bool>()});
  if (m.points.size() < 4) throw std::runtime_error(fmt::format("{}: fewer than 4 sizes measured", path));
  if (const auto pair = disturbed_pair(m.points))
    throw std::runtime_error(fmt::format(
        "{}: a disturbed measurement: the ping-pong takes {:.2f} µs one way at {} B but {:.2f} µs at {} B, "
        "by the same protocol; measure again on a quiet machine",
        path, m.points[pair->first].ping_pong * 1e6, m.points[pair->first].bytes,
        m.points[pair->second].ping_pong * 1e6, m.points[pair->second].bytes));
  return m;
}

void write_measurement(const measurement& m, const std::string& path) {
  json j;
  j["program"] = "collcalibrate";
  j["command"] = m.command;
  j["hosts"] = m.hosts;
  j["eager_limit"] = m.eager_limit ? json(*m.eager_limit) : json(nullptr);
  j["time_per_size"] = m.time_per_size;
  for (const point& p : m.points)
    j["points"].push_back({{"bytes", p.bytes},
                           {"ping_pong", p.ping_pong},
                           {"send", p.send},
                           {"recv", p.recv},
                           {"isend", p.isend},
                           {"stream", p.stream},
                           {"duplex", p.duplex},
                           {"rendezvous", p.rendezvous}});
  std::ofstream file(path);
  if (!file) throw std::runtime_error(fmt::format("cannot write {}", path));
  file << j.dump(1) << '\n';
}

}  // namespace collbench
