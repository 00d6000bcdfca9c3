// SPDX-License-Identifier: BSD-3-Clause
#include "kit/scratch.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <new>
#include <utility>

namespace collectives::detail {
namespace {

// This thread's blocks. Collectives on one communicator never run concurrently (MPI's rule), and
// each thread has its own cache, so no lock. Empty slots have capacity 0.
struct block_cache {
  std::array<scratch_block, scratch_cache_blocks> blocks;
  // When each block was given back: of equal blocks the last one given back is taken first, so a
  // call that takes the same sizes again gets each block back in the role it had (scratch objects
  // die in reverse order), and a block one role never touches stays untouched.
  std::array<unsigned long long, scratch_cache_blocks> given_back{};
  unsigned long long clock = 0;
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

// MPI_Finalize empties the finalizing thread's cache, through the delete callback of an attribute
// on MPI_COMM_SELF (which MPI_Finalize deletes first): the blocks go back while the allocator that
// gave them still knows them. Under SimGrid's SMPI a shared block (a benchmark launch's) is freed
// by the simulator, which is gone by the time thread_locals are destroyed.
int empty_cache(MPI_Comm, int, void*, void*) {
  for (scratch_block& b : cache.blocks) b = scratch_block{};
  return MPI_SUCCESS;
}

void empty_cache_at_finalize() {
  // Not before MPI_Init: a schedule recorded without MPI (kit/recording.hpp) takes scratch too.
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) return;
  static const bool installed = [] {
    int keyval = MPI_KEYVAL_INVALID;
    return MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &empty_cache, &keyval, nullptr) == MPI_SUCCESS &&
           MPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr) == MPI_SUCCESS;
  }();
  (void)installed;
}

}  // namespace

scratch_block take_scratch_block(std::size_t bytes) {
  if (!block_cache::gone) {
    std::size_t best = scratch_cache_blocks;
    for (std::size_t i = 0; i < scratch_cache_blocks; ++i) {
      const std::size_t have = cache.blocks[i].capacity;
      if (have < bytes) continue;
      if (best == scratch_cache_blocks || have < cache.blocks[best].capacity ||
          (have == cache.blocks[best].capacity && cache.given_back[i] > cache.given_back[best]))
        best = i;
    }
    if (best < scratch_cache_blocks) return std::exchange(cache.blocks[best], scratch_block{});
  }
  empty_cache_at_finalize();
  auto* bytes_from_heap = static_cast<std::byte*>(::malloc(bytes));  // NOLINT: see scratch_block
  if (bytes_from_heap == nullptr) throw std::bad_alloc();
  return {std::unique_ptr<std::byte[], free_bytes>(bytes_from_heap), bytes};
}

void free_bytes::operator()(std::byte* p) const noexcept { ::free(p); }  // NOLINT: see scratch_block

void give_back_scratch_block(scratch_block block) noexcept {
  if (block_cache::gone || block.capacity > scratch_cache_bytes) return;  // freed here
  scratch_block* slot = smallest(cache);
  if (slot->capacity >= block.capacity) return;  // the cache is full of larger blocks
  *slot = std::move(block);                      // frees the smallest, if the slot held one
  cache.given_back[static_cast<std::size_t>(slot - cache.blocks.data())] = ++cache.clock;
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
