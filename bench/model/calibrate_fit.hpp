// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// collcalibrate fit: SMPI's parameters fitted to two nodes' measurement — the detached and eager
// sizes, os, or and ois as piecewise affine fits, the transfer's pieces, the link's latency and
// bandwidth with SMPI's factors against them, and a limiter where both ways at once are slower
// (what each choice prices and why: docs/simulation.md).

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/calibrate_measurement.hpp"

namespace collbench {

/// y = intercept + slope · x over the sizes [first, last] (inclusive, bytes).
struct piece {
  std::size_t first = 0, last = 0;
  double intercept = 0, slope = 0;
  double worst = 0;  ///< the largest |fit − measured| over its points, relative to the scale
};

struct fitted {
  std::optional<std::size_t> eager_limit;
  std::optional<std::size_t> first_streamed;  ///< the smallest eager size priced from its stream
  std::optional<std::size_t> detached_below;  ///< smpi/send-is-detached-thresh, when not the eager limit
  bool exchanges =
      false;  ///< the eager sizes not streamed priced from the duplex stream (else the ping-pong)
  std::vector<piece> os, or_, ois, wire;
  double latency = 0, bandwidth = 0;  ///< the route's: L and B
  double limiter = 0;                 ///< what a node moves both ways at once, if less than 2 B (else 0)
  std::vector<std::pair<std::size_t, double>> lat_factor, bw_factor;
};

/// Pieces within `tolerance` of what they fit; `rendezvous_streamed`: a rendezvous transfer costs
/// the stream's time per message (else the ping-pong's). Throws std::runtime_error on a
/// measurement with no cost per byte.
fitted fit(const measurement& m, double tolerance, bool rendezvous_streamed);

/// SMPI's "T:a:b;…" of overhead pieces, and its "T:f;…" of factors.
std::string overhead_setting(const std::vector<piece>& pieces);
std::string factor_setting(const std::vector<std::pair<std::size_t, double>>& factors);

}  // namespace collbench
