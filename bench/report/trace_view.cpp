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

#include "kit/collective.hpp"

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
using collectives::detail::descriptor_of;

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

/// One rank's blocks: bit q of block b set = the rank holds rank q's input to block b.
using blocks = std::vector<std::uint64_t>;

/// The traced call to draw: one lane per rank of its communicator.
struct call_trace {
  json any_call;  // one rank's call event, for the call's arguments
  std::string coll_name, alg_name;
  int p = 0;
  std::vector<lane> lanes;         // by communicator rank
  std::map<int, int> lane_of_pid;  // world rank → communicator rank
  double t_start = 0, t_end = 0;
};

struct arrow {
  int from, to;
  double x0, x1;
  std::string label;
};

/// The call replayed on the drawn axis: an arrow per message and, when the picture shows it, the
/// state before the first message and after each receive.
struct replay {
  int parts = 1;
  bool show_state = false;
  std::vector<blocks> start;               // [rank]
  std::vector<std::vector<blocks>> after;  // [rank][receive]
  std::vector<arrow> arrows;
  double x_max = 1;
  std::size_t columns = 0;  // the most receives of a rank: the state grids after the start
};

std::string blocks_text(const event& e) {
  if (e.count <= 0) return fmt::format("{} B", e.bytes);
  if (e.count == 1) return fmt::format("b{}", e.first);
  if (e.first + e.count <= e.parts) return fmt::format("b{}-{}", e.first, e.first + e.count - 1);
  return fmt::format("b{}-{},b0-{}", e.first, e.parts - 1, (e.first + e.count) % e.parts - 1);
}

