// SPDX-License-Identifier: BSD-3-Clause
// Bad input: a collectives::error on the rank, before any message is sent, naming the
// collective, the argument, the rank, and what was expected vs given; an MPI failure as a
// collectives::error carrying MPI_Error_string's text; and the communicator still working
// afterwards. Every case gives every rank the same bad input, so no rank is left waiting.

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

// After a thrown error the communicator must still carry a correct collective.
void expect_communicator_works(MPI_Comm comm) {
  const int p = size_of(comm);
  std::vector<int> one{1}, sum(1);
  allreduce(one, sum, ops::sum{}, comm, algorithm::naive);
  BOOST_TEST(sum[0] == p);
}

std::string on_rank(MPI_Comm comm) { return fmt::format("rank {}", rank_of(comm)); }

}  // namespace

BOOST_AUTO_TEST_CASE(root_out_of_range) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int p = size_of(comm);
  std::vector<int> buf(4);
  expect_error([&] { broadcast(buf, p, comm); },
               {"broadcast", "'root'", on_rank(comm), fmt::format("given {}", p)}, "broadcast root p");
  std::vector<int> recv(4);
  expect_error([&] { reduce(buf, recv, ops::sum{}, -1, comm, algorithm::naive); },
               {"reduce", "'root'", on_rank(comm), "given -1"}, "reduce root -1");
  expect_error([&] { scatter(buf, recv, p + 3, comm, algorithm::vendor); }, {"scatter", "'root'"},
               "scatter root");
  expect_error([&] { gather(buf, recv, -2, comm); }, {"gather", "'root'"}, "gather root");
  expect_communicator_works(comm);
}

BOOST_AUTO_TEST_CASE(buffers_of_the_wrong_size) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const auto p = static_cast<std::size_t>(size_of(comm));
  std::vector<int> n3(3), wrong(3 * p + 1);
  for (algorithm alg : {algorithm::automatic, algorithm::naive, algorithm::vendor}) {
    expect_error([&] { allgather(n3, wrong, comm, alg); },
                 {"allgather", "'recv'", on_rank(comm), fmt::format("expected {}", 3 * p),
                  fmt::format("given {}", 3 * p + 1)},
                 "allgather recv");
    expect_error([&] { reduce_scatter(wrong, n3, ops::sum{}, comm, alg); },
                 {"reduce_scatter", "'send'", on_rank(comm), fmt::format("expected {}", 3 * p)},
                 "reduce_scatter send");
    std::vector<int> n4(4);
    expect_error([&] { allreduce(n3, n4, ops::sum{}, comm, alg); },
                 {"allreduce", "'recv'", "expected 3", "given 4"}, "allreduce recv");
    std::vector<int> same(3 * p);
    expect_error([&] { alltoall(same, wrong, comm, alg); }, {"alltoall", "'recv'"}, "alltoall recv");
  }
  if (p > 1) {
    std::vector<int> not_blocks(3 * p + 1), recv(3 * p + 1);
    expect_error([&] { alltoall(not_blocks, recv, comm); }, {"alltoall", "'send'", fmt::format("p = {}", p)},
                 "alltoall send not p blocks");
  }
  // Root-only buffers are checked at the root only; on MPI_COMM_SELF every rank is the root.
  std::vector<int> one(1), two(2);
  expect_error([&] { scatter(two, one, 0, MPI_COMM_SELF); }, {"scatter", "'send'", "rank 0"}, "scatter send");
  expect_error([&] { gather(one, two, 0, MPI_COMM_SELF); }, {"gather", "'recv'", "rank 0"}, "gather recv");
  expect_error([&] { reduce(one, two, ops::sum{}, 0, MPI_COMM_SELF); }, {"reduce", "'recv'", "rank 0"},
               "reduce recv");
  expect_communicator_works(comm);
  expect_communicator_works(MPI_COMM_SELF);
}

BOOST_AUTO_TEST_CASE(overlapping_buffers_without_an_in_place_form) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const auto p = static_cast<std::size_t>(size_of(comm));
  std::vector<int> buf(4 * p);
  expect_error([&] { allgather(std::span(buf).first(4), buf, comm); }, {"allgather", "overlaps"},
               "allgather alias");
  expect_error([&] { allreduce(std::span(buf).first(4), std::span(buf).subspan(1, 4), ops::sum{}, comm); },
               {"allreduce", "overlaps"}, "allreduce partial alias");
  expect_communicator_works(comm);
}

