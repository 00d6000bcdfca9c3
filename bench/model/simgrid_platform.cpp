// SPDX-License-Identifier: BSD-3-Clause
#include "model/simgrid_platform.hpp"

#include <fmt/format.h>

#include <collectives/error.hpp>
#include <fstream>
#include <regex>
#include <sstream>

namespace collbench {
namespace {

using collectives::error;

// A SimGrid quantity in SI units: "12.5GBps" bytes per second, "0.5us" seconds, a bare number as is.
double si_value(const std::string& text, const std::string& file) {
  static const std::pair<const char*, double> units[] = {
      {"GBps", 1e9}, {"MBps", 1e6}, {"kBps", 1e3}, {"Bps", 1},  {"Gbps", 1e9 / 8}, {"Mbps", 1e6 / 8},
      {"ns", 1e-9},  {"us", 1e-6},  {"ms", 1e-3},  {"s", 1}};
  std::size_t used = 0;
  const double value = std::stod(text, &used);
  const std::string unit = text.substr(used);
  if (unit.empty()) return value;
  for (const auto& [name, scale] : units)
    if (unit == name) return value * scale;
  throw error(fmt::format("platform {}: unknown unit in '{}'", file, text));
}

// The attribute `name` of a tag's text, or "".
std::string attribute(const std::string& tag, const std::string& name) {
  std::smatch m;
  return std::regex_search(tag, m, std::regex("\\b" + name + "=\"([^\"]*)\"")) ? m[1].str() : std::string();
}

// The value of <prop id="name" value="…"/>, or "".
std::string property(const std::string& text, const std::string& name) {
  std::smatch m;
  return std::regex_search(text, m, std::regex("<prop id=\"" + name + "\" value=\"([^\"]*)\"")) ? m[1].str()
                                                                                             : std::string();
}

// smpi/os-style piecewise values "size:constant:per-byte;…": the constant of the piece from size 0.
double small_message_value(const std::string& pieces) {
  if (pieces.empty()) return 0;
  const std::size_t a = pieces.find(':'), b = pieces.find(':', a + 1);
  return std::stod(pieces.substr(a + 1, b - a - 1));
}

}  // namespace

schedule::platform simgrid_platform(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw error(fmt::format("platform {}: cannot read it", file));
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::smatch m;
  if (!std::regex_search(text, m, std::regex("<cluster[^>]*>")))
    throw error(fmt::format("platform {}: no <cluster>", file));
  const std::string cluster = m.str();
  schedule::platform net;
  net.name = attribute(cluster, "id");
  const std::string core = attribute(cluster, "core"), radical = attribute(cluster, "radical");
  if (const std::size_t dash = radical.find('-'); dash != std::string::npos)
    net.hosts = std::stoi(radical.substr(dash + 1)) - std::stoi(radical.substr(0, dash)) + 1;
  net.ranks_per_host = core.empty() ? 1 : std::stoi(core);
  net.link_latency = si_value(attribute(cluster, "lat"), file);
  net.link_byte = 1 / si_value(attribute(cluster, "bw"), file);
  // On one host: the loopback where the cluster has one, else through the host's own link twice.
  const std::string loop_lat = attribute(cluster, "loopback_lat"), loop_bw = attribute(cluster, "loopback_bw");
  net.host_latency = loop_lat.empty() ? 2 * net.link_latency : si_value(loop_lat, file);
  net.host_byte = loop_bw.empty() ? net.link_byte : 1 / si_value(loop_bw, file);
  const std::string topology = attribute(cluster, "topology"), parameters = attribute(cluster, "topo_parameters");
  if (topology == "FAT_TREE") {
    // "levels;down-links per level;…": the hosts under one leaf are its first level's down-links.
    const std::size_t a = parameters.find(';');
    net.hosts_per_switch = std::stoi(parameters.substr(a + 1));
  } else if (topology == "TORUS") {
    std::stringstream dims(parameters);
    for (std::string d; std::getline(dims, d, ',');) net.torus.push_back(std::stoi(d));
  } else if (!topology.empty() && topology != "FLAT") {
    throw error(fmt::format("platform {}: topology {} is not modelled", file, topology));
  }
  net.send_overhead = small_message_value(property(text, "smpi/os"));
  net.recv_overhead = small_message_value(property(text, "smpi/or"));
  // The library's eager size: below the limit a calibrated platform names on its hosts
  // (collectives/eager-limit, which SMPI's detached sizes may exceed), else below SMPI's threshold.
  std::string first_waiting = property(text, "collectives/eager-limit");
  if (first_waiting.empty()) first_waiting = property(text, "smpi/send-is-detached-thresh");
  net.eager_bytes = (first_waiting.empty() ? 65536 : std::stoul(first_waiting)) - 1;
  // The library knows E across hosts under SMPI too, and sends exchanges above it to other hosts
  // as segments of E (kit/eager.cpp).
  net.eager_across = net.eager_bytes;
  net.eager_moves_at_match = true;
  // Flows share a link by SimGrid's weight-S: 8775 bytes in the SMPI network model that
  // scripts/mpirun/simulate selects.
  const std::string weight = property(text, "network/weight-S");
  net.sharing_bytes = weight.empty() ? 8775 : std::stod(weight);
  return net;
}

}  // namespace collbench
