// SPDX-License-Identifier: BSD-3-Clause
// collcalibrate: measures what SimGrid's SMPI prices in a point-to-point message between two ranks,
// and fits SMPI's parameters to it, so that a simulated machine of N such nodes behaves like the two
// measured (scripts/mpirun/calibrate.sh runs both; docs/simulation.md).
//
//   collcalibrate measure [-b 0] [-e 16M] [--step 2] [--time-per-size 0.2] [-o FILE]   (2 ranks)
//   collcalibrate fit MEASUREMENT.json --topology T [--cores-per-node K] [--on-node FILE] [-o FILE]
//   collcalibrate compare A.xml B.xml --sizes MEASUREMENT.json [--within 0.05]
//
// What SMPI prices (SimGrid 3.32, src/smpi/mpi/smpi_request.cpp, src/surf/network_smpi.cpp):
// - A send below smpi/send-is-detached-thresh is eager (detached): MPI_Send holds its caller for
//   smpi/os(s), then returns while the message travels; the receiver, once the message is in,
//   spends smpi/or(s) in MPI_Recv. MPI_Isend holds its caller for smpi/ois(s), whatever the size.
// - A blocking send at or above it is a rendezvous: no overhead, the transfer starts when both
//   sides are there.
// - The transfer of s bytes (16 of envelope added) takes lat-factor(s) · L + s / (bw-factor(s) · B)
//   on a route of latency L and bottleneck bandwidth B.
// - os, or and ois are "T:a:b;…" (a + b·s for the last T below s); the factors are "T:f;…" (f for
//   the last T below s, 1 at and below the first T).
// So the measurement, per size, between ranks 0 and 1:
// - ping-pong: half the round trip;
// - send: how long MPI_Send takes when the receiver comes late (D later): the eager overhead, or,
//   if the send waits for the receiver, a rendezvous: the size where that starts is the eager limit,
//   found to the byte by bisection;
// - recv: how long MPI_Recv takes when the message was sent D before;
// - isend: how long MPI_Isend takes (the receiver late);
// - stream: back-to-back sends of one size, per message (the rate a link sustains), timed as collbench
//   times a back-to-back batch: each rank from its own exit of a barrier, the slower rank;
// - duplex: streams both ways at once, per message (what each direction keeps when both are busy);
// and a size whose ping-pong was clearly slower than a larger one's (a busy machine) measured again.
// The fit: smpi/send-is-detached-thresh is the eager limit — or, where the receiver of the first
// rendezvous sizes, coming late, found most of the message there (Open MPI sends a rendezvous's first
// fragment with its request), the first size whose receiver waits for its data: SMPI then lets
// the sender go on, as if the message had gone; every node's collectives/eager-limit keeps the
// eager limit, for the library (src/kit/eager.cpp) — and smpi/async-small-thresh is the eager
// limit too (below it SMPI moves a message at once, to a receiver not there yet, as an eager MPI
// does) unless eager sizes are priced from their stream (below): from the smallest of them a
// message moves when its receive is posted, as SMPI would start a sender's messages all at once
// and share the link among them, where TCP sends them one after another; os, or and ois are
// piecewise affine fits of send, recv and isend over the eager sizes (isend over all; recv at most the stream's time per
// message: a busy receiver is not woken from a pause); the transfer is the exchange's time per
// message less ois and or (eager: the duplex stream, as a collective's exchanges send both ways at
// once; over TCP that is slower than a ping-pong, which SMPI prices alike) or the stream's time per
// message (rendezvous: messages one after the other on a busy link, as a collective sends them;
// --rendezvous-transfer ping-pong: a link at rest, and the ping-pong less os and or for eager sizes) —
// and the stream's less or for an eager size whose stream is slower than its ping-pong (a link with a
// burst, which SMPI's links have not, lets a message at rest cross faster than a busy one; in a stream
// the sender's os overlaps the transfer before it),
// fitted piecewise affine, each piece within --tolerance of the time it is part of; each piece's intercept and
// slope give the latency and bandwidth factors against the link's L and B, which are the first
// piece's latency and the last piece's bandwidth. A piece ends at the eager limit, where a piece of os
// or or ends (for the transfer), or where the next size would leave the fit more than --tolerance
// off (a piece keeps at least three sizes). Where the duplex stream keeps
// clearly less than B per direction, the nodes get SimGrid's limiter link (both directions share it).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli11.hpp"
#include "measure/median.hpp"

namespace {

using collbench::median;

using json = nlohmann::json;

// Waits `seconds` of the clock MPI_Wtime reads (under SMPI, nanosleep is its simulated sleep).
void wait_for(double seconds) {
  const timespec interval{static_cast<time_t>(seconds),
                          static_cast<long>((seconds - std::floor(seconds)) * 1e9)};
  nanosleep(&interval, nullptr);
}

struct point {
  std::size_t bytes = 0;
  double ping_pong = 0, send = 0, recv = 0, isend = 0, stream = 0, duplex = 0;
  bool rendezvous = false;
};

// The two ranks' measurement: rank 0 sends, rank 1 receives; rank 0 decides how many repetitions
// and tells rank 1.
class prober {
 public:
  prober(MPI_Comm comm, double budget) : comm_(comm), budget_(budget) { MPI_Comm_rank(comm, &rank_); }

  double ping_pong(std::size_t bytes, int repetitions) {
    std::vector<double> times;
    for (int i = 0; i < repetitions; ++i) {
      MPI_Barrier(comm_);
      const double start = MPI_Wtime();
      if (rank_ == 0) {
        MPI_Send(buffer(bytes), count(bytes), MPI_BYTE, 1, 0, comm_);
        MPI_Recv(buffer(bytes), count(bytes), MPI_BYTE, 1, 0, comm_, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buffer(bytes), count(bytes), MPI_BYTE, 0, 0, comm_, MPI_STATUS_IGNORE);
        MPI_Send(buffer(bytes), count(bytes), MPI_BYTE, 0, 0, comm_);
      }
      times.push_back((MPI_Wtime() - start) / 2);
    }
    return shared(median(times));
  }