BOOST_AUTO_TEST_CASE(barrier_scan_and_exscan_bad_input) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  expect_error([&] { barrier(comm, algorithm::ring); },
               {"barrier", "'alg'", on_rank(comm), "no algorithm 'ring'", "dissemination"}, "barrier ring");
  expect_error([&] { barrier(comm, static_cast<algorithm>(77)); }, {"barrier", "'alg'", "(not an algorithm)"},
               "barrier with an integer cast to algorithm");
  std::vector<int> n3(3), n4(4), buf(8);
  std::vector<int> one{1}, out(1);
  expect_error([&] { allreduce(one, out, ops::sum{}, comm, algorithm::dissemination); },
               {"allreduce", "'alg'", "no algorithm 'dissemination'"}, "allreduce dissemination");
  for (algorithm alg :
       {algorithm::automatic, algorithm::naive, algorithm::recursive_doubling, algorithm::vendor}) {
    expect_error([&] { scan(n3, n4, ops::sum{}, comm, alg); },
                 {"scan", "'recv'", on_rank(comm), "expected 3", "given 4"}, "scan recv size");
    expect_error([&] { exscan(n4, n3, ops::sum{}, comm, alg); },
                 {"exscan", "'recv'", on_rank(comm), "expected 4", "given 3"}, "exscan recv size");
    expect_error([&] { scan(std::span(buf).first(4), std::span(buf).subspan(2, 4), ops::sum{}, comm, alg); },
                 {"scan", "'recv'", "overlaps send without being the same range"}, "scan partial alias");
    expect_error(
        [&] { exscan(std::span(buf).subspan(1, 4), std::span(buf).first(4), ops::sum{}, comm, alg); },
        {"exscan", "'recv'", "overlaps send without being the same range"}, "exscan partial alias");
  }
  expect_error([&] { scan(n3, n3, ops::sum{}, comm, algorithm::binomial); },
               {"scan", "'alg'", "no algorithm 'binomial'", "recursive_doubling"}, "scan binomial");
  expect_error([&] { exscan(n3, n3, ops::sum{}, comm, algorithm::dissemination); },
               {"exscan", "'alg'", "no algorithm 'dissemination'"}, "exscan dissemination");
  // Nothing was sent: the communicator still works, for the new collectives too.
  barrier(comm, algorithm::dissemination);
  expect_communicator_works(comm);
}

BOOST_AUTO_TEST_CASE(collective_checks_catch_scans_that_disagree) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), p = size_of(comm);
  if (p < 2) return;
  set_argument_checks(argument_checks::collective);
  std::vector<int> mine(rank == 0 ? 3 : 2, 1), out(mine.size());
  expect_error([&] { exscan(mine, out, ops::sum{}, comm, algorithm::recursive_doubling); },
               {"exscan", "disagree on the element count", "from 2 to 3"}, "exscan count mismatch");
  const algorithm alg = rank == 0 ? algorithm::naive : algorithm::dissemination;
  expect_error([&] { barrier(comm, alg); }, {"barrier", "disagree on the algorithm"}, "barrier alg mismatch");
  set_argument_checks(argument_checks::local);
  expect_communicator_works(comm);
}

BOOST_AUTO_TEST_CASE(buffers_ignored_off_the_root_are_not_checked) {
  // scatter's send is ignored off the root, so passing the receive buffer there is fine.
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), p = size_of(comm);
  std::vector<int> all(2 * static_cast<std::size_t>(p), 7), mine(2);
  if (rank == 0)
    scatter(all, mine, 0, comm);
  else
    scatter(mine, mine, 0, comm);
  BOOST_TEST(mine == (std::vector<int>{7, 7}));
}

BOOST_AUTO_TEST_CASE(intercommunicators_are_refused) {
  const int rank = rank_of(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  if (p < 2) return;
  MPI_Comm half, inter;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 99, &inter);
  std::vector<int> one{1}, out(1);
  expect_error([&] { allreduce(one, out, ops::sum{}, inter); }, {"allreduce", "'comm'", "intercommunicator"},
               "allreduce on an intercommunicator");
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
}

