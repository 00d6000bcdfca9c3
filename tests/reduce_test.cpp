// SPDX-License-Identifier: BSD-3-Clause
// reduce: every algorithm and root against the rank-order oracle and against vendor.

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

template <class T, class Op>
void check_reduce(const test_comm& tc, std::size_t count, int root, const Op& op) {
  const int rank = rank_of(tc.comm), p = size_of(tc.comm);
  const bool at_root = rank == root;
  const std::vector<T> input = values<T>(rank, count);
  const std::vector<T> expected = at_root ? rank_order_fold<T>(p, count, op) : std::vector<T>{};
  std::vector<T> from_vendor(at_root ? count : 0, poison<T>());
  reduce(input, from_vendor, op, root, tc.comm, algorithm::vendor);
  same_bits(from_vendor, expected, case_name(tc, algorithm::vendor, type_name<T>(), count, root));

  for (algorithm alg : algorithms_with_automatic(collective::reduce)) {
    if (alg == algorithm::vendor) continue;
    const std::string what = case_name(tc, alg, type_name<T>(), count, root);
    std::vector<T> send = input, recv(at_root ? count : 0, poison<T>());
    if (!op_traits<Op>::commutative && !keeps_rank_order(collective::reduce, alg)) {
      expect_error([&] { reduce(send, recv, op, root, tc.comm, alg); }, {"reduce", "op", "commutative"},
                   what);
      continue;
    }
    reduce(send, recv, op, root, tc.comm, alg);
    same_bits(send, input, what + " send buffer untouched");
    same_bits(recv, expected, what + " vs serial reference");
    same_bits(recv, from_vendor, what + " vs vendor");
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_algorithm_and_root_matches_reference_and_vendor) {
  for (const test_comm& tc : test_comms())
    for_each_type([&]<class T, class Op>(T, const Op& op) {
      for (std::size_t count : test_counts(size_of(tc.comm), true))
        if (in_matrix<T>(tc, count))
          for (int root : test_roots(size_of(tc.comm))) check_reduce<T>(tc, count, root, op);
    });
}
