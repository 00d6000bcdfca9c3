// SPDX-License-Identifier: BSD-3-Clause
#include "price.hpp"

#include <fmt/format.h>

#include <collectives/error.hpp>
#include <algorithm>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>

#include "core/collective_traits.hpp"
#include "cost_model.hpp"
#include "metrics.hpp"

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

// From this size up a ping-pong's time is mostly per byte (on one node its latency is under a tenth
// of it), so its time per byte applies to a message of another size (message_seconds).
constexpr double bandwidth_bound_bytes = 256 * 1024;

// Straight lines between the measured sizes; below the first, its time (or its time per byte,
// `proportional`); above the last, the last segment's slope.
double interpolate(const std::vector<pingpong_point>& measured, double bytes, bool proportional) {
  if (proportional && bytes < static_cast<double>(measured.front().bytes))
    return measured.front().seconds * bytes / static_cast<double>(measured.front().bytes);
  const auto above = std::find_if(measured.begin() + 1, measured.end() - 1, [&](const pingpong_point& q) {
    return static_cast<double>(q.bytes) >= bytes;
  });
  const pingpong_point &lo = *(above - 1), &hi = *above;
  if (bytes <= static_cast<double>(lo.bytes)) return lo.seconds;
  return lo.seconds + (bytes - static_cast<double>(lo.bytes)) * (hi.seconds - lo.seconds) /
                          static_cast<double>(hi.bytes - lo.bytes);
}

// Seconds per byte of a copy or reduction of n bytes: measured at n where there are points.
double per_byte(const std::vector<pingpong_point>& measured, double n, double otherwise) {
  if (measured.size() < 2 || n <= 0) return otherwise;
  return interpolate(measured, n, true) / n;
}

}  // namespace

double message_seconds(const cost_params& m, double bytes, bool clean, double footprint) {
  const std::vector<pingpong_point>& measured = clean ? m.clean : m.forward;
  if (measured.size() < 2) return m.alpha + bytes * (clean && m.beta_clean > 0 ? m.beta_clean : m.beta);
  const double own = interpolate(measured, bytes, false);
  // The ping-pong that touches as many bytes as the call: the clean one has two buffers of its
  // message on each of its two ranks, the forward one a single one.
  const double reference = footprint / (clean ? 4 : 2);
  if (reference <= 0) return own;
  const double at_footprint = bytes * interpolate(measured, reference, false) / reference;
  // A call that touches more moves its bytes at least as slowly as that ping-pong does (its own
  // time stays the floor: a small message in a large call still pays its latency).
  if (reference >= bytes) return std::max(own, at_footprint);
  // One that touches less moves them as fast as that ping-pong, where the ping-pong's time is
  // mostly per byte; below, its time per byte would count a latency for every reference bytes.
  return reference >= bandwidth_bound_bytes ? at_footprint : own;
}

double call_footprint(collectives::collective c, int p, double n) {
  using collectives::collective;
  switch (c) {
    case collective::broadcast:
      return p * n;
    case collective::reduce:
      return (p + 1) * n;  // every rank's vector, and the root's result
    case collective::allreduce:
    case collective::scan:
    case collective::exscan:
    case collective::alltoall:
    case collective::alltoallv:
      return 2 * p * n;
    case collective::scatter:
    case collective::gather:
    case collective::scatterv:
    case collective::gatherv:
      return 2 * n;  // the root's p blocks, and one block on every rank
    case collective::allgather:
    case collective::allgatherv:
    case collective::reduce_scatter:
    case collective::reduce_scatterv:
      return (p + 1) * n;  // one block on every rank, and p blocks on every rank
    case collective::barrier:
      break;
  }
  return 0;
}