  // MPI_Send's (or MPI_Isend's) own time on rank 0, the receiver posting `delay` after it.
  double send(std::size_t bytes, double delay, int repetitions, bool immediate) {
    std::vector<double> times;
    for (int i = 0; i < repetitions; ++i) {
      MPI_Barrier(comm_);
      if (rank_ == 0) {
        MPI_Request request;
        const double start = MPI_Wtime();
        if (immediate)
          MPI_Isend(buffer(bytes), count(bytes), MPI_BYTE, 1, 0, comm_, &request);
        else
          MPI_Send(buffer(bytes), count(bytes), MPI_BYTE, 1, 0, comm_);
        times.push_back(MPI_Wtime() - start);
        if (immediate) MPI_Wait(&request, MPI_STATUS_IGNORE);
      } else {
        wait_for(delay);
        MPI_Recv(buffer(bytes), count(bytes), MPI_BYTE, 0, 0, comm_, MPI_STATUS_IGNORE);
      }
    }
    return shared(rank_ == 0 ? median(times) : 0);
  }

  // MPI_Recv's own time on rank 1 for a message sent `delay` before.
  double recv(std::size_t bytes, double delay, int repetitions) {
    std::vector<double> times;
    for (int i = 0; i < repetitions; ++i) {
      MPI_Barrier(comm_);
      if (rank_ == 0) {
        MPI_Send(buffer(bytes), count(bytes), MPI_BYTE, 1, 0, comm_);
      } else {
        wait_for(delay);
        const double start = MPI_Wtime();
        MPI_Recv(buffer(bytes), count(bytes), MPI_BYTE, 0, 0, comm_, MPI_STATUS_IGNORE);
        times.push_back(MPI_Wtime() - start);
      }
    }
    double mine = rank_ == 1 ? median(times) : 0;
    MPI_Bcast(&mine, 1, MPI_DOUBLE, 1, comm_);
    return mine;
  }

  // Per message, `messages` sends back to back, timed as collbench times a back-to-back batch: after
  // a barrier, each rank from its own exit to its last message, and the slower of the two.
  double stream(std::size_t bytes, int messages, int repetitions) {
    std::vector<double> times;
    for (int i = 0; i < repetitions; ++i) {
      MPI_Barrier(comm_);
      const double start = MPI_Wtime();
      for (int m = 0; m < messages; ++m) {
        if (rank_ == 0)
          MPI_Send(buffer(bytes), count(bytes), MPI_BYTE, 1, 0, comm_);
        else
          MPI_Recv(buffer(bytes), count(bytes), MPI_BYTE, 0, 0, comm_, MPI_STATUS_IGNORE);
      }
      const double mine = (MPI_Wtime() - start) / messages;
      double slower = 0;
      MPI_Allreduce(&mine, &slower, 1, MPI_DOUBLE, MPI_MAX, comm_);
      times.push_back(slower);
    }
    return median(times);
  }

  // Both ranks stream to each other at once (MPI_Isend and MPI_Recv, then MPI_Wait), per message:
  // what one direction sustains while the other is busy too.
  double duplex(std::size_t bytes, int messages, int repetitions) {
    std::vector<double> times;
    if (incoming_.size() < bytes) incoming_.resize(bytes);
    const int peer = 1 - rank_;
    for (int i = 0; i < repetitions; ++i) {
      MPI_Barrier(comm_);
      const double start = MPI_Wtime();
      for (int m = 0; m < messages; ++m) {
        MPI_Request request;
        MPI_Isend(buffer(bytes), count(bytes), MPI_BYTE, peer, 2, comm_, &request);
        MPI_Recv(incoming_.data(), count(bytes), MPI_BYTE, peer, 2, comm_, MPI_STATUS_IGNORE);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
      }
      times.push_back((MPI_Wtime() - start) / messages);
    }
    return shared(median(times));
  }

  // Repetitions that fit the budget for a measurement whose one repetition takes `each`.
  int repetitions(double each, int least) const {
    const double fit = each > 0 ? budget_ / each : 1e6;
    return static_cast<int>(std::clamp(fit, static_cast<double>(least), 50.0));
  }

  bool blocks(std::size_t bytes, double delay) { return send(bytes, delay, 3, false) > delay / 2; }

 private:
  // Rank 0's figure, on both ranks.
  double shared(double value) {
    MPI_Bcast(&value, 1, MPI_DOUBLE, 0, comm_);
    return value;
  }
  static int count(std::size_t bytes) { return static_cast<int>(bytes); }
  char* buffer(std::size_t bytes) {
    if (data_.size() < bytes) data_.resize(bytes, 'x');
    return data_.data();
  }

