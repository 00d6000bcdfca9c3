// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Where the run's ranks sit (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), measured by collbench
// itself) and the links between them: a ping-pong within one host and one between two. The model
// prices messages between hosts by the second (price.hpp: measured_platform).

#include <mpi.h>

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace collbench {

/// Which ranks share a host.
struct host_layout_info {
  int hosts = 1;
  int ranks_per_host = 0;     ///< the same on every host, else 0
  std::string map = "block";  ///< "block" (consecutive ranks), "cyclic" (round-robin) or "other"
  std::vector<int> host_of;   ///< rank → host, hosts numbered in order of their lowest rank

  /// "one host", "2 hosts × 2 ranks (block)", "2 hosts (3 + 1 ranks)".
  std::string describe() const;
  /// "" on one host, else e.g. "2x2" (uneven hosts: "2h").
  std::string tag() const;
};

/// α and β within one host and between two: ping-pongs between rank 0 and the next rank on its
/// host, and between rank 0 and the first rank of another host (each zero when there is none);
/// α the one-way time of 1 byte, β the slope between 1 MiB and 4 MiB (a token-bucket link passes
/// small bursts at the speed of the wire beneath it, so only large messages show its rate).
struct host_links {
  host_layout_info layout;
  double alpha_intra = 0, beta_intra = 0;
  double alpha_inter = 0, beta_inter = 0;
  std::vector<pingpong_point> intra, inter;
};

/// The layout of `comm` (collective over it); the ping-pongs too when `pingpongs` is set.
host_links measure_host_links(MPI_Comm comm, bool pingpongs);

nlohmann::json to_json(const host_links& h);
host_links host_links_from_json(const nlohmann::json& j);

}  // namespace collbench
