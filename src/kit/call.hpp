// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// What every algorithm receives: one collective call over bytes, already validated.

#include <cstddef>

#include "collectives/detail/request.hpp"
#include "kit/transport.hpp"

namespace collectives::detail {
struct block_layout;
}

namespace collectives::detail {

struct call {
  const transport& net;
  /// Input; for allreduce, scan and exscan it may equal `recv` (in place). Unused by broadcast
  /// and barrier (null when run() calls them; allreduce_naive passes its own call on to
  /// broadcast_naive).
  const std::byte* send;
  /// Output; broadcast's buffer (input at the root). Root-only buffers are null elsewhere; null
  /// for barrier.
  std::byte* recv;
  /// Elements per rank's block: the whole vector for broadcast, reduce, allreduce, scan and
  /// exscan, the block n of the p·n-element buffers for the others; 0 for barrier.
  std::size_t count;
  element_type elem;
  const reduction* op;  ///< set for reduce, reduce_scatter, reduce_scatterv, allreduce, scan and exscan
  int root;             ///< 0 for the collectives without a root
  /// The v-variants (kit/block_layout.hpp): where each rank's block lies in `send` and in
  /// `recv`, null where the buffer is not used or has one block only. For them `count` is this
  /// rank's own block: gatherv's and allgatherv's send, scatterv's and reduce_scatterv's recv
  /// (alltoallv: unused). reduce_scatterv's `send` is packed as `recv_blocks` says.
  const block_layout* send_blocks = nullptr;
  const block_layout* recv_blocks = nullptr;
  /// The radix-k algorithms' radix k (≥ 2): the call's, or the descriptor's default_radix; 0 for
  /// the algorithms that take none.
  int radix = 0;

  int rank() const { return net.rank(); }
  int size() const { return net.size(); }
  std::size_t bytes(std::size_t elements) const { return elements * elem.size; }
  /// Rank `r`'s n-element block inside a p·n-element buffer.
  std::byte* block(std::byte* base, int r) const { return base + bytes(count) * static_cast<std::size_t>(r); }
  const std::byte* block(const std::byte* base, int r) const {
    return base + bytes(count) * static_cast<std::size_t>(r);
  }
};

using algorithm_fn = void (*)(const call&);

}  // namespace collectives::detail
