// SPDX-License-Identifier: BSD-3-Clause
// The eager size E (collectives/eager.hpp) is exact: a send of E bytes to a rank of this host
// completes before its receive is posted, and a send of E + 1 bytes does not, on the MPI library
// the test runs on. Where the library reports nothing, E = 0; synchronous sends make it 0. With
// Open MPI's shared-memory eager limit lowered (OMPI_MCA_btl_vader_eager_limit, the test
// eager_test.lowered_limit), E follows it, and exchanges above it complete with right results.
// Under SMPI, a platform whose hosts name the simulated library's eager limit apart from SMPI's
// detached sizes (collectives/eager-limit, as collcalibrate writes it; eager_test.named_limit, with
// COLLECTIVES_TEST_NAMED_EAGER_LIMIT the same value) sets E: one less than it, though larger sends
// complete without their receiver there.

#include <charconv>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

// Whether a standard send of `bytes` from rank 0 to rank 1 completes before rank 1 posts its
// receive: rank 0 polls its send for a while (on MPI_Wtime's clock: SMPI's simulated one too),
// then lets rank 1 receive it. Every rank returns rank 0's answer. Other ranks wait.
bool completes_without_receiver(std::size_t bytes, MPI_Comm comm) {
  const int rank = rank_of(comm);
  std::vector<char> buffer(bytes);
  int done = 0;
  if (rank == 0) {
    MPI_Request request;
    MPI_Isend(buffer.data(), static_cast<int>(bytes), MPI_BYTE, 1, 0, comm, &request);
    const double start = MPI_Wtime();
    while (done == 0 && MPI_Wtime() - start < 0.05) MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    int go = 1;
    MPI_Send(&go, 1, MPI_INT, 1, 1, comm);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    int go = 0;
    MPI_Recv(&go, 1, MPI_INT, 0, 1, comm, MPI_STATUS_IGNORE);
    MPI_Recv(buffer.data(), static_cast<int>(bytes), MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE);
  }
  MPI_Bcast(&done, 1, MPI_INT, 0, comm);
  return done != 0;
}

bool ranks_0_and_1_share_a_host(MPI_Comm comm) {
  MPI_Comm host;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  int rank = rank_of(comm), first = 0;  // a host is named by its lowest rank
  MPI_Allreduce(&rank, &first, 1, MPI_INT, MPI_MIN, host);
  MPI_Comm_free(&host);
  int first_of_0 = first, first_of_1 = first;
  MPI_Bcast(&first_of_0, 1, MPI_INT, 0, comm);
  MPI_Bcast(&first_of_1, 1, MPI_INT, 1, comm);
  return first_of_0 == first_of_1;
}

// A limit in bytes set in the environment variable `name`, for a test that checks E follows it;
// none when unset or with synchronous sends (E = 0 then).
std::optional<std::size_t> limit_set_in(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || synchronous_sends()) return std::nullopt;
  std::size_t limit = 0;
  std::from_chars(v, v + std::string_view(v).size(), limit);
  return limit;
}

}  // namespace

BOOST_AUTO_TEST_CASE(reported_size_is_the_mpi_library_own) {
  const eager_limits& e = eager_limits_in_force();
  BOOST_TEST(!e.source.empty());
  BOOST_TEST_MESSAGE("E = " << e.same_host << " B on this host, " << e.other_host << " B to other hosts: "
                            << e.source);
  if (synchronous_sends()) {
    BOOST_TEST(e.same_host == 0u);
    BOOST_TEST(e.other_host == 0u);
    return;
  }
  if (!e.from_mpi) {
    // Unknown (no user setting in this test): every exchange stays ordered.
    BOOST_TEST(e.same_host == 0u);
    BOOST_TEST(e.other_host == 0u);
    return;
  }
  const MPI_Comm comm = MPI_COMM_WORLD;
  if (size_of(comm) < 2 || !ranks_0_and_1_share_a_host(comm)) return;
  BOOST_TEST(e.same_host > 0u);
  BOOST_TEST(completes_without_receiver(e.same_host, comm), "a send of E = " << e.same_host << " B waited");
  if (std::getenv("COLLECTIVES_TEST_NAMED_EAGER_LIMIT") != nullptr) return;  // detached beyond E on purpose
  BOOST_TEST(!completes_without_receiver(e.same_host + 1, comm),
             "a send of E + 1 = " << e.same_host + 1 << " B completed without its receiver: E is too small");
}

// Exchanges on both sides of E, and far above it, all complete with the right results; also
// the radix-k steps, whose sends all go first only when every one of them is at most E.
BOOST_AUTO_TEST_CASE(exchanges_around_the_eager_size_complete) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int p = size_of(comm);
  const std::size_t e = eager_limits_in_force().same_host;
  for (std::size_t bytes : {std::size_t{2048}, std::size_t{4096}, e, e + 4, 2 * e + 8, std::size_t{65536}}) {
    const std::size_t n = std::max<std::size_t>(bytes / sizeof(int), 1);
    std::vector<int> mine(n), sum(n), all(n * static_cast<std::size_t>(p)), blocks(n * static_cast<std::size_t>(p));
    for (std::size_t i = 0; i < n; ++i) mine[i] = rank_of(comm) + static_cast<int>(i);
    for (algorithm a : {algorithm::recursive_doubling, algorithm::ring, algorithm::recursive_multiplying}) {
      allreduce(mine, sum, ops::sum{}, comm, a);
      for (std::size_t i = 0; i < n; ++i)
        BOOST_TEST_REQUIRE(sum[i] == p * (p - 1) / 2 + p * static_cast<int>(i), to_string(a) << " " << bytes << " B");
      allgather(mine, all, comm, a);
      for (int r = 0; r < p; ++r)
        BOOST_TEST_REQUIRE(all[static_cast<std::size_t>(r) * n] == r, to_string(a) << " " << bytes << " B");
    }
    alltoall(all, blocks, comm, algorithm::pairwise);
    for (int r = 0; r < p; ++r) BOOST_TEST_REQUIRE(blocks[static_cast<std::size_t>(r) * n] == rank_of(comm));
  }
}

// A platform's collectives/eager-limit L (eager_test.named_limit, under SMPI): E = L − 1.
BOOST_AUTO_TEST_CASE(follows_the_platform_named_limit) {
  const std::optional<std::size_t> limit = limit_set_in("COLLECTIVES_TEST_NAMED_EAGER_LIMIT");
  if (!limit) return;
  const eager_limits& e = eager_limits_in_force();
  BOOST_TEST(e.from_mpi);
  BOOST_TEST(e.same_host == *limit - 1);
  BOOST_TEST(e.other_host == *limit - 1);
}

// OMPI_MCA_btl_vader_eager_limit=L (eager_test.lowered_limit): E on this host follows it.
BOOST_AUTO_TEST_CASE(follows_a_lowered_shared_memory_limit) {
  const std::optional<std::size_t> set = limit_set_in("OMPI_MCA_btl_vader_eager_limit");
  if (!set) return;
  const std::size_t limit = *set;
  const eager_limits& e = eager_limits_in_force();
  BOOST_TEST(e.from_mpi);
  BOOST_TEST(e.same_host < limit, "E = " << e.same_host << " B with btl_vader_eager_limit " << limit);
}
