// SPDX-License-Identifier: BSD-3-Clause
// allreduce: every algorithm against the rank-order oracle and against vendor, in place and
// not, over every communicator, type and count of the matrix.

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

template <class T, class Op>
void check_allreduce(const test_comm& tc, std::size_t count, const Op& op) {
  const int rank = rank_of(tc.comm), p = size_of(tc.comm);
  const std::vector<T> input = values<T>(rank, count);
  const std::vector<T> expected = rank_order_fold<T>(p, count, op);
  std::vector<T> from_vendor(count, poison<T>());
  allreduce(input, from_vendor, op, tc.comm, algorithm::vendor);
  same_bits(from_vendor, expected,
            case_name(tc, algorithm::vendor, type_name<T>(), count) + " vs serial reference");

  for (algorithm alg : algorithms_with_automatic(collective::allreduce)) {
    if (alg == algorithm::vendor) continue;
    const std::string what = case_name(tc, alg, type_name<T>(), count);
    std::vector<T> send = input, recv(count, poison<T>());
    if (!op_traits<Op>::commutative && !keeps_rank_order(collective::allreduce, alg)) {
      expect_error([&] { allreduce(send, recv, op, tc.comm, alg); }, {"allreduce", "op", "commutative"},
                   what);
      continue;
    }
    allreduce(send, recv, op, tc.comm, alg);
    same_bits(send, input, what + " send buffer untouched");
    same_bits(recv, expected, what + " vs serial reference");
    same_bits(recv, from_vendor, what + " vs vendor");

    std::vector<T> in_place = input;
    allreduce(in_place, in_place, op, tc.comm, alg);
    same_bits(in_place, expected, what + " in place");
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_algorithm_matches_reference_and_vendor) {
  for (const test_comm& tc : test_comms())
    for_each_type([&]<class T, class Op>(T, const Op& op) {
      for (std::size_t count : test_counts(size_of(tc.comm), true))
        if (in_matrix<T>(tc, count)) check_allreduce<T>(tc, count, op);
    });
}
