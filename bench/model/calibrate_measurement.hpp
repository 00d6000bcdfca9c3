// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Two nodes' point-to-point measurement, collcalibrate measure's JSON: per size, the times SMPI
// prices (docs/simulation.md), and the eager limit found.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace collbench {

/// One size's figures, seconds: half a ping-pong's round trip; MPI_Send's, MPI_Recv's and
/// MPI_Isend's own time with the receiver late (recv: the message there first); per message of a
/// stream one way and of streams both ways at once (0: not measured).
struct point {
  std::size_t bytes = 0;
  double ping_pong = 0, send = 0, recv = 0, isend = 0, stream = 0, duplex = 0;
  bool rendezvous = false;
};

struct measurement {
  std::optional<std::size_t> eager_limit;  ///< the first size whose send waits for a late receiver
  std::vector<point> points;
  std::vector<std::string> hosts;
  std::string command;
  double time_per_size = 0;
};

/// The first pair of sizes (indices of the smaller, then the larger) where a larger message of one
/// protocol crossed clearly faster than a smaller one: the machine was disturbed while the smaller
/// was measured.
std::optional<std::pair<std::size_t, std::size_t>> disturbed_pair(const std::vector<point>& pts);

/// Throws std::runtime_error on a file that is not one, has fewer than 4 sizes, or is disturbed.
measurement read_measurement(const std::string& path);
/// Throws std::runtime_error when it cannot write `path`.
void write_measurement(const measurement& m, const std::string& path);

}  // namespace collbench
