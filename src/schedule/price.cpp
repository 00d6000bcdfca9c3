// SPDX-License-Identifier: BSD-3-Clause
// The price of a recorded schedule (price.hpp): the checker's replay with a clock per rank.

#include "schedule/price.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <queue>

#include "collectives/error.hpp"

namespace collectives::detail::schedule {

int platform::host(int rank) const {
  return host_of.empty() ? rank / std::max(ranks_per_host, 1) : host_of[static_cast<std::size_t>(rank)];
}

int platform::links(int from, int to) const {
  const int a = host(from), b = host(to);
  if (a == b) return 0;
  if (torus.empty()) return hosts_per_switch == 0 || a / hosts_per_switch == b / hosts_per_switch ? 2 : 4;
  // A torus: the hops along each dimension, the short way round (the first dimension varies fastest).
  int hops = 0, x = a, y = b;
  for (const int d : torus) {
    const int along = std::abs(x % d - y % d);
    hops += std::min(along, d - along);
    x /= d, y /= d;
  }
  return hops;
}

double platform::wire(int from, const step& send, bool latency_only) const {
  const int n = links(from, send.peer);
  const std::uint64_t bytes = latency_only ? 0 : send.bytes;
  if (message) return message(bytes, send.input, n > 0, send.exchange);
  const auto m = static_cast<double>(bytes);
  double latency = n == 0 ? host_latency : n * link_latency, byte = n == 0 ? host_byte : link_byte;
  if (factors) {
    const auto [latency_factor, bandwidth_factor] = factors(send.bytes);
    latency *= latency_factor, byte /= bandwidth_factor;
  }
  return latency + m * byte;
}

std::string describe(const platform& net) {
  std::string where =
      net.torus.empty()
          ? (net.hosts_per_switch > 0 ? fmt::format("fat tree of {} hosts per leaf switch", net.hosts_per_switch)
                                      : std::string("one switch"))
          : fmt::format("torus {}", fmt::join(net.torus, "×"));
  return fmt::format(
      "{}: {} rank{} per host, {}; link {:.3g} µs, {:.4g} GB/s; on a host {:.3g} µs, {:.4g} GB/s; "
      "o_s {:.3g} µs, o_r {:.3g} µs; γ {:.4g} GB/s, δ {:.4g} GB/s; E {} B{}",
      net.name, net.ranks_per_host, net.ranks_per_host == 1 ? "" : "s", where, net.link_latency * 1e6,
      net.link_byte > 0 ? 1e-9 / net.link_byte : 0.0, net.host_latency * 1e6,
      net.host_byte > 0 ? 1e-9 / net.host_byte : 0.0, net.send_overhead * 1e6, net.recv_overhead * 1e6,
      net.gamma > 0 ? 1e-9 / net.gamma : 0.0, net.delta > 0 ? 1e-9 / net.delta : 0.0, net.eager_bytes,
      net.eager_moves_at_match ? " (eager messages move at the match)" : "");
}

void rank_clocks::start(std::size_t p) {
  t_.assign(p, 0.0);
  out_free_.assign(p, 0.0);
  flows_.clear();
  run_first_.assign(p, -1);
  run_link_free_.assign(p, 0.0);
  matched_.assign(p, -1.0);
  if (!keep_gaps_) receive_gap_.assign(p, -1.0);
  keep_gaps_ = gap_guessed_ = false;
  ranks_on_host_.clear();
  for (int r = 0; r < static_cast<int>(p); ++r) {
    const auto h = static_cast<std::size_t>(net_.host(r));
    if (h >= ranks_on_host_.size()) ranks_on_host_.resize(h + 1, 0);
    ++ranks_on_host_[h];
  }
  host_out_.assign(ranks_on_host_.size(), {});
  host_in_.assign(ranks_on_host_.size(), {});
  work_ = 0;
}

double rank_clocks::link_calendar::first_gap(double ready, double seconds) const {
  double start = ready;
  // The intervals do not overlap, so their ends are in order too: skip those over before `ready`.
  auto it = std::upper_bound(busy_.begin(), busy_.end(), ready,
                             [](double t, const std::pair<double, double>& b) { return t < b.second; });
  for (; it != busy_.end() && it->first < start + seconds; ++it) start = std::max(start, it->second);
  return start;
}

void rank_clocks::link_calendar::take(double start, double seconds) {
  if (seconds <= 0) return;
  const std::pair<double, double> interval{start, start + seconds};
  busy_.insert(std::upper_bound(busy_.begin(), busy_.end(), interval), interval);
}

double rank_clocks::through_host_links(int sender, int receiver, const step& sent, double ready) {
  const auto from = static_cast<std::size_t>(net_.host(sender)), to = static_cast<std::size_t>(net_.host(receiver));
  if (from == to || (ranks_on_host_[from] < 2 && ranks_on_host_[to] < 2)) return ready;
  const double seconds = net_.wire(sender, sent) - net_.wire(sender, sent, true);
  // The first instant both directions it needs are free for its bytes.
  double start = ready;
  for (double out = -1; out != start;) {
    out = host_out_[from].first_gap(start, seconds);
    start = host_in_[to].first_gap(out, seconds);
  }
  host_out_[from].take(start, seconds);
  host_in_[to].take(start, seconds);
  return start;
}

posting rank_clocks::send(int rank, const step& s, bool eager) {
  const auto r = static_cast<std::size_t>(rank);
  if (eager) t_[r] += net_.send_overhead;
  const double bytes = net_.wire(rank, s) - net_.wire(rank, s, true);
  int& first = run_first_[r];
  if (eager && !net_.whole_messages_apart) {
    // Its bytes take the link a latency after the send, once earlier runs' bytes have left; within
    // its run they share it (share_link).
    if (first < 0) {
      first = static_cast<int>(flows_.size());
      run_link_free_[r] = out_free_[r];
    }
    const double latency = net_.wire(rank, s, true);
    const double start = std::max(t_[r] + latency, run_link_free_[r]);
    // SimGrid's sharing penalty: the route's latency, and S bytes' time on each of its links.
    const int links = net_.links(rank, s.peer);
    const double penalty =
        latency + net_.sharing_bytes * (links == 0 ? net_.host_byte : links * net_.link_byte);
    flows_.push_back({start, latency, bytes, penalty > 0 ? 1 / penalty : 1, first, s.peer});
    out_free_[r] = std::max(out_free_[r], start) + bytes;
    return {t_[r], static_cast<int>(flows_.size()) - 1};
  }
  first = -1;
  // This message leaves once those the rank sent before have left (as if each left when sent:
  // their receivers are usually there first).
  const double leaves = std::max(t_[r], out_free_[r]);
  out_free_[r] = leaves + (net_.whole_messages_apart ? net_.wire(rank, s) : bytes);
  return {leaves};
}

void rank_clocks::share_link(int first) {
  // Weighted sharing: a virtual clock v runs at 1 / (the weights in flight) of real time, and a
  // flow of weight w that takes the link at v leaves when it reads v + its seconds / w. Where an
  // eager message moves only once its receive is posted, a flow to a peer that the run sends to
  // before waits for that one: its receiver posts the next receive once it has the last message.
  const auto from = static_cast<std::size_t>(first);
  std::size_t end = from;
  while (end < flows_.size() && flows_[end].first == first) ++end;
  if (end - from == 1) {  // alone on the link
    flows_[from].end = flows_[from].start + flows_[from].seconds;
    return;
  }
  using at = std::pair<double, std::size_t>;
  std::priority_queue<at, std::vector<at>, std::greater<>> waiting, in_flight;  // take the link; leave (v)
  thread_local std::vector<std::size_t> next_to_peer;
  thread_local std::vector<int> last_to;
  next_to_peer.assign(end - from, SIZE_MAX);
  if (last_to.size() < t_.size()) last_to.resize(t_.size(), -1);  // every entry −1 between runs
  for (std::size_t f = from; f < end; ++f) {
    int& last = last_to[static_cast<std::size_t>(flows_[f].peer)];
    if (last >= 0 && net_.eager_moves_at_match)
      next_to_peer[static_cast<std::size_t>(last) - from] = f;
    else
      waiting.emplace(std::max(flows_[f].start, flows_[f].receive + flows_[f].latency), f);
    last = static_cast<int>(f);
  }
  for (std::size_t f = from; f < end; ++f) last_to[static_cast<std::size_t>(flows_[f].peer)] = -1;
  const auto gap = [&](int peer) {
    const double known = receive_gap_[static_cast<std::size_t>(peer)];
    gap_guessed_ = gap_guessed_ || known < 0;
    return std::max(known, 0.0);
  };
  double now = 0, v = 0, weights = 0;
  while (!waiting.empty() || !in_flight.empty()) {
    const double leaves = in_flight.empty() ? HUGE_VAL : now + (in_flight.top().first - v) * weights;
    if (!waiting.empty() && waiting.top().first <= leaves) {
      const auto [takes, i] = waiting.top();
      waiting.pop();
      if (!in_flight.empty()) v += (takes - now) / weights;
      now = std::max(now, takes);
      in_flight.emplace(v + flows_[i].seconds / flows_[i].weight, i);
      weights += flows_[i].weight;
    } else {
      flow& f = flows_[in_flight.top().second];
      v = in_flight.top().first;
      now = leaves;
      f.end = now;
      weights = in_flight.size() > 1 ? weights - f.weight : 0;
      if (const std::size_t n = next_to_peer[in_flight.top().second - from]; n != SIZE_MAX)
        waiting.emplace(std::max(flows_[n].start,
                                 std::max(now + net_.recv_overhead + gap(flows_[n].peer), flows_[n].receive) +
                                     flows_[n].latency),
                        n);
      in_flight.pop();
    }
  }
}

void rank_clocks::match(int rank, const step& sent, int sender, bool eager, posting posted) {
  const auto r = static_cast<std::size_t>(rank);
  run_first_[r] = -1;
  double& t = t_[r];
  if (matched_[r] >= 0) receive_gap_[r] = t - matched_[r];
  const double wire = net_.wire(sender, sent);
  work_ += wire;
  if (eager) {
    double moves = net_.eager_moves_at_match ? std::max(posted.at, t) : posted.at;
    if (posted.flow >= 0) {
      // Its bytes leave as late as the link's sharing has them: as if alone from then on.
      flow& f = flows_[static_cast<std::size_t>(posted.flow)];
      if (net_.eager_moves_at_match) {
        f.receive = t;  // its receive is posted now: price the sharing again, with it there
        share_link(f.first);
      } else if (f.end < 0) {
        share_link(f.first);
      }
      moves = std::max(moves, f.end - f.seconds - f.latency);
    }
    const double arrival = through_host_links(sender, rank, sent, moves) + wire;
    t = std::max(t, arrival) + net_.recv_overhead;
  } else {
    // The sender has waited since it posted: both end when the message is through.
    t = through_host_links(sender, rank, sent, std::max(posted.at, t)) + wire;
    t_[static_cast<std::size_t>(sender)] = t;
  }
  matched_[r] = t;
}

void rank_clocks::local(int rank, const step& s) {
  const double per_byte = s.kind == op::reduce ? net_.gamma * static_cast<double>(elem_size_) : net_.delta;
  t_[static_cast<std::size_t>(rank)] += per_byte * static_cast<double>(s.bytes);
  work_ += per_byte * static_cast<double>(s.bytes);
}

double price(std::span<const rank_schedule> ranks, const platform& net, std::size_t elem_size) {
  rank_clocks clocks(net, elem_size);
  model m = model::eager(net.eager_bytes);
  if (net.eager_across != 0 && !net.host_of.empty()) {
    m.host_of = net.host_of;
    m.eager_across = net.eager_across;
  }
  verdict v = replay_timed(ranks, m, clocks);
  if (v.ok && clocks.gap_guessed()) {  // again, with every rank's time between receives known
    clocks.keep_gaps();
    v = replay_timed(ranks, m, clocks);
  }
  if (!v.ok) throw error(fmt::format("schedule: cannot price a call that does not run: {}", v.problem));
  const std::span<const double> t = clocks.clocks();
  const double last = t.empty() ? 0.0 : *std::max_element(t.begin(), t.end());
  // More ranks than cores on the host: they cannot all work at once.
  const bool shared = net.cores > 0 && static_cast<int>(ranks.size()) > net.cores;
  return shared ? std::max(last, clocks.work() / net.cores) : last;
}

double price(const call_spec& spec, const platform& net) {
  if (net.hosts > 0 && spec.p > static_cast<long long>(net.hosts) * std::max(net.ranks_per_host, 1))
    throw error(fmt::format("schedule: {} ranks do not fit {} ({} hosts of {} ranks)", spec.p, net.name, net.hosts,
                            net.ranks_per_host));
  call_spec as_run = spec;
  as_run.eager_bytes = net.eager_bytes;
  as_run.eager_bytes_across.reset();
  if (net.eager_across != 0) as_run.eager_bytes_across = net.eager_across;
  as_run.segments_across = net.segments_across;
  const int per_host = std::max(net.ranks_per_host, 1);
  if (net.host_of.empty()) as_run.hosts = {(spec.p + per_host - 1) / per_host, false};
  // Kept per thread: a tuner pricing many calls reuses the schedules' memory.
  thread_local std::vector<rank_schedule> all;
  record_call_into(as_run, {}, false, all);
  return price(std::span(all).first(static_cast<std::size_t>(spec.p)), net, spec.elem_size);
}

}  // namespace collectives::detail::schedule
