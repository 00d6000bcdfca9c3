// SPDX-License-Identifier: BSD-3-Clause
// Messages over INT_MAX bytes: one all-reduce and one broadcast of 2^31 + 8 bytes per rank,
// which the transport must split into int-sized chunks. About 7 GiB of memory per rank; run
// on its own with `ctest --test-dir build -L large` (excluded from the default test command).

#include <climits>

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

constexpr std::size_t large_count = (std::size_t{INT_MAX} + 1) / sizeof(double) + 1;  // 2^31 + 8 bytes

}  // namespace

BOOST_AUTO_TEST_CASE(allreduce_and_broadcast_beyond_int_max_bytes) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), p = size_of(comm);
  for (algorithm alg : algorithms_for(collective::allreduce)) {
    if (alg == algorithm::vendor) continue;  // MPI's int count; the library's algorithms only
    std::vector<double> send(large_count), recv(large_count, -1.0);
    for (std::size_t i = 0; i < large_count; ++i)
      send[i] = static_cast<double>((i + static_cast<std::size_t>(rank)) % 1024);
    allreduce(send, recv, ops::sum{}, comm, alg);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < large_count; ++i) {
      double expected = 0;
      for (int r = 0; r < p; ++r) expected += static_cast<double>((i + static_cast<std::size_t>(r)) % 1024);
      wrong += recv[i] != expected;
    }
    BOOST_TEST(wrong == 0u, "allreduce " << to_string(alg));
  }
  for (algorithm alg : algorithms_for(collective::broadcast)) {
    if (alg == algorithm::vendor) continue;
    std::vector<double> buf(large_count, rank == 0 ? 0.0 : -1.0);
    if (rank == 0)
      for (std::size_t i = 0; i < large_count; ++i) buf[i] = static_cast<double>(i % 4099);
    broadcast(buf, 0, comm, alg);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < large_count; ++i) wrong += buf[i] != static_cast<double>(i % 4099);
    BOOST_TEST(wrong == 0u, "broadcast " << to_string(alg));
  }
}
