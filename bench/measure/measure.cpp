// SPDX-License-Identifier: BSD-3-Clause
// How one size is measured (measure.hpp), collectively, on every rank: every variant checked
// against vendor's result (wrong = elements that differ, summed over ranks); warm-up rounds of every
// variant once, until the round count or a quarter of the time budget is spent; then timed rounds,
// as many as the budget allows, each variant once per round in a fresh random order. Synchronized:
// each call after a barrier, started at an instant common to all ranks (start_sync.hpp), its time
// the maximum over ranks. Back to back: an iteration is a batch of calls issued one after the other
// after a barrier, its time per call the slowest rank's. As IMB-MPI1 times (imb): each call of a
// batch timed on its own with a barrier after it, the mean over the ranks. Then median, min and
// max over iterations. The method and its sources: docs/measurements/2026-12-02-the-house.md.

#include "measure/measure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>

namespace collbench {
namespace {

using collectives::collective;

// A call some rank started late is redone up to this many times in all; the last attempt is kept
// even if late (it errs high, by the late rank's delay, never low).
constexpr int max_attempts = 4;

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
    w.fill(reference);
    {
      const forcing_scope forcing(variants[k]);
      const smpi_selection selection(w, variants[k]);
      w.run(variants[k]);
    }
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

struct call_time {
  double seconds;  ///< the slowest rank's, from the common start to the end of its call
  bool late;       ///< some rank reached the start after it had passed
};

// One call of `v`, started at the common instant. The same on every rank.
// MPICH's vendor internals are forced from before the common start (writing the control variables
// must not count in the call's time) to the end of the call: the start's own barrier and broadcast
// may then run a forced algorithm, which the start margin absorbs. SMPI's rows are selected alike,
// between barriers outside the timed call (workload.hpp's smpi_selection).
call_time timed_call(MPI_Comm comm, start_sync& sync, workload& w, const variant& v) {
  double mine[2];
  {
    const forcing_scope forcing(v);
    const smpi_selection selection(w, v);
    const start_sync::start s = sync.next();
    w.run(v);
    mine[0] = start_sync::now() - s.local;
    mine[1] = s.late ? 1.0 : 0.0;
  }
  double slowest[2] = {0, 0};
  MPI_Allreduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, comm);
  sync.adapt(slowest[1] > 0);
  return {slowest[0], slowest[1] > 0};
}

// One batch of `calls` calls of `v`, back to back after a barrier: the time per call of the slowest
// rank, from its own exit of the barrier to the end of its last call. The maximum, not the average:
// the batch is done when its last rank is, and the average would credit a rooted collective with
// the time its root saves by running ahead, which none of the other ranks sees. The same on every rank.
double timed_batch(MPI_Comm comm, workload& w, const variant& v, int calls) {
  double mine = 0;
  {
    const forcing_scope forcing(v);
    const smpi_selection selection(w, v);
    MPI_Barrier(comm);
    const double start = start_sync::now();
    for (int i = 0; i < calls; ++i) w.run(v);
    mine = (start_sync::now() - start) / calls;
  }
  double slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
  return slowest;
}

// One batch of `calls` calls of `v` timed as IMB-MPI1 times a collective (intel/mpi-benchmarks at
// 46e8757, src_c/IMB_allreduce.c and its siblings: N_BARR = 2 barriers, then each call timed on its
// own and followed by a barrier unless -sync off; docs/measurements/2026-12-02-the-house.md): two
// barriers, then each call timed on its own and followed by a barrier. Each rank's mean per call,
// averaged over the ranks (IMB's t_avg, which bench/imb_check.sh reads). The same on every rank.
double imb_batch(MPI_Comm comm, workload& w, const variant& v, int calls) {
  double mine = 0;
  {
    const forcing_scope forcing(v);
    const smpi_selection selection(w, v);
    MPI_Barrier(comm);
    MPI_Barrier(comm);
    for (int i = 0; i < calls; ++i) {
      mine -= MPI_Wtime();
      w.run(v);
      mine += MPI_Wtime();
      MPI_Barrier(comm);
    }
    mine /= calls;
  }
  int size = 1;
  MPI_Comm_size(comm, &size);
  double sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, comm);
  return sum / size;
}

// One size's rounds: every variant once per round, in a fresh random order (the same on every
// rank, from the shared seed), so that no variant always follows the same one and inherits what it
// leaves behind (a busy root, messages still in flight). A timed round keeps each call's time and
// redoes a call that some rank started late.
class size_rounds {
 public:
  std::vector<std::vector<double>> times;  ///< per variant, each timed iteration's

  size_rounds(MPI_Comm comm, timing_state& state, workload& w, std::span<const variant> variants, int batch,
              timing_mode timing, std::vector<sample>& out)
      : times(variants.size()), comm_(comm), state_(state), w_(w), variants_(variants), batch_(batch),
        back_to_back_(timing != timing_mode::synchronized), imb_(timing == timing_mode::imb), out_(out),
        order_(variants.size()) {
    std::iota(order_.begin(), order_.end(), std::size_t{0});
  }

  void round(bool timed) {
    std::shuffle(order_.begin(), order_.end(), state_.order);
    for (std::size_t i : order_) {
      if (back_to_back_) {
        const double t = imb_ ? imb_batch(comm_, w_, variants_[i], batch_)
                              : timed_batch(comm_, w_, variants_[i], batch_);
        if (timed) {
          ++out_[i].calls;
          times[i].push_back(t);
        }
        continue;
      }
      if (!timed) {
        timed_call(comm_, state_.start, w_, variants_[i]);
        continue;
      }
      call_time t{0, true};
      for (int attempt = 0; t.late && attempt < max_attempts; ++attempt) {
        t = timed_call(comm_, state_.start, w_, variants_[i]);
        ++out_[i].calls;
        out_[i].late += t.late;
      }
      times[i].push_back(t.seconds);
    }
  }

