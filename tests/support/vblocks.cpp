// SPDX-License-Identifier: BSD-3-Clause
#include "support/vblocks.hpp"

#include <random>

namespace testing {

std::vector<count_pattern> count_patterns(int p, bool large, std::uint64_t seed) {
  const auto n = static_cast<std::size_t>(p);
  std::vector<count_pattern> out;
  out.push_back({"equal 3", std::vector<std::size_t>(n, 3)});
  out.push_back({"equal 7p+3", std::vector<std::size_t>(n, 7 * n + 3)});
  count_pattern zeros{"zeros on odd ranks", std::vector<std::size_t>(n)};
  for (std::size_t r = 0; r < n; ++r) zeros.counts[r] = r % 2 == 0 ? r + 2 : 0;
  out.push_back(zeros);
  out.push_back({"all zero", std::vector<std::size_t>(n, 0)});
  count_pattern one{"last rank holds all", std::vector<std::size_t>(n, 0)};
  one.counts[n - 1] = 5 * n + 1;
  out.push_back(one);
  std::mt19937_64 gen(0x5eed + seed * 7919 + n);
  count_pattern random{fmt::format("random (seed {})", seed), std::vector<std::size_t>(n)};
  for (std::size_t& c : random.counts) c = gen() % (2 * n + 1);
  out.push_back(random);
  if (large) {
    count_pattern big{"large, skewed", std::vector<std::size_t>(n, 25'000), true};
    big.counts[n - 1] = 100'000;
    out.push_back(big);
  }
  return out;
}

block_places packed_places(const std::vector<std::size_t>& counts) {
  block_places places;
  for (std::size_t c : counts) {
    places.displs.push_back(static_cast<int>(places.extent));
    places.extent += c;
  }
  return places;
}

block_places scattered_places(const std::vector<std::size_t>& counts) {
  block_places places;
  places.displs.resize(counts.size());
  for (std::size_t k = counts.size(); k-- > 0;) {
    places.extent += 2;
    places.displs[k] = static_cast<int>(places.extent);
    places.extent += counts[k];
  }
  places.extent += 1;
  return places;
}

std::vector<int> as_ints(const std::vector<std::size_t>& counts) {
  return std::vector<int>(counts.begin(), counts.end());
}

}  // namespace testing
