// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// A common start instant for every timed call: the window method of SKaMPI and ReproMPI.
//
// Why not a barrier alone: ranks leave a barrier at different times, in an order that depends on
// what ran just before, and a one-hop rooted collective's small (eager) message can arrive before
// a receiver has started its clock, hiding the whole latency. So each call starts at an instant
// that rank 0 chooses and every rank knows:
//   1. once per run, every rank's clock offset to rank 0 is estimated by ping-pongs with rank 0,
//      keeping the exchange with the smallest round trip: the offset is then known to within half
//      of it. The clock is CLOCK_MONOTONIC (std::chrono::steady_clock), which every process of a
//      node reads alike, so on rank 0's node the offset is exactly 0 (the ping-pong confirms it:
//      0 lies within its error); MPI_Wtime would not do, as Open MPI counts it from each
//      process's first call, and the ping-pong alone leaves an error of a few hundred ns, enough
//      to shift a 1 µs call by half its time, one way for a broadcast, the other for a reduce;
//   2. before each call: a barrier, then rank 0 broadcasts "now + margin" on its clock; every rank
//      turns it into its own clock, waits for it, runs the call and times it from that instant;
//      the margin exceeds the time the barrier's exit and the broadcast take to reach every rank
//      (measured here, then adapted);
//   3. a rank that gets the instant after it has passed ("late": still in the barrier or the
//      broadcast) makes the sample invalid: the caller redoes it and the margin doubles; every
//      start in time lets the margin shrink a little, back towards the measured one.
// What remains: on other nodes than rank 0's, the offset error (half the best round trip); and
// everywhere, how quickly a waiting rank notices the instant (a clock read, tens of ns, or a turn
// on a core when oversubscribed).

#include <mpi.h>

namespace collbench {

class start_sync {
 public:
  /// Collective over `comm`: measures the clock offsets and the margin. With more ranks than
  /// cores, waiting ranks yield their core, so that the others can reach the instant at all.
  start_sync(MPI_Comm comm, bool oversubscribed);

  struct start {
    double local;  ///< the instant on this rank's MPI_Wtime
    bool late;     ///< this rank got the instant after it had passed
  };
  /// The clock the starts are given on, in seconds.
  static double now();
  /// Collective: barrier, the instant from rank 0, and the wait for it.
  start next();
  /// Collective verdict on the last start (true if any rank was late), to adapt the margin.
  void adapt(bool anyone_late);

  /// How far apart the ranks' starts may be: half the smallest ping-pong round trip of the worst
  /// rank off rank 0's node; 0 when every rank shares rank 0's clock.
  double offset_error() const { return offset_error_; }
  /// The margin measured at the start of the run.
  double calibrated_margin() const { return calibrated_; }

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  bool yield_;
  double offset_ = 0;  ///< this rank's clock minus rank 0's
  double offset_error_ = 0;
  double calibrated_ = 0, margin_ = 0;
};

}  // namespace collbench
