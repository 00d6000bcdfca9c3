// SPDX-License-Identifier: BSD-3-Clause
#include "core/segment.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>

#include "collectives/error.hpp"

namespace collectives::detail {

std::size_t pipeline_segment_bytes(std::string_view collective, int rank) {
  // Read once; a value it rejects throws at every call (the static stays unset), naming that call.
  static const std::size_t bytes = [collective, rank] {
    const char* text = std::getenv("COLLECTIVES_PIPELINE_SEGMENT_BYTES");
    if (text == nullptr || *text == '\0') return default_segment_bytes;
    const std::string_view value(text);
    std::size_t parsed = 0;
    const auto [end, status] = std::from_chars(value.data(), value.data() + value.size(), parsed);
    if (status != std::errc() || end != value.data() + value.size() || parsed == 0)
      throw error(
          fmt::format("collectives::{}: environment variable COLLECTIVES_PIPELINE_SEGMENT_BYTES on "
                      "rank {}: expected a positive number of bytes, given '{}'",
                      collective, rank, value));
    return parsed;
  }();
  return bytes;
}

}  // namespace collectives::detail
