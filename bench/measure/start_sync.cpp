// SPDX-License-Identifier: BSD-3-Clause
#include "measure/start_sync.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <thread>
#include <vector>

namespace collbench {
namespace {

constexpr int offset_exchanges = 32;  // per rank; the best of them is kept
#if COLLBENCH_SMPI
// Simulated time is exact: every trial would measure the same lag (64 trials of barrier, broadcast
// and all-reduce took 50 s of wall time at 512 simulated ranks).
constexpr int margin_trials = 1;
#else
constexpr int margin_trials = 64;
#endif
// Growth stops here: a start later than this is a descheduled rank, which no margin should wait for.
constexpr double largest_margin = 10e-3;
// After a late start the margin doubles; each start in time takes back 2 % of the excess, so a
// burst of load does not slow the rest of the run down.
constexpr double shrink = 0.98;
// The wait for the start probes MPI until this long before it, then spins (start_sync::next).
constexpr double probe_lead = 10e-6;

// This rank's clock minus rank 0's, and half the round trip it was measured with, from the
// ping-pong with rank 0 whose round trip was the smallest (the reply's timestamp then lies
// within half of it from the midpoint of the exchange on rank 0's clock).
struct offset_estimate {
  double offset;
  double error;
};

#if !COLLBENCH_SMPI
offset_estimate estimate_offset(MPI_Comm comm, int rank, int size) {
  offset_estimate mine{0, 0};
  if (rank == 0) {
    for (int r = 1; r < size; ++r) {
      offset_estimate best{0, HUGE_VAL};
      for (int i = 0; i < offset_exchanges; ++i) {
        double remote = 0;
        const double sent = start_sync::now();
        MPI_Send(nullptr, 0, MPI_BYTE, r, 0, comm);
        MPI_Recv(&remote, 1, MPI_DOUBLE, r, 0, comm, MPI_STATUS_IGNORE);
        const double received = start_sync::now();
        if ((received - sent) / 2 < best.error)
          best = {remote - (sent + received) / 2, (received - sent) / 2};
      }
      const double result[2] = {best.offset, best.error};
      MPI_Send(result, 2, MPI_DOUBLE, r, 0, comm);
    }
  } else {
    for (int i = 0; i < offset_exchanges; ++i) {
      MPI_Recv(nullptr, 0, MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE);
      const double now = start_sync::now();
      MPI_Send(&now, 1, MPI_DOUBLE, 0, 0, comm);
    }
    double result[2] = {0, 0};
    MPI_Recv(result, 2, MPI_DOUBLE, 0, 0, comm, MPI_STATUS_IGNORE);
    mine = {result[0], result[1]};
  }
  return mine;
}
#endif

// Whether this rank runs on rank 0's node (and so reads the same CLOCK_MONOTONIC).
bool on_rank0_node(MPI_Comm comm, int rank) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int lowest = rank;
  MPI_Allreduce(&rank, &lowest, 1, MPI_INT, MPI_MIN, node);
  MPI_Comm_free(&node);
  return lowest == 0;
}

}  // namespace

double start_sync::now() {
#if COLLBENCH_SMPI
  return MPI_Wtime();  // the simulated clock, one for all ranks (the host's runs meanwhile)
#else
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
#endif
}

start_sync::start_sync(MPI_Comm comm, bool oversubscribed) : comm_(comm), yield_(oversubscribed) {
  int size = 1;
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &size);
#if COLLBENCH_SMPI
  // One simulated clock for all ranks: nothing to estimate (rank 0's p − 1 rounds of ping-pongs
  // would cost minutes of wall time at 1024 simulated ranks).
  offset_estimate e{0, 0};
  (void)size;
#else
  offset_estimate e = estimate_offset(comm, rank_, size);
#endif
  // The true offset lies within the error of the estimate; a shared clock's is 0.
  if (on_rank0_node(comm, rank_) && std::abs(e.offset) <= e.error) e = {0, 0};
  offset_ = e.offset;
  MPI_Allreduce(&e.error, &offset_error_, 1, MPI_DOUBLE, MPI_MAX, comm);

  // How long after rank 0 has left the barrier the last rank holds rank 0's timestamp, on rank 0's
  // clock. Twice the 90th percentile: enough for nearly every start, while the rare slower one
  // (a rank descheduled for a moment) is caught as late and redone rather than waited for.
  std::vector<double> lags;
  for (int i = 0; i < margin_trials; ++i) {
    MPI_Barrier(comm);
    double sent = rank_ == 0 ? now() : 0;
    MPI_Bcast(&sent, 1, MPI_DOUBLE, 0, comm);
    const double lag = now() - offset_ - sent;
    double slowest = 0;
    MPI_Allreduce(&lag, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    lags.push_back(slowest);
  }
  std::sort(lags.begin(), lags.end());
  calibrated_ = std::clamp(2 * lags[lags.size() * 9 / 10], 1e-6, largest_margin);
  margin_ = calibrated_;
}

start_sync::start start_sync::next() {
  MPI_Barrier(comm_);
  double instant = rank_ == 0 ? now() + margin_ : 0;
  MPI_Bcast(&instant, 1, MPI_DOUBLE, 0, comm_);
  const double local = instant + offset_;
  const bool late = now() > local;
#if COLLBENCH_SMPI
  // Simulated time passes only by the simulator's leave: sleep to the instant (SMPI's nanosleep,
  // through its compiler wrapper's macro), where a spin would pay 10 ns of simulation per read.
  if (!late) {
    const double wait = local - now();
    timespec interval{static_cast<time_t>(wait), static_cast<long>((wait - std::floor(wait)) * 1e9)};
    nanosleep(&interval, nullptr);
  }
#else
  // The wait keeps the MPI library progressing (a probe consumes nothing): Open MPI's TCP layer
  // reads its sockets only from inside MPI calls, and across hosts a rank that spun outside MPI up
  // to the start met its call's first messages late by far more than the call takes. The last
  // stretch is a bare spin, so that no probe runs past the start into the timed call.
  while (now() < local - probe_lead) {
    int pending = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &pending, MPI_STATUS_IGNORE);
    if (yield_) std::this_thread::yield();
  }
  while (now() < local)
    if (yield_) std::this_thread::yield();
#endif
  return {local, late};
}

void start_sync::adapt(bool anyone_late) {
  margin_ = anyone_late ? std::min(2 * margin_, largest_margin)
                        : std::max(calibrated_, calibrated_ + (margin_ - calibrated_) * shrink);
}

}  // namespace collbench