  MPI_Comm comm_;
  double budget_;
  int rank_ = 0;
  std::vector<char> data_, incoming_;
};

// Under one protocol a larger message never crosses clearly faster than a smaller one: where it
// does, the machine was disturbed while the smaller one was measured, and a fit would price that.
// Clearly: this much faster, and by at least this many seconds.
constexpr double disturbed_ratio = 0.75;
constexpr double disturbed_seconds = 10e-6;

// The first such pair of sizes (indices of the smaller, then the larger). A disturbance only slows:
// a size faster than both its neighbours (of its protocol) is the network's own (over TCP, 2 KiB
// crosses a third faster than 1 and 4 KiB), not a disturbance.
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

// How many times measure takes a disturbed size again before it writes what it has.
constexpr int most_remeasured = 5;

// How late the receiver comes: well after an eager message of this size would have arrived.
double lateness(double one_way) { return std::max(200e-6, 4 * one_way); }

int measure(int argc, char** argv, const std::vector<std::size_t>& sweep, double budget,
            const std::string& out, const std::string& command) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0)
      fmt::print(stderr, "collcalibrate measure: needs exactly 2 ranks, launched with {}\n", size);
    MPI_Finalize();
    return 2;
  }
  char host[MPI_MAX_PROCESSOR_NAME];
  int length = 0;
  MPI_Get_processor_name(host, &length);
  std::vector<char> hosts(2 * MPI_MAX_PROCESSOR_NAME);
  MPI_Gather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
             MPI_COMM_WORLD);

  prober probe(MPI_COMM_WORLD, budget);
  probe.ping_pong(0, 5);  // warm-up: connections opened, buffers touched

  // The eager limit: the first size whose send waits for a late receiver, to the byte.
  std::optional<std::size_t> eager_limit;
  std::size_t last_eager = 0;
  for (std::size_t bytes : sweep) {
    const double one_way = probe.ping_pong(bytes, 3);
    if (probe.blocks(bytes, lateness(one_way))) {
      eager_limit = bytes;
      break;
    }
    last_eager = bytes;
  }
  if (eager_limit && *eager_limit > 0) {
    std::size_t low = last_eager, high = *eager_limit;
    while (high - low > 1) {
      const std::size_t middle = low + (high - low) / 2;
      (probe.blocks(middle, lateness(probe.ping_pong(middle, 3))) ? high : low) = middle;
    }
    eager_limit = high;
  }
  std::vector<std::size_t> sizes = sweep;
  if (eager_limit) {
    for (std::size_t s : {*eager_limit - 1, *eager_limit})
      if (*eager_limit > 0) sizes.push_back(s);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  }

  auto measure_size = [&](std::size_t bytes) {
    point p{bytes};
    p.ping_pong = probe.ping_pong(bytes, 1);
    const int n = probe.repetitions(2 * p.ping_pong, 3);
    p.ping_pong = probe.ping_pong(bytes, n);
    const double delay = lateness(p.ping_pong);
    const int late = probe.repetitions(delay + p.ping_pong, 3);
    p.send = probe.send(bytes, delay, late, false);
    p.rendezvous = eager_limit && bytes >= *eager_limit;
    p.recv = probe.recv(bytes, delay, late);
    p.isend = probe.send(bytes, delay, late, true);
    const int messages = static_cast<int>(std::clamp(budget / 4 / std::max(p.ping_pong, 1e-9), 4.0, 64.0));
    p.stream = probe.stream(bytes, messages, probe.repetitions(messages * p.ping_pong, 3));
    p.duplex = probe.duplex(bytes, messages, probe.repetitions(messages * p.ping_pong, 3));
    if (rank == 0)
      fmt::print(stderr,
                 "collcalibrate: {:>9} B  ping-pong {:.2f} us  send {:.2f}  recv {:.2f}  isend {:.2f}  "
                 "stream {:.2f}  duplex {:.2f}{}\n",
                 bytes, p.ping_pong * 1e6, p.send * 1e6, p.recv * 1e6, p.isend * 1e6, p.stream * 1e6,
                 p.duplex * 1e6, p.rendezvous ? "  (rendezvous)" : "");
    return p;
  };
  std::vector<point> points;
  for (std::size_t bytes : sizes) points.push_back(measure_size(bytes));
  // A size measured while the machine was busy (the fit would refuse it) is measured again, a few
  // times at most. Every figure is on both ranks: they pick the same size.
  for (int again = 0; again < most_remeasured; ++again) {
    const auto pair = disturbed_pair(points);
    if (!pair) break;
    point& slow = points[pair->first];
    if (rank == 0)
      fmt::print(
          stderr, "collcalibrate: {} B again: its ping-pong took {:.2f} us, {} B's {:.2f} (disturbed)\n",
          slow.bytes, slow.ping_pong * 1e6, points[pair->second].bytes, points[pair->second].ping_pong * 1e6);
    slow = measure_size(slow.bytes);
  }

  if (rank == 0) {
    json j;
    j["program"] = "collcalibrate";
    j["command"] = command;
    j["hosts"] = {std::string(hosts.data()), std::string(hosts.data() + MPI_MAX_PROCESSOR_NAME)};
    j["eager_limit"] = eager_limit ? json(*eager_limit) : json(nullptr);
    j["time_per_size"] = budget;
    for (const point& p : points)
      j["points"].push_back({{"bytes", p.bytes},
                             {"ping_pong", p.ping_pong},
                             {"send", p.send},
                             {"recv", p.recv},
                             {"isend", p.isend},
                             {"stream", p.stream},
                             {"duplex", p.duplex},
                             {"rendezvous", p.rendezvous}});
    std::ofstream file(out);
    if (!file) {
      fmt::print(stderr, "collcalibrate: cannot write {}\n", out);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    file << j.dump(1) << '\n';
    fmt::print(stderr, "collcalibrate: {} ({} and {}; eager limit {})\n", out,
               j["hosts"][0].get<std::string>(), j["hosts"][1].get<std::string>(),
               eager_limit ? fmt::format("{} B", *eager_limit) : "none found");
  }
  MPI_Finalize();
  return 0;
}

// ---- the fit -------------------------------------------------------------------------------------

// y = intercept + slope · x over the sizes [first, last] (inclusive, bytes).
struct piece {
  std::size_t first = 0, last = 0;
  double intercept = 0, slope = 0;
  double worst = 0;  // the largest |fit − measured| over its points, relative to the scale
};

// Least squares on the error relative to `scale` (sizes span seven decades; the transfer is measured
// against the whole time it is part of), intercept and slope kept ≥ 0.
piece fit_affine(const std::vector<double>& x, const std::vector<double>& y, const std::vector<double>& scale,
                 std::size_t from, std::size_t to) {
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (std::size_t i = from; i <= to; ++i) {
    const double w = 1 / std::max(scale[i] * scale[i], 1e-30);
    sw += w, sx += w * x[i], sy += w * y[i], sxx += w * x[i] * x[i], sxy += w * x[i] * y[i];
  }
  piece p;
  const double det = sw * sxx - sx * sx;
  if (to > from && det > 0) {
    p.slope = (sw * sxy - sx * sy) / det;
    p.intercept = (sy - p.slope * sx) / sw;
  } else {
    p.intercept = sy / sw;
  }
  if (p.slope < 0) p.slope = 0, p.intercept = sy / sw;
  if (p.intercept < 0) p.intercept = 0, p.slope = sxx > 0 ? sxy / sxx : 0;
  for (std::size_t i = from; i <= to; ++i)
    p.worst = std::max(p.worst, std::abs(p.intercept + p.slope * x[i] - y[i]) / scale[i]);
  return p;
}

// Pieces over points [from, to]: each as long as its fit stays within the tolerance, and of at least
// `least_points` points (where the range has them), so that one noisy size does not make a piece; and
// a new one at every size of `breaks`.
std::vector<piece> fit_pieces(const std::vector<std::size_t>& bytes, const std::vector<double>& x,
                              const std::vector<double>& y, const std::vector<double>& scale,
                              std::size_t from, std::size_t to, double tolerance,
                              const std::vector<std::size_t>& breaks = {}) {
  constexpr std::size_t least_points = 3;
  auto forced = [&](std::size_t i) {
    return std::find(breaks.begin(), breaks.end(), bytes[i]) != breaks.end();
  };
  std::vector<piece> pieces;
  std::size_t start = from;
  while (start <= to) {
    std::size_t end = start;
    piece best = fit_affine(x, y, scale, start, end);
    while (end < to && !forced(end + 1)) {
      const piece longer = fit_affine(x, y, scale, start, end + 1);
      const bool room = end + 1 - start >= least_points && to - end >= least_points;
      if (longer.worst > tolerance && room) break;
      best = longer, ++end;
    }
    best.first = bytes[start], best.last = bytes[end];
    pieces.push_back(best);
    start = end + 1;
  }
  return pieces;
}

