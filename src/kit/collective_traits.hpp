// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The questions the library asks of a collective most often, each a read of its row
// (kit/collective.hpp). constexpr: run()'s fast path instantiates its checks per collective,
// where they fold away.

#include "kit/collective.hpp"

namespace collectives::detail {

/// Root-only buffers (scatter's and scatterv's send, gather's, gatherv's and reduce's recv) are
/// ignored on the other ranks: neither checked nor passed on.
constexpr bool uses_send(collective c, int root, int rank) {
  return !descriptor_of(c).send.root_only() || rank == root;
}
constexpr bool uses_recv(collective c, int root, int rank) {
  return !descriptor_of(c).recv.root_only() || rank == root;
}

constexpr bool has_root(collective c) { return descriptor_of(c).has_root; }

/// Takes an op: combines the ranks' contributions.
constexpr bool reduces(collective c) { return descriptor_of(c).reduces; }

/// Counts and displacements per rank.
constexpr bool is_v_variant(collective c) { return descriptor_of(c).is_v_variant; }

/// A size in bytes (collbench's, automatic's key) counts the whole array of p blocks, not one
/// rank's vector: the block collectives (whose calls pass one block) and the v-variants.
constexpr bool counts_whole_array(collective c) { return descriptor_of(c).counts_whole_array; }

/// Passing the same range as send and recv means in place.
constexpr bool has_in_place_form(collective c) { return descriptor_of(c).has_in_place_form; }

}  // namespace collectives::detail
