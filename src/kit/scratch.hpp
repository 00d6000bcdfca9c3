// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <cstddef>
#include <memory>

namespace collectives::detail {

/// Frees what malloc gave.
struct free_bytes {
  void operator()(std::byte* p) const noexcept;
};

/// A heap block of scratch and its size in bytes. From malloc: under SimGrid's SMPI, whose
/// compiler wrapper routes malloc through its allocator, a benchmark launch can have large blocks
/// shared by all simulated ranks (smpi/auto-shared-malloc-thresh), as 1024 ranks' private
/// scratch would not fit in one machine's memory.
struct scratch_block {
  std::unique_ptr<std::byte[], free_bytes> data;
  std::size_t capacity = 0;
};

/// A block of at least `bytes` from this thread's cache of blocks earlier calls gave back (the
/// smallest that fits), else a new one of exactly `bytes`.
scratch_block take_scratch_block(std::size_t bytes);
/// Gives `block` back to this thread's cache, which keeps the largest blocks, at most
/// scratch_cache_blocks of them and scratch_cache_bytes in all, and frees the others.
void give_back_scratch_block(scratch_block block) noexcept;

/// Why the cache: a block freed after every call goes back to the operating system (glibc returns
/// large blocks with munmap, or trims the heap top), and the next call pays a page fault for
/// every 4 KiB page it touches — on a virtual machine more than the message itself costs
/// (docs/measurements/2026-11-28-figures-from-comments.md). Four blocks cover every algorithm's
/// scratch in one call; the byte bound caps what an idle thread holds, and a call whose blocks
/// exceed it pays the faults.
inline constexpr std::size_t scratch_cache_blocks = 4;
inline constexpr std::size_t scratch_cache_bytes = std::size_t{64} << 20;

/// Uninitialised temporary bytes: algorithms overwrite them before reading, so the
/// zero-filling of std::vector would only cost a pass over memory. Up to `inline_bytes` live
/// inside the object itself (on the algorithm's stack), so the small messages of a latency-bound
/// call allocate nothing; larger ones come from the heap through this thread's cache of blocks
/// (above), so that repeated calls touch memory already mapped. Neither copied nor moved: `get()`
/// may point into the object.
class scratch {
 public:
  static constexpr std::size_t inline_bytes = 256;

  scratch(std::nullptr_t = nullptr) {}
  explicit scratch(std::size_t bytes)
      : large_(bytes > inline_bytes ? take_scratch_block(bytes) : scratch_block{}),
        data_(bytes > inline_bytes ? large_.data.get() : small_) {}
  ~scratch() {
    if (large_.data) give_back_scratch_block(std::move(large_));
  }
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;

  std::byte* get() const { return data_; }
  explicit operator bool() const { return data_ != nullptr; }

 private:
  // Max-aligned, as operator new[] is: scratch holds elements of any type the kernels reduce.
  alignas(std::max_align_t) mutable std::byte small_[inline_bytes];
  scratch_block large_;
  std::byte* data_ = nullptr;
};

inline scratch make_scratch(std::size_t bytes) { return scratch(bytes); }

}  // namespace collectives::detail