struct measurement {
  std::optional<std::size_t> eager_limit;
  std::vector<point> points;
  std::vector<std::string> hosts;
  std::string command;
};

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

// SMPI's "T:a:b;…": the piece starting at `first` bytes applies above first − 1.
std::string overhead_setting(const std::vector<piece>& pieces) {
  std::vector<std::string> parts;
  for (const piece& p : pieces)
    parts.push_back(fmt::format("{}:{:.6g}:{:.6g}", p.first == 0 ? 0 : p.first - 1, p.intercept, p.slope));
  return fmt::format("{}", fmt::join(parts, ";"));
}

struct topology {
  std::string kind;        // FAT_TREE, TORUS, DRAGONFLY
  std::string parameters;  // SimGrid's topo_parameters
  long nodes = 0;
  std::string name;
};

// The number `text` starts with, and how many of its characters it takes (0: none).
std::pair<double, std::size_t> leading_number(const std::string& text) {
  try {
    std::size_t used = 0;
    const double value = std::stod(text, &used);
    return {value, used};
  } catch (const std::exception&) {
    return {0, 0};
  }
}

long positive(const std::string& text, const std::string& spec) {
  const auto [value, used] = leading_number(text);
  if (used != text.size() || value < 1 || value != std::floor(value) || value > 1e9)
    throw std::runtime_error(fmt::format("--topology {}: '{}' is not a positive number", spec, text));
  return static_cast<long>(value);
}

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at; (at = text.find(by, start)) != std::string::npos; start = at + 1)
    parts.push_back(text.substr(start, at - start));
  parts.push_back(text.substr(start));
  return parts;
}

// fat-tree:N (one switch) | fat-tree:KxM (M leaf switches of K nodes, K spines) | torus:AxBxC |
// dragonfly:G,GL;C,CL;R,RL;N (SimGrid's topo_parameters).
topology parse_topology(const std::string& spec) {
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon),
                    shape = colon == std::string::npos ? "" : spec.substr(colon + 1);
  topology t;
  if (kind == "fat-tree" && !shape.empty()) {
    const auto dims = split(shape, 'x');
    if (dims.size() == 1) {
      t.nodes = positive(dims[0], spec);
      t.parameters = fmt::format("1;{};1;1", t.nodes);
    } else if (dims.size() == 2) {
      const long per_leaf = positive(dims[0], spec), leaves = positive(dims[1], spec);
      t.nodes = per_leaf * leaves;
      t.parameters = fmt::format("2;{},{};1,{};1,1", per_leaf, leaves, per_leaf);
    } else {
      throw std::runtime_error(fmt::format("--topology {}: fat-tree:N or fat-tree:KxM", spec));
    }
    t.kind = "FAT_TREE";
  } else if (kind == "torus" && !shape.empty()) {
    t.nodes = 1;
    std::vector<std::string> dims;
    for (const auto& d : split(shape, 'x')) t.nodes *= positive(d, spec), dims.push_back(d);
    t.kind = "TORUS", t.parameters = fmt::format("{}", fmt::join(dims, ","));
  } else if (kind == "dragonfly" && !shape.empty()) {
    const auto levels = split(shape, ';');
    if (levels.size() != 4)
      throw std::runtime_error(fmt::format("--topology {}: dragonfly:G,GL;C,CL;R,RL;N", spec));
    t.nodes = positive(levels[3], spec);
    long counts[3] = {};  // groups, chassis per group, routers per chassis
    for (int l = 0; l < 3; ++l) {
      const auto pair = split(levels[l], ',');
      if (pair.size() != 2)
        throw std::runtime_error(fmt::format("--topology {}: dragonfly:G,GL;C,CL;R,RL;N", spec));
      t.nodes *= counts[l] = positive(pair[0], spec);
      positive(pair[1], spec);
    }
    // SimGrid 3.32 reaches group g through router g of the sender's chassis, and routes within a
    // group from the first chassis whatever the sender's (docs/simulation.md, SMPI's own faults).
    if (counts[0] > counts[2] || counts[1] != 1)
      throw std::runtime_error(fmt::format(
          "--topology {}: SimGrid routes a dragonfly correctly only with one chassis per group and no "
          "more groups than routers (G ≤ R, C = 1: e.g. dragonfly:16,2;1,1;16,1;4)",
          spec));
    t.kind = "DRAGONFLY", t.parameters = shape;
  } else {
    throw std::runtime_error(fmt::format(
        "--topology '{}': expected fat-tree:N, fat-tree:KxM, torus:AxBxC or dragonfly:G,GL;C,CL;R,RL;N",
        spec));
  }
  t.name = fmt::format("calibrated-{}-{}", kind, t.nodes);
  return t;
}

struct fitted {
  std::optional<std::size_t> eager_limit;
  std::optional<std::size_t> first_streamed;  // the smallest eager size priced from its stream
  std::optional<std::size_t> detached_below;  // smpi/send-is-detached-thresh, when not the eager limit
  bool exchanges = false;  // the eager sizes not streamed priced from the duplex stream (else the ping-pong)
  std::vector<piece> os, or_, ois, wire;
  double latency = 0, bandwidth = 0;  // the route's: L and B
  double limiter = 0;                 // what a node moves both ways at once, if less than 2 B (else 0)
  std::vector<std::pair<std::size_t, double>> lat_factor, bw_factor;
};

// The payload SMPI prices: the message and its 16-byte envelope.
constexpr double envelope = 16;
// A duplex stream slower than this fraction of the one-way bandwidth (per direction) gets a limiter.
constexpr double duplex_shortfall = 0.9;
// A piece whose time hardly grows with the size (latency alone) gets at most this bandwidth factor.
constexpr double largest_bw_factor = 100;

