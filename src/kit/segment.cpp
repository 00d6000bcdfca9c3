// SPDX-License-Identifier: BSD-3-Clause
#include "kit/segment.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>

#include "collectives/error.hpp"

namespace collectives::detail {

std::size_t pipeline_segment_elements(std::string_view collective, int rank, std::size_t element_size,
                                      std::size_t default_bytes) {
  // Read once (0: unset); a value it rejects throws at every call (the static stays unset),
  // naming that call.
  static const std::size_t set_bytes = [collective, rank]() -> std::size_t {
    const char* text = std::getenv("COLLECTIVES_PIPELINE_SEGMENT_BYTES");
    if (text == nullptr || *text == '\0') return 0;
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
  const std::size_t elements = (set_bytes > 0 ? set_bytes : default_bytes) / element_size;
  return elements > 0 ? elements : 1;
}

}  // namespace collectives::detail
