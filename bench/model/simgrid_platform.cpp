// SPDX-License-Identifier: BSD-3-Clause
#include "model/simgrid_platform.hpp"

#include <fmt/format.h>

#include <collectives/error.hpp>
#include <cstdint>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "kit/eager.hpp"
#include "model/simgrid_file.hpp"

namespace collbench {
namespace {

using collectives::error;

// smpi/os-style piecewise values "size:constant:per-byte;…": the constant of the piece from size 0.
double small_message_value(const std::optional<std::string>& pieces) {
  if (!pieces || pieces->empty()) return 0;
  const std::size_t a = pieces->find(':'), b = pieces->find(':', a + 1);
  return std::stod(pieces->substr(a + 1, b - a - 1));
}

// Where lat-factor and bw-factor are other than 1 at every size, SMPI's factors of a message: its
// route's latency times the one, its bandwidth times the other, at the message's bytes and
// envelope (as collcalibrate fits them; every shipped platform sets both to 1).
std::function<std::pair<double, double>(std::uint64_t)> factors_of(const simgrid_file& file) {
  const std::string latency = file.prop("smpi/lat-factor").value_or(""),
                    bandwidth = file.prop("smpi/bw-factor").value_or("");
  auto is_one = [](const std::string& setting) { return setting.empty() || setting == "0:1"; };
  if (is_one(latency) && is_one(bandwidth)) return {};
  return [latency = smpi_piecewise(latency, true),
          bandwidth = smpi_piecewise(bandwidth, true)](std::uint64_t bytes) {
    const double payload = static_cast<double>(bytes) + smpi_envelope;
    return std::pair(latency.at(payload), bandwidth.at(payload));
  };
}

void read_cluster(schedule::platform& net, const simgrid_file& file, const std::string& path) {
  net.name = file.attribute("id");
  const std::string core = file.attribute("core"), radical = file.attribute("radical");
  if (const std::size_t dash = radical.find('-'); dash != std::string::npos)
    net.hosts = std::stoi(radical.substr(dash + 1)) - std::stoi(radical.substr(0, dash)) + 1;
  net.ranks_per_host = core.empty() ? 1 : std::stoi(core);
  net.link_latency = si_value(file.attribute("lat"), false, path);
  net.link_byte = 1 / si_value(file.attribute("bw"), true, path);
  // On one host: the loopback where the cluster has one, else through the host's own link twice.
  const std::string loop_lat = file.attribute("loopback_lat"), loop_bw = file.attribute("loopback_bw");
  net.host_latency = loop_lat.empty() ? 2 * net.link_latency : si_value(loop_lat, false, path);
  net.host_byte = loop_bw.empty() ? net.link_byte : 1 / si_value(loop_bw, true, path);
  const std::string topology = file.attribute("topology"), parameters = file.attribute("topo_parameters");
  if (topology == "FAT_TREE") {
    // "levels;down-links per level;…": the hosts under one leaf are its first level's down-links.
    const std::size_t a = parameters.find(';');
    net.hosts_per_switch = std::stoi(parameters.substr(a + 1));
  } else if (topology == "TORUS") {
    std::stringstream dims(parameters);
    for (std::string d; std::getline(dims, d, ',');) net.torus.push_back(std::stoi(d));
  } else if (!topology.empty() && topology != "FLAT") {
    throw error(fmt::format("platform {}: topology {} is not modelled", path, topology));
  }
}

}  // namespace

schedule::platform simgrid_platform(const std::string& path) {
  simgrid_file file;
  schedule::platform net;
  try {
    file = read_simgrid_file(path);
    read_cluster(net, file, path);
  } catch (const error&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw error(e.what());
  }
  net.send_overhead = small_message_value(file.prop("smpi/os"));
  net.recv_overhead = small_message_value(file.prop("smpi/or"));
  net.factors = factors_of(file);
  // The library's eager size: below the limit a calibrated platform names on its hosts
  // (collectives/eager-limit, which SMPI's detached sizes may exceed), else below SMPI's threshold.
  namespace kit = collectives::detail;
  const auto first_waiting =
      file.prop("collectives/eager-limit")
          .value_or(
              file.prop("smpi/send-is-detached-thresh").value_or(std::to_string(kit::smpi_default_detached)));
  net.eager_bytes = kit::smpi_eager_bytes(std::stoul(first_waiting));
  // The library knows E across hosts under SMPI too, and sends exchanges above it to other hosts
  // as segments of E (kit/eager.cpp).
  net.eager_across = net.eager_bytes;
  net.eager_moves_at_match = true;
  // Flows share a link by SimGrid's weight-S: 8775 bytes in the SMPI network model that
  // scripts/mpirun/simulate selects.
  const auto weight = file.prop("network/weight-S");
  net.sharing_bytes = weight ? std::stod(*weight) : 8775;
  return net;
}

}  // namespace collbench