fitted fit(const measurement& m, double tolerance, bool rendezvous_streamed) {
  const auto& pts = m.points;
  const std::size_t n = pts.size();
  std::vector<std::size_t> bytes(n);
  std::vector<double> x(n), send(n), recv(n), isend(n), wire(n);
  std::size_t eager_end = 0;  // points [0, eager_end) are eager
  for (std::size_t i = 0; i < n; ++i) {
    bytes[i] = pts[i].bytes, x[i] = static_cast<double>(pts[i].bytes);
    send[i] = pts[i].send, recv[i] = pts[i].recv, isend[i] = pts[i].isend;
    // A receiver that handles a stream's message in less time than MPI_Recv took after a pause
    // (woken, its sockets polled) costs at most that much per message: or never exceeds the stream.
    if (rendezvous_streamed && !pts[i].rendezvous) recv[i] = std::min(recv[i], pts[i].stream);
    if (!pts[i].rendezvous) eager_end = i + 1;
  }
  fitted f;
  f.eager_limit = m.eager_limit;
  // A rendezvous whose receiver, posting late, waits less than half the size's ping-pong found the
  // bulk of the message there already (Open MPI's rendezvous carries its first fragment, nearly the
  // eager limit, and a link at rest may move the rest at once). SMPI starts a message no earlier
  // than its receive, but a detached send lets the sender go on as if the message had gone: such
  // sizes are detached, up to the first one whose receiver waits for its data.
  if (eager_end < n && pts[eager_end].recv < pts[eager_end].ping_pong / 2) {
    f.detached_below = pts[n - 1].bytes + 1;
    for (std::size_t i = eager_end; i < n; ++i)
      if (pts[i].recv >= pts[i].ping_pong / 2) {
        f.detached_below = pts[i].bytes;
        break;
      }
  }
  if (eager_end > 0) {
    f.os = fit_pieces(bytes, x, send, send, 0, eager_end - 1, tolerance);
    f.or_ = fit_pieces(bytes, x, recv, recv, 0, eager_end - 1, tolerance);
    f.ois = fit_pieces(bytes, x, isend, isend, 0, eager_end - 1, tolerance);
  }
  if (eager_end < n) {
    const auto large = fit_pieces(bytes, x, isend, isend, eager_end, n - 1, tolerance);
    f.ois.insert(f.ois.end(), large.begin(), large.end());
  }
  auto value = [](const std::vector<piece>& pieces, std::size_t s) {
    for (auto p = pieces.rbegin(); p != pieces.rend(); ++p)
      if (s >= p->first) return p->intercept + p->slope * static_cast<double>(s);
    return 0.0;
  };
  // An eager size whose stream takes longer per message than its ping-pong crosses a link at rest
  // faster than a busy one (a token bucket's burst, a switch's buffer; SMPI's link has none): its
  // transfer is priced from the stream, as a collective's back-to-back messages cross.
  auto streamed = [&](std::size_t i) {
    return rendezvous_streamed && (i >= eager_end || pts[i].stream > pts[i].ping_pong);
  };
  // The other eager sizes, on a busy link, are priced from the exchange (the duplex stream: MPI_Isend
  // and MPI_Recv, ois + transfer + or per message) where it was measured: a collective sends most of
  // its small messages both ways at once, and over TCP such a message crosses more slowly than one
  // alone; SMPI prices a message alike either way.
  const bool duplex_measured =
      std::all_of(pts.begin(), pts.end(), [](const point& p) { return p.duplex > 0; });
  f.exchanges = rendezvous_streamed && duplex_measured;
  auto exchanged = [&](std::size_t i) { return f.exchanges && i < eager_end && !streamed(i); };
  // Where an overhead changes its piece, the protocol changed: the transfer's pieces break there too
  // (where it is reckoned less that overhead: or everywhere, the sender's — ois for an exchange, os
  // for a ping-pong — among the sizes not streamed), and where the streamed sizes start.
  std::vector<std::size_t> breaks;
  for (const piece& p : f.or_) breaks.push_back(p.first);
  for (const piece& p : f.exchanges ? f.ois : f.os) {
    const auto at = std::find(bytes.begin(), bytes.end(), p.first) - bytes.begin();
    if (!streamed(static_cast<std::size_t>(at))) breaks.push_back(p.first);
  }
  for (std::size_t i = 1; i < eager_end; ++i)
    if (streamed(i) != streamed(i - 1)) breaks.push_back(bytes[i]);
  for (std::size_t i = 0; i < eager_end && !f.first_streamed; ++i)
    if (streamed(i)) f.first_streamed = bytes[i];
  std::vector<double> xw(n), total(n);
  for (std::size_t i = 0; i < n; ++i) {
    xw[i] = x[i] + envelope;
    total[i] = streamed(i) ? pts[i].stream : exchanged(i) ? pts[i].duplex : pts[i].ping_pong;
    // A message of a stream: the sender's os overlaps the transfer before it, the receiver's or
    // does not (from the first streamed size a transfer starts once its receive is posted).
    wire[i] = i >= eager_end ? total[i]
              : streamed(i)  ? total[i] - value(f.or_, bytes[i])
              : exchanged(i) ? total[i] - value(f.ois, bytes[i]) - value(f.or_, bytes[i])
                             : total[i] - value(f.os, bytes[i]) - value(f.or_, bytes[i]);
    wire[i] = std::max(wire[i], 1e-9);
  }
  if (eager_end > 0) f.wire = fit_pieces(bytes, xw, wire, total, 0, eager_end - 1, tolerance, breaks);
  if (eager_end < n) {
    const auto large = fit_pieces(bytes, xw, wire, total, eager_end, n - 1, tolerance);
    f.wire.insert(f.wire.end(), large.begin(), large.end());
  }
  // L: the first piece's latency; B: the last piece's bandwidth (pieces without a slope, latency
  // alone, borrow the nearest larger piece's).
  f.latency = std::max(f.wire.front().intercept, 1e-9);
  double last_slope = 0;
  for (auto p = f.wire.rbegin(); p != f.wire.rend() && last_slope <= 0; ++p) last_slope = p->slope;
  if (last_slope <= 0)
    throw std::runtime_error("the measurement shows no cost per byte: measure larger sizes");
  f.bandwidth = 1 / last_slope;
  // Both ways at once: where each direction of the rendezvous sizes' duplex stream sustains clearly less
  // than B, each node gets a limiter link (SimGrid's cluster limiter_link: one link both directions
  // share) of twice that rate.
  if (eager_end + 1 < n && duplex_measured) {
    std::vector<double> duplex(n);
    for (std::size_t i = 0; i < n; ++i) duplex[i] = pts[i].duplex;
    const piece both = fit_affine(xw, duplex, duplex, eager_end, n - 1);
    if (both.slope > 0 && 1 / both.slope < duplex_shortfall * f.bandwidth) f.limiter = 2 / both.slope;
  }
  double slope = last_slope;
  std::vector<double> slopes(f.wire.size());
  for (std::size_t i = f.wire.size(); i-- > 0;)
    slopes[i] = slope = f.wire[i].slope > 0 ? f.wire[i].slope : slope;
  for (std::size_t i = 0; i < f.wire.size(); ++i) {
    // SMPI's factor applies above its threshold: the piece starting at `first` bytes prices payloads
    // of first + 16 bytes and more.
    const std::size_t threshold =
        static_cast<std::size_t>(static_cast<double>(f.wire[i].first) + envelope) - 1;
    f.lat_factor.emplace_back(i == 0 ? 0 : threshold, f.wire[i].intercept / f.latency);
    f.bw_factor.emplace_back(i == 0 ? 0 : threshold, std::min(1 / (slopes[i] * f.bandwidth), largest_bw_factor));
  }
  return f;
}

