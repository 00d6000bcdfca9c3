// SPDX-License-Identifier: BSD-3-Clause
// barrier: every algorithm really holds every rank until all have entered. Each rank in turn
// enters late (after a sleep) and notes the instant it enters; every rank notes the instant it
// leaves. All ranks read one clock (steady_clock is the host's CLOCK_MONOTONIC, shared by every
// process on it), so "some rank left before the late rank entered" is a violation observed
// directly, with no margin and no assumption about how long messages take. A control runs the
// same check around a barrier that does nothing and must see violations: the check can fail.

#include <chrono>
#include <thread>

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

long long now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// How many ranks left `wait` before rank `late`, delayed by `delay`, had entered it (the same
// answer on every rank). The bookkeeping uses MPI's own collectives.
template <class F>
int early_leavers(MPI_Comm comm, int late, std::chrono::milliseconds delay, F&& wait) {
  const int rank = rank_of(comm);
  MPI_Barrier(comm);  // a common start, so the late rank is late relative to the others
  long long entered = 0;
  if (rank == late) {
    std::this_thread::sleep_for(delay);
    entered = now_ns();
  }
  wait();
  const long long left = now_ns();
  MPI_Bcast(&entered, 1, MPI_LONG_LONG, late, comm);
  int early = left < entered ? 1 : 0, total = 0;
  MPI_Allreduce(&early, &total, 1, MPI_INT, MPI_SUM, comm);
  return total;
}

// The clock comparison needs every rank on this host.
bool one_host(MPI_Comm comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  const bool all_here = size_of(node) == size_of(comm);
  MPI_Comm_free(&node);
  int everywhere = all_here, agreed = 0;
  MPI_Allreduce(&everywhere, &agreed, 1, MPI_INT, MPI_MIN, comm);
  return agreed != 0;
}

}  // namespace

BOOST_AUTO_TEST_CASE(no_rank_leaves_before_the_last_one_enters) {
  if (!one_host(MPI_COMM_WORLD)) {
    BOOST_TEST_MESSAGE("ranks on several hosts: the shared-clock check needs one host; skipped");
    return;
  }
  for (const test_comm& tc : test_comms()) {
    const int p = size_of(tc.comm);
    for (algorithm alg : algorithms_with_automatic(collective::barrier))
      for (int late = 0; late < p; ++late) {
        const int early =
            early_leavers(tc.comm, late, std::chrono::milliseconds(20), [&] { barrier(tc.comm, alg); });
        BOOST_TEST(early == 0, fmt::format("[comm {} (p={}), {}]: {} rank(s) left before rank {} entered",
                                           tc.name, p, to_string(alg), early, late));
      }
  }
}

BOOST_AUTO_TEST_CASE(the_check_sees_a_barrier_that_does_not_wait) {
  // Positive control: without a real barrier the other ranks leave while the late one sleeps.
  const int p = size_of(MPI_COMM_WORLD);
  if (p < 2 || !one_host(MPI_COMM_WORLD)) return;
  const int early = early_leavers(MPI_COMM_WORLD, p - 1, std::chrono::milliseconds(100), [] {});
  BOOST_TEST(early > 0, "a no-op 'barrier' was not caught");
}

BOOST_AUTO_TEST_CASE(repeated_barriers_do_not_cross) {
  // Many barriers back to back, alternating algorithms: empty messages of one call must not be
  // taken by the next (each call's messages are matched in order on the private communicator).
  for (const test_comm& tc : test_comms()) {
    const auto algs = algorithms_with_automatic(collective::barrier);
    for (int i = 0; i < 50; ++i) barrier(tc.comm, algs[static_cast<std::size_t>(i) % algs.size()]);
    const int p = size_of(tc.comm);
    const int early = early_leavers(tc.comm, p - 1, std::chrono::milliseconds(20),
                                    [&] { barrier(tc.comm, algorithm::naive); });
    BOOST_TEST(early == 0, fmt::format("[comm {} (p={})] after 50 barriers", tc.name, p));
  }
}
