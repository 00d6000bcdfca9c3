// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The eager size E: the largest payload whose blocking MPI_Send returns without waiting for its
// receiver, because the MPI library sends it eagerly (copies it out and lets the receiver find it
// later). Exchanges whose outgoing message is at most E send first on both sides, one latency
// per step; larger ones stay ordered (one side sends, the other receives first), which needs no
// buffering at all. One byte over the MPI library's real limit would be a hang, so E is read from
// the MPI library itself, never guessed:
//   - Open MPI 4 with its ob1 messaging layer: each byte-transfer layer's btl_<name>_eager_limit
//     (MPI_T control variables), less the 56-byte ob1 header that travels in the same fragment;
//     to ranks on this host the least over every layer loaded (shared memory, or TCP where shared
//     memory is turned off), to other hosts the least over the network layers;
//   - SimGrid SMPI: one byte less than smpi/send-is-detached-thresh (SMPI completes a standard
//     send of fewer bytes at once);
//   - anything else (Open MPI's UCX layer, MPICH, whose devices keep their eager size in their
//     network layer where MPI_T does not show it): unknown, so E = 0, today's ordered exchange.
// Above E, an exchange with a rank on another host goes as segments of at most E that both
// partners send first, where that measured faster than taking turns: over Open MPI's TCP layer and
// in SMPI; on one host (a segment costs a copy more than one message) and elsewhere, never.
// COLLECTIVES_EAGER_BYTES=N sets E for every peer: 0 turns it off; a value above what the MPI
// library reports is refused; where the library reports nothing, N is taken at the user's word.
// COLLECTIVES_SYNCHRONOUS_SENDS (the test mode of MPI_Ssend) makes E = 0.

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
