// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// collcalibrate measure: what SMPI prices in a message between ranks 0 and 1, measured per size
// (ping-pong, a late receiver's send, recv and isend, a stream, a duplex stream), the eager
// limit found to the byte, a disturbed size measured again.

#include <cstddef>
#include <string>
#include <vector>

namespace collbench {

/// first (0 included where it is 0), then first · step^k up to last.
std::vector<std::size_t> sweep_sizes(std::size_t first, std::size_t last, std::size_t step);

/// Initialises MPI, measures between its 2 ranks at `sweep`'s sizes (`budget` seconds per size and
/// measurement), writes the measurement to `out` (rank 0) and finalises; the program's exit status.
int measure_two_nodes(int argc, char** argv, const std::vector<std::size_t>& sweep, double budget,
                      const std::string& out, const std::string& command);

}  // namespace collbench
