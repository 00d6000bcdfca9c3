// SPDX-License-Identifier: BSD-3-Clause
#include "model/model.hpp"

#include <algorithm>
#include <cmath>
#include <collectives/detail/request.hpp>
#include <cstring>
#include <stdexcept>

#include "measure/median.hpp"

namespace collbench {
namespace {

// Median of `reps` timings of f() after one untimed call; a local measurement stops early after
// `max_seconds` (a ping-pong must not: both sides have to run the same number of times).
template <class F>
double time_median(int reps, double max_seconds, F&& f) {
  f();
  std::vector<double> t;
  const double start = MPI_Wtime();
  for (int i = 0; i < reps && (i < 3 || MPI_Wtime() - start < max_seconds); ++i) {
    const double t0 = MPI_Wtime();
    f();
    t.push_back(MPI_Wtime() - t0);
  }
  return median(t);
}

// Seconds the library's reduction kernel takes over `bytes` bytes (one inout vector and one input).
double reduce_seconds(element_kind type, op_kind op, std::size_t bytes) {
  return with_type(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return with_op(op, [&](auto functor) -> double {
      using Op = decltype(functor);
      if constexpr (std::is_invocable_v<const Op&, const T&, const T&>) {
        const collectives::detail::reduction red = collectives::detail::make_reduction<T>(functor);
        const std::size_t count = std::max<std::size_t>(bytes / sizeof(T), 1);
        std::vector<T> lhs(count, T{1}), inout(count, T{1});
        return time_median(9, 0.5, [&] { red.combine(lhs.data(), inout.data(), count, red.state); });
      } else {
        throw std::invalid_argument("collbench: the op does not apply to the type");
      }
    });
  });
}

double memcpy_seconds(std::size_t bytes) {
  std::vector<std::byte> src(bytes, std::byte{1}), dst(bytes);
  const double t = time_median(9, 0.5, [&] { std::memcpy(dst.data(), src.data(), bytes); });
  // Reading the copy keeps the compiler from dropping it as a dead store.
  volatile std::byte sink = dst[bytes / 2];
  static_cast<void>(sink);
  return t;
}

// 4 KiB, 8 KiB, … ×2 up to `largest`, and `largest` itself. ×2 because the times bend where a
// call's buffers leave the caches, and a line across a ×4 step misprices the size between.
std::vector<std::size_t> local_sizes(std::size_t largest) {
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = 4096; bytes < largest; bytes *= 2) sizes.push_back(bytes);
  sizes.push_back(largest);
  return sizes;
}

// The ping-pongs' buffers on one rank. forward: one buffer, sent back as received. clean: a send
// buffer filled once and never written again, as collbench's inputs are, and a receive buffer of
// its own.
struct pingpong_buffers {
  explicit pingpong_buffers(std::size_t largest)
      : bounced(largest, std::byte{1}), own(largest, std::byte{1}) {}
  // One round trip of `bytes` bytes, rank 0 first.
  void round_trip(MPI_Comm comm, int rank, pingpong_kind kind, std::size_t bytes) {
    const int n = static_cast<int>(bytes);
    const std::byte* out = kind == pingpong_kind::clean ? own.data() : bounced.data();
    if (rank == 0) {
      MPI_Send(out, n, MPI_BYTE, 1, 0, comm);
      MPI_Recv(bounced.data(), n, MPI_BYTE, 1, 0, comm, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(bounced.data(), n, MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE);
      MPI_Send(out, n, MPI_BYTE, 0, 0, comm);
    }
  }
  std::vector<std::byte> bounced, own;
};

std::vector<std::size_t> pingpong_sizes(std::size_t largest) {
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = 1; bytes < largest; bytes *= 2) sizes.push_back(bytes);  // ×2: as above
  sizes.push_back(largest);
  return sizes;
}

// 100 round trips up to 1 MiB (a few ms each size): a median of fewer moved too much between runs
// on a shared machine; above, 20, each round trip long enough on its own.
int pingpong_reps(std::size_t bytes) { return bytes <= (std::size_t{1} << 20) ? 100 : 20; }

