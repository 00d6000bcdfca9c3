// SPDX-License-Identifier: BSD-3-Clause
// reduce_scatter (block form): every algorithm against the rank-order oracle and vendor.

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

template <class T, class Op>
void check_reduce_scatter(const test_comm& tc, std::size_t count, const Op& op) {
  const int rank = rank_of(tc.comm), p = size_of(tc.comm);
  const std::size_t total = count * static_cast<std::size_t>(p);
  const std::vector<T> input = values<T>(rank, total);
  const std::vector<T> folded = rank_order_fold<T>(p, total, op);
  const auto mine = folded.begin() + static_cast<std::ptrdiff_t>(count * static_cast<std::size_t>(rank));
  const std::vector<T> expected(mine, mine + static_cast<std::ptrdiff_t>(count));
  std::vector<T> from_vendor(count, poison<T>());
  reduce_scatter(input, from_vendor, op, tc.comm, algorithm::vendor);
  same_bits(from_vendor, expected, case_name(tc, algorithm::vendor, type_name<T>(), count));

  for (algorithm alg : algorithms_with_automatic(collective::reduce_scatter)) {
    if (alg == algorithm::vendor) continue;
    const std::string what = case_name(tc, alg, type_name<T>(), count);
    std::vector<T> send = input, recv(count, poison<T>());
    if (!op_traits<Op>::commutative && !keeps_rank_order(collective::reduce_scatter, alg)) {
      expect_error([&] { reduce_scatter(send, recv, op, tc.comm, alg); },
                   {"reduce_scatter", "op", "commutative"}, what);
      continue;
    }
    reduce_scatter(send, recv, op, tc.comm, alg);
    same_bits(send, input, what + " send buffer untouched");
    same_bits(recv, expected, what + " vs serial reference");
    same_bits(recv, from_vendor, what + " vs vendor");
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_algorithm_matches_reference_and_vendor) {
  for (const test_comm& tc : test_comms())
    for_each_type([&]<class T, class Op>(T, const Op& op) {
      for (std::size_t count : test_counts(size_of(tc.comm), true))
        if (in_matrix<T>(tc, count)) check_reduce_scatter<T>(tc, count, op);
    });
}