  // Seconds one round takes on the slowest rank, so that every rank makes the same decisions.
  double slowest_since(double start) const {
    const double mine = MPI_Wtime() - start;
    double slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm_);
    return slowest;
  }

  // Rounds of every variant once, until `warmup` rounds or a quarter of the budget is spent: the
  // rounds made and, with a budget, the seconds one took.
  std::pair<int, double> warm_up(int warmup, double budget) {
    int rounds = 0;
    double round_seconds = 0;
    const double warmup_start = MPI_Wtime();
    for (; rounds < warmup; ++rounds) {
      round(false);
      if (budget > 0) {
        const double spent = slowest_since(warmup_start);
        round_seconds = spent / (rounds + 1);
        if (spent > budget / 4) {
          ++rounds;
          break;
        }
      }
    }
    return {rounds, round_seconds};
  }

 private:
  MPI_Comm comm_;
  timing_state& state_;
  workload& w_;
  std::span<const variant> variants_;
  int batch_;
  bool back_to_back_, imb_;
  std::vector<sample>& out_;
  std::vector<std::size_t> order_;
};

// Batched, a round is a batch per variant: the automatic warm-up makes as many calls as the
// synchronized one, in whole batches.
int warmup_rounds(const timing_policy& policy, bool small, int batch) {
  const bool back_to_back = policy.timing != timing_mode::synchronized;
  return policy.warmup >= 0 ? policy.warmup
         : back_to_back     ? std::max(1, ((small ? 100 : 10) + batch - 1) / batch)
         : small            ? 100
                            : 10;
}

// The timed iterations the budget allows (between --min-iterations and --iterations). Without a
// warm-up the first timed round is the estimate: `done` counts it. Batched, an iteration is a
// batch: the automatic count makes as many calls as the synchronized one, in at least 10 batches.
int timed_iterations(size_rounds& r, const timing_policy& policy, bool small, int batch, int rounds,
                     double round_seconds, int& done) {
  const bool back_to_back = policy.timing != timing_mode::synchronized;
  const double budget = policy.seconds_per_size;
  const int calls_wanted = small ? 1000 : 100;
  const int most = policy.iterations > 0 ? policy.iterations
                   : back_to_back        ? std::max(10, (calls_wanted + batch - 1) / batch)
                                         : calls_wanted;
  if (budget <= 0) return most;
  if (rounds == 0) {  // no warm-up: the first timed round is the estimate
    const double start = MPI_Wtime();
    r.round(true);
    ++done;
    round_seconds = r.slowest_since(start);
  }
  const double fit = round_seconds > 0 ? budget / round_seconds : most;
  return static_cast<int>(
      std::clamp(fit, static_cast<double>(std::min(policy.min_iterations, most)), static_cast<double>(most)));
}

}  // namespace

timing_state::timing_state(MPI_Comm comm, bool oversubscribed) : start(comm, oversubscribed) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::uint64_t seed = rank == 0 ? std::random_device{}() : 0;
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, comm);
  order.seed(seed);
}

// The host's clock, not MPI_Wtime: under SMPI that is the simulated clock, which a whole run
// advances by less than the first note's 3 s.
double progress::now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

progress::progress(bool enabled, int rank) : enabled_(enabled && rank == 0), start_(now()), last_(start_) {}

void progress::note(const std::string& what) {
  if (!enabled_) return;
  const double now = progress::now();
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
                            timing_state& state, bool check, progress& prog, const std::string& where) {
  const std::size_t k = variants.size();
  std::vector<sample> out(k);
  w.resize(m.call_count);

  if (check) {
    const std::vector<long long> wrong = check_all(comm, c, root, w, variants, prog, where);
    for (std::size_t i = 0; i < k; ++i) out[i].wrong = wrong[i];
  } else {
    w.fill({});
  }

  // Small as OSU counts it: the vector, or one rank's block for the p-block collectives.
  const bool small = m.call_count * w.element_size() <= 8192;
  // Back to back and as IMB times, an iteration is a batch of calls.
  const bool back_to_back = policy.timing != timing_mode::synchronized;
  const int batch = !back_to_back ? 1 : policy.batch > 0 ? policy.batch : automatic_batch(m.bytes);
  size_rounds r(comm, state, w, variants, batch, policy.timing, out);

  prog.note(fmt::format("{}: warming up {} algorithms", where, k));
  const auto [rounds, round_seconds] = r.warm_up(warmup_rounds(policy, small, batch), policy.seconds_per_size);
  int done = 0;
  const int iterations = timed_iterations(r, policy, small, batch, rounds, round_seconds, done);
  // Only now that the budget has fixed the count: --iterations alone must not decide the memory.
  for (std::vector<double>& t : r.times) t.reserve(static_cast<std::size_t>(iterations));
  prog.note(fmt::format("{}: timing {} algorithms, {} iterations", where, k, iterations));
  for (; done < iterations; ++done) r.round(true);

  for (std::size_t i = 0; i < k; ++i) {
    std::vector<double>& slowest = r.times[i];
    std::sort(slowest.begin(), slowest.end());
    out[i].median = median_of_sorted(slowest);
    out[i].min = slowest.front();
    out[i].max = slowest.back();
    out[i].iterations = iterations;
    out[i].batch = batch;
  }
  return out;
}

}  // namespace collbench