// The eager exchanges (model.hpp): both ranks send from a buffer they never write, then receive.
std::vector<pingpong_point> exchanges(MPI_Comm comm, int rank, std::size_t eager) {
  std::vector<pingpong_point> points;
  if (eager == 0) return points;
  pingpong_buffers b(eager);
  const int peer = 1 - rank;
  for (std::size_t bytes : pingpong_sizes(eager)) {
    const int n = static_cast<int>(bytes);
    points.push_back({bytes, time_median(pingpong_reps(bytes), HUGE_VAL, [&] {
                        MPI_Send(b.own.data(), n, MPI_BYTE, peer, 0, comm);
                        MPI_Recv(b.bounced.data(), n, MPI_BYTE, peer, 0, comm, MPI_STATUS_IGNORE);
                      })});
  }
  return points;
}

}  // namespace

std::vector<pingpong_point> pingpong(MPI_Comm comm, int rank, pingpong_kind kind, std::size_t largest) {
  pingpong_buffers b(largest);
  std::vector<pingpong_point> points;
  for (std::size_t bytes : pingpong_sizes(largest))
    points.push_back({bytes, time_median(pingpong_reps(bytes), HUGE_VAL, [&] {
                               b.round_trip(comm, rank, kind, bytes);
                             }) / 2});
  return points;
}

void pingpongs(MPI_Comm comm, int rank, std::size_t largest, std::vector<pingpong_point>& forward,
               std::vector<pingpong_point>& clean) {
  pingpong_buffers b(largest);
  for (std::size_t bytes : pingpong_sizes(largest)) {
    // Alternating, so that a machine whose speed drifts (a shared VM) moves both alike.
    std::vector<double> times[2];
    for (int i = -1; i < pingpong_reps(bytes); ++i)
      for (pingpong_kind kind : {pingpong_kind::forward, pingpong_kind::clean}) {
        const double t0 = MPI_Wtime();
        b.round_trip(comm, rank, kind, bytes);
        if (i >= 0) times[kind == pingpong_kind::clean].push_back(MPI_Wtime() - t0);
      }
    forward.push_back({bytes, median(times[0]) / 2});
    clean.push_back({bytes, median(times[1]) / 2});
  }
}

void fit_alpha_beta(const std::vector<pingpong_point>& points, double& alpha, double& beta) {
  // Minimise Σ ((α + m·β − t) / t)²: the normal equations of the weighted problem.
  double sw = 0, swm = 0, swmm = 0, swt = 0, swmt = 0;
  for (const pingpong_point& p : points) {
    const double w = 1.0 / (p.seconds * p.seconds), m = static_cast<double>(p.bytes);
    sw += w, swm += w * m, swmm += w * m * m, swt += w * p.seconds, swmt += w * m * p.seconds;
  }
  const double det = sw * swmm - swm * swm;
  alpha = beta = 0;
  if (points.size() < 2 || det <= 0) return;
  alpha = (swmm * swt - swm * swmt) / det;
  beta = (sw * swmt - swm * swt) / det;
  if (alpha < 0) {  // noise: refit through the origin
    alpha = 0;
    beta = swmt / swmm;
  }
  beta = std::max(beta, 0.0);
}

machine measure_machine(MPI_Comm comm, element_kind type, op_kind op, std::size_t largest, std::size_t eager) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  machine m;
  MPI_Barrier(comm);
  largest = std::max(largest, std::size_t{4} << 20);
  if (size > 1 && rank < 2) {
    pingpongs(comm, rank, largest, m.pingpong, m.pingpong_clean);
    m.exchange = exchanges(comm, rank, eager);
  }
  MPI_Barrier(comm);
  if (rank == 0) {
    fit_alpha_beta(m.pingpong, m.alpha, m.beta);
    double alpha_clean = 0;
    fit_alpha_beta(m.pingpong_clean, alpha_clean, m.beta_clean);
    for (std::size_t bytes : local_sizes(largest)) {
      m.reduce.push_back({bytes, reduce_seconds(type, op, bytes)});
      m.copy.push_back({bytes, memcpy_seconds(bytes)});
    }
    const std::size_t reduced = std::size_t{8} << 20, copied = std::size_t{16} << 20;
    m.gamma = reduce_seconds(type, op, reduced) / static_cast<double>(reduced);
    m.memcpy_bandwidth = static_cast<double>(copied) / memcpy_seconds(copied);
  }
  double values[5] = {m.alpha, m.beta, m.beta_clean, m.gamma, m.memcpy_bandwidth};
  MPI_Bcast(values, 5, MPI_DOUBLE, 0, comm);
  m.alpha = values[0], m.beta = values[1], m.beta_clean = values[2], m.gamma = values[3],
  m.memcpy_bandwidth = values[4];
  return m;
}

}  // namespace collbench
