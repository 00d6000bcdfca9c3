// SPDX-License-Identifier: BSD-3-Clause
#include "measure/metrics.hpp"

#include "kit/collective.hpp"

namespace collbench {

using collectives::collective;
using collectives::detail::descriptor_of;

bool counts_whole_array(collective c) { return descriptor_of(c).counts_whole_array; }

bool reduces(collective c) { return descriptor_of(c).reduces; }

bool has_root(collective c) { return descriptor_of(c).has_root; }

bool time_only(collective c) { return descriptor_of(c).time_only; }

double busbw_factor(collective c, int ranks) {
  using collectives::detail::bus_share;
  const double p = ranks;
  switch (descriptor_of(c).bus) {
    case bus_share::none:
      return 0.0;
    case bus_share::whole:
      return 1.0;
    case bus_share::all_but_own:
      break;
    case bus_share::twice_all_but_own:
      return 2.0 * (p - 1.0) / p;
  }
  return (p - 1.0) / p;
}

std::optional<message> shape(collective c, std::size_t requested, std::size_t elem_size, int ranks) {
  if (time_only(c)) return message{0, 0, 0};
  const std::size_t elements = requested / elem_size;
  if (!counts_whole_array(c)) {
    if (elements == 0) return std::nullopt;
    return message{elements * elem_size, elements, elements};
  }
  const std::size_t p = static_cast<std::size_t>(ranks);
  const std::size_t block = elements / p;
  if (block == 0) return std::nullopt;
  return message{block * p * elem_size, block * p, block};
}

std::vector<std::size_t> v_counts(std::size_t total, int ranks, double skew) {
  const std::size_t p = static_cast<std::size_t>(ranks);
  std::vector<double> weight(p, 1.0);
  double sum = 0;
  for (std::size_t r = 0; r < p; ++r) {
    if (p > 1) weight[r] += skew * static_cast<double>(r) / static_cast<double>(p - 1);
    sum += weight[r];
  }
  std::vector<std::size_t> counts(p);
  std::size_t given = 0;
  for (std::size_t r = 0; r < p; ++r) {
    counts[r] = static_cast<std::size_t>(static_cast<double>(total) * weight[r] / sum);
    given += counts[r];
  }
  for (std::size_t r = 0; given < total; r = (r + 1) % p, ++given) ++counts[r];
  // Rounding up in floating point could overshoot by an element: take it back from the largest.
  for (std::size_t r = p; given > total; --given) {
    r = r == 0 ? p - 1 : r - 1;
    if (counts[r] > 0) --counts[r];
    else ++given;
  }
  return counts;
}

double gigabytes_per_second(std::size_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) / seconds / 1e9 : 0.0;
}

}  // namespace collbench
