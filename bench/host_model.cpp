// SPDX-License-Identifier: BSD-3-Clause
#include "host_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <collectives/tuning.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <numeric>

#include "core/exchange_order.hpp"

namespace collbench {
namespace {

using collectives::collective;

constexpr double KiB = 1024;

struct message {
  int from, to;  // ranks of the whole run
  double bytes;
  bool reduced;  // the receiver reduces what it receives
};
using phase = std::vector<message>;
using groups = std::vector<std::vector<int>>;  // each group: its ranks, in the group's rank order

struct params {
  double as, bs, an, bn, g;
};

// The phases of a run, built step by step; every group of a step runs the same step at once.
struct schedule {
  const std::vector<int>& host_of;
  std::vector<phase> phases;

  // An exchange step: local rank i sends `bytes` to partner(i, q).first and receives from
  // .second; two phases in the transport's order.
  void exchange(const groups& gs, const std::function<std::pair<int, int>(int, int)>& partner, double bytes,
                bool reduce) {
    phase first, second;
    for (const std::vector<int>& grp : gs) {
      const int q = static_cast<int>(grp.size());
      for (int i = 0; i < q; ++i) {
        const auto [to, from] = partner(i, q);
        if (to < 0 || to == i) continue;
        const auto [to_to, to_from] = partner(to, q);
        const bool early = collectives::detail::sends_first(i, to, from, q) &&
                           !collectives::detail::sends_first(to, to_to, to_from, q);
        (early ? first : second).push_back({grp[i], grp[to], bytes, reduce});
      }
    }
    if (!first.empty()) phases.push_back(std::move(first));
    if (!second.empty()) phases.push_back(std::move(second));
  }
  // One-way messages (trees): local ranks (from, to) of every group, one phase.
  void sends(const groups& gs, const std::vector<std::pair<int, int>>& pairs, double bytes, bool reduce) {
    phase ph;
    for (const std::vector<int>& grp : gs)
      for (const auto& [f, t] : pairs)
        if (f < static_cast<int>(grp.size()) && t < static_cast<int>(grp.size()))
          ph.push_back({grp[f], grp[t], bytes, reduce});
    if (!ph.empty()) phases.push_back(std::move(ph));
  }