std::optional<schedule::platform> measured_platform(const cost_params& m, collectives::collective c, int p,
                                                    double n, const host_links* hosts, std::size_t eager_across) {
  schedule::platform net;
  net.name = "measured";
  net.ranks_per_host = p;
  net.gamma = per_byte(m.reduce, n, m.gamma);
  net.delta = per_byte(m.copy, n, m.delta);
  net.eager_bytes = static_cast<std::size_t>(m.eager);
  // On one node an eager message is the sender's copy into the receiver's queue and the receiver's
  // copy out of it: each rank's messages go one after another, the whole ping-pong time apart.
  net.eager_moves_at_match = net.whole_messages_apart = true;
  const double footprint = call_footprint(c, p, n);
  net.message = [m, footprint](std::uint64_t bytes, bool input, bool) {
    return message_seconds(m, static_cast<double>(bytes), input, footprint);
  };
  if (hosts == nullptr) return net;
  const host_layout_info& l = hosts->layout;
  if (l.map == "other" || l.host_of.size() != static_cast<std::size_t>(p)) return std::nullopt;
  net.host_of = l.host_of;
  net.eager_across = eager_across;
  // Within a host as on one node where ranks 0 and 1 share one (the run's ping-pongs), else by the
  // line of the ping-pong within a host; between hosts by that of the ping-pong between two, whose
  // slope is the shaped link's rate (host_model.hpp).
  const bool pair_on_host = l.host_of[0] == l.host_of[1];
  const cost_params intra = pair_on_host ? m : cost_params{hosts->alpha_intra, hosts->beta_intra, 0};
  const cost_params inter{hosts->alpha_inter, hosts->beta_inter, 0};
  net.message = [intra, inter, footprint](std::uint64_t bytes, bool input, bool across) {
    return across ? message_seconds(inter, static_cast<double>(bytes), false)
                  : message_seconds(intra, static_cast<double>(bytes), input, footprint);
  };
  return net;
}

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
  const std::string detached = property(text, "smpi/send-is-detached-thresh");
  net.eager_bytes = (detached.empty() ? 65536 : std::stoul(detached)) - 1;
  net.eager_moves_at_match = true;
  return net;
}

std::optional<double> priced_seconds(collectives::collective c, std::string_view algorithm, int p,
                                     std::size_t call_count, std::size_t elem_size, int root, double skew,
                                     const schedule::platform& net) {
  // A vendor internal: the library's schedule it runs, its exchanges concurrent (every send eager,
  // moving at the match: an exchange step costs one message, a send to a waiting receiver one too).
  const bool vendor = algorithm.starts_with("vendor:");
  const auto alg = collectives::parse_algorithm(
      vendor ? vendor_schedule(c, algorithm.substr(7), p, call_count) : algorithm);
  if (!alg || *alg == collectives::algorithm::vendor || *alg == collectives::algorithm::automatic)
    return std::nullopt;
  schedule::platform concurrent;
  if (vendor) {
    concurrent = net;
    concurrent.eager_bytes = std::numeric_limits<std::size_t>::max();
    concurrent.eager_across = 0;
    concurrent.eager_moves_at_match = true;
    concurrent.send_overhead = concurrent.recv_overhead = 0;
  }
  schedule::call_spec spec;
  spec.coll = c;
  spec.alg = *alg;
  spec.p = p;
  spec.count = call_count;
  spec.root = has_root(c) ? root : 0;
  spec.elem_size = elem_size;
  if (collectives::detail::is_v_variant(c)) {
    // As collbench deals them: blocks of `call_count` on average (v_counts); alltoallv's rank i
    // sends its block to every rank.
    const std::vector<std::size_t> blocks = v_counts(static_cast<std::size_t>(p) * call_count, p, skew);
    if (c == collectives::collective::alltoallv)
      for (std::size_t block : blocks) spec.counts.insert(spec.counts.end(), static_cast<std::size_t>(p), block);
    else
      spec.counts = blocks;
  }
  if (!net.host_of.empty()) {
    const int hosts = *std::max_element(net.host_of.begin(), net.host_of.end()) + 1;
    spec.hosts = {hosts, hosts > 1 && net.host_of[1] == 1};
  }
#if COLLBENCH_SCHEDULES
  return schedule::price(spec, vendor ? concurrent : net);
#else
  static_cast<void>(net);
  return std::nullopt;  // built without the trace hooks: nothing to record
#endif
}

}  // namespace collbench
