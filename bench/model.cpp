#include "model.hpp"

#include <algorithm>
#include <cmath>
#include <collectives/detail/request.hpp>
#include <cstring>
#include <stdexcept>

namespace collbench {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

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

// 4 KiB, 16 KiB, … ×4 up to `largest`, and `largest` itself.
std::vector<std::size_t> local_sizes(std::size_t largest) {
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = 4096; bytes < largest; bytes *= 4) sizes.push_back(bytes);
  sizes.push_back(largest);
  return sizes;
}

}  // namespace

std::vector<pingpong_point> pingpong(MPI_Comm comm, int rank, pingpong_kind kind, std::size_t largest) {
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = 1; bytes < largest; bytes *= 4) sizes.push_back(bytes);
  sizes.push_back(largest);
  // forward: one buffer, sent back as received. clean: a send buffer filled once and never written
  // again, as collbench's inputs are, and a receive buffer of its own.
  std::vector<std::byte> buf(largest, std::byte{1});
  std::vector<std::byte> own(kind == pingpong_kind::clean ? largest : 0, std::byte{1});
  const std::byte* out = kind == pingpong_kind::clean ? own.data() : buf.data();
  std::vector<pingpong_point> points;
  for (std::size_t bytes : sizes) {
    const int n = static_cast<int>(bytes);
    const double round_trip = time_median(bytes <= 65536 ? 100 : 20, HUGE_VAL, [&] {
      if (rank == 0) {
        MPI_Send(out, n, MPI_BYTE, 1, 0, comm);
        MPI_Recv(buf.data(), n, MPI_BYTE, 1, 0, comm, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf.data(), n, MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE);
        MPI_Send(out, n, MPI_BYTE, 0, 0, comm);
      }
    });
    points.push_back({bytes, round_trip / 2});
  }
  return points;
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

machine measure_machine(MPI_Comm comm, element_kind type, op_kind op, std::size_t largest) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  machine m;
  MPI_Barrier(comm);
  largest = std::max(largest, std::size_t{4} << 20);
  if (size > 1 && rank < 2) {
    m.pingpong = pingpong(comm, rank, pingpong_kind::forward, largest);
    m.pingpong_clean = pingpong(comm, rank, pingpong_kind::clean, largest);
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
