// SPDX-License-Identifier: BSD-3-Clause
// scatter: every algorithm and root against the root's blocks and against vendor.

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

template <class T>
void check_scatter(const test_comm& tc, std::size_t count, int root) {
  const int rank = rank_of(tc.comm), p = size_of(tc.comm);
  // Only the root's send buffer is read: the others pass an empty one.
  const std::vector<T> input =
      rank == root ? values<T>(root, count * static_cast<std::size_t>(p)) : std::vector<T>{};
  const std::vector<T> expected = values<T>(root, count, count * static_cast<std::size_t>(rank));
  std::vector<T> from_vendor(count, poison<T>());
  scatter(input, from_vendor, root, tc.comm, algorithm::vendor);
  same_bits(from_vendor, expected, case_name(tc, algorithm::vendor, type_name<T>(), count, root));

  for (algorithm alg : algorithms_with_automatic(collective::scatter)) {
    if (alg == algorithm::vendor) continue;
    const std::string what = case_name(tc, alg, type_name<T>(), count, root);
    std::vector<T> send = input, recv(count, poison<T>());
    scatter(send, recv, root, tc.comm, alg);
    same_bits(send, input, what + " send buffer untouched");
    same_bits(recv, expected, what + " vs root's block");
    same_bits(recv, from_vendor, what + " vs vendor");
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_algorithm_and_root_delivers_each_block) {
  for (const test_comm& tc : test_comms())
    for_each_moved_type([&]<class T, class Op>(T, const Op&) {
      for (std::size_t count : test_counts(size_of(tc.comm), true))
        if (in_matrix<T>(tc, count))
          for (int root : test_roots(size_of(tc.comm))) check_scatter<T>(tc, count, root);
    });
}