std::string factor_setting(const std::vector<std::pair<std::size_t, double>>& factors) {
  std::vector<std::string> parts;
  for (const auto& [threshold, value] : factors) parts.push_back(fmt::format("{}:{:.6g}", threshold, value));
  return fmt::format("{}", fmt::join(parts, ";"));
}

std::string pieces_text(const char* name, const std::vector<piece>& pieces, const char* unit) {
  std::string text;
  for (const piece& p : pieces)
    text += fmt::format("       {:<5} {:>9} – {:>9} B: {:.3f} us + {:.4g} {} (worst {:.1f}%)\n", name,
                        p.first, p.last, p.intercept * 1e6, p.slope * 1e6, unit, 100 * p.worst);
  return text;
}

int write_platform(const std::string& path, const std::string& on_node_path, const std::string& spec,
                   int cores, double tolerance, bool rendezvous_streamed, const std::string& out,
                   const std::string& command) {
  const measurement m = read_measurement(path);
  const fitted f = fit(m, tolerance, rendezvous_streamed);
  const topology t = parse_topology(spec);
  const std::size_t detached =
      f.detached_below.value_or(f.eager_limit.value_or(static_cast<std::size_t>(INT32_MAX)));
  // What the simulated MPI library itself takes for its eager limit, on every node: SMPI's detached
  // sizes may go further (src/kit/eager.cpp reads it).
  const std::string node_props =
      f.eager_limit ? fmt::format("    <prop id=\"collectives/eager-limit\" value=\"{}\"/>\n", *f.eager_limit)
                    : "";
  // The two measured nodes are a route of two links (node → switch → node): each link carries half
  // the latency.
  const double link_latency = f.latency / 2;
  std::string loopback;
  std::string on_node_text;
  if (!on_node_path.empty()) {
    const measurement local = read_measurement(on_node_path);
    const fitted lf = fit(local, tolerance, rendezvous_streamed);
    loopback = fmt::format(" loopback_bw=\"{:.6g}Bps\" loopback_lat=\"{:.6g}s\"", lf.bandwidth, lf.latency);
    on_node_text = fmt::format("     On one node ({}): {}, fitted L = {:.3f} us, B = {:.4g} MB/s.\n",
                               on_node_path, local.command, lf.latency * 1e6, lf.bandwidth / 1e6);
  }
  std::string table;
  for (const point& p : m.points)
    table += fmt::format("     {:>9}  {:>10.2f} {:>9.2f} {:>9.2f} {:>9.2f} {:>10.2f} {:>10.2f}  {}\n",
                         p.bytes, p.ping_pong * 1e6, p.send * 1e6, p.recv * 1e6, p.isend * 1e6,
                         p.stream * 1e6, p.duplex * 1e6, p.rendezvous ? "rendezvous" : "eager");
  std::string text = fmt::format(
      R"(<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- {name}: {nodes} nodes of {cores} core(s), {kind} ({params}), calibrated by collcalibrate from two
     nodes ({host0}, {host1}). Written by: {command}
     Measured ({measure_command}); microseconds, ping-pong one way, MPI_Send's, MPI_Recv's and
     MPI_Isend's own time with the receiver late (recv: the message there first), per message of a stream
     one way and of streams both ways at once:
         bytes   ping-pong      send      recv     isend     stream     duplex  protocol
{table}     Eager limit: {eager}.
{async_text}{on_node}     Fit (pieces of at most {tolerance:.0f}% error; transfer = {eager_transfer} when eager,
     the {rendezvous} for a rendezvous{eager_streamed}; sizes + 16 B of envelope):
{os}{or_}{ois}{wire}     Link: L = {latency:.3f} us end to end (two links of {half:.3f} us), B = {bandwidth:.4g} MB/s{limiter_text}. -->
<platform version="4.1">
  <config>
    <prop id="smpi/send-is-detached-thresh" value="{detached}"/>
    <prop id="smpi/async-small-thresh" value="{async}"/>
    <prop id="smpi/os" value="{os_value}"/>
    <prop id="smpi/or" value="{or_value}"/>
    <prop id="smpi/ois" value="{ois_value}"/>
    <prop id="smpi/lat-factor" value="{lat_factor}"/>
    <prop id="smpi/bw-factor" value="{bw_factor}"/>
  </config>
  <cluster id="{name}" prefix="node-" suffix="" radical="0-{last}" speed="1Gf" core="{cores}"
           bw="{bandwidth_bps:.6g}Bps" lat="{half_s:.6g}s" topology="{kind}" topo_parameters="{params}"{loopback}{limiter}>
{node_props}  </cluster>
</platform>
)",
      fmt::arg("name", t.name), fmt::arg("nodes", t.nodes), fmt::arg("cores", cores),
      fmt::arg("kind", t.kind), fmt::arg("params", t.parameters),
      fmt::arg("host0", m.hosts.size() > 0 ? m.hosts[0] : "?"),
      fmt::arg("host1", m.hosts.size() > 1 ? m.hosts[1] : "?"), fmt::arg("command", command),
      fmt::arg("measure_command", m.command), fmt::arg("table", table),
      fmt::arg("eager",
               f.eager_limit
                   ? fmt::format("{} B (a send of this size waits for its receiver){}", *f.eager_limit,
                                 f.detached_below
                                     ? fmt::format(".\n     Sends below {} B are detached: their receiver, "
                                                   "coming late, found most of the message there",
                                                   *f.detached_below)
                                     : "")
                   : std::string("none (every size measured went eagerly)")),
      fmt::arg("on_node", on_node_text), fmt::arg("tolerance", 100 * tolerance),
      fmt::arg("os", pieces_text("os", f.os, "us/B")), fmt::arg("or_", pieces_text("or", f.or_, "us/B")),
      fmt::arg("ois", pieces_text("ois", f.ois, "us/B")),
      fmt::arg("wire", pieces_text("wire", f.wire, "us/B")), fmt::arg("latency", f.latency * 1e6),
      fmt::arg("half", link_latency * 1e6), fmt::arg("bandwidth", f.bandwidth / 1e6),
      fmt::arg("detached", detached),
      fmt::arg("async", f.first_streamed.value_or(f.eager_limit.value_or(detached))),
      fmt::arg("async_text",
               f.first_streamed
                   ? fmt::format("     From {} B (the eager sizes priced from their stream) a message starts "
                                 "when its receive is posted:\n     SMPI would move a sender's messages "
                                 "all at once, sharing the link, where TCP sends them one after another.\n",
                                 *f.first_streamed)
                   : std::string()),
      fmt::arg("os_value", f.os.empty() ? "0:0:0" : overhead_setting(f.os)),
      fmt::arg("or_value", f.or_.empty() ? "0:0:0" : overhead_setting(f.or_)),
      fmt::arg("ois_value", overhead_setting(f.ois)), fmt::arg("lat_factor", factor_setting(f.lat_factor)),
      fmt::arg("bw_factor", factor_setting(f.bw_factor)), fmt::arg("last", t.nodes - 1),
      fmt::arg("bandwidth_bps", f.bandwidth), fmt::arg("half_s", link_latency),
      fmt::arg("loopback", loopback), fmt::arg("node_props", node_props),
      fmt::arg("eager_transfer", f.exchanges ? "duplex - isend - recv" : "ping-pong - send - recv"),
      fmt::arg("rendezvous", rendezvous_streamed ? "stream's time per message" : "ping-pong"),
      fmt::arg("eager_streamed", rendezvous_streamed ? "; for an eager size whose stream is slower than its "
                                                       "ping-pong, that stream's less recv"
                                                     : ""),
      fmt::arg("limiter", f.limiter > 0 ? fmt::format(" limiter_link=\"{:.6g}Bps\"", f.limiter) : ""),
      fmt::arg(
          "limiter_text",
          f.limiter > 0
              ? fmt::format(
                    "; both ways at once {:.4g} MB/s per direction: a limiter link of {:.4g} MB/s per node",
                    f.limiter / 2e6, f.limiter / 1e6)
              : ""));
  std::ofstream file(out);
  if (!file) throw std::runtime_error(fmt::format("cannot write {}", out));
  file << text;
  fmt::print(stderr, "collcalibrate: {} ({} nodes; L = {:.3f} us, B = {:.4g} MB/s, eager limit {})\n", out,
             t.nodes, f.latency * 1e6, f.bandwidth / 1e6,
             f.eager_limit ? fmt::format("{} B", *f.eager_limit) : "none");
  return 0;
}