BOOST_AUTO_TEST_CASE(algorithm_the_collective_does_not_have) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  std::vector<int> buf(4);
  expect_error([&] { broadcast(buf, 0, comm, algorithm::pairwise); },
               {"broadcast", "'alg'", on_rank(comm), "no algorithm 'pairwise'", "vendor", "naive"},
               "broadcast pairwise");
  for (collective c : all_collectives())
    BOOST_TEST(!supports(c, static_cast<algorithm>(999)), "out-of-range enum value for " << to_string(c));
  expect_error([&] { broadcast(buf, 0, comm, static_cast<algorithm>(42)); },
               {"broadcast", "'alg'", "(not an algorithm)"}, "an integer cast to algorithm");
  expect_communicator_works(comm);
}

BOOST_AUTO_TEST_CASE(non_commutative_op_with_an_algorithm_that_reorders) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const std::size_t p = static_cast<std::size_t>(size_of(comm));
  std::vector<mat2> send(2 * p, mat2{1, 0, 0, 1}), recv(2 * p), block(2);
  int checked = 0;
  const std::vector<int> twos(p, 2);
  for (collective c :
       {collective::reduce, collective::reduce_scatter, collective::allreduce, collective::reduce_scatterv}) {
    for (algorithm alg : algorithms_for(c)) {
      if (keeps_rank_order(c, alg)) continue;
      auto attempt = [&] {
        if (c == collective::reduce)
          reduce(send, recv, mat_mul{}, 0, comm, alg);
        else if (c == collective::reduce_scatter)
          reduce_scatter(send, block, mat_mul{}, comm, alg);
        else if (c == collective::reduce_scatterv)
          reduce_scatterv(send, block, twos, mat_mul{}, comm, alg);
        else
          allreduce(send, recv, mat_mul{}, comm, alg);
      };
      expect_error(attempt, {std::string(to_string(c)), "'op'", on_rank(comm), "commutative"},
                   fmt::format("{} {}", to_string(c), to_string(alg)));
      ++checked;
    }
  }
  // reduce rabenseifner; reduce_scatter and reduce_scatterv ring, recursive_halving, pairwise;
  // allreduce ring, rabenseifner.
  BOOST_TEST(checked >= 9, checked << " order-breaking algorithms refused a non-commutative op");
  expect_communicator_works(comm);
}

BOOST_AUTO_TEST_CASE(mpi_failure_becomes_an_error_with_mpi_text) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), p = size_of(comm);
  if (p < 2) return;
  // The last rank sends one element more than the root expects: the root's final receive is
  // truncated, and no other message is left pending.
  std::vector<int> send(rank == p - 1 ? 3 : 2, rank), recv(rank == 0 ? 2 * static_cast<std::size_t>(p) : 0);
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(MPI_ERR_TRUNCATE, text, &length);
  if (rank == 0)
    expect_error([&] { gather(send, recv, 0, comm, algorithm::naive); },
                 {"MPI_Recv", std::string(text, length)}, "truncated gather");
  else
    gather(send, recv, 0, comm, algorithm::naive);
  expect_communicator_works(comm);
}

// The transport checks every received message's size (read from the MPI status without
// MPI_Get_count where the MPI library's layout is known: kit/transport.hpp): a message shorter
// than the receiver expects is an error naming both sizes, not a silently half-filled block.
BOOST_AUTO_TEST_CASE(short_message_is_an_error) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), p = size_of(comm);
  if (p < 2) return;
  // The last rank sends one element fewer than the root expects: the root's final receive is short.
  std::vector<int> send(rank == p - 1 ? 1 : 2, rank), recv(rank == 0 ? 2 * static_cast<std::size_t>(p) : 0);
  if (rank == 0)
    expect_error([&] { gather(send, recv, 0, comm, algorithm::naive); },
                 {"rank 0 expected 8 bytes", fmt::format("from rank {}, got 4", p - 1)}, "short gather");
  else
    gather(send, recv, 0, comm, algorithm::naive);
  expect_communicator_works(comm);
}

