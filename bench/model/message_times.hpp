// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The measured times of one message, a copy and a reduction, with which the recorded schedules
// are priced on the machine collbench --model measured (price.hpp: measured_platform). Two
// messages, one way, each its ping-pong's time interpolated between the measured sizes: t(m) for
// bytes the sender just received, reduced or copied; u(m) for bytes it did not write in the call.
// A message moves at the time per byte of the ping-pong that touches as many bytes as its call
// (the footprint rule, call_footprint); with no points, t(m) = α + mβ and u(m) = α + mβ_u.
// Why two, and the rule: docs/benchmark.md, "The model (--model)".

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
