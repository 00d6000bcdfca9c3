// SPDX-License-Identifier: BSD-3-Clause
#include "report/trace_view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <collectives/algorithm.hpp>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <tuple>

#include "kit/collective_traits.hpp"

namespace collbench {
namespace {

using nlohmann::json;

int pid_of(const json& doc) {
  for (const json& e : doc.at("traceEvents"))
    if (e.contains("pid")) return e.at("pid").get<int>();
  return -1;
}

std::string metadata_name(const json& doc, const std::string& name) {
  for (const json& e : doc.at("traceEvents"))
    if (e.value("ph", "") == "M" && e.value("name", "") == name) return e.at("args").value("name", "");
  return {};
}

}  // namespace

json merge_traces(const std::vector<json>& ranks, std::vector<std::string>& warnings) {
  // Offsets (this rank's clock minus the other's, µs) as edges of a graph over world ranks.
  std::map<int, std::vector<std::pair<int, double>>> edges;
  std::map<int, std::string> hosts;
  for (const json& doc : ranks) {
    const int pid = pid_of(doc);
    hosts[pid] = metadata_name(doc, "host");
    for (const json& e : doc.at("traceEvents")) {
      if (e.value("ph", "") != "M" || e.value("name", "") != "clock_offset") continue;
      const int reference = e.at("args").at("reference").get<int>();
      const double offset = e.at("args").at("offset_us").get<double>();
      edges[pid].push_back({reference, offset});
      edges[reference].push_back({pid, -offset});
    }
  }
  // Same host, same clock: offset exactly 0 (what the ping-pong estimates within its error).
  for (const auto& [a, host_a] : hosts)
    for (const auto& [b, host_b] : hosts)
      if (a != b && !host_a.empty() && host_a == host_b) edges[a].push_back({b, 0.0});
  std::map<int, double> offset;  // clock minus rank 0's (the lowest rank present)
  if (!hosts.empty()) {
    std::queue<int> next;
    offset[hosts.begin()->first] = 0;
    next.push(hosts.begin()->first);
    while (!next.empty()) {
      const int r = next.front();
      next.pop();
      for (const auto& [other, o] : edges[r])
        if (!offset.contains(other)) {
          offset[other] = offset[r] - o;  // other − r = −(r − other)
          next.push(other);
        }
    }
  }
  for (const auto& [pid, host] : hosts)
    if (!offset.contains(pid))
      warnings.push_back(fmt::format("rank {} ({}): no clock offset links it to rank {}; left unshifted", pid,
                                     host, hosts.begin()->first));
  double start = std::numeric_limits<double>::infinity();
  for (const json& doc : ranks) {
    const double shift = offset.contains(pid_of(doc)) ? offset[pid_of(doc)] : 0.0;
    for (const json& e : doc.at("traceEvents"))
      if (e.contains("ts")) start = std::min(start, e.at("ts").get<double>() - shift);
  }
  json merged = {{"displayTimeUnit", "ns"}, {"traceEvents", json::array()}};
  json& out = merged["traceEvents"];
  for (const json& doc : ranks) {
    const double shift = offset.contains(pid_of(doc)) ? offset[pid_of(doc)] : 0.0;
    for (json e : doc.at("traceEvents")) {
      if (e.contains("ts")) e["ts"] = std::round((e.at("ts").get<double>() - shift - start) * 1000) / 1000;
      out.push_back(std::move(e));
    }
  }
  json aligned = json::object();
  for (const auto& [pid, o] : offset) aligned[std::to_string(pid)] = o;
  merged["otherData"] = {{"clock_offsets_us", aligned},
                         {"note", "times shifted onto the lowest rank's clock, 0 = the first event"}};
  return merged;
}

namespace {

using collectives::collective;

struct event {
  std::string kind;  // send, recv, reduce, copy
  double ts = 0, dur = 0;
  int peer = -1;  // world rank
  long long seq = -1;
  std::size_t bytes = 0;
  int first = -1, count = 0, parts = 0;  // blocks
  double x0 = 0, x1 = 0;                 // on the drawn axis
};

struct lane {
  int pid = -1;
  json call;
  std::vector<event> events;
};

std::string blocks_text(const event& e) {
  if (e.count <= 0) return fmt::format("{} B", e.bytes);
  if (e.count == 1) return fmt::format("b{}", e.first);
  if (e.first + e.count <= e.parts) return fmt::format("b{}-{}", e.first, e.first + e.count - 1);
  return fmt::format("b{}-{},b0-{}", e.first, e.parts - 1, (e.first + e.count) % e.parts - 1);
}

// Who holds what before the first message, for the collectives whose state the picture shows.
std::optional<std::vector<std::vector<std::uint64_t>>> initial_state(collective c, int p, int parts,
                                                                     int root) {
  std::vector<std::vector<std::uint64_t>> held(
      static_cast<std::size_t>(p), std::vector<std::uint64_t>(static_cast<std::size_t>(parts), 0));
  switch (c) {
    case collective::reduce:
    case collective::allreduce:
    case collective::reduce_scatter:
    case collective::reduce_scatterv:
      for (int r = 0; r < p; ++r)
        for (int b = 0; b < parts; ++b) held[r][b] = std::uint64_t{1} << r;
      return held;
    case collective::gather:
    case collective::allgather:
    case collective::gatherv:
    case collective::allgatherv:
      if (parts != p) return std::nullopt;
      for (int r = 0; r < p; ++r) held[r][r] = std::uint64_t{1} << r;
      return held;
    case collective::broadcast:
    case collective::scatter:
    case collective::scatterv:
      for (int b = 0; b < parts; ++b) held[root][b] = std::uint64_t{1} << root;
      return held;
    default:
      return std::nullopt;
  }
}

std::string quote(const std::string& s) {
  std::string out;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

// White → blue by the fraction of ranks' inputs a cell holds; the complete block is dark.
std::string cell_colour(double f) {
  if (f <= 0) return "#f4f4f4";
  const auto mix = [&](int a, int b) { return static_cast<int>(a + (b - a) * f); };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(0xdd, 0x1f), mix(0xe8, 0x4e), mix(0xf6, 0x8c));
}

}  // namespace

std::string draw_call(const json& merged, const std::string& png, time_axis axis) {
  // The last call of each rank, and the events inside it.
  std::map<int, lane> lanes_by_pid;
  for (const json& e : merged.at("traceEvents"))
    if (e.value("cat", "") == "call" && e.value("ph", "") == "X") {
      lane& l = lanes_by_pid[e.at("pid").get<int>()];
      if (l.call.is_null() || e.at("ts").get<double>() >= l.call.at("ts").get<double>()) l.call = e;
    }
  if (lanes_by_pid.empty()) return "the trace holds no call";
  const json any_call = lanes_by_pid.begin()->second.call;
  const std::string coll_name = any_call.at("args").at("collective");
  const std::string alg_name = any_call.at("args").at("algorithm");
  const int p = any_call.at("args").at("comm_size").get<int>();
  if (static_cast<int>(lanes_by_pid.size()) != p)
    return fmt::format("the trace holds {} ranks of a {}-rank call", lanes_by_pid.size(), p);
  if (p > 16) return fmt::format("at most 16 ranks can be drawn, the call has {}", p);
  std::vector<lane> lanes(static_cast<std::size_t>(p));
  std::map<int, int> lane_of_pid;
  for (auto& [pid, l] : lanes_by_pid) {
    const int r = l.call.at("args").at("comm_rank").get<int>();
    l.pid = pid;
    lane_of_pid[pid] = r;
    lanes[r] = std::move(l);
  }
  double t_start = std::numeric_limits<double>::infinity(), t_end = -t_start;
  for (const lane& l : lanes) {
    t_start = std::min(t_start, l.call.at("ts").get<double>());
    t_end = std::max(t_end, l.call.at("ts").get<double>() + l.call.at("dur").get<double>());
  }
  for (const json& e : merged.at("traceEvents")) {
    const std::string cat = e.value("cat", "");
    if (e.value("ph", "") != "X" || (cat != "send" && cat != "recv" && cat != "reduce" && cat != "copy"))
      continue;
    const int pid = e.at("pid").get<int>();
    if (!lane_of_pid.contains(pid)) continue;
    lane& l = lanes[lane_of_pid[pid]];
    const double ts = e.at("ts").get<double>(), call_ts = l.call.at("ts").get<double>();
    if (ts < call_ts || ts > call_ts + l.call.at("dur").get<double>()) continue;
    event ev;
    ev.kind = cat;
    ev.ts = ts;
    ev.dur = e.at("dur").get<double>();
    const json& a = e.at("args");
    ev.bytes = a.value("bytes", std::size_t{0});
    ev.peer = a.value("peer", -1);
    ev.seq = a.value("seq", -1LL);
    if (a.contains("blocks")) {
      ev.first = a.at("blocks")[0].get<int>();
      ev.count = a.at("blocks")[1].get<int>();
      ev.parts = a.value("parts", 0);
    }
    l.events.push_back(ev);
  }
  for (lane& l : lanes)
    std::stable_sort(l.events.begin(), l.events.end(), [](auto& a, auto& b) { return a.ts < b.ts; });

  const collective coll = *collectives::parse_collective(coll_name);
  const int root = any_call.at("args").value("root", 0);
  int parts = 0;
  bool mixed = false, unannotated_data = false;
  for (const lane& l : lanes)
    for (const event& e : l.events) {
      if (e.count > 0) {
        if (parts != 0 && e.parts != parts) mixed = true;
        parts = std::max(parts, e.parts);
      } else if ((e.kind == "send" || e.kind == "recv") && e.bytes > 0) {
        unannotated_data = true;
      }
    }
  const bool vector_collective =
      coll == collective::broadcast || coll == collective::reduce || coll == collective::allreduce;
  bool show_state = !mixed && (parts > 0 ? !unannotated_data || vector_collective : vector_collective);
  if (parts == 0) parts = 1;
  std::optional<std::vector<std::vector<std::uint64_t>>> held = initial_state(coll, p, parts, root);
  if (!held) show_state = false;

  // Replays the schedule: sends before the receives that match them (by source, destination and
  // sequence number), placing each event on the logical axis and carrying block contents.
  struct in_flight {
    double start;
    std::vector<std::uint64_t> content;
  };
  std::map<std::tuple<int, int, long long>, in_flight> messages;
  std::vector<std::size_t> next(static_cast<std::size_t>(p), 0);
  std::vector<double> clock(static_cast<std::size_t>(p), 0);
  std::vector<std::vector<std::vector<std::uint64_t>>> states(static_cast<std::size_t>(p));
  const auto carried = [&](const event& e) {
    std::vector<bool> in(static_cast<std::size_t>(parts), e.count <= 0);
    for (int i = 0; i < e.count; ++i) in[(e.first + i) % parts] = true;
    return in;
  };
  struct arrow {
    int from, to;
    double x0, x1;
    std::string label;
  };
  std::vector<arrow> arrows;
  for (bool progress = true; progress;) {
    progress = false;
    for (int r = 0; r < p; ++r) {
      lane& l = lanes[r];
      while (next[r] < l.events.size()) {
        event& e = l.events[next[r]];
        const double real0 = e.ts - t_start, real1 = e.ts + e.dur - t_start;
        if (e.kind == "send") {
          in_flight m{clock[r], {}};
          if (held) {
            m.content.assign(static_cast<std::size_t>(parts), 0);
            const std::vector<bool> in = carried(e);
            for (int b = 0; b < parts; ++b)
              if (in[b]) m.content[b] = (*held)[r][b];
          }
          messages[{l.pid, e.peer, e.seq}] = std::move(m);
          e.x0 = clock[r];
          e.x1 = clock[r] += 1;
        } else if (e.kind == "recv") {
          const auto it = messages.find({e.peer, l.pid, e.seq});
          if (it == messages.end()) break;  // its send is not placed yet
          e.x0 = clock[r];
          e.x1 = clock[r] = std::max(clock[r], it->second.start) + 1;
          if (held)
            for (int b = 0; b < parts; ++b) (*held)[r][b] |= it->second.content[b];
          if (held) states[r].push_back((*held)[r]);
          messages.erase(it);
        } else {
          e.x0 = clock[r];
          e.x1 = clock[r] += 0.5;
        }
        if (axis == time_axis::real) e.x0 = real0, e.x1 = real1;
        ++next[r];
        progress = true;
      }
    }
  }
  for (int r = 0; r < p; ++r)
    if (next[r] < lanes[r].events.size())
      return fmt::format("rank {}'s receive #{} has no matching send in the trace", r, next[r]);
  if (!messages.empty())
    return fmt::format("{} sends have no matching receive in the trace (the first: rank {} to world rank {})",
                       messages.size(), lane_of_pid.at(std::get<0>(messages.begin()->first)),
                       std::get<1>(messages.begin()->first));
  // Arrows: each send to its receive.
  std::map<std::tuple<int, int, long long>, const event*> sends;
  for (const lane& l : lanes)
    for (const event& e : l.events)
      if (e.kind == "send") sends[{l.pid, e.peer, e.seq}] = &e;
  for (int r = 0; r < p; ++r)
    for (const event& e : lanes[r].events)
      if (e.kind == "recv") {
        const event& s = *sends.at({e.peer, lanes[r].pid, e.seq});
        if (s.bytes != e.bytes)
          return fmt::format("rank {} receives {} bytes from rank {} which sent {}", r, e.bytes,
                             lane_of_pid.at(e.peer), s.bytes);
        arrows.push_back({lane_of_pid.at(e.peer), r, s.x0, e.x1, blocks_text(s)});
      }

  double x_max = 0;
  for (const lane& l : lanes)
    for (const event& e : l.events) x_max = std::max(x_max, e.x1);
  if (axis == time_axis::real) x_max = std::max(x_max, t_end - t_start);
  if (x_max <= 0) x_max = 1;

  std::size_t columns = 0;
  for (const auto& s : states) columns = std::max(columns, s.size());
  if (columns == 0) show_state = false;

  // The picture.
  const int width = 1000;
  const int top_height = 110 + 42 * p;
  const int state_height = show_state ? 70 + 16 * p : 0;
  const int height = top_height + state_height;
  const std::string gp_path = png.substr(0, png.size() - (png.ends_with(".png") ? 4 : 0)) + ".gp";
  std::ofstream gp(gp_path);
  if (!gp) return fmt::format("cannot write '{}'", gp_path);
  const std::size_t count = any_call.at("args").at("count").get<std::size_t>();
  const std::size_t elem_size = any_call.at("args").at("elem_size").get<std::size_t>();
  std::size_t messages_total = 0;
  for (const lane& l : lanes)
    for (const event& e : l.events) messages_total += e.kind == "send";
  gp << fmt::format("# Drawn by collbench --draw from a trace of one call; gnuplot {} redraws it.\n",
                    gp_path);
  gp << fmt::format("set terminal png size {},{} font 'DejaVuSans,8' noenhanced\n", width, height);
  gp << fmt::format("set output '{}'\nset multiplot\n", png);
  gp << fmt::format("set origin 0,{:.4f}\nset size 1,{:.4f}\n", static_cast<double>(state_height) / height,
                    static_cast<double>(top_height) / height);
  gp << fmt::format("set title \"{} {}: p = {}, count {} ({} B per element), {} messages, {} in all\"\n",
                    coll_name, alg_name, p, count, elem_size, messages_total,
                    axis == time_axis::real ? fmt::format("{:.1f} µs", t_end - t_start)
                                            : fmt::format("{:.0f} steps", std::ceil(x_max)));
  gp << "set lmargin 10\nset rmargin 3\nset tmargin 4\nunset key\nset border 3\nset xtics nomirror\nset "
        "ytics nomirror\n";
  gp << fmt::format("set xrange [0:{}]\nset yrange [{}:-0.7]\n", x_max * 1.02, p - 0.5);
  gp << (axis == time_axis::real
             ? "set xlabel \"µs from the call's first start (clocks aligned)\"\n"
             : "set xlabel \"logical time: a send or receive takes one unit, a receive ends one "
               "unit after its send starts, a local reduction or copy half a unit\"\n");
  gp << "set ytics (";
  for (int r = 0; r < p; ++r) gp << fmt::format("{}\"rank {}\" {}", r ? ", " : "", r, r);
  gp << ")\n";
  int object = 1;
  const std::map<std::string, std::string> colour = {
      {"send", "#4c72b0"}, {"recv", "#55a868"}, {"reduce", "#dd8452"}, {"copy", "#999999"}};
  for (int r = 0; r < p; ++r) {
    gp << fmt::format("set arrow from 0,{0} to {1},{0} nohead lc rgb '#dddddd' lw 1 back\n", r, x_max * 1.02);
    for (const event& e : lanes[r].events) {
      const double h = e.kind == "send" || e.kind == "recv" ? 0.14 : 0.22;
      const double x1 = std::max(e.x1, e.x0 + x_max * 0.002);
      gp << fmt::format(
          "set object {} rect from {:.4f},{:.3f} to {:.4f},{:.3f} fc rgb '{}' fs solid 0.85 noborder\n",
          object++, e.x0, r - h, x1, r + h, colour.at(e.kind));
    }
  }
  for (const arrow& a : arrows) {
    gp << fmt::format(
        "set arrow from {:.4f},{} to {:.4f},{} head filled size screen 0.007,20 lc rgb '#333333' lw 1 "
        "front\n",
        a.x0, a.from, a.x1, a.to);
    const double mx = a.x0 + (a.x1 - a.x0) * 0.45, my = a.from + (a.to - a.from) * 0.45;
    gp << fmt::format("set label \"{}\" at {:.4f},{:.3f} center font ',7' tc rgb '#8b0000' front\n",
                      quote(a.label), mx, my);
  }
  // The legend, one line above the title.
  const double legend_y = 1 - 12.0 / height;
  double legend_x = 0.18;
  for (const auto& [text, rgb] : std::vector<std::pair<std::string, std::string>>{
           {"■ send", "#4c72b0"},
           {"■ receive (with its wait)", "#55a868"},
           {"■ reduction", "#dd8452"},
           {"■ copy", "#999999"},
           {"→ message, labelled with the blocks it carries", "#333333"}}) {
    gp << fmt::format("set label \"{}\" at screen {:.3f},{:.4f} left tc rgb '{}'\n", text, legend_x, legend_y,
                      rgb);
    legend_x += 0.012 + 0.0068 * static_cast<double>(text.size());
  }
  gp << "plot NaN notitle\n";
  gp << "unset object\nunset arrow\nunset label\nunset key\n";

  if (show_state) {
    const bool reduction = collectives::detail::reduces(coll);
    gp << fmt::format("set origin 0,0\nset size 1,{:.4f}\n", static_cast<double>(state_height) / height);
    const std::size_t grids = columns + 1;
    const double grid_width = parts + 1.0;
    gp << fmt::format(
        "set title \"{}\"\n",
        reduction
            ? fmt::format("state after each receive: rank (row) × block (column) = how many ranks' inputs of "
                          "that block the rank holds (dark: all {})",
                          p)
            : "state after each receive: rank (row) × block (column), filled = the rank holds that block");
    gp << "unset xtics\nunset ytics\nunset border\nunset xlabel\n";
    gp << fmt::format("set xrange [-0.5:{}]\nset yrange [{}:-1.2]\n", grids * grid_width, p + 0.2);
    gp << "set lmargin 10\nset rmargin 3\n";
    for (int r = 0; r < p; ++r)
      gp << fmt::format("set label \"rank {}\" at -0.6,{} right font ',8'\n", r, r + 0.5);
    for (std::size_t k = 0; k < grids; ++k) {
      const double x = k * grid_width;
      gp << fmt::format("set label \"{}\" at {:.3f},-0.5 center font ',8'\n",
                        k == 0 ? "start" : fmt::format("#{}", k), x + parts / 2.0);
      auto start = initial_state(coll, p, parts, root);
      for (int r = 0; r < p; ++r) {
        const std::vector<std::uint64_t>& row = k == 0 ? (*start)[r]
                                                : states[r].empty()
                                                    ? (*start)[r]
                                                    : states[r][std::min(k, states[r].size()) - 1];
        for (int b = 0; b < parts; ++b) {
          const int n = std::popcount(row[b]);
          const double f = reduction ? static_cast<double>(n) / p : (n > 0 ? 0.55 : 0.0);
          gp << fmt::format(
              "set object {} rect from {:.3f},{} to {:.3f},{} fc rgb '{}' fs solid 1 border lc rgb "
              "'#ffffff'\n",
              object++, x + b, r, x + b + 1, r + 1, cell_colour(f));
          if (n > 0)
            gp << fmt::format("set label \"{}\" at {:.3f},{:.2f} center font ',7' tc rgb '{}'\n",
                              reduction ? std::to_string(n) : fmt::format("b{}", b), x + b + 0.5, r + 0.55,
                              f > 0.6 ? "#ffffff" : "#222222");
        }
      }
    }
    gp << "plot NaN notitle\n";
  }
  gp << "unset multiplot\n";
  gp.close();
  const int status = std::system(fmt::format("gnuplot '{}'", gp_path).c_str());
  if (status != 0) return fmt::format("gnuplot {} failed (status {})", gp_path, status);
  return {};
}

}  // namespace collbench
