// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "collectives/export.hpp"

namespace collectives {

/// How much argument checking each collective call does.
enum class argument_checks {
  /// Default. Each rank checks what it can see (sizes, root, algorithm, op) before sending
  /// anything; no extra messages. A mistake only one rank can see (a root-only buffer, a count
  /// that differs between ranks) throws on that rank while the others enter the collective.
  local,
  /// For debugging. The ranks also agree, with one small extra all-reduce per call, before any
  /// data moves: if any rank's arguments are bad, or the ranks disagree on the count, the root
  /// or the algorithm, every rank throws collectives::error and the communicator stays usable.
  collective,
};

/// Sets the checking level for all later calls of this process (every rank must set the same).
/// The environment variable COLLECTIVES_ARGUMENT_CHECKS=collective sets it at start-up.
COLLECTIVES_EXPORT void set_argument_checks(argument_checks level);
COLLECTIVES_EXPORT argument_checks get_argument_checks();

}  // namespace collectives
