// SPDX-License-Identifier: BSD-3-Clause
// reduce_scatterv: every algorithm × count pattern against the rank-order oracle (rank r's block
// of x0 ∘ x1 ∘ … ∘ x(p−1)) and against vendor; a non-commutative op is refused by the
// algorithms that cannot keep rank order.

#include "support/vblocks.hpp"

namespace {

using namespace collectives;
using namespace testing;

template <class T, class Op>
void check_reduce_scatterv(const test_comm& tc, const count_pattern& pattern, const Op& op) {
  const int rank = rank_of(tc.comm), p = size_of(tc.comm);
  const std::vector<std::size_t>& counts = pattern.counts;
  const block_places places = packed_places(counts);
  const std::vector<T> input = values<T>(rank, places.extent);
  const std::vector<T> folded = rank_order_fold<T>(p, places.extent, op);
  const auto mine = folded.begin() + places.displs[static_cast<std::size_t>(rank)];
  const std::vector<T> expected(mine,
                                mine + static_cast<std::ptrdiff_t>(counts[static_cast<std::size_t>(rank)]));
  const std::vector<int> recv_counts = as_ints(counts);
  const std::string where = fmt::format("[comm {} (p={}), {}, {}]", tc.name, p, type_name<T>(), pattern.name);
  std::vector<T> from_vendor(expected.size(), poison<T>());
  reduce_scatterv(input, from_vendor, recv_counts, op, tc.comm, algorithm::vendor);
  same_bits(from_vendor, expected, where + " vendor vs oracle");

  for (algorithm alg : algorithms_with_automatic(collective::reduce_scatterv)) {
    if (alg == algorithm::vendor) continue;
    const std::string what = fmt::format("{} {}", where, to_string(alg));
    std::vector<T> send = input, recv(expected.size(), poison<T>());
    if (!op_traits<Op>::commutative && !keeps_rank_order(collective::reduce_scatterv, alg)) {
      expect_error([&] { reduce_scatterv(send, recv, recv_counts, op, tc.comm, alg); },
                   {"reduce_scatterv", "op", "commutative"}, what);
      continue;
    }
    reduce_scatterv(send, recv, recv_counts, op, tc.comm, alg);
    same_bits(send, input, what + " send buffer untouched");
    same_bits(recv, expected, what + " vs serial reference");
    same_bits(recv, from_vendor, what + " vs vendor");
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_algorithm_and_count_pattern_matches_reference_and_vendor) {
  for (const test_comm& tc : test_comms())
    for_each_type([&]<class T, class Op>(T, const Op& op) {
      const bool headline = std::is_same_v<T, std::int32_t> || std::is_same_v<T, double>;
      for (const count_pattern& pattern : count_patterns(size_of(tc.comm), tc.full_matrix && headline, 5))
        check_reduce_scatterv<T>(tc, pattern, op);
    });
}
