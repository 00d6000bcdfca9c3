// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Counts the calls a program makes to MPI's data-moving functions, by interposing them through
// the MPI profiling interface (pmpi_counters.cpp defines MPI_Send, MPI_Bcast, … and forwards to
// PMPI_Send, PMPI_Bcast, …). Linked into an executable together with the static library, it
// sees every call the library makes, because the executable's definitions win over libmpi's.

#include <map>
#include <string_view>
#include <vector>

namespace pmpi_counters {

/// Forgets every call counted so far.
void reset();

/// Calls counted since the last reset(), by MPI function name ("MPI_Send"); functions that
/// were not called do not appear.
const std::map<std::string_view, long>& calls();

/// One blocking point-to-point call: which function, and the peer's rank in its communicator.
struct p2p_call {
  std::string_view name;  ///< "MPI_Send", "MPI_Ssend" or "MPI_Recv"
  int peer;
};
/// The MPI_Send, MPI_Ssend and MPI_Recv calls since the last reset(), in the order made.
const std::vector<p2p_call>& p2p_sequence();

}  // namespace pmpi_counters
