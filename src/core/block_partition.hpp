#pragma once

#include <cstddef>
#include <vector>

namespace collectives::detail {

/// Splits `count` elements into `parts` contiguous blocks; the first `count % parts` blocks are
/// one element larger. Used by every algorithm that cuts a vector into per-rank pieces.
struct block_partition {
  block_partition(std::size_t count, int parts);

  std::size_t offset(int i) const { return offsets_[static_cast<std::size_t>(i)]; }
  std::size_t length(int i) const { return offsets_[static_cast<std::size_t>(i) + 1] - offset(i); }
  /// Elements in blocks [first, first + n).
  std::size_t length(int first, int n) const { return offset(first + n) - offset(first); }
  int parts() const { return static_cast<int>(offsets_.size()) - 1; }
  std::size_t count() const { return offsets_.back(); }

 private:
  std::vector<std::size_t> offsets_;
};

inline block_partition::block_partition(std::size_t count, int parts)
    : offsets_(static_cast<std::size_t>(parts) + 1) {
  const std::size_t n = static_cast<std::size_t>(parts);
  const std::size_t base = count / n, larger = count % n;
  for (std::size_t i = 0; i < n; ++i) offsets_[i + 1] = offsets_[i] + base + (i < larger ? 1 : 0);
}

}  // namespace collectives::detail
