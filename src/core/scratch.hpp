#pragma once

#include <cstddef>
#include <memory>

namespace collectives::detail {

/// Uninitialised temporary bytes: algorithms overwrite them before reading, so the
/// zero-filling of std::vector would only cost a pass over memory.
using scratch = std::unique_ptr<std::byte[]>;

inline scratch make_scratch(std::size_t bytes) { return std::make_unique_for_overwrite<std::byte[]>(bytes); }

}  // namespace collectives::detail
