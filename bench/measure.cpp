// How one size is measured (collectively, on every rank):
//   1. check: vendor runs first on fresh inputs and its result is kept; every variant then runs
//      on the same inputs and its result is compared element by element (wrong = elements that
//      differ, summed over ranks);
//   2. warm-up: rounds of every variant once, until the round count or a quarter of the time
//      budget is spent; they also estimate how long one round takes;
//   3. timed iterations, as many as the budget allows (between --min-iterations and
//      --iterations): each iteration runs every variant once, starting from a different one
//      each time, each call preceded by a barrier and timed on every rank;
//   4. per iteration the maximum over ranks (the collective is done when its last rank is),
//      then median, min and max over iterations.

#include "measure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace collbench {
namespace {

using collectives::collective;

bool is_corrupted(const std::string& label) {
  const std::vector<std::string> labels = corrupted_labels();
  return std::find(labels.begin(), labels.end(), label) != labels.end();
}

// The rank whose result the test hook corrupts: one that has a result.
int corrupted_rank(collective c, int root, int size) {
  return c == collective::gather || c == collective::reduce ? root : size - 1;
}

long long count_wrong(std::span<const std::byte> got, std::span<const std::byte> want, std::size_t elem) {
  long long wrong = 0;
  for (std::size_t i = 0; i + elem <= got.size(); i += elem)
    if (std::memcmp(got.data() + i, want.data() + i, elem) != 0) ++wrong;
  return wrong;
}

std::vector<long long> check_all(MPI_Comm comm, collective c, int root, workload& w,
                                 std::span<const variant> variants, progress& prog,
                                 const std::string& where) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<std::byte> reference;
  std::vector<long long> wrong(variants.size(), 0);
  for (std::size_t k = 0; k < variants.size(); ++k) {
    prog.note(fmt::format("{}: checking {}", where, variants[k].label));
    w.fill();
    w.run(variants[k]);
    const std::span<std::byte> result = w.result();
    if (k == 0) reference.assign(result.begin(), result.end());
    if (is_corrupted(variants[k].label) && rank == corrupted_rank(c, root, size) && !result.empty())
      result[0] = ~result[0];
    wrong[k] = count_wrong(result, reference, w.element_size());
  }
  std::vector<long long> total(variants.size(), 0);
  MPI_Reduce(wrong.data(), total.data(), static_cast<int>(wrong.size()), MPI_LONG_LONG, MPI_SUM, 0, comm);
  return total;
}

double median_of_sorted(const std::vector<double>& v) {
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

}  // namespace

progress::progress(bool enabled, int rank)
    : enabled_(enabled && rank == 0), start_(MPI_Wtime()), last_(start_) {}

void progress::note(const std::string& what) {
  if (!enabled_) return;
  const double now = MPI_Wtime();
  if (now - start_ < 3.0 || now - last_ < 2.0) return;
  last_ = now;
  fmt::print(stderr, "collbench [{:.0f} s] {}\n", now - start_, what);
  std::fflush(stderr);
}

std::vector<std::string> corrupted_labels() {
  std::vector<std::string> labels;
  const char* env = std::getenv("COLLBENCH_TEST_CORRUPT");
  if (env == nullptr) return labels;
  std::string_view rest(env);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    labels.emplace_back(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  return labels;
}

std::vector<sample> measure(MPI_Comm comm, collective c, int root, workload& w,
                            std::span<const variant> variants, const message& m, const timing_policy& policy,
                            bool check, progress& prog, const std::string& where) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::size_t k = variants.size();
  std::vector<sample> out(k);
  w.resize(m.call_count);

  if (check) {
    const std::vector<long long> wrong = check_all(comm, c, root, w, variants, prog, where);
    for (std::size_t i = 0; i < k; ++i) out[i].wrong = wrong[i];
  } else {
    w.fill();
  }

  const bool small = m.bytes <= 8192;
  const int warmup = policy.warmup >= 0 ? policy.warmup : small ? 100 : 10;
  const double budget = policy.seconds_per_size;
  std::vector<double> local(k, 0.0);

  // Warm-up: the stop decision uses the slowest rank's time, so every rank makes the same one.
  prog.note(fmt::format("{}: warming up {} algorithms", where, k));
  int rounds = 0;
  double round_seconds = 0;
  for (; rounds < warmup; ++rounds) {
    for (std::size_t i = 0; i < k; ++i) {
      MPI_Barrier(comm);
      const double t0 = MPI_Wtime();
      w.run(variants[i]);
      local[i] += MPI_Wtime() - t0;
    }
    if (budget > 0) {
      double mine = 0, slowest = 0;
      for (double t : local) mine += t;
      MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
      round_seconds = slowest / (rounds + 1);
      if (slowest > budget / 4) {
        ++rounds;
        break;
      }
    }
  }

  const int most = policy.iterations > 0 ? policy.iterations : small ? 1000 : 100;
  int iterations = most;
  std::vector<std::vector<double>> times(k, std::vector<double>(static_cast<std::size_t>(most)));
  const auto timed_round = [&](int it) {
    for (std::size_t j = 0; j < k; ++j) {
      const std::size_t i = (static_cast<std::size_t>(it) + j) % k;
      MPI_Barrier(comm);
      const double t0 = MPI_Wtime();
      w.run(variants[i]);
      times[i][static_cast<std::size_t>(it)] = MPI_Wtime() - t0;
    }
  };
  int it = 0;
  if (budget > 0) {
    if (rounds == 0) {  // no warm-up: the first timed round is the estimate
      timed_round(it++);
      double mine = 0;
      for (std::size_t i = 0; i < k; ++i) mine += times[i][0];
      MPI_Allreduce(&mine, &round_seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
    }
    const double fit = round_seconds > 0 ? budget / round_seconds : most;
    iterations = static_cast<int>(std::clamp(fit, static_cast<double>(std::min(policy.min_iterations, most)),
                                             static_cast<double>(most)));
  }
  prog.note(fmt::format("{}: timing {} algorithms, {} iterations", where, k, iterations));
  for (; it < iterations; ++it) timed_round(it);

  for (std::size_t i = 0; i < k; ++i) {
    std::vector<double> slowest(static_cast<std::size_t>(iterations));
    MPI_Reduce(times[i].data(), slowest.data(), iterations, MPI_DOUBLE, MPI_MAX, 0, comm);
    if (rank != 0) continue;
    std::sort(slowest.begin(), slowest.end());
    out[i].median = median_of_sorted(slowest);
    out[i].min = slowest.front();
    out[i].max = slowest.back();
    out[i].iterations = iterations;
  }
  return out;
}

}  // namespace collbench
