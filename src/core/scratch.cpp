#include "core/scratch.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace collectives::detail {
namespace {

// This thread's blocks. Collectives on one communicator never run concurrently (MPI's rule), and
// each thread has its own cache, so no lock. Empty slots have capacity 0.
struct block_cache {
  std::array<scratch_block, scratch_cache_blocks> blocks;
  ~block_cache() { gone = true; }
  // Trivially destructible, so still readable after the cache itself is destroyed at thread exit:
  // a block given back then (a collective run from another thread_local's destructor) is freed.
  static thread_local bool gone;
};
thread_local bool block_cache::gone = false;
thread_local block_cache cache;

scratch_block* smallest(block_cache& c) {
  return &*std::min_element(
      c.blocks.begin(), c.blocks.end(),
      [](const scratch_block& a, const scratch_block& b) { return a.capacity < b.capacity; });
}

}  // namespace

scratch_block take_scratch_block(std::size_t bytes) {
  if (!block_cache::gone) {
    scratch_block* best = nullptr;
    for (scratch_block& b : cache.blocks)
      if (b.capacity >= bytes && (best == nullptr || b.capacity < best->capacity)) best = &b;
    if (best != nullptr) return std::exchange(*best, scratch_block{});
  }
  return {std::make_unique_for_overwrite<std::byte[]>(bytes), bytes};
}

void give_back_scratch_block(scratch_block block) noexcept {
  if (block_cache::gone || block.capacity > scratch_cache_bytes) return;  // freed here
  scratch_block* slot = smallest(cache);
  if (slot->capacity >= block.capacity) return;  // the cache is full of larger blocks
  *slot = std::move(block);                      // frees the smallest, if the slot held one
  // Within the byte bound, dropping the smallest blocks first (the one just given back is kept:
  // it is no larger than the bound).
  std::size_t total = 0;
  for (const scratch_block& b : cache.blocks) total += b.capacity;
  while (total > scratch_cache_bytes) {
    scratch_block* drop = nullptr;
    for (scratch_block& b : cache.blocks)
      if (b.capacity > 0 && b.data.get() != slot->data.get() &&
          (drop == nullptr || b.capacity < drop->capacity))
        drop = &b;
    total -= drop->capacity;
    *drop = scratch_block{};
  }
}

}  // namespace collectives::detail
