// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// collcalibrate's platforms: the fitted platform of N nodes written (fit), two platforms' SMPI
// parameters set side by side (compare), and what SMPI prices one message at on a platform
// (price), all through the one platform reader and writer (simgrid_file.hpp).

#include <cstddef>
#include <optional>
#include <string>

namespace collbench {

/// What `fit` takes besides the measurement: --topology, --cores-per-node, --on-node,
/// --tolerance, --rendezvous-transfer stream (else ping-pong), --output, the command line.
struct fit_options {
  std::string spec, on_node, out = "calibrated.xml", command;
  int cores = 1;
  double tolerance = 0.05;
  bool rendezvous_streamed = true;
};

/// Fits the measurement at `path` and writes the platform; the exit status. Throws
/// std::runtime_error on a measurement or topology it cannot fit.
int write_platform(const std::string& path, const fit_options& o);

/// Exit 1 when a parameter of the two differs by more than `within` at a size of `sizes_path`.
int compare_platforms(const std::string& first_path, const std::string& second_path,
                      const std::string& sizes_path, double within);

/// Prints the prop `prop` of the platform (throws if it has none) or, at `bytes`, SMPI's os, or,
/// ois, transfer, and one message sent by MPI_Send (os + transfer + or) and by MPI_Isend.
int price_on_platform(const std::string& path, const std::optional<std::string>& prop, std::size_t bytes);

}  // namespace collbench
