// SPDX-License-Identifier: BSD-3-Clause
// alltoall: every algorithm against the transposed blocks and vendor.

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

template <class T>
void check_alltoall(const test_comm& tc, std::size_t count) {
  const int rank = rank_of(tc.comm), p = size_of(tc.comm);
  const std::size_t total = count * static_cast<std::size_t>(p);
  // Block j of rank i holds values(i, …) at indices [j·n, (j+1)·n): unique per sender and block.
  const std::vector<T> input = values<T>(rank, total);
  std::vector<T> expected;
  for (int sender = 0; sender < p; ++sender) {
    const std::vector<T> block = values<T>(sender, count, count * static_cast<std::size_t>(rank));
    expected.insert(expected.end(), block.begin(), block.end());
  }
  std::vector<T> from_vendor(total, poison<T>());
  alltoall(input, from_vendor, tc.comm, algorithm::vendor);
  same_bits(from_vendor, expected, case_name(tc, algorithm::vendor, type_name<T>(), count));

  for (algorithm alg : algorithms_with_automatic(collective::alltoall)) {
    if (alg == algorithm::vendor) continue;
    const std::string what = case_name(tc, alg, type_name<T>(), count);
    std::vector<T> send = input, recv(total, poison<T>());
    alltoall(send, recv, tc.comm, alg);
    same_bits(send, input, what + " send buffer untouched");
    same_bits(recv, expected, what + " vs transposed blocks");
    same_bits(recv, from_vendor, what + " vs vendor");
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_algorithm_transposes_the_blocks) {
  for (const test_comm& tc : test_comms())
    for_each_moved_type([&]<class T, class Op>(T, const Op&) {
      for (std::size_t count : test_counts(size_of(tc.comm), true))
        if (in_matrix<T>(tc, count)) check_alltoall<T>(tc, count);
    });
}