BOOST_AUTO_TEST_CASE(collective_checks_make_every_rank_throw) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), p = size_of(comm);
  set_argument_checks(argument_checks::collective);
  // Only the root can see that its receive buffer is too small.
  std::vector<int> one(1, rank), too_small(rank == 0 ? static_cast<std::size_t>(p) - 1 : 0);
  if (rank == 0)
    expect_error([&] { gather(one, too_small, 0, comm, algorithm::naive); }, {"gather", "'recv'", "rank 0"},
                 "root-only mistake at the root");
  else
    expect_error([&] { gather(one, too_small, 0, comm, algorithm::naive); }, {"gather", "rank 0 rejected"},
                 "root-only mistake seen from another rank");
  // Counts that differ between ranks: no rank can see it alone.
  std::vector<int> mine(rank == p - 1 ? 3 : 2, 1), out(mine.size());
  if (p > 1)
    expect_error([&] { allreduce(mine, out, ops::sum{}, comm, algorithm::naive); },
                 {"allreduce", "disagree on the element count", "from 2 to 3"}, "count mismatch");
  const int root = rank == 0 ? 0 : p - 1;
  std::vector<int> buf(2);
  if (p > 1)
    expect_error([&] { broadcast(buf, root, comm); }, {"broadcast", "disagree on the root"}, "root mismatch");
  expect_communicator_works(comm);
  set_argument_checks(argument_checks::local);
  BOOST_TEST((get_argument_checks() == argument_checks::local));
  expect_communicator_works(comm);
}

BOOST_AUTO_TEST_CASE(collective_checks_catch_different_element_types) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), p = size_of(comm);
  if (p < 2) return;
  set_argument_checks(argument_checks::collective);
  // Same count, different element sizes: float on rank 0, double elsewhere.
  auto attempt = [&] {
    if (rank == 0) {
      std::vector<float> x(4, 1.0f), y(4);
      allreduce(x, y, ops::sum{}, comm, algorithm::ring);
    } else {
      std::vector<double> x(4, 1.0), y(4);
      allreduce(x, y, ops::sum{}, comm, algorithm::ring);
    }
  };
  expect_error(attempt, {"allreduce", "disagree on the element size", "from 4 to 8"}, "float vs double");
  set_argument_checks(argument_checks::local);
  expect_communicator_works(comm);
}

BOOST_AUTO_TEST_CASE(bad_counts_and_displacements) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), p = size_of(comm);
  const auto n = static_cast<std::size_t>(p);
  std::vector<int> two(2), all(2 * n);
  std::vector<int> counts(n, 2), too_many(n + 1, 2), displs(n);
  for (std::size_t r = 0; r < n; ++r) displs[r] = static_cast<int>(2 * r);
  for (algorithm alg : {algorithm::automatic, algorithm::ring, algorithm::vendor}) {
    expect_error([&] { allgatherv(two, all, too_many, comm, alg); },
                 {"allgatherv", "'recv_counts'", on_rank(comm), fmt::format("expected p = {}", p),
                  fmt::format("given {}", p + 1)},
                 "allgatherv counts of the wrong length");
    std::vector<int> negative = counts;
    negative[0] = -1;
    expect_error([&] { allgatherv(two, all, negative, comm, alg); },
                 {"allgatherv", "'recv_counts'", on_rank(comm), "recv_counts[0] is negative"},
                 "allgatherv negative count");
    std::vector<int> bigger(2 * n + 1);
    expect_error([&] { allgatherv(two, bigger, counts, comm, alg); },
                 {"allgatherv", "'recv'", "sum of recv_counts", fmt::format("given {}", 2 * n + 1)},
                 "allgatherv sum does not match recv");
    std::vector<int> three(3);
    expect_error([&] { allgatherv(three, all, counts, comm, alg); },
                 {"allgatherv", "'send'", fmt::format("recv_counts[{}]", rank), "expected 2", "given 3"},
                 "allgatherv own block");
    std::vector<int> negative_displs = displs;
    negative_displs[n - 1] = -4;
    expect_error([&] { allgatherv(two, all, counts, negative_displs, comm, alg); },
                 {"allgatherv", "'recv_displs'", "negative"}, "allgatherv negative displacement");
    std::vector<int> past = displs;
    past[0] = static_cast<int>(2 * n - 1);
    expect_error([&] { allgatherv(two, all, counts, past, comm, alg); },
                 {"allgatherv", "'recv_displs'", "rank 0", "runs past"},
                 "allgatherv displacement past the end");
    if (p > 1) {
      std::vector<int> overlapping = displs;
      overlapping[1] = 1;
      expect_error([&] { allgatherv(two, all, counts, overlapping, comm, alg); },
                   {"allgatherv", "'recv_displs'", "ranks 0 and 1 overlap"}, "allgatherv overlapping blocks");
    }
    expect_error([&] { allgatherv(std::span(all).first(2), all, counts, comm, alg); },
                 {"allgatherv", "overlaps send"}, "allgatherv send inside recv");
    std::vector<int> short_send(2 * n - 1);
    expect_error([&] { reduce_scatterv(short_send, two, counts, ops::sum{}, comm, alg); },
                 {"reduce_scatterv", on_rank(comm), p == 1 ? "exceeds send's 1 elements" : "'send'",
                  p == 1 ? "recv_counts[0]" : "sum of recv_counts"},
                 "reduce_scatterv send");
    std::vector<int> one_more(3);
    expect_error([&] { reduce_scatterv(all, one_more, counts, ops::sum{}, comm, alg); },
                 {"reduce_scatterv", "'recv'", "expected 2"}, "reduce_scatterv recv");
  }
  // alltoallv: a rank's own block must be as large on both sides.
  std::vector<int> recv_counts = counts;
  recv_counts[static_cast<std::size_t>(rank)] = 1;
  std::vector<int> shorter(2 * n - 1);
  expect_error([&] { alltoallv(all, counts, shorter, recv_counts, comm, algorithm::pairwise); },
               {"alltoallv", "'recv_counts'", "itself"}, "alltoallv own block");
  // Root-only arguments are checked at the root; on MPI_COMM_SELF every rank is the root.
  const std::vector<int> wrong_count{1};
  std::vector<int> other(2);
  expect_error([&] { gatherv(two, other, wrong_count, 0, MPI_COMM_SELF); },
               {"gatherv", "'recv'", "rank 0", "sum of recv_counts"}, "gatherv recv at the root");
  std::vector<int> out(2);
  expect_error([&] { scatterv(two, std::vector<int>{}, out, 0, MPI_COMM_SELF); },
               {"scatterv", "'send_counts'", "expected p = 1", "given 0"}, "scatterv counts at the root");
  expect_communicator_works(comm);
  expect_communicator_works(MPI_COMM_SELF);
}