// ---- two platforms side by side ----------------------------------------------------------------

// What a platform written in this form prices: SMPI's settings and the two-link route's L and B.
struct priced {
  std::optional<std::size_t> eager_limit;
  std::string os, or_, ois, lat_factor, bw_factor;
  double latency = 0, bandwidth = 0;
};

// SimGrid's units, as its platform files spell them: seconds, or bytes (bits) per second.
double with_unit(const std::string& text, bool rate, const std::string& path) {
  const auto [value, used] = leading_number(text);
  const std::string unit = text.substr(used);
  static const std::vector<std::pair<std::string, double>> times{
      {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}},
      rates{
          {"Bps", 1},        {"kBps", 1e3},     {"KBps", 1e3},       {"MBps", 1e6},          {"GBps", 1e9},
          {"TBps", 1e12},    {"KiBps", 1024.},  {"MiBps", 1048576.}, {"GiBps", 1073741824.}, {"bps", 1 / 8.},
          {"kbps", 1e3 / 8}, {"Mbps", 1e6 / 8}, {"Gbps", 1e9 / 8}};
  if (used > 0)
    for (const auto& [name, scale] : rate ? rates : times)
      if (unit == name) return value * scale;
  throw std::runtime_error(
      fmt::format("{}: '{}' is not a {} SimGrid reads", path, text, rate ? "bandwidth" : "latency"));
}

std::string attribute(const std::string& text, const std::string& pattern, const std::string& path) {
  std::smatch match;
  if (!std::regex_search(text, match, std::regex(pattern)))
    throw std::runtime_error(
        fmt::format("{}: no {} (a platform of collcalibrate fit's form)", path, pattern));
  return match[1];
}

priced read_platform(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error(fmt::format("cannot read {}", path));
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  auto prop = [&](const std::string& id) {
    std::smatch match;
    const std::regex pattern("<prop id=\"" + id + "\" value=\"([^\"]*)\"");
    return std::regex_search(text, match, pattern) ? std::string(match[1]) : std::string();
  };
  priced p;
  // The simulated library's eager limit, which SMPI's detached sizes may exceed.
  if (std::string e = prop("collectives/eager-limit");
      !e.empty() || !(e = prop("smpi/send-is-detached-thresh")).empty())
    p.eager_limit = std::stoul(e);
  p.os = prop("smpi/os"), p.or_ = prop("smpi/or"), p.ois = prop("smpi/ois");
  p.lat_factor = prop("smpi/lat-factor"), p.bw_factor = prop("smpi/bw-factor");
  const std::string cluster = attribute(text, "(<cluster[^>]*>)", path);
  p.latency = 2 * with_unit(attribute(cluster, "\\slat=\"([^\"]*)\"", path), false, path);
  p.bandwidth = with_unit(attribute(cluster, "\\sbw=\"([^\"]*)\"", path), true, path);
  return p;
}

// SMPI's reading of "T:a[:b];…" at size s (src/smpi/internals/smpi_host.cpp, network_smpi.cpp):
// the last section whose T is below s; at or below the first T, the first section (an overhead)
// or 1 (a factor).
double smpi_value(const std::string& setting, double s, bool factor) {
  if (setting.empty()) return factor ? 1 : 0;
  std::vector<std::vector<double>> sections;
  for (const auto& section : split(setting, ';')) {
    std::vector<double> values;
    for (const auto& v : split(section, ':')) values.push_back(std::stod(v));
    sections.push_back(values);
  }
  std::sort(sections.begin(), sections.end());
  auto of = [&](const std::vector<double>& v) { return factor ? v.at(1) : v.at(1) + v.at(2) * s; };
  double current = factor ? 1 : of(sections.front());
  for (const auto& v : sections) {
    if (s <= v[0]) return current;
    current = of(v);
  }
  return current;
}

