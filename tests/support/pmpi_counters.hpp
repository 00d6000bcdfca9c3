#pragma once

// Counts the calls a program makes to MPI's data-moving functions, by interposing them through
// the MPI profiling interface (pmpi_counters.cpp defines MPI_Send, MPI_Bcast, … and forwards to
// PMPI_Send, PMPI_Bcast, …). Linked into an executable together with the static library, it
// sees every call the library makes, because the executable's definitions win over libmpi's.

#include <map>
#include <string_view>

namespace pmpi_counters {

/// Forgets every call counted so far.
void reset();

/// Calls counted since the last reset(), by MPI function name ("MPI_Send"); functions that
/// were not called do not appear.
const std::map<std::string_view, long>& calls();

}  // namespace pmpi_counters