// Who holds what before the first message, for the collectives whose state the picture shows:
// those whose result is the root's input, every rank's own block, or a reduction.
std::optional<std::vector<blocks>> initial_state(collective c, int p, int parts, int root) {
  using collectives::detail::recv_contents;
  const auto& d = descriptor_of(c);
  std::vector<blocks> held(static_cast<std::size_t>(p), blocks(static_cast<std::size_t>(parts), 0));
  switch (d.result) {
    case recv_contents::reduction:
      for (int r = 0; r < p; ++r)
        for (int b = 0; b < parts; ++b) held[r][b] = std::uint64_t{1} << r;
      return held;
    case recv_contents::every_input:
      if (d.takes_own_block || parts != p) return std::nullopt;  // alltoall's p×p blocks: not drawn
      for (int r = 0; r < p; ++r) held[r][r] = std::uint64_t{1} << r;
      return held;
    case recv_contents::root_input:
      for (int b = 0; b < parts; ++b) held[root][b] = std::uint64_t{1} << root;
      return held;
    case recv_contents::nothing:
    case recv_contents::inclusive_prefix:
    case recv_contents::exclusive_prefix:
      break;
  }
  return std::nullopt;
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

// The last call of each rank, one lane per rank; what makes the trace undrawable, or empty.
std::string read_calls(const json& merged, call_trace& t) {
  std::map<int, lane> lanes_by_pid;
  for (const json& e : merged.at("traceEvents"))
    if (e.value("cat", "") == "call" && e.value("ph", "") == "X") {
      lane& l = lanes_by_pid[e.at("pid").get<int>()];
      if (l.call.is_null() || e.at("ts").get<double>() >= l.call.at("ts").get<double>()) l.call = e;
    }
  if (lanes_by_pid.empty()) return "the trace holds no call";
  t.any_call = lanes_by_pid.begin()->second.call;
  t.coll_name = t.any_call.at("args").at("collective");
  t.alg_name = t.any_call.at("args").at("algorithm");
  t.p = t.any_call.at("args").at("comm_size").get<int>();
  if (static_cast<int>(lanes_by_pid.size()) != t.p)
    return fmt::format("the trace holds {} ranks of a {}-rank call", lanes_by_pid.size(), t.p);
  if (t.p > 16) return fmt::format("at most 16 ranks can be drawn, the call has {}", t.p);
  t.lanes.resize(static_cast<std::size_t>(t.p));
  for (auto& [pid, l] : lanes_by_pid) {
    const int r = l.call.at("args").at("comm_rank").get<int>();
    l.pid = pid;
    t.lane_of_pid[pid] = r;
    t.lanes[r] = std::move(l);
  }
  t.t_start = std::numeric_limits<double>::infinity(), t.t_end = -t.t_start;
  for (const lane& l : t.lanes) {
    t.t_start = std::min(t.t_start, l.call.at("ts").get<double>());
    t.t_end = std::max(t.t_end, l.call.at("ts").get<double>() + l.call.at("dur").get<double>());
  }
  return {};
}

event event_of(const json& e) {
  event ev;
  ev.kind = e.value("cat", "");
  ev.ts = e.at("ts").get<double>();
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
  return ev;
}

// The sends, receives, reductions and copies inside each rank's call, in time order.
void read_events(const json& merged, call_trace& t) {
  for (const json& e : merged.at("traceEvents")) {
    const std::string cat = e.value("cat", "");
    if (e.value("ph", "") != "X" || (cat != "send" && cat != "recv" && cat != "reduce" && cat != "copy"))
      continue;
    const int pid = e.at("pid").get<int>();
    if (!t.lane_of_pid.contains(pid)) continue;
    lane& l = t.lanes[t.lane_of_pid[pid]];
    const double ts = e.at("ts").get<double>(), call_ts = l.call.at("ts").get<double>();
    if (ts < call_ts || ts > call_ts + l.call.at("dur").get<double>()) continue;
    l.events.push_back(event_of(e));
  }
  for (lane& l : t.lanes)
    std::stable_sort(l.events.begin(), l.events.end(), [](auto& a, auto& b) { return a.ts < b.ts; });
}

// The blocks the call's events name, and whether the picture can show who holds them: every
// message names its blocks of one partition, or the collective moves one vector.
replay plan_state(const call_trace& t) {
  const collective coll = *collectives::parse_collective(t.coll_name);
  int parts = 0;
  bool mixed = false, unannotated_data = false;
  for (const lane& l : t.lanes)
    for (const event& e : l.events) {
      if (e.count > 0) {
        if (parts != 0 && e.parts != parts) mixed = true;
        parts = std::max(parts, e.parts);
      } else if ((e.kind == "send" || e.kind == "recv") && e.bytes > 0) {
        unannotated_data = true;
      }
    }
  // Of the collectives with a state to show, those that move one vector rather than p blocks.
  const bool vector_collective = !descriptor_of(coll).counts_whole_array;
  replay out;
  out.show_state = !mixed && (parts > 0 ? !unannotated_data || vector_collective : vector_collective);
  out.parts = parts == 0 ? 1 : parts;
  const int root = t.any_call.at("args").value("root", 0);
  std::optional<std::vector<blocks>> start = initial_state(coll, t.p, out.parts, root);
  out.show_state = out.show_state && start.has_value();
  if (start) out.start = std::move(*start);
  return out;
}

using message_key = std::tuple<int, int, long long>;  // source and destination world ranks, sequence

// Replays the schedule: sends before the receives that match them (by source, destination and
// sequence number), placing each event on the logical axis and carrying block contents.
std::string place_events(call_trace& t, time_axis axis, replay& out) {
  struct in_flight {
    double start;
    blocks content;
  };
  const int p = t.p, parts = out.parts;
  const bool carried_state = !out.start.empty();
  std::vector<blocks> held = out.start;
  std::map<message_key, in_flight> messages;
  std::vector<std::size_t> next(static_cast<std::size_t>(p), 0);
  std::vector<double> clock(static_cast<std::size_t>(p), 0);
  out.after.assign(static_cast<std::size_t>(p), {});
  const auto carried = [&](const event& e) {
    std::vector<bool> in(static_cast<std::size_t>(parts), e.count <= 0);
    for (int i = 0; i < e.count; ++i) in[(e.first + i) % parts] = true;
    return in;
  };
  for (bool progress = true; progress;) {
    progress = false;
    for (int r = 0; r < p; ++r) {
      lane& l = t.lanes[r];
      while (next[r] < l.events.size()) {
        event& e = l.events[next[r]];
        const double real0 = e.ts - t.t_start, real1 = e.ts + e.dur - t.t_start;
        if (e.kind == "send") {
          in_flight m{clock[r], {}};
          if (carried_state) {
            m.content.assign(static_cast<std::size_t>(parts), 0);
            const std::vector<bool> in = carried(e);
            for (int b = 0; b < parts; ++b)
              if (in[b]) m.content[b] = held[r][b];
          }
          messages[{l.pid, e.peer, e.seq}] = std::move(m);
          e.x0 = clock[r];
          e.x1 = clock[r] += 1;
        } else if (e.kind == "recv") {
          const auto it = messages.find({e.peer, l.pid, e.seq});
          if (it == messages.end()) break;  // its send is not placed yet
          e.x0 = clock[r];
          e.x1 = clock[r] = std::max(clock[r], it->second.start) + 1;
          if (carried_state) {
            for (int b = 0; b < parts; ++b) held[r][b] |= it->second.content[b];
            out.after[r].push_back(held[r]);
          }
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
    if (next[r] < t.lanes[r].events.size())
      return fmt::format("rank {}'s receive #{} has no matching send in the trace", r, next[r]);
  if (!messages.empty())
    return fmt::format("{} sends have no matching receive in the trace (the first: rank {} to world rank {})",
                       messages.size(), t.lane_of_pid.at(std::get<0>(messages.begin()->first)),
                       std::get<1>(messages.begin()->first));
  return {};
}

// Arrows: each send to its receive, which must be of its size.
std::string draw_arrows(const call_trace& t, replay& out) {
  std::map<message_key, const event*> sends;
  for (const lane& l : t.lanes)
    for (const event& e : l.events)
      if (e.kind == "send") sends[{l.pid, e.peer, e.seq}] = &e;
  for (int r = 0; r < t.p; ++r)
    for (const event& e : t.lanes[r].events)
      if (e.kind == "recv") {
        const event& s = *sends.at({e.peer, t.lanes[r].pid, e.seq});
        if (s.bytes != e.bytes)
          return fmt::format("rank {} receives {} bytes from rank {} which sent {}", r, e.bytes,
                             t.lane_of_pid.at(e.peer), s.bytes);
        out.arrows.push_back({t.lane_of_pid.at(e.peer), r, s.x0, e.x1, blocks_text(s)});
      }
  return {};
}

// The axis's extent, and whether any receive changed a state worth drawing.
void measure_extent(const call_trace& t, time_axis axis, replay& out) {
  double x_max = 0;
  for (const lane& l : t.lanes)
    for (const event& e : l.events) x_max = std::max(x_max, e.x1);
  if (axis == time_axis::real) x_max = std::max(x_max, t.t_end - t.t_start);
  out.x_max = x_max <= 0 ? 1 : x_max;
  for (const auto& s : out.after) out.columns = std::max(out.columns, s.size());
  if (out.columns == 0) out.show_state = false;
}

/// The picture's size in pixels: the space-time diagram above, the state grids below it.
struct frame {
  int width = 1000, top_height = 0, state_height = 0, height = 0;
};

// The space-time diagram: a lane per rank, a box per event, an arrow per message.
void write_timeline(std::ostream& gp, const call_trace& t, const replay& out, time_axis axis, int& object) {
  const int p = t.p;
  const double x_max = out.x_max;
  gp << fmt::format("set xrange [0:{}]\nset yrange [{}:-0.7]\n", x_max * 1.02, p - 0.5);
  gp << (axis == time_axis::real
             ? "set xlabel \"µs from the call's first start (clocks aligned)\"\n"
             : "set xlabel \"logical time: a send or receive takes one unit, a receive ends one "
               "unit after its send starts, a local reduction or copy half a unit\"\n");
  gp << "set ytics (";
  for (int r = 0; r < p; ++r) gp << fmt::format("{}\"rank {}\" {}", r ? ", " : "", r, r);
  gp << ")\n";
  const std::map<std::string, std::string> colour = {
      {"send", "#4c72b0"}, {"recv", "#55a868"}, {"reduce", "#dd8452"}, {"copy", "#999999"}};
  for (int r = 0; r < p; ++r) {
    gp << fmt::format("set arrow from 0,{0} to {1},{0} nohead lc rgb '#dddddd' lw 1 back\n", r, x_max * 1.02);
    for (const event& e : t.lanes[r].events) {
      const double h = e.kind == "send" || e.kind == "recv" ? 0.14 : 0.22;
      const double x1 = std::max(e.x1, e.x0 + x_max * 0.002);
      gp << fmt::format(
          "set object {} rect from {:.4f},{:.3f} to {:.4f},{:.3f} fc rgb '{}' fs solid 0.85 noborder\n",
          object++, e.x0, r - h, x1, r + h, colour.at(e.kind));
    }
  }
  for (const arrow& a : out.arrows) {
    gp << fmt::format(
        "set arrow from {:.4f},{} to {:.4f},{} head filled size screen 0.007,20 lc rgb '#333333' lw 1 "
        "front\n",
        a.x0, a.from, a.x1, a.to);
    const double mx = a.x0 + (a.x1 - a.x0) * 0.45, my = a.from + (a.to - a.from) * 0.45;
    gp << fmt::format("set label \"{}\" at {:.4f},{:.3f} center font ',7' tc rgb '#8b0000' front\n",
                      quote(a.label), mx, my);
  }
}

// The legend, one line above the title.
void write_legend(std::ostream& gp, const frame& f) {
  const double legend_y = 1 - 12.0 / f.height;
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
}

// One grid of the state: rank (row) × block (column), at x.
void write_grid(std::ostream& gp, const std::vector<const blocks*>& rows, bool reduction, double x, int p,
                int& object) {
  for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
    const blocks& row = *rows[r];
    for (int b = 0; b < static_cast<int>(row.size()); ++b) {
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

// The state at the start and after each receive, a grid each, left to right.
void write_states(std::ostream& gp, const call_trace& t, const replay& out, const frame& f, int& object) {
  const int p = t.p, parts = out.parts;
  const bool reduction = descriptor_of(*collectives::parse_collective(t.coll_name)).reduces;
  gp << fmt::format("set origin 0,0\nset size 1,{:.4f}\n", static_cast<double>(f.state_height) / f.height);
  const std::size_t grids = out.columns + 1;
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
    // A rank with fewer receives keeps its last state.
    std::vector<const blocks*> rows;
    for (int r = 0; r < p; ++r) {
      const std::vector<blocks>& after = out.after[r];
      rows.push_back(k == 0 || after.empty() ? &out.start[r] : &after[std::min(k, after.size()) - 1]);
    }
    write_grid(gp, rows, reduction, x, p, object);
  }
  gp << "plot NaN notitle\n";
}

// The gnuplot script: its header and title, the diagram with its legend, then the state grids.
void write_script(std::ostream& gp, const std::string& png, const std::string& gp_path, const call_trace& t,
                  const replay& out, time_axis axis) {
  frame f;
  f.top_height = 110 + 42 * t.p;
  f.state_height = out.show_state ? 70 + 16 * t.p : 0;
  f.height = f.top_height + f.state_height;
  const std::size_t count = t.any_call.at("args").at("count").get<std::size_t>();
  const std::size_t elem_size = t.any_call.at("args").at("elem_size").get<std::size_t>();
  std::size_t messages_total = 0;
  for (const lane& l : t.lanes)
    for (const event& e : l.events) messages_total += e.kind == "send";
  gp << fmt::format("# Drawn by collbench --draw from a trace of one call; gnuplot {} redraws it.\n",
                    gp_path);
  gp << fmt::format("set terminal png size {},{} font 'DejaVuSans,8' noenhanced\n", f.width, f.height);
  gp << fmt::format("set output '{}'\nset multiplot\n", png);
  gp << fmt::format("set origin 0,{:.4f}\nset size 1,{:.4f}\n",
                    static_cast<double>(f.state_height) / f.height,
                    static_cast<double>(f.top_height) / f.height);
  gp << fmt::format("set title \"{} {}: p = {}, count {} ({} B per element), {} messages, {} in all\"\n",
                    t.coll_name, t.alg_name, t.p, count, elem_size, messages_total,
                    axis == time_axis::real ? fmt::format("{:.1f} µs", t.t_end - t.t_start)
                                            : fmt::format("{:.0f} steps", std::ceil(out.x_max)));
  gp << "set lmargin 10\nset rmargin 3\nset tmargin 4\nunset key\nset border 3\nset xtics nomirror\nset "
        "ytics nomirror\n";
  int object = 1;
  write_timeline(gp, t, out, axis, object);
  write_legend(gp, f);
  gp << "plot NaN notitle\n";
  gp << "unset object\nunset arrow\nunset label\nunset key\n";
  if (out.show_state) write_states(gp, t, out, f, object);
  gp << "unset multiplot\n";
}

}  // namespace

std::string draw_call(const json& merged, const std::string& png, time_axis axis) {
  call_trace t;
  if (std::string error = read_calls(merged, t); !error.empty()) return error;
  read_events(merged, t);
  replay out = plan_state(t);
  if (std::string error = place_events(t, axis, out); !error.empty()) return error;
  if (std::string error = draw_arrows(t, out); !error.empty()) return error;
  measure_extent(t, axis, out);
  const std::string gp_path = png.substr(0, png.size() - (png.ends_with(".png") ? 4 : 0)) + ".gp";
  std::ofstream gp(gp_path);
  if (!gp) return fmt::format("cannot write '{}'", gp_path);
  write_script(gp, png, gp_path, t, out, axis);
  gp.close();
  const int status = std::system(fmt::format("gnuplot '{}'", gp_path).c_str());
  if (status != 0) return fmt::format("gnuplot {} failed (status {})", gp_path, status);
  return {};
}

}  // namespace collbench
