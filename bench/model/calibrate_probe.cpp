// SPDX-License-Identifier: BSD-3-Clause
#include "model/calibrate_probe.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <optional>
#include <stdexcept>

#include "measure/median.hpp"
#include "model/calibrate_measurement.hpp"

namespace collbench {
namespace {

// Waits `seconds` of the clock MPI_Wtime reads (under SMPI, nanosleep is its simulated sleep).
void wait_for(double seconds) {
  const timespec interval{static_cast<time_t>(seconds),
                          static_cast<long>((seconds - std::floor(seconds)) * 1e9)};
  nanosleep(&interval, nullptr);
}

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

// How many times measure takes a disturbed size again before it writes what it has.
constexpr int most_remeasured = 5;

// How late the receiver comes: well after an eager message of this size would have arrived.
double lateness(double one_way) { return std::max(200e-6, 4 * one_way); }

// The eager limit: the first size whose send waits for a late receiver, to the byte.
std::optional<std::size_t> find_eager_limit(prober& probe, const std::vector<std::size_t>& sweep) {
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
  return eager_limit;
}

// The sweep's sizes and, where there is one, the eager limit and the size below it.
std::vector<std::size_t> sizes_with(const std::vector<std::size_t>& sweep,
                                    std::optional<std::size_t> eager_limit) {
  std::vector<std::size_t> sizes = sweep;
  if (eager_limit) {
    for (std::size_t s : {*eager_limit - 1, *eager_limit})
      if (*eager_limit > 0) sizes.push_back(s);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  }
  return sizes;
}

point measure_size(prober& probe, std::size_t bytes, std::optional<std::size_t> eager_limit, double budget,
                   int rank) {
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
}

// The two hosts' names, on rank 0.
std::vector<std::string> host_names() {
  char host[MPI_MAX_PROCESSOR_NAME];
  int length = 0;
  MPI_Get_processor_name(host, &length);
  std::vector<char> hosts(2 * MPI_MAX_PROCESSOR_NAME);
  MPI_Gather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
             MPI_COMM_WORLD);
  return {std::string(hosts.data()), std::string(hosts.data() + MPI_MAX_PROCESSOR_NAME)};
}

}  // namespace

std::vector<std::size_t> sweep_sizes(std::size_t first, std::size_t last, std::size_t step) {
  std::vector<std::size_t> sizes;
  if (first == 0) sizes.push_back(0), first = 1;
  for (std::size_t s = first; s <= last; s *= step) sizes.push_back(s);
  return sizes;
}

int measure_two_nodes(int argc, char** argv, const std::vector<std::size_t>& sweep, double budget,
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
  measurement m;
  m.hosts = host_names();
  m.command = command;
  m.time_per_size = budget;
  prober probe(MPI_COMM_WORLD, budget);
  probe.ping_pong(0, 5);  // warm-up: connections opened, buffers touched
  m.eager_limit = find_eager_limit(probe, sweep);
  for (std::size_t bytes : sizes_with(sweep, m.eager_limit))
    m.points.push_back(measure_size(probe, bytes, m.eager_limit, budget, rank));
  // A size measured while the machine was busy (the fit would refuse it) is measured again, a few
  // times at most. Every figure is on both ranks: they pick the same size.
  for (int again = 0; again < most_remeasured; ++again) {
    const auto pair = disturbed_pair(m.points);
    if (!pair) break;
    point& slow = m.points[pair->first];
    if (rank == 0)
      fmt::print(stderr,
                 "collcalibrate: {} B again: its ping-pong took {:.2f} us, {} B's {:.2f} (disturbed)\n",
                 slow.bytes, slow.ping_pong * 1e6, m.points[pair->second].bytes,
                 m.points[pair->second].ping_pong * 1e6);
    slow = measure_size(probe, slow.bytes, m.eager_limit, budget, rank);
  }
  if (rank == 0) {
    try {
      write_measurement(m, out);
    } catch (const std::exception& e) {
      fmt::print(stderr, "collcalibrate: {}\n", e.what());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    fmt::print(stderr, "collcalibrate: {} ({} and {}; eager limit {})\n", out, m.hosts[0], m.hosts[1],
               m.eager_limit ? fmt::format("{} B", *m.eager_limit) : "none found");
  }
  MPI_Finalize();
  return 0;
}

}  // namespace collbench
