// SPDX-License-Identifier: BSD-3-Clause
// The worked examples of the seed documents (shared/seeds/), for every algorithm: four ranks
// holding [1,1], [2,2], [3,3], [4,4] all-reduce to [10,10]; ranks holding [r, r+1, r+2, r+3]
// reduce-scatter to [6], [10], [14], [18], which all-gather back to [6, 10, 14, 18]. At other
// process counts the same construction is checked against its closed form.

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

}  // namespace

BOOST_AUTO_TEST_CASE(allreduce_of_rank_plus_one_pairs) {
  const int rank = rank_of(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  const std::vector<int> expected = p == 4 ? std::vector<int>{10, 10} : std::vector<int>(2, p * (p + 1) / 2);
  for (algorithm alg : algorithms_with_automatic(collective::allreduce)) {
    const std::vector<int> mine{rank + 1, rank + 1};
    std::vector<int> sum(2);
    allreduce(mine, sum, ops::sum{}, MPI_COMM_WORLD, alg);
    BOOST_TEST(sum == expected, to_string(alg));
  }
}

BOOST_AUTO_TEST_CASE(reduce_scatter_then_allgather_is_allreduce) {
  const int rank = rank_of(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  // Rank r holds [r, r+1, …, r+p−1]; block i of the sum is p(p−1)/2 + p·i.
  std::vector<int> mine(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) mine[static_cast<std::size_t>(i)] = rank + i;
  std::vector<int> expected(static_cast<std::size_t>(p));
  for (int i = 0; i < p; ++i) expected[static_cast<std::size_t>(i)] = p * (p - 1) / 2 + p * i;
  if (p == 4) BOOST_TEST(expected == (std::vector<int>{6, 10, 14, 18}));

  for (algorithm rs : algorithms_with_automatic(collective::reduce_scatter)) {
    for (algorithm ag : algorithms_with_automatic(collective::allgather)) {
      std::vector<int> my_block(1), all(static_cast<std::size_t>(p));
      reduce_scatter(mine, my_block, ops::sum{}, MPI_COMM_WORLD, rs);
      BOOST_TEST(my_block[0] == expected[static_cast<std::size_t>(rank)], to_string(rs));
      allgather(my_block, all, MPI_COMM_WORLD, ag);
      BOOST_TEST(all == expected, to_string(rs) << " + " << to_string(ag));
    }
  }
}