  split_seconds cost(const params& m, int hosts) const {
    split_seconds s;
    for (const phase& ph : phases) {
      std::vector<double> out(static_cast<std::size_t>(hosts)), in(static_cast<std::size_t>(hosts));
      for (const message& x : ph) {
        const int a = host_of[static_cast<std::size_t>(x.from)], b = host_of[static_cast<std::size_t>(x.to)];
        if (a != b) out[static_cast<std::size_t>(a)] += x.bytes, in[static_cast<std::size_t>(b)] += x.bytes;
      }
      double slowest = 0;
      bool crosses = false;
      for (const message& x : ph) {
        const int a = host_of[static_cast<std::size_t>(x.from)], b = host_of[static_cast<std::size_t>(x.to)];
        const double t =
            (a == b ? m.as + x.bytes * m.bs
                    : m.an + std::max(out[static_cast<std::size_t>(a)], in[static_cast<std::size_t>(b)]) *
                                 m.bn) +
            (x.reduced ? x.bytes * m.g : 0);
        slowest = std::max(slowest, t);
        crosses = crosses || a != b;
      }
      (crosses ? s.inter : s.intra) += slowest;
    }
    return s;
  }
  int crossing_phases() const {
    return static_cast<int>(std::count_if(phases.begin(), phases.end(), [&](const phase& ph) {
      return std::any_of(ph.begin(), ph.end(), [&](const message& x) {
        return host_of[static_cast<std::size_t>(x.from)] != host_of[static_cast<std::size_t>(x.to)];
      });
    }));
  }
};

bool power_of_two(int q) { return std::has_single_bit(static_cast<unsigned>(q)); }

std::pair<int, int> shift_by_one(int i, int q) { return {(i + 1) % q, (i - 1 + q) % q}; }

// The flat schedules, on every group at once; n = the vector (allreduce) or the whole result
// (allgather) of one group. False when the schedule is not modelled (a fold).
bool allreduce_ring(schedule& s, const groups& gs, double n) {
  const int q = static_cast<int>(gs.front().size());
  for (int k = 0; k < 2 * (q - 1); ++k) s.exchange(gs, shift_by_one, n / q, k < q - 1);
  return true;
}
bool reduce_scatter_ring(schedule& s, const groups& gs, double n) {
  const int q = static_cast<int>(gs.front().size());
  for (int k = 0; k < q - 1; ++k) s.exchange(gs, shift_by_one, n / q, true);
  return true;
}
bool allreduce_recursive_doubling(schedule& s, const groups& gs, double n) {
  const int q = static_cast<int>(gs.front().size());
  if (!power_of_two(q)) return false;
  for (int d = 1; d < q; d *= 2)
    s.exchange(
        gs,
        [d](int i, int) {
          return std::pair{i ^ d, i ^ d};
        },
        n, true);
  return true;
}
// The halving pairs neighbours first (distance 1, 2, …: half the vector at distance 1), the
// doubling undoes it from distance q/2 down to 1.
bool allreduce_rabenseifner(schedule& s, const groups& gs, double n) {
  const int q = static_cast<int>(gs.front().size());
  if (!power_of_two(q)) return false;
  double part = n;
  for (int d = 1; d < q; d *= 2) {
    part /= 2;
    s.exchange(
        gs,
        [d](int i, int) {
          return std::pair{i ^ d, i ^ d};
        },
        part, true);
  }
  for (int d = q / 2; d >= 1; d /= 2) {
    s.exchange(
        gs,
        [d](int i, int) {
          return std::pair{i ^ d, i ^ d};
        },
        part, false);
    part *= 2;
  }
  return true;
}
// automatic's choice for an all-reduce of n bytes on q ranks, asked of the library (its rule, or
// the decision table in force); false for a choice not modelled here.
bool allreduce_automatic(schedule& s, const groups& gs, double n) {
  const int q = static_cast<int>(gs.front().size());
  switch (collectives::automatic_choice(
      {.coll = collective::allreduce, .p = q, .bytes = static_cast<std::size_t>(n)})) {
    case collectives::algorithm::recursive_doubling:
      return allreduce_recursive_doubling(s, gs, n);
    case collectives::algorithm::rabenseifner:
      return allreduce_rabenseifner(s, gs, n);
    case collectives::algorithm::ring:
      return allreduce_ring(s, gs, n);
    default:
      return false;
  }
}
bool allgather_ring(schedule& s, const groups& gs, double n) {
  const int q = static_cast<int>(gs.front().size());
  for (int k = 0; k < q - 1; ++k) s.exchange(gs, shift_by_one, n / q, false);
  return true;
}
bool allgather_recursive_doubling(schedule& s, const groups& gs, double n) {
  const int q = static_cast<int>(gs.front().size());
  if (!power_of_two(q)) return false;
  for (int d = 1; d < q; d *= 2)
    s.exchange(
        gs,
        [d](int i, int) {
          return std::pair{i ^ d, i ^ d};
        },
        n / q * d, false);
  return true;
}
bool allgather_automatic(schedule& s, const groups& gs, double n) {
  const int q = static_cast<int>(gs.front().size());
  switch (collectives::automatic_choice(
      {.coll = collective::allgather, .p = q, .bytes = static_cast<std::size_t>(n)})) {
    case collectives::algorithm::recursive_doubling:
      return allgather_recursive_doubling(s, gs, n);
    case collectives::algorithm::ring:
      return allgather_ring(s, gs, n);
    default:
      return false;
  }
}
// Binomial trees from local rank 0 (core/binomial_tree.hpp with root 0): broadcast sends the
// largest subtree first, reduce is the same tree bottom-up.
std::vector<std::vector<std::pair<int, int>>> binomial_rounds(int q) {
  std::vector<std::vector<std::pair<int, int>>> rounds;
  for (int mask = static_cast<int>(std::bit_floor(static_cast<unsigned>(std::max(q - 1, 1)))); mask >= 1;
       mask /= 2) {
    std::vector<std::pair<int, int>> round;
    for (int r = 0; r + mask < q; r += 2 * mask) round.push_back({r, r + mask});
    rounds.push_back(round);
  }
  return rounds;
}
bool broadcast_binomial(schedule& s, const groups& gs, double n) {
  if (gs.front().size() > 1)
    for (const auto& round : binomial_rounds(static_cast<int>(gs.front().size())))
      s.sends(gs, round, n, false);
  return true;
}
bool reduce_binomial(schedule& s, const groups& gs, double n) {
  if (gs.front().size() < 2) return true;
  auto rounds = binomial_rounds(static_cast<int>(gs.front().size()));
  std::reverse(rounds.begin(), rounds.end());
  for (auto& round : rounds) {
    for (auto& [f, t] : round) std::swap(f, t);
    s.sends(gs, round, n, true);
  }
  return true;
}

// The groups of the hierarchical algorithms (core/hosts.hpp): each host's ranks; the ranks at
// each local rank in host order, reversed for odd local ranks; the first rank of every host.
struct host_groups {
  groups intra, across, leaders;
};
host_groups groups_of(const host_layout_info& l) {
  host_groups g;
  g.intra.resize(static_cast<std::size_t>(l.hosts));
  for (int r = 0; r < static_cast<int>(l.host_of.size()); ++r)
    g.intra[static_cast<std::size_t>(l.host_of[static_cast<std::size_t>(r)])].push_back(r);
  const int per_host = l.ranks_per_host;
  for (int i = 0; i < per_host; ++i) {
    std::vector<int> grp;
    for (int h = 0; h < l.hosts; ++h)
      grp.push_back(g.intra[static_cast<std::size_t>(h)][static_cast<std::size_t>(i)]);
    if (i % 2 == 1) std::reverse(grp.begin(), grp.end());
    g.across.push_back(grp);
  }
  std::vector<int> firsts;
  for (const auto& host : g.intra) firsts.push_back(host.front());
  g.leaders.push_back(firsts);
  return g;
}

// allreduce hierarchical on hosts of two ranks: the crossed ring (src/algorithms/allreduce/
// hierarchical.cpp). hosts[h] = {sender, receiver}.
bool allreduce_crossed_ring(schedule& s, const groups& hosts, double n) {
  const int H = static_cast<int>(hosts.size());
  const double b = n / H;
  const auto sender = [&](int h) { return hosts[static_cast<std::size_t>((h % H + H) % H)][0]; };
  const auto receiver = [&](int h) { return hosts[static_cast<std::size_t>((h % H + H) % H)][1]; };
  const auto phase_of = [&](auto&& from, auto&& to, bool reduced) {
    phase ph;
    for (int h = 0; h < H; ++h) ph.push_back({from(h), to(h), b, reduced});
    s.phases.push_back(std::move(ph));
  };
  const auto same = [](auto&& f) { return [f](int h) { return f(h); }; };
  const auto next = [](auto&& f) { return [f](int h) { return f(h + 1); }; };
  phase_of(same(receiver), same(sender), true);  // the receiver's input of the first block
  for (int k = 0; k < H - 1; ++k) {
    phase_of(same(sender), same(receiver), true);  // the sender's input of the arriving block
    phase_of(same(sender), next(receiver), true);  // across: partial sums
    if (k < H - 2) phase_of(same(receiver), same(sender), false);
  }
  for (int k = 0; k < H - 1; ++k) {
    phase_of(same(receiver), next(sender), false);  // across: final blocks
    if (k < H - 2) phase_of(same(sender), same(receiver), false);
  }
  phase_of(same(receiver), same(sender), false);  // the closing exchange, one side then the other
  phase_of(same(sender), same(receiver), false);
  return true;
}

// The schedule of `algorithm` for collbench's n bytes; false when not modelled.
bool build(schedule& s, collective c, std::string_view algorithm, const host_layout_info& l, double n) {
  const groups world{[&] {
    std::vector<int> all(l.host_of.size());
    std::iota(all.begin(), all.end(), 0);
    return all;
  }()};
  const bool hierarchical = algorithm == "hierarchical" && l.hosts > 1 && l.ranks_per_host > 1;
  const host_groups hg = hierarchical ? groups_of(l) : host_groups{};
  const double per_host = l.ranks_per_host;
  switch (c) {
    case collective::allreduce:
      if (hierarchical && l.ranks_per_host == 2) return allreduce_crossed_ring(s, hg.intra, n);
      if (hierarchical)
        return reduce_scatter_ring(s, hg.intra, n) && allreduce_automatic(s, hg.across, n / per_host) &&
               allgather_ring(s, hg.intra, n);
      if (algorithm == "ring") return allreduce_ring(s, world, n);
      if (algorithm == "recursive_doubling") return allreduce_recursive_doubling(s, world, n);
      if (algorithm == "rabenseifner") return allreduce_rabenseifner(s, world, n);
      return false;
    case collective::allgather:
      if (hierarchical)
        return allgather_automatic(s, hg.across, n / per_host) && allgather_ring(s, hg.intra, n);
      if (algorithm == "ring") return allgather_ring(s, world, n);
      if (algorithm == "recursive_doubling") return allgather_recursive_doubling(s, world, n);
      return false;
    case collective::broadcast:  // root 0; the steps where automatic picks binomial
      if (hierarchical)
        return (n < 12 * KiB || (l.hosts <= 2 && l.ranks_per_host <= 2)) &&
               broadcast_binomial(s, hg.leaders, n) && broadcast_binomial(s, hg.intra, n);
      if (algorithm == "binomial") return broadcast_binomial(s, world, n);
      return false;
    case collective::reduce:
      if (hierarchical)  // root 0; the sizes where automatic picks binomial
        return n < 2 * KiB && reduce_binomial(s, hg.intra, n) && reduce_binomial(s, hg.leaders, n);
      if (algorithm == "binomial") return reduce_binomial(s, world, n);
      return false;
    default:
      return false;
  }
}

// α: the one-way time of the smallest message; β: the slope between the two largest. Not the
// least-squares fit of model.cpp: a shaped link (a token bucket) lets a burst of a few hundred KiB
// through at the speed of the wire underneath, so only the largest messages see the link's rate,
// and a fit weighted towards the small ones would miss it.
void fit_link(const std::vector<pingpong_point>& points, double& alpha, double& beta) {
  alpha = beta = 0;
  if (points.size() < 2) return;
  const pingpong_point &a = points[points.size() - 2], &b = points.back();
  alpha = points.front().seconds;
  beta = std::max(0.0, (b.seconds - a.seconds) / static_cast<double>(b.bytes - a.bytes));
}

}  // namespace

std::string host_layout_info::describe() const {
  if (hosts <= 1) return "one host";
  if (ranks_per_host > 0) return fmt::format("{} hosts × {} ranks ({})", hosts, ranks_per_host, map);
  std::vector<int> sizes(static_cast<std::size_t>(hosts));
  for (int h : host_of) ++sizes[static_cast<std::size_t>(h)];
  return fmt::format("{} hosts ({} ranks)", hosts, fmt::join(sizes, " + "));
}

std::string host_layout_info::tag() const {
  if (hosts <= 1) return "";
  return ranks_per_host > 0 ? fmt::format("{}x{}{}", hosts, ranks_per_host, map == "block" ? "" : "-" + map)
                            : fmt::format("{}h", hosts);
}

host_links measure_host_links(MPI_Comm comm, bool pingpongs) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  // A host is named by its lowest rank, and hosts are numbered in the order of those.
  int lowest = rank;
  MPI_Allreduce(&rank, &lowest, 1, MPI_INT, MPI_MIN, node);
  MPI_Comm_free(&node);
  std::vector<int> lowest_of(static_cast<std::size_t>(size));
  MPI_Allgather(&lowest, 1, MPI_INT, lowest_of.data(), 1, MPI_INT, comm);
  host_links h;
  host_layout_info& l = h.layout;
  std::vector<int> number(static_cast<std::size_t>(size), -1), count;
  l.hosts = 0;
  for (int r = 0; r < size; ++r) {
    int& k = number[static_cast<std::size_t>(lowest_of[static_cast<std::size_t>(r)])];
    if (k < 0) k = l.hosts++, count.push_back(0);
    l.host_of.push_back(k);
    ++count[static_cast<std::size_t>(k)];
  }
  l.ranks_per_host =
      std::all_of(count.begin(), count.end(), [&](int c) { return c == count.front(); }) ? count.front() : 0;
  bool block = true, cyclic = true;
  for (int r = 0; r < size; ++r) {
    block = block &&
            (r == 0 || l.host_of[static_cast<std::size_t>(r)] >= l.host_of[static_cast<std::size_t>(r - 1)]);
    cyclic = cyclic && l.host_of[static_cast<std::size_t>(r)] == r % l.hosts;
  }
  l.map = block ? "block" : cyclic ? "cyclic" : "other";
  if (!pingpongs) return h;

