// SPDX-License-Identifier: BSD-3-Clause
// allgather: every algorithm against the concatenation in rank order and vendor.

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

template <class T>
void check_allgather(const test_comm& tc, std::size_t count) {
  const int rank = rank_of(tc.comm), p = size_of(tc.comm);
  const std::vector<T> input = values<T>(rank, count);
  std::vector<T> expected;
  for (int r = 0; r < p; ++r) {
    const std::vector<T> block = values<T>(r, count);
    expected.insert(expected.end(), block.begin(), block.end());
  }
  std::vector<T> from_vendor(expected.size(), poison<T>());
  allgather(input, from_vendor, tc.comm, algorithm::vendor);
  same_bits(from_vendor, expected, case_name(tc, algorithm::vendor, type_name<T>(), count));

  for (algorithm alg : algorithms_with_automatic(collective::allgather)) {
    if (alg == algorithm::vendor) continue;
    const std::string what = case_name(tc, alg, type_name<T>(), count);
    std::vector<T> send = input, recv(expected.size(), poison<T>());
    allgather(send, recv, tc.comm, alg);
    same_bits(send, input, what + " send buffer untouched");
    same_bits(recv, expected, what + " vs concatenation");
    same_bits(recv, from_vendor, what + " vs vendor");
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_algorithm_collects_in_rank_order) {
  for (const test_comm& tc : test_comms())
    for_each_moved_type([&]<class T, class Op>(T, const Op&) {
      for (std::size_t count : test_counts(size_of(tc.comm), true))
        if (in_matrix<T>(tc, count)) check_allgather<T>(tc, count);
    });
}