int compare_platforms(const std::string& first_path, const std::string& second_path,
                      const std::string& sizes_path, double within) {
  const priced a = read_platform(first_path), b = read_platform(second_path);
  const measurement m = read_measurement(sizes_path);
  struct row {
    std::string name;
    double worst = 0;
    std::size_t at = 0;
  };
  std::vector<row> rows{{"os"}, {"or"}, {"ois"}, {"latency"}, {"bandwidth"}};
  for (const point& p : m.points) {
    const double s = static_cast<double>(p.bytes), payload = s + envelope;
    const bool eager = !a.eager_limit || p.bytes < *a.eager_limit;
    const std::vector<std::optional<std::pair<double, double>>> values{
        eager ? std::optional(std::pair(smpi_value(a.os, s, false), smpi_value(b.os, s, false)))
              : std::nullopt,
        eager ? std::optional(std::pair(smpi_value(a.or_, s, false), smpi_value(b.or_, s, false)))
              : std::nullopt,
        std::pair(smpi_value(a.ois, s, false), smpi_value(b.ois, s, false)),
        std::pair(a.latency * smpi_value(a.lat_factor, payload, true),
                  b.latency * smpi_value(b.lat_factor, payload, true)),
        std::pair(a.bandwidth * smpi_value(a.bw_factor, payload, true),
                  b.bandwidth * smpi_value(b.bw_factor, payload, true))};
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (!values[i]) continue;
      const auto [x, y] = *values[i];
      const double off = x == y ? 0 : std::abs(y / x - 1);
      if (off > rows[i].worst) rows[i].worst = off, rows[i].at = p.bytes;
    }
  }
  bool held = a.eager_limit == b.eager_limit;
  fmt::print("eager limit: {} against {}\n", a.eager_limit ? fmt::format("{} B", *a.eager_limit) : "none",
             b.eager_limit ? fmt::format("{} B", *b.eager_limit) : "none");
  for (const row& r : rows) {
    held = held && r.worst <= within;
    fmt::print("{:<10} largest difference {:6.2f}% (at {} B)\n", r.name, 100 * r.worst, r.at);
  }
  fmt::print("{} within {:.1f}% at the {} sizes of {}\n", held ? "all" : "NOT all", 100 * within,
             m.points.size(), sizes_path);
  return held ? 0 : 1;
}

std::vector<std::size_t> sweep_sizes(std::size_t first, std::size_t last, std::size_t step) {
  std::vector<std::size_t> sizes;
  if (first == 0) sizes.push_back(0), first = 1;
  for (std::size_t s = first; s <= last; s *= step) sizes.push_back(s);
  return sizes;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"collcalibrate: measure two nodes' point-to-point costs, fit SimGrid SMPI's parameters"};
  app.require_subcommand(1);
  // An option given twice takes the last: calibrate.sh's options after -- override its --quick.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);

  auto* measure_cmd = app.add_subcommand("measure", "measure between ranks 0 and 1 (launch with 2 ranks)");
  std::size_t min_bytes = 0, max_bytes = std::size_t{16} << 20;
  std::string out = "calibration.json";
  std::size_t step = 2;
  double budget = 0.2;
  measure_cmd->add_option("-b,--min-bytes", min_bytes, "smallest size (K, M suffixes)")
      ->transform(CLI::AsSizeValue(false))
      ->capture_default_str();
  measure_cmd->add_option("-e,--max-bytes", max_bytes, "largest size")
      ->transform(CLI::AsSizeValue(false))
      ->capture_default_str();
  measure_cmd->add_option("--step", step, "size factor between sizes")
      ->capture_default_str()
      ->check(CLI::Range(2, 1024));
  measure_cmd->add_option("--time-per-size", budget, "seconds per size and measurement")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  measure_cmd->add_option("-o,--output", out, "the measurement (JSON)")->capture_default_str();

  auto* fit_cmd = app.add_subcommand("fit", "fit SMPI's parameters and write a platform of N nodes");
  std::string measurement_path, on_node, spec, platform = "calibrated.xml";
  int cores = 1;
  double tolerance = 0.05;
  fit_cmd->add_option("measurement", measurement_path, "collcalibrate measure's JSON (two nodes)")
      ->required()
      ->check(CLI::ExistingFile);
  fit_cmd
      ->add_option("--topology", spec, "fat-tree:N | fat-tree:KxM | torus:AxBxC | dragonfly:G,GL;C,CL;R,RL;N")
      ->required();
  fit_cmd->add_option("--cores-per-node", cores, "ranks per node")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  fit_cmd->add_option("--on-node", on_node, "a measurement between two ranks of one node (the loopback link)")
      ->check(CLI::ExistingFile);
  fit_cmd->add_option("--tolerance", tolerance, "largest relative error of a fitted piece")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 1.0));
  fit_cmd->add_option("-o,--output", platform, "the SimGrid platform")->capture_default_str();
  std::string transfer = "stream";
  fit_cmd
      ->add_option(
          "--rendezvous-transfer", transfer,
          "what a rendezvous transfer costs: the stream's time per message (a busy link; then an eager "
          "one slower streamed than alone, the stream's too, and the other eager ones an exchange's) or "
          "the ping-pong's")
      ->capture_default_str()
      ->check(CLI::IsMember({"stream", "ping-pong"}));

  auto* compare_cmd = app.add_subcommand("compare",
                                         "set two platforms' parameters side by side at a measurement's "
                                         "sizes (exit 1 if any differ by more than --within)");
  std::string first_platform, second_platform;
  double within = 0.05;
  compare_cmd->add_option("first", first_platform, "a platform (collcalibrate fit's form)")
      ->required()
      ->check(CLI::ExistingFile);
  compare_cmd->add_option("second", second_platform, "another")->required()->check(CLI::ExistingFile);
  compare_cmd->add_option("--sizes", measurement_path, "a measurement whose sizes to compare at")
      ->required()
      ->check(CLI::ExistingFile);
  compare_cmd->add_option("--within", within, "largest relative difference allowed")->capture_default_str();

  CLI11_PARSE(app, argc, argv);
  try {
    if (*measure_cmd) {
      if (max_bytes < std::max<std::size_t>(min_bytes, 1))
        throw std::runtime_error(
            fmt::format("--max-bytes {} is below --min-bytes {} (or 0)", max_bytes, min_bytes));
      if (max_bytes > static_cast<std::size_t>(INT32_MAX))
        throw std::runtime_error("--max-bytes must fit an int");
      return measure(argc, argv, sweep_sizes(min_bytes, max_bytes, step), budget, out, command);
    }
    if (*compare_cmd) return compare_platforms(first_platform, second_platform, measurement_path, within);
    return write_platform(measurement_path, on_node, spec, cores, tolerance, transfer == "stream", platform,
                          command);
  } catch (const std::exception& e) {
    fmt::print(stderr, "collcalibrate: {}\n", e.what());
    return 2;
  }
}