BOOST_AUTO_TEST_CASE(vendor_refuses_counts_that_do_not_fit_int) {
  // A displacement past INT_MAX in a buffer that long: refused before any message, so the
  // buffer is never read (it is only as long as its span says).
  std::vector<int> real(1), recv;
  const std::size_t huge = std::size_t{3} << 30;
  const std::span<const int> send(real.data(), huge + 1);
  const std::vector<std::size_t> counts{0}, send_displs{huge}, recv_displs{0};
  expect_error(
      [&] {
        alltoallv(send, counts, send_displs, recv, counts, recv_displs, MPI_COMM_SELF, algorithm::vendor);
      },
      {"alltoallv", "'alg'", "vendor", "int", fmt::format("displacement {}", huge)},
      "alltoallv displacement above INT_MAX");
}

BOOST_AUTO_TEST_CASE(collective_checks_catch_disagreeing_counts) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), p = size_of(comm);
  if (p < 2) return;
  const auto n = static_cast<std::size_t>(p);
  set_argument_checks(argument_checks::collective);
  // allgatherv: the last rank believes rank 0 sends 3 elements; every rank alone is consistent.
  std::vector<int> counts(n, 2);
  if (rank == p - 1) counts[0] = 3;
  std::vector<int> two(2), all(rank == p - 1 ? 2 * n + 1 : 2 * n);
  expect_error([&] { allgatherv(two, all, counts, comm, algorithm::ring); },
               {"allgatherv", "disagree on recv_counts"}, "allgatherv counts differ between ranks");
  // gatherv: the root expects 3 elements from rank 1, which sends 2.
  std::vector<int> root_counts(n, 2);
  root_counts[1] = 3;
  std::vector<int> gathered(rank == 0 ? 2 * n + 1 : 0);
  expect_error(
      [&] {
        gatherv(std::vector<int>(2), gathered, rank == 0 ? root_counts : std::vector<int>{}, 0, comm,
                algorithm::binomial);
      },
      {"gatherv", "disagree on the counts"}, "gatherv root's counts vs a sender");
  // alltoallv: rank 0 sends rank 1 three elements; rank 1 expects two.
  std::vector<int> send_counts(n, 2), recv_counts(n, 2);
  if (rank == 0) send_counts[1] = 3;
  std::vector<int> send(rank == 0 ? 2 * n + 1 : 2 * n), recv(2 * n);
  expect_error([&] { alltoallv(send, send_counts, recv, recv_counts, comm, algorithm::pairwise); },
               {"alltoallv", "disagree on the counts"}, "alltoallv sender vs receiver");
  expect_communicator_works(comm);
  set_argument_checks(argument_checks::local);
  expect_communicator_works(comm);
}
