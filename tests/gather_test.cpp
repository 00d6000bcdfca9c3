// SPDX-License-Identifier: BSD-3-Clause
// gather: every algorithm and root against the concatenation in rank order and vendor.

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

template <class T>
void check_gather(const test_comm& tc, std::size_t count, int root) {
  const int rank = rank_of(tc.comm), p = size_of(tc.comm);
  const bool at_root = rank == root;
  const std::size_t total = count * static_cast<std::size_t>(p);
  const std::vector<T> input = values<T>(rank, count);
  const std::vector<T> expected = at_root ? concatenation<T>(p, count) : std::vector<T>{};
  std::vector<T> from_vendor(at_root ? total : 0, poison<T>());
  gather(input, from_vendor, root, tc.comm, algorithm::vendor);
  same_bits(from_vendor, expected, case_name(tc, algorithm::vendor, type_name<T>(), count, root));

  for (algorithm alg : algorithms_with_automatic(collective::gather)) {
    if (alg == algorithm::vendor) continue;
    const std::string what = case_name(tc, alg, type_name<T>(), count, root);
    std::vector<T> send = input, recv(at_root ? total : 0, poison<T>());
    gather(send, recv, root, tc.comm, alg);
    same_bits(send, input, what + " send buffer untouched");
    same_bits(recv, expected, what + " vs concatenation");
    same_bits(recv, from_vendor, what + " vs vendor");
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_algorithm_and_root_collects_in_rank_order) {
  for (const test_comm& tc : test_comms())
    for_each_moved_type([&]<class T, class Op>(T, const Op&) {
      for (std::size_t count : test_counts(size_of(tc.comm), true))
        if (in_matrix<T>(tc, count))
          for (int root : test_roots(size_of(tc.comm))) check_gather<T>(tc, count, root);
    });
}
