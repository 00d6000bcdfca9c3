#include <boost/test/unit_test.hpp>
#include <collectives/collectives.hpp>
#include <vector>

BOOST_AUTO_TEST_CASE(allreduce_seed_example) {
  int rank = 0, p = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  for (auto alg : collectives::algorithms_for(collectives::collective::allreduce)) {
    std::vector<int> x{rank + 1, rank + 1}, y(2);
    collectives::allreduce(x, y, collectives::ops::sum{}, MPI_COMM_WORLD, alg);
    BOOST_TEST(y[0] == p * (p + 1) / 2);
  }
}
