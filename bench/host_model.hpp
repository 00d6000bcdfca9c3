// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The cost model across hosts: where the run's ranks sit (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED),
// measured by collbench itself), α and β within one host and between two (two ping-pongs), and
// the predicted time of an algorithm split into its intra-host and inter-host terms.
//
// Flat algorithms are priced step by step from their schedule (which ranks exchange in which
// step, as the algorithm files describe), with the transport's order: an exchange step is two
// phases, one side of each pair sends and then the other (the ranks that send first as
// core/transport.cpp chooses them), so a step of m bytes costs 2(α + mβ), the convention of
// cost_model.cpp. A phase costs its slowest message: within a host α_s + mβ_s; between hosts
// α_n + Mβ_n, where M is the larger of the bytes leaving the sender's host and the bytes entering
// the receiver's host in that phase (every host has one full-duplex link to a switch). A phase
// with a message between hosts counts as inter-host, else intra-host. The hierarchical
// algorithms are the composition their files describe, priced the same way.
//
// Modelled here: allreduce (ring, recursive_doubling and rabenseifner on a power of two,
// hierarchical), allgather (ring, recursive_doubling on a power of two, hierarchical), broadcast
// and reduce (binomial, hierarchical). Anything else across hosts has no prediction.

#include <mpi.h>

#include <collectives/algorithm.hpp>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model.hpp"

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

struct split_seconds {
  double intra = 0;  ///< phases within hosts only
  double inter = 0;  ///< phases with a message between hosts
  double total() const { return intra + inter; }
};

/// `n`: collbench's bytes (the vector; allgather: the whole p-block array); gamma in s per byte.
std::optional<split_seconds> predict_across_hosts(collectives::collective c, std::string_view algorithm,
                                                  const host_links& h, double n, double gamma);

/// The split line of `algorithm` on this layout, as text: the hierarchical algorithms' terms
/// (from their files' headers), or for a flat algorithm which of its steps cross hosts; empty
/// when predict_across_hosts has no prediction.
std::string host_formula(collectives::collective c, std::string_view algorithm,
                         const host_layout_info& layout);

}  // namespace collbench
