// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Where the v-variants' blocks lie in a user's buffer: rank r's block is the elements
// [displs[r], displs[r] + counts[r]), in any order and with any gaps (validated in run.cpp: no
// overlap, inside the buffer). Algorithms that move runs of consecutive ranks' blocks as one
// message (trees, recursive doubling and halving, Bruck) need them packed in rank order: when
// the user's are not, they work in a packed copy (pack_blocks / unpack_blocks) and say so under
// "Memory" in their header.

#include <cstddef>
#include <vector>

#include "kit/block_partition.hpp"
#include "kit/primitives.hpp"

namespace collectives::detail {

struct block_layout {
  std::vector<std::size_t> counts;  ///< elements of rank r's block; empty where the buffer is unused
  std::vector<std::size_t> displs;  ///< its first element

  std::size_t count(int r) const { return counts[static_cast<std::size_t>(r)]; }
  std::size_t displ(int r) const { return displs[static_cast<std::size_t>(r)]; }
  std::size_t total() const {
    std::size_t sum = 0;
    for (std::size_t c : counts) sum += c;
    return sum;
  }
  std::size_t largest() const {
    std::size_t most = 0;
    for (std::size_t c : counts) most = c > most ? c : most;
    return most;
  }
  /// True when block r starts right after blocks 0 … r−1 (the default without displacements).
  bool packed() const {
    std::size_t at = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      if (displs[r] != at) return false;
      at += counts[r];
    }
    return true;
  }
  /// The blocks packed in rank order.
  block_partition partition() const { return block_partition::of_lengths(counts); }
};

/// Copies blocks [first, end) from their places in `user` to their packed places in `packed`
/// (packed offsets counted from block 0).
inline void pack_blocks(std::byte* packed, const std::byte* user, const block_layout& layout,
                        std::size_t elem_size, int first, int end) {
  const block_partition at = layout.partition();
  for (int r = first; r < end; ++r)
    copy_bytes(packed + at.offset(r) * elem_size, user + layout.displ(r) * elem_size,
               layout.count(r) * elem_size);
}

/// The reverse of pack_blocks.
inline void unpack_blocks(std::byte* user, const std::byte* packed, const block_layout& layout,
                          std::size_t elem_size, int first, int end) {
  const block_partition at = layout.partition();
  for (int r = first; r < end; ++r)
    copy_bytes(user + layout.displ(r) * elem_size, packed + at.offset(r) * elem_size,
               layout.count(r) * elem_size);
}

}  // namespace collectives::detail