  // Rank 0 against its next neighbour on its host, then against the first rank of another host.
  const auto partner = [&](bool same_host) {
    for (int r = 1; r < size; ++r)
      if ((l.host_of[static_cast<std::size_t>(r)] == l.host_of[0]) == same_host) return r;
    return -1;
  };
  for (const bool same_host : {true, false}) {
    const int other = partner(same_host);
    if (other < 0) continue;
    MPI_Comm pair;
    MPI_Comm_split(comm, rank == 0 || rank == other ? 0 : MPI_UNDEFINED, rank, &pair);
    MPI_Barrier(comm);
    std::vector<pingpong_point> points;
    if (pair != MPI_COMM_NULL) {
      points = pingpong(pair, rank == 0 ? 0 : 1);
      MPI_Comm_free(&pair);
    }
    double alpha = 0, beta = 0;
    if (rank == 0) fit_link(points, alpha, beta);
    double values[2] = {alpha, beta};
    MPI_Bcast(values, 2, MPI_DOUBLE, 0, comm);
    (same_host ? h.alpha_intra : h.alpha_inter) = values[0];
    (same_host ? h.beta_intra : h.beta_inter) = values[1];
    if (rank == 0) (same_host ? h.intra : h.inter) = std::move(points);
  }
  return h;
}

