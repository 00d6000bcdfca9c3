// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Which ranks share a host, for the node-aware (hierarchical) algorithms: learned once per
// communicator with MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) and cached on the library's
// private communicator with the communicators the algorithms run their steps on.

#include <mpi.h>

#include <vector>

#include "kit/transport.hpp"

namespace collectives::detail {

struct host_layout {
  int hosts;                       ///< number of hosts; they are numbered by their lowest rank
  int host;                        ///< this rank's host
  int local_rank;                  ///< this rank's position among its host's ranks (in rank order)
  bool uniform;                    ///< every host has the same number of ranks
  std::vector<int> host_of;        ///< rank → its host
  std::vector<int> local_rank_of;  ///< rank → its position on its host
  std::vector<int> host_size;      ///< host → its number of ranks
  /// The ranks of this host, ordered by rank.
  MPI_Comm intra;
  /// One rank per host, the one with this rank's local_rank, ordered by host — in reverse for
  /// odd local ranks, so that pairs and rings of neighbouring local ranks cross each link in
  /// opposite directions and use both directions of a full-duplex network at once.
  MPI_Comm across;
  /// The first rank of every host (local rank 0), ordered by host; MPI_COMM_NULL elsewhere.
  MPI_Comm leaders;
  /// E to each rank of intra, across and leaders (transport::eager_bytes of the rank it is in the
  /// communicator the layout was built for), for their transports.
  std::vector<std::size_t> intra_eager, across_eager, leaders_eager;

  /// Host `k`'s rank in the `across` communicator of the ranks at `local` (uniform hosts).
  int across_position(int k, int local) const { return local % 2 == 0 ? k : hosts - 1 - k; }
  /// The rank (in the communicator the layout was built for) at position `local` on host `k`.
  int rank_at(int k, int local) const {
    for (std::size_t r = 0; r < host_of.size(); ++r)
      if (host_of[r] == k && local_rank_of[r] == local) return static_cast<int>(r);
    return -1;
  }
};

/// The layout of `net`'s communicator, built on first use (a collective call on every rank of
/// it: communicator splits and one all-gather of host numbers), then cached with it.
/// COLLECTIVES_SIMULATED_HOSTS=H (tests only) splits the ranks into H hosts of consecutive
/// ranks, or H:cyclic round-robin, instead of asking MPI which ranks share memory.
const host_layout& hosts_of(const transport& net);

}  // namespace collectives::detail

#include "kit/call.hpp"

namespace collectives::detail {

/// One step of a hierarchical algorithm, and the whole call where there is no hierarchy (one
/// host, or one rank per host): collective `coll` over `c` with the algorithm automatic picks
/// for c's communicator and size. automatic never picks a hierarchical algorithm, so steps do
/// not recurse.
void run_flat(collective coll, const call& c);

}  // namespace collectives::detail
