// SPDX-License-Identifier: BSD-3-Clause
// scan: every algorithm against the rank-order oracle (rank r gets x0 ∘ … ∘ xr) and against
// vendor, in place and not, over every communicator, type and count of the matrix, the
// non-commutative matrix product included.

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

template <class T, class Op>
void check_scan(const test_comm& tc, std::size_t count, const Op& op) {
  const int rank = rank_of(tc.comm);
  const std::vector<T> input = values<T>(rank, count);
  const std::vector<T> expected = rank_order_fold<T>(rank + 1, count, op);  // ranks 0 … rank
  const bool vendor_is_reference = op_traits<Op>::commutative || vendor_scan_keeps_rank_order();
  std::vector<T> from_vendor(count, poison<T>());
  scan(input, from_vendor, op, tc.comm, algorithm::vendor);
  if (vendor_is_reference)
    same_bits(from_vendor, expected,
              case_name(tc, algorithm::vendor, type_name<T>(), count) + " vs serial reference");

  for (algorithm alg : algorithms_with_automatic(collective::scan)) {
    if (alg == algorithm::vendor) continue;
    const std::string what = case_name(tc, alg, type_name<T>(), count);
    std::vector<T> send = input, recv(count, poison<T>());
    scan(send, recv, op, tc.comm, alg);
    same_bits(send, input, what + " send buffer untouched");
    same_bits(recv, expected, what + " vs serial reference");
    if (vendor_is_reference) same_bits(recv, from_vendor, what + " vs vendor");

    std::vector<T> in_place = input;
    scan(in_place, in_place, op, tc.comm, alg);
    same_bits(in_place, expected, what + " in place");
  }
  std::vector<T> vendor_in_place = input;
  scan(vendor_in_place, vendor_in_place, op, tc.comm, algorithm::vendor);
  if (vendor_is_reference)
    same_bits(vendor_in_place, expected,
              case_name(tc, algorithm::vendor, type_name<T>(), count) + " in place");
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_algorithm_keeps_rank_order) {
  // The non-commutative mat2 case below runs every algorithm: none may refuse it.
  for (algorithm alg : algorithms_with_automatic(collective::scan))
    BOOST_TEST(keeps_rank_order(collective::scan, alg), to_string(alg));
}

BOOST_AUTO_TEST_CASE(every_algorithm_matches_reference_and_vendor) {
  for (const test_comm& tc : test_comms())
    for_each_type([&]<class T, class Op>(T, const Op& op) {
      for (std::size_t count : test_counts(size_of(tc.comm), true))
        if (in_matrix<T>(tc, count)) {
          check_scan<T>(tc, count, op);
          pace_at_scale(tc.comm);
        }
    });
}