nlohmann::json to_json(const host_links& h) {
  const auto points = [](const std::vector<pingpong_point>& v) {
    nlohmann::json a = nlohmann::json::array();
    for (const pingpong_point& p : v) a.push_back({{"bytes", p.bytes}, {"one_way_us", p.seconds * 1e6}});
    return a;
  };
  const auto gbps = [](double beta) { return beta > 0 ? 1e-9 / beta : 0.0; };
  return {{"hosts", h.layout.hosts},
          {"ranks_per_host", h.layout.ranks_per_host},
          {"map", h.layout.map},
          {"host_of", h.layout.host_of},
          {"alpha_intra_us", h.alpha_intra * 1e6},
          {"beta_intra_GBps", gbps(h.beta_intra)},
          {"alpha_inter_us", h.alpha_inter * 1e6},
          {"beta_inter_GBps", gbps(h.beta_inter)},
          {"pingpong_intra", points(h.intra)},
          {"pingpong_inter", points(h.inter)}};
}

host_links host_links_from_json(const nlohmann::json& j) {
  const auto points = [](const nlohmann::json& a) {
    std::vector<pingpong_point> v;
    for (const nlohmann::json& p : a)
      v.push_back({p.at("bytes").get<std::size_t>(), p.at("one_way_us").get<double>() * 1e-6});
    return v;
  };
  const auto beta = [](double gbps) { return gbps > 0 ? 1e-9 / gbps : 0.0; };
  host_links h;
  h.layout.hosts = j.at("hosts").get<int>();
  h.layout.ranks_per_host = j.at("ranks_per_host").get<int>();
  h.layout.map = j.at("map").get<std::string>();
  h.layout.host_of = j.at("host_of").get<std::vector<int>>();
  h.alpha_intra = j.at("alpha_intra_us").get<double>() * 1e-6;
  h.beta_intra = beta(j.at("beta_intra_GBps").get<double>());
  h.alpha_inter = j.at("alpha_inter_us").get<double>() * 1e-6;
  h.beta_inter = beta(j.at("beta_inter_GBps").get<double>());
  h.intra = points(j.at("pingpong_intra"));
  h.inter = points(j.at("pingpong_inter"));
  return h;
}

