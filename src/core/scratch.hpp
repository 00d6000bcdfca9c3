#pragma once

#include <cstddef>
#include <memory>

namespace collectives::detail {

/// Uninitialised temporary bytes: algorithms overwrite them before reading, so the
/// zero-filling of std::vector would only cost a pass over memory. Up to `inline_bytes` live
/// inside the object itself (on the algorithm's stack), so the small messages of a latency-bound
/// call allocate nothing; larger ones come from the heap. Neither copied nor moved: `get()`
/// may point into the object.
class scratch {
 public:
  static constexpr std::size_t inline_bytes = 256;

  scratch(std::nullptr_t = nullptr) {}
  explicit scratch(std::size_t bytes)
      : large_(bytes > inline_bytes ? std::make_unique_for_overwrite<std::byte[]>(bytes) : nullptr),
        data_(bytes > inline_bytes ? large_.get() : small_) {}
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;

  std::byte* get() const { return data_; }
  explicit operator bool() const { return data_ != nullptr; }

 private:
  // Max-aligned, as operator new[] is: scratch holds elements of any type the kernels reduce.
  alignas(std::max_align_t) mutable std::byte small_[inline_bytes];
  std::unique_ptr<std::byte[]> large_;
  std::byte* data_ = nullptr;
};

inline scratch make_scratch(std::size_t bytes) { return scratch(bytes); }

}  // namespace collectives::detail
