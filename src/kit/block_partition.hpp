// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace collectives::detail {

/// Splits `count` elements into `parts` contiguous blocks; the first `count % parts` blocks are
/// one element larger. Used by every algorithm that cuts a vector into per-rank pieces.
struct block_partition {
  block_partition(std::size_t count, int parts);
  /// Contiguous blocks of the given lengths, in order: the v-variants' blocks packed in rank
  /// order, which every *_blocks building block takes like an even partition.
  static block_partition of_lengths(std::span<const std::size_t> lengths);

  std::size_t offset(int i) const { return offsets_[static_cast<std::size_t>(i)]; }
  std::size_t length(int i) const { return offsets_[static_cast<std::size_t>(i) + 1] - offset(i); }
  /// Elements in blocks [first, first + n).
  std::size_t length(int first, int n) const { return offset(first + n) - offset(first); }
  int parts() const { return static_cast<int>(offsets_.size()) - 1; }
  std::size_t count() const { return offsets_.back(); }

 private:
  block_partition() = default;
  std::vector<std::size_t> offsets_;
};

inline block_partition::block_partition(std::size_t count, int parts)
    : offsets_(static_cast<std::size_t>(parts) + 1) {
  const std::size_t n = static_cast<std::size_t>(parts);
  const std::size_t base = count / n, larger = count % n;
  for (std::size_t i = 0; i < n; ++i) offsets_[i + 1] = offsets_[i] + base + (i < larger ? 1 : 0);
}

inline block_partition block_partition::of_lengths(std::span<const std::size_t> lengths) {
  block_partition b;
  b.offsets_.resize(lengths.size() + 1);
  for (std::size_t i = 0; i < lengths.size(); ++i) b.offsets_[i + 1] = b.offsets_[i] + lengths[i];
  return b;
}

}  // namespace collectives::detail
