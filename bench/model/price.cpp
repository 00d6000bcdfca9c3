// SPDX-License-Identifier: BSD-3-Clause
#include "model/price.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#include "dispatch/registry.hpp"
#include "kit/collective_traits.hpp"
#include "kit/eager.hpp"
#include "measure/metrics.hpp"
#include "vendors/ompi41.hpp"

namespace collbench {
namespace {

using collectives::collective;

// An exchange of `bytes` each way that both partners send first (at most E): the measured
// exchange's time, where measured. Its one message carries the exchange's whole time, so that the
// step ends one exchange after both partners arrive.
std::optional<double> exchange_seconds(const cost_params& m, std::uint64_t bytes, bool exchange,
                                       std::size_t eager) {
  if (!exchange || m.exchange.size() < 2 || bytes > eager || bytes > m.exchange.back().bytes)
    return std::nullopt;
  const double at = static_cast<double>(std::max<std::uint64_t>(bytes, 1));
  return measured_per_byte(m.exchange, at, 0) * at;
}

}  // namespace

std::optional<schedule::platform> measured_platform(const cost_params& m, collectives::collective c, int p,
                                                    double n, const host_links* run_hosts,
                                                    const collectives::eager_limits* eager) {
  const bool across = run_hosts != nullptr && run_hosts->layout.hosts > 1;
  // Hosts of several ranks each: messages between them cost the ping-pong between two, E theirs.
  // With one rank a host every message is between hosts, and the run's ping-pong is one of them.
  const bool several = across && run_hosts->layout.ranks_per_host != 1;
  const host_links* hosts = several ? run_hosts : nullptr;
  schedule::platform net;
  net.name = "measured";
  net.ranks_per_host = p;
  net.gamma = measured_per_byte(m.reduce, n, m.gamma);
  net.delta = measured_per_byte(m.copy, n, m.delta);
  net.eager_bytes = !eager ? 0 : collectives::detail::eager_to_peer(*eager, !across || several);
  // On one node an eager message is the sender's copy into the receiver's queue and the receiver's
  // copy out of it: each rank's messages go one after another, the whole ping-pong time apart.
  net.eager_moves_at_match = net.whole_messages_apart = true;
  const double footprint = call_footprint(c, p, n);
  cost_params intra = m, inter = m;  // no message crosses hosts without `hosts`
  if (hosts != nullptr) {
    const host_layout_info& l = hosts->layout;
    if (l.map == "other" || l.host_of.size() != static_cast<std::size_t>(p)) return std::nullopt;
    net.host_of = l.host_of;
    if (eager != nullptr) net.eager_across = eager->other_host, net.segments_across = eager->segments_across;
    // Within a host as on one node where ranks 0 and 1 share one (the run's ping-pongs), else by
    // the line of the ping-pong within a host; between hosts by that of the ping-pong between two,
    // whose slope is the shaped link's rate (host_links.hpp).
    if (l.host_of[0] != l.host_of[1]) intra = {hosts->alpha_intra, hosts->beta_intra, 0};
    inter = {hosts->alpha_inter, hosts->beta_inter, 0};
  }
  net.message = [intra, inter, footprint, e = net.eager_bytes](std::uint64_t bytes, bool input, bool across,
                                                               bool exchange) {
    if (across) return message_seconds(inter, static_cast<double>(bytes), false);
    return exchange_seconds(intra, bytes, exchange, e)
        .value_or(message_seconds(intra, static_cast<double>(bytes), input, footprint));
  };
  return net;
}

std::string_view textbook_cost(collective c, std::string_view algorithm, int p) {
  if (algorithm.starts_with("vendor:")) algorithm = vendor_runs(c, algorithm.substr(7), p, SIZE_MAX);
  const auto alg = collectives::parse_selection(algorithm);
  const collectives::detail::algorithm_descriptor* d =
      alg ? collectives::detail::find_algorithm(c, alg->alg) : nullptr;
  return d != nullptr ? d->cost : std::string_view{};
}

std::optional<double> priced_seconds(collectives::collective c, std::string_view algorithm, int p,
                                     std::size_t call_count, std::size_t elem_size, int root, double skew,
                                     const schedule::platform& net) {
  // A vendor internal that runs one of the library's schedules: that schedule, every exchange with
  // both sides sending first and every send returning at once, as the MPI library's concurrent
  // send-receives and nonblocking sends do.
  schedule::platform vendor_net;
  const bool vendor = algorithm.starts_with("vendor:");
  if (vendor) {
    algorithm = vendor_runs(c, algorithm.substr(7), p, call_count);
    vendor_net = net;
    vendor_net.eager_bytes = vendor_net.eager_across = std::numeric_limits<std::uint32_t>::max();
  }
  const auto alg = collectives::parse_selection(algorithm);  // a row name: "knomial:8" too
  if (!alg || alg->alg == collectives::algorithm::vendor || alg->alg == collectives::algorithm::automatic)
    return std::nullopt;
  schedule::call_spec spec;
  spec.coll = c;
  spec.alg = alg->alg;
  spec.radix = alg->radix;
  spec.p = p;
  spec.count = call_count;
  spec.root = has_root(c) ? root : 0;
  spec.elem_size = elem_size;
  if (collectives::detail::is_v_variant(c)) {
    // As collbench deals them: blocks of `call_count` on average (v_counts); alltoallv's rank i
    // sends its block to every rank.
    const std::vector<std::size_t> blocks = v_counts(static_cast<std::size_t>(p) * call_count, p, skew);
    if (c == collectives::collective::alltoallv)
      for (std::size_t block : blocks)
        spec.counts.insert(spec.counts.end(), static_cast<std::size_t>(p), block);
    else
      spec.counts = blocks;
  }
  if (!net.host_of.empty()) {
    const int hosts = *std::max_element(net.host_of.begin(), net.host_of.end()) + 1;
    spec.hosts = {hosts, hosts > 1 && net.host_of[1] == 1};
  }
#if COLLBENCH_SCHEDULES
  return schedule::price(spec, vendor ? vendor_net : net);
#else
  static_cast<void>(net);
  return std::nullopt;  // built without the trace hooks: nothing to record
#endif
}

}  // namespace collbench
