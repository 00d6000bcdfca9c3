// SPDX-License-Identifier: BSD-3-Clause
#include "pmpi/checks.hpp"

#include <fmt/format.h>

#include <array>
#include <vector>

namespace collectives::pmpi {

v_blocks v_layout(const arguments& a, std::string_view counts_name, const int* counts,
                  std::string_view displs_name, const int* displs, const layout& l) {
  if (counts == nullptr) a.fail(MPI_ERR_ARG, fmt::format("{} is NULL", counts_name));
  if (displs_name.size() > 0 && displs == nullptr)
    a.fail(MPI_ERR_ARG, fmt::format("{} is NULL", displs_name));
  v_blocks b{counts, displs, &l};
  std::size_t at = 0;
  for (int r = 0; r < a.size; ++r) {
    if (counts[r] < 0)
      a.fail(MPI_ERR_COUNT, fmt::format("{}[{}] = {} is negative", counts_name, r, counts[r]));
    if (displs != nullptr && displs[r] < 0 && counts[r] > 0)
      a.fail(MPI_ERR_ARG, fmt::format("{}[{}] = {} is negative", displs_name, r, displs[r]));
    const std::size_t d = displs != nullptr ? static_cast<std::size_t>(displs[r]) : at;
    if (counts[r] > 0) b.span = std::max(b.span, d + sz(counts[r]));
    b.total += b.count(r);
    b.largest = std::max(b.largest, b.count(r));
    at += sz(counts[r]);
  }
  return b;
}

v_arrays in_bytes(const v_blocks& b, int p, int side) {
  constinit thread_local std::array<std::vector<std::size_t>, 4> kept;
  std::vector<std::size_t>& counts = kept[sz(2 * side)];
  std::vector<std::size_t>& displs = kept[sz(2 * side + 1)];
  counts.resize(sz(p));
  displs.resize(sz(p));
  std::size_t at = 0;
  for (int r = 0; r < p; ++r) {
    const std::size_t d = b.displs != nullptr ? static_cast<std::size_t>(b.displs[r]) : at;
    counts[sz(r)] = b.count(r);
    displs[sz(r)] = b.counts[r] > 0 ? d * b.l->size : 0;
    at += sz(b.counts[r]);
  }
  return {detail::make_index_array(counts), detail::make_index_array(displs)};
}

}  // namespace collectives::pmpi
