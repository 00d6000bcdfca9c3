// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// A common start instant for every timed call: the window method of SKaMPI and ReproMPI. A barrier
// alone does not start ranks together (they leave it in an order that depends on what ran before,
// and a rooted collective's eager message can arrive before its receiver starts the clock), so:
//   1. once per run, every rank's CLOCK_MONOTONIC offset to rank 0 is estimated by ping-pongs with
//      rank 0, the exchange with the smallest round trip kept (0 on rank 0's node);
//   2. before each call: a barrier, then rank 0 broadcasts "now + margin" on its clock; every rank
//      turns it into its own clock, waits for it, runs the call and times it from that instant;
//   3. a rank that gets the instant after it has passed makes the sample invalid: the caller redoes
//      it and the margin doubles, then shrinks back towards the measured one.
// Why each step, the margin, and what error remains: docs/benchmark.md, "Method" (the common start).

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
