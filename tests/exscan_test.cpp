// SPDX-License-Identifier: BSD-3-Clause
// exscan: every algorithm against the rank-order oracle (rank r > 0 gets x0 ∘ … ∘ x(r−1); rank
// 0's recv is left untouched) and against vendor, in place and not, over every communicator,
// type and count of the matrix, the non-commutative matrix product included.

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

template <class T, class Op>
void check_exscan(const test_comm& tc, std::size_t count, const Op& op) {
  const int rank = rank_of(tc.comm);
  const std::vector<T> input = values<T>(rank, count);
  // Rank 0: never written, so the poison it was filled with, or in place its own input.
  const std::vector<T> untouched(count, poison<T>());
  const std::vector<T> expected = rank == 0 ? untouched : rank_order_fold<T>(rank, count, op);  // 0 … rank−1
  const std::vector<T> expected_in_place = rank == 0 ? input : expected;
  const std::string vendor_what = case_name(tc, algorithm::vendor, type_name<T>(), count);
  const bool vendor_is_reference = op_traits<Op>::commutative || vendor_scan_keeps_rank_order();
  std::vector<T> from_vendor(count, poison<T>());
  exscan(input, from_vendor, op, tc.comm, algorithm::vendor);
  std::vector<T> vendor_in_place = input;
  exscan(vendor_in_place, vendor_in_place, op, tc.comm, algorithm::vendor);
  if (vendor_is_reference) {
    same_bits(from_vendor, expected, vendor_what + " vs serial reference");
    same_bits(vendor_in_place, expected_in_place, vendor_what + " in place");
  }

  for (algorithm alg : algorithms_with_automatic(collective::exscan)) {
    if (alg == algorithm::vendor) continue;
    const std::string what = case_name(tc, alg, type_name<T>(), count);
    std::vector<T> send = input, recv(count, poison<T>());
    exscan(send, recv, op, tc.comm, alg);
    same_bits(send, input, what + " send buffer untouched");
    same_bits(recv, expected, what + " vs serial reference");
    if (vendor_is_reference) same_bits(recv, from_vendor, what + " vs vendor");

    std::vector<T> in_place = input;
    exscan(in_place, in_place, op, tc.comm, alg);
    same_bits(in_place, expected_in_place, what + " in place");
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_algorithm_keeps_rank_order) {
  // The non-commutative mat2 case below runs every algorithm: none may refuse it.
  for (algorithm alg : algorithms_with_automatic(collective::exscan))
    BOOST_TEST(keeps_rank_order(collective::exscan, alg), to_string(alg));
}

BOOST_AUTO_TEST_CASE(every_algorithm_matches_reference_and_vendor) {
  for (const test_comm& tc : test_comms())
    for_each_type([&]<class T, class Op>(T, const Op& op) {
      for (std::size_t count : test_counts(size_of(tc.comm), true))
        if (in_matrix<T>(tc, count)) {
          check_exscan<T>(tc, count, op);
          pace_at_scale(tc.comm);
        }
    });
}

BOOST_AUTO_TEST_CASE(no_identity_element_is_needed) {
  // "first" (a ∘ b = a) has no identity element: an algorithm that started rank r's result from
  // some default value e would give e ∘ x0 … = e instead of x0. Rank r > 0 must get rank 0's input.
  struct first {
    std::int64_t operator()(const std::int64_t& a, const std::int64_t&) const { return a; }
  };
  for (const test_comm& tc : test_comms()) {
    const int rank = rank_of(tc.comm);
    for (algorithm alg : algorithms_with_automatic(collective::exscan)) {
      // "first" does not commute: no reference where the MPI library's exscan loses rank order.
      if (alg == algorithm::vendor && !vendor_scan_keeps_rank_order()) continue;
      std::vector<std::int64_t> mine{-1000 - rank, 7 * rank}, out(2, 42);
      exscan(mine, out, first{}, tc.comm, alg);
      const std::vector<std::int64_t> expected =
          rank == 0 ? std::vector<std::int64_t>{42, 42} : std::vector<std::int64_t>{-1000, 0};
      BOOST_TEST(out == expected, case_name(tc, alg, "int64 first", 2));
    }
  }
}
