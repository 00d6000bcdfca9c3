// SPDX-License-Identifier: BSD-3-Clause
// broadcast: every algorithm and root against the root's data and against vendor.

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

template <class T>
void check_broadcast(const test_comm& tc, std::size_t count, int root) {
  const int rank = rank_of(tc.comm);
  const std::vector<T> expected = values<T>(root, count);
  auto prepared = [&] { return rank == root ? expected : std::vector<T>(count, poison<T>()); };
  std::vector<T> from_vendor = prepared();
  broadcast(from_vendor, root, tc.comm, algorithm::vendor);
  same_bits(from_vendor, expected, case_name(tc, algorithm::vendor, type_name<T>(), count, root));

  for (algorithm alg : algorithms_with_automatic(collective::broadcast)) {
    if (alg == algorithm::vendor) continue;
    const std::string what = case_name(tc, alg, type_name<T>(), count, root);
    std::vector<T> buf = prepared();
    broadcast(buf, root, tc.comm, alg);
    same_bits(buf, expected, what + " vs root's data");
    same_bits(buf, from_vendor, what + " vs vendor");
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_algorithm_and_root_delivers_the_roots_data) {
  for (const test_comm& tc : test_comms())
    for_each_moved_type([&]<class T, class Op>(T, const Op&) {
      for (std::size_t count : test_counts(size_of(tc.comm), true))
        if (in_matrix<T>(tc, count))
          for (int root : test_roots(size_of(tc.comm))) check_broadcast<T>(tc, count, root);
    });
}