std::optional<split_seconds> predict_across_hosts(collective c, std::string_view algorithm,
                                                  const host_links& h, double n, double gamma) {
  if (h.layout.host_of.size() < 2) return std::nullopt;
  schedule s{h.layout.host_of, {}};
  if (!build(s, c, algorithm, h.layout, n)) return std::nullopt;
  return s.cost({h.alpha_intra, h.beta_intra, h.alpha_inter, h.beta_inter, gamma}, h.layout.hosts);
}

std::string host_formula(collective c, std::string_view algorithm, const host_layout_info& l) {
  if (l.host_of.size() < 2) return {};
  if (algorithm == "hierarchical" && l.hosts > 1 && l.ranks_per_host > 1) {
    switch (c) {
      case collective::allreduce:
        if (l.ranks_per_host == 2)
          return "crossed ring across H hosts: intra (3H−2)(α_s + n/H·β_s); inter 2(H−1)(α_n + n/H·β_n), one "
                 "stream per link direction; + 2(H−1)/H·nγ";
        return "intra 4(L−1)α_s + 4(L−1)/L·nβ_s + (L−1)/L·nγ; inter (Rabenseifner across H, L shards, links "
               "shared both ways) 4 log H·α_n + 2(H−1)/H·nβ_n + (H−1)/H·(n/L)γ";
      case collective::allgather:
        return "inter (recursive doubling or ring across H, L bundles) 2 log H·α_n + (H−1)/H·nβ_n; intra "
               "2(L−1)α_s + 2(L−1)/L·nβ_s";
      case collective::broadcast:
        return "inter log H(α_n + nβ_n); intra log L(α_s + nβ_s)";
      case collective::reduce:
        return "intra log L(α_s + nβ_s + nγ); inter log H(α_n + nβ_n + nγ)";
      default:
        return {};
    }
  }
  schedule s{l.host_of, {}};
  // The step structure does not depend on n; 1 MiB only names a size for the rules above.
  if (!build(s, c, algorithm, l, 1 << 20)) return {};
  return fmt::format(
      "{} of its {} phases cross hosts ({} map), each α_n + Mβ_n, M the bytes on the busiest "
      "link direction; the others α_s + mβ_s",
      s.crossing_phases(), s.phases.size(), l.map);
}

}  // namespace collbench
