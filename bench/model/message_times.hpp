// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The measured times of one message, a copy and a reduction, with which the recorded schedules
// are priced on the machine collbench --model measured (price.hpp: measured_platform).
//
// The transport moves every message with a blocking send matched by a blocking receive, and on
// one node a message above the eager size completes when its receiver has copied it. How fast
// that copy runs depends on where the bytes sit: Open MPI's single copy (CMA) has the receiver
// read the sender's memory, faster for bytes the sender left untouched than for bytes it has just
// written and still holds dirty in its own core's cache, and both slow down once a call's buffers
// no longer fit in the caches. So there are two messages, each priced by the ping-pong that moves
// its kind of bytes (model.hpp), one way:
//   t(m)  a message forwarding bytes the sender just received, reduced or copied (the ping-pong
//         that bounces one buffer);
//   u(m)  a message of bytes the sender did not write in the call: its caller's input, a root's
//         buffer (the ping-pong that sends from a buffer it never writes);
// each the ping-pong's time measured at m, interpolated linearly between the measured sizes.
// Footprint rule: where the bytes sit depends on the whole call, so a message moves at the time
// per byte of the ping-pong that touches as many bytes as the call (call_footprint; the clean
// ping-pong touches 4m, the forward one 2m), never faster than its own ping-pong when the call
// touches more. With no points (the tests, a file from before), t(m) = α + mβ, u(m) = α + mβ_u.

#include <collectives/algorithm.hpp>
#include <vector>

#include "model/model.hpp"

namespace collbench {

struct cost_params {
  double alpha;
  double beta;  ///< a message forwarding bytes the sender just wrote
  double gamma;
  double delta = 0;       ///< seconds per byte of a local copy: 1 / memcpy bandwidth
  double beta_clean = 0;  ///< a message of bytes the sender did not write in the call; 0: β
  /// The ping-pongs' one-way times (forward, clean): where given, t(m) and u(m) are their times at m.
  std::vector<pingpong_point> forward = {}, clean = {};
  /// The times of a memcpy and of a reduction by size: where given, δ and γ are their per-byte times
  /// at the call's size, which decides whether its buffers sit in the caches or in memory.
  std::vector<pingpong_point> copy = {}, reduce = {};
  /// An eager exchange's time by size, up to E (model.hpp: machine::exchange); empty: unmeasured.
  std::vector<pingpong_point> exchange = {};
};

/// Seconds of one blocking message of `bytes` bytes: t(m), or u(m) when `clean`, in a call whose
/// buffers on all ranks together span `footprint` bytes (0: as the ping-pong's own).
double message_seconds(const cost_params& m, double bytes, bool clean, double footprint = 0);

/// Seconds per byte of a copy or a reduction of `n` bytes: interpolated between the measured sizes
/// (model.hpp: machine::copy, machine::reduce), or `otherwise` without them.
double measured_per_byte(const std::vector<pingpong_point>& measured, double n, double otherwise);

/// The bytes a call of `n` bytes (as collbench counts them, metrics.hpp) touches on p ranks
/// together: every rank's send and receive buffers, scratch left out.
double call_footprint(collectives::collective c, int p, double n);

}  // namespace collbench
