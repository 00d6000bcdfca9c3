// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The eager size E: the largest payload whose blocking MPI_Send returns without waiting for its
// receiver, because the MPI library sends it eagerly. Exchanges whose outgoing message is at most
// E send first on both sides, one latency per step; larger ones stay ordered. One byte over the
// MPI library's real limit would be a hang, so E is read from the MPI library itself (Open MPI 4's
// ob1 through MPI_T, per kind of peer; SimGrid SMPI's detached threshold), never guessed, and is 0
// where it cannot be read. Above E, an exchange with a rank on another host may go as segments of
// at most E that both partners send first. COLLECTIVES_EAGER_BYTES=N sets E (0: off; no more than
// the library reports), COLLECTIVES_SYNCHRONOUS_SENDS makes it 0. Each library's rule, the
// segments and the variables: docs/user-guide.md, "Exchanges and the eager size".

#include <cstddef>
#include <string>

#include "collectives/export.hpp"

namespace collectives {

struct eager_limits {
  std::size_t same_host = 0;   ///< E to ranks on this rank's host; 0: every exchange is ordered
  std::size_t other_host = 0;  ///< E to ranks on other hosts
  bool from_mpi = false;       ///< the MPI library reported its limits (else 0, or the user's value)
  std::string source;          ///< where the numbers come from, in a sentence, for reports
  /// Exchange messages above other_host to ranks on other hosts go as segments of other_host bytes
  /// that both partners send first (both directions of the link at once): where that measured
  /// faster, Open MPI over TCP (ob1's tcp layer alone across hosts) and SimGrid SMPI.
  bool segments_across = false;
};

/// The eager sizes this process uses, learned on first use (MPI must be initialised) and fixed
/// from then on. Throws collectives::error for a COLLECTIVES_EAGER_BYTES that is not a number
/// of bytes or is above the MPI library's own limit (naming both numbers); every rank reads the
/// same environment, so every rank throws alike, on its first call, before any message.
COLLECTIVES_EXPORT const eager_limits& eager_limits_in_force();

}  // namespace collectives
