// SPDX-License-Identifier: BSD-3-Clause
// The library's traffic runs on a private duplicate of the user's communicator: messages the
// application has in flight on the same communicator, with the same tag, are neither taken nor
// disturbed, whatever algorithm runs in between; and the duplicate goes away with the user's
// communicator.

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

}  // namespace

BOOST_AUTO_TEST_CASE(pending_user_messages_are_untouched) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), p = size_of(comm);
  const int right = (rank + 1) % p, left = (rank - 1 + p) % p;
  // Tag 0 and any-source receives are what a careless library would collide with.
  const std::vector<int> letter{rank, 42, -rank};
  MPI_Request pending;
  MPI_Isend(letter.data(), 3, MPI_INT, right, 0, comm, &pending);

  for (collective c : all_collectives()) {
    for (algorithm alg : algorithms_for(c)) {
      std::vector<int> a(2 * static_cast<std::size_t>(p), rank + 1), b(2 * static_cast<std::size_t>(p));
      std::vector<int> block(2, rank), all(2 * static_cast<std::size_t>(p));
      const std::vector<int> twos(static_cast<std::size_t>(p), 2);  // the v-variants' counts
      switch (c) {
        case collective::broadcast:
          broadcast(a, 0, comm, alg);
          break;
        case collective::scatter:
          scatter(a, block, 0, comm, alg);
          break;
        case collective::gather:
          gather(block, all, 0, comm, alg);
          break;
        case collective::reduce:
          reduce(a, b, ops::sum{}, 0, comm, alg);
          break;
        case collective::allgather:
          allgather(block, all, comm, alg);
          break;
        case collective::reduce_scatter:
          reduce_scatter(a, block, ops::sum{}, comm, alg);
          break;
        case collective::alltoall:
          alltoall(a, b, comm, alg);
          break;
        case collective::allreduce:
          allreduce(a, b, ops::sum{}, comm, alg);
          break;
        case collective::barrier:
          barrier(comm, alg);
          break;
        case collective::scan:
          scan(a, b, ops::sum{}, comm, alg);
          break;
        case collective::exscan:
          exscan(a, b, ops::sum{}, comm, alg);
        break;
        case collective::gatherv:
          gatherv(block, all, twos, 0, comm, alg);
          break;
        case collective::scatterv:
          scatterv(a, twos, block, 0, comm, alg);
          break;
        case collective::allgatherv:
          allgatherv(block, all, twos, comm, alg);
          break;
        case collective::alltoallv:
          alltoallv(a, twos, b, twos, comm, alg);
          break;
        case collective::reduce_scatterv:
          reduce_scatterv(a, block, twos, ops::sum{}, comm, alg);
          break;
      }
    }
  }

  std::vector<int> received(3);
  MPI_Status status;
  MPI_Recv(received.data(), 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &status);
  MPI_Wait(&pending, MPI_STATUS_IGNORE);
  BOOST_TEST(status.MPI_SOURCE == left);
  BOOST_TEST(received == (std::vector<int>{left, 42, -left}));
}

BOOST_AUTO_TEST_CASE(private_communicator_is_freed_with_the_users) {
  // Many short-lived communicators: each gets its duplicate on first use and loses it when
  // freed (an attribute delete callback); a leak would exhaust MPI's context ids.
  for (int i = 0; i < 300; ++i) {
    MPI_Comm mine;
    MPI_Comm_dup(MPI_COMM_WORLD, &mine);
    std::vector<int> one{1}, sum(1);
    allreduce(one, sum, ops::sum{}, mine, algorithm::naive);
    BOOST_TEST_REQUIRE(sum[0] == size_of(mine));
    MPI_Comm_free(&mine);
  }
}
