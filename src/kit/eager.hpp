// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The rules of the eager limits (collectives/eager.hpp) that the transport, the recorder and the
// model share: SMPI's eager size, and E and the segment size to one peer.

#include <cstddef>

#include "collectives/eager.hpp"

namespace collectives::detail {

/// SMPI completes a standard send of fewer than `first_waiting` bytes at once (its
/// smpi/send-is-detached-thresh, or a platform's collectives/eager-limit): E is one less.
constexpr std::size_t smpi_eager_bytes(std::size_t first_waiting) {
  return first_waiting > 0 ? first_waiting - 1 : 0;
}
/// smpi/send-is-detached-thresh where a platform does not set it (SimGrid's default).
constexpr std::size_t smpi_default_detached = 65536;

/// E to a peer on this rank's host (`same_host`) or on another.
inline std::size_t eager_to_peer(const eager_limits& l, bool same_host) {
  return same_host ? l.same_host : l.other_host;
}
/// The segments an exchange above E with that peer is cut into (0: not cut).
inline std::size_t segment_to_peer(const eager_limits& l, bool same_host) {
  return !same_host && l.segments_across ? l.other_host : 0;
}

}  // namespace collectives::detail
