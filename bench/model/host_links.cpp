// SPDX-License-Identifier: BSD-3-Clause
#include "model/host_links.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace collbench {
namespace {

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

}  // namespace collbench
