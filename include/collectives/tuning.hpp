// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// A measured decision table for algorithm::automatic. scripts/mpirun/tune.sh measures every
// algorithm of every collective on this machine and writes one; once loaded, automatic follows it:
// per collective, per process count, size ranges → algorithm. Without a table, or where the table
// has nothing that fits a call, automatic keeps its built-in rule (src/dispatch/automatic.cpp).
// The table is looked up by what every rank passes alike (the collective, p, the size in bytes as
// collbench counts them), so all ranks choose the same algorithm, provided they load the same
// table. Its schema, the lookup and where the rule takes over: docs/tuning.md.

#include <cstddef>
#include <string>

#include "collectives/algorithm.hpp"
#include "collectives/export.hpp"

namespace collectives {

/// Loads the decision table at `path` for all later calls of this process (every rank must load
/// the same), replacing any earlier one. A file that cannot be read or is malformed (bad JSON,
/// an unknown collective or algorithm, vendor or hierarchical, unsorted or overlapping ranges, a
/// missing field, a "fastest" range that says neither "vendor" nor "library") throws
/// collectives::error naming the file, the entry and the problem, and the table in force stays.
/// COLLECTIVES_TUNING=<file> loads one on the first automatic choice. Safe while other threads
/// call collectives (they read the table without a lock); a thread that synchronises with the
/// return of load_tuning (a join, a mutex, an atomic flag) follows the new table from its next
/// call.
COLLECTIVES_EXPORT void load_tuning(const std::string& path);

/// Returns automatic to its built-in rule (COLLECTIVES_TUNING is not read after this).
COLLECTIVES_EXPORT void clear_tuning();

/// A call as automatic sees it: collective `coll` on `p` ranks moving `bytes` as collbench counts
/// them (see above; the v-variants with equal blocks) of elements of `elem_size` bytes.
struct call_shape {
  collective coll;
  int p;
  std::size_t bytes;
  std::size_t elem_size = 4;
  bool commutative = true;
};

/// The algorithm automatic runs for such a call, with the table in force, if any. Throws
/// collectives::error for p < 1 or elem_size 0.
COLLECTIVES_EXPORT algorithm automatic_choice(const call_shape& call);

/// The fastest of the library and the MPI library for such a call, by the table in force:
/// algorithm::vendor where the table's "fastest" section (written by the tuner from vendor's
/// times) says the MPI library's own collective was measured clearly faster than the library's
/// choice, else automatic_choice(call) — which never is vendor. Without a table, or with one that
/// has no "fastest" section, this is automatic_choice(call). The drop-in's COLLECTIVES_ALGORITHMS
/// `fastest` chooses by the same lookup; gatherv, scatterv and alltoallv, whose sizes are not known
/// alike on every rank, take the verdict of the range at 0 bytes for every size (the tuner writes
/// one range over every size for them). Throws as automatic_choice.
COLLECTIVES_EXPORT algorithm fastest_choice(const call_shape& call);

}  // namespace collectives
