// SPDX-License-Identifier: BSD-3-Clause
// The radix of the radix-k algorithms (selection, algorithm.hpp): every one at radixes other than
// its default, on every test communicator, against the serial oracle (rank order with a
// non-commutative op where it reduces); a bad radix a collectives::error on every rank before any
// message; the spelling "name:k" parsed and printed. The matrix tests run the defaults.

#include "support/checks.hpp"
#include "support/radixes.hpp"

namespace {

using namespace collectives;
using namespace testing;

// The radixes other than the default (support/radixes.hpp).
std::vector<int> radixes(collective c, algorithm a, int p) {
  std::vector<int> out = radixes_to_check(c, a, p);
  out.erase(out.begin());  // 0: the default, which the matrix tests run
  return out;
}

std::string what(const test_comm& tc, selection s, std::size_t count, int root = -1) {
  return fmt::format("{} {} count {}{}", tc.name, to_string(s), count,
                     root < 0 ? std::string() : fmt::format(" root {}", root));
}

void check_rooted(const test_comm& tc, selection s, std::size_t count, int root) {
  const int rank = rank_of(tc.comm), p = size_of(tc.comm);
  const bool at_root = rank == root;
  const std::size_t total = count * static_cast<std::size_t>(p);
  std::vector<std::int32_t> buf =
      at_root ? values<std::int32_t>(root, count) : std::vector<std::int32_t>(count);
  broadcast(buf, root, tc.comm, s);
  same_bits(buf, values<std::int32_t>(root, count), "broadcast " + what(tc, s, count, root));

  std::vector<mat2> reduced(at_root ? count : 0, poison<mat2>());
  reduce(values<mat2>(rank, count), reduced, mat_mul{}, root, tc.comm, s);
  same_bits(reduced, at_root ? rank_order_fold<mat2>(p, count, mat_mul{}) : std::vector<mat2>{},
            "reduce " + what(tc, s, count, root));

  std::vector<std::int32_t> gathered(at_root ? total : 0, poison<std::int32_t>());
  gather(values<std::int32_t>(rank, count), gathered, root, tc.comm, s);
  same_bits(gathered, at_root ? concatenation<std::int32_t>(p, count) : std::vector<std::int32_t>{},
            "gather " + what(tc, s, count, root));

  const std::vector<std::int32_t> input =
      at_root ? values<std::int32_t>(root, total) : std::vector<std::int32_t>{};
  std::vector<std::int32_t> block(count, poison<std::int32_t>());
  scatter(input, block, root, tc.comm, s);
  same_bits(block, values<std::int32_t>(root, count, count * static_cast<std::size_t>(rank)),
            "scatter " + what(tc, s, count, root));
}

}  // namespace

BOOST_AUTO_TEST_CASE(knomial_trees_at_every_radix_and_root) {
  for (const test_comm& tc : test_comms()) {
    const int p = size_of(tc.comm);
    for (int k : radixes(collective::broadcast, algorithm::knomial, p))
      for (std::size_t count : test_counts(p, false))
        for (int root : test_roots(p)) check_rooted(tc, {algorithm::knomial, k}, count, root);
  }
}

BOOST_AUTO_TEST_CASE(recursive_multiplying_at_every_power_of_two_radix) {
  for (const test_comm& tc : test_comms()) {
    const int rank = rank_of(tc.comm), p = size_of(tc.comm);
    for (int k : radixes(collective::allreduce, algorithm::recursive_multiplying, p))
      for (std::size_t count : test_counts(p, false)) {
        const selection s{algorithm::recursive_multiplying, k};
        std::vector<mat2> out(count, poison<mat2>());
        allreduce(values<mat2>(rank, count), out, mat_mul{}, tc.comm, s);
        same_bits(out, rank_order_fold<mat2>(p, count, mat_mul{}), "allreduce " + what(tc, s, count));
        std::vector<std::int32_t> all(count * static_cast<std::size_t>(p), poison<std::int32_t>());
        allgather(values<std::int32_t>(rank, count), all, tc.comm, s);
        same_bits(all, concatenation<std::int32_t>(p, count), "allgather " + what(tc, s, count));
        // reduce_scatter combines by distance: commutative sums, block r of the rank-order fold.
        const std::size_t total = count * static_cast<std::size_t>(p);
        const std::vector<std::int64_t> folded = rank_order_fold<std::int64_t>(p, total, ops::sum{});
        const auto mine =
            folded.begin() + static_cast<std::ptrdiff_t>(count * static_cast<std::size_t>(rank));
        std::vector<std::int64_t> block(count, poison<std::int64_t>());
        reduce_scatter(values<std::int64_t>(rank, total), block, ops::sum{}, tc.comm, s);
        same_bits(block, std::vector<std::int64_t>(mine, mine + static_cast<std::ptrdiff_t>(count)),
                  "reduce_scatter " + what(tc, s, count));
      }
  }
}

BOOST_AUTO_TEST_CASE(k_bruck_at_every_radix) {
  for (const test_comm& tc : test_comms()) {
    const int rank = rank_of(tc.comm), p = size_of(tc.comm);
    for (int k : radixes(collective::allgather, algorithm::k_bruck, p))
      for (std::size_t count : test_counts(p, false)) {
        const selection s{algorithm::k_bruck, k};
        std::vector<std::int32_t> all(count * static_cast<std::size_t>(p), poison<std::int32_t>());
        allgather(values<std::int32_t>(rank, count), all, tc.comm, s);
        same_bits(all, concatenation<std::int32_t>(p, count), "allgather " + what(tc, s, count));
      }
  }
}

BOOST_AUTO_TEST_CASE(alltoall_k_bruck_at_every_radix) {
  for (const test_comm& tc : test_comms()) {
    const int rank = rank_of(tc.comm), p = size_of(tc.comm);
    for (int k : radixes(collective::alltoall, algorithm::k_bruck, p))
      for (std::size_t count : test_counts(p, false)) {
        const selection s{algorithm::k_bruck, k};
        // Block j of rank i holds values(i, …) at indices [j·n, (j+1)·n): rank r receives block r
        // of every rank, in rank order.
        std::vector<std::int32_t> expected;
        for (int sender = 0; sender < p; ++sender) {
          const auto block = values<std::int32_t>(sender, count, count * static_cast<std::size_t>(rank));
          expected.insert(expected.end(), block.begin(), block.end());
        }
        std::vector<std::int32_t> recv(count * static_cast<std::size_t>(p), poison<std::int32_t>());
        alltoall(values<std::int32_t>(rank, count * static_cast<std::size_t>(p)), recv, tc.comm, s);
        same_bits(recv, expected, "alltoall " + what(tc, s, count));
      }
  }
}

BOOST_AUTO_TEST_CASE(k_dissemination_at_every_radix_completes) {
  for (const test_comm& tc : test_comms())
    for (int k : radixes(collective::barrier, algorithm::k_dissemination, size_of(tc.comm))) {
      barrier(tc.comm, {algorithm::k_dissemination, k});
      BOOST_TEST_MESSAGE("barrier " << what(tc, {algorithm::k_dissemination, k}, 0));
    }
}

BOOST_AUTO_TEST_CASE(a_bad_radix_is_an_error_before_any_message) {
  // Every rank sees the same arguments, so every rank throws: no rank is left waiting.
  const MPI_Comm world = MPI_COMM_WORLD;
  const int p = size_of(world);
  std::vector<std::int32_t> buf(4, 1), out(4);
  expect_error(
      [&] {
        broadcast(buf, 0, world, {algorithm::knomial, 1});
      },
      {"broadcast", "radix", "given 1"}, "radix 1");
  expect_error(
      [&] {
        broadcast(buf, 0, world, {algorithm::knomial, -3});
      },
      {"radix", "given -3"}, "radix -3");
  if (p >= 2)  // one rank: any radix of at least 2 (there is nothing to send)
    expect_error(
        [&] {
          broadcast(buf, 0, world, {algorithm::knomial, p + 1});
        },
        {"from 2 to the", fmt::format("given {}", p + 1)}, "radix above p");
  expect_error(
      [&] {
        broadcast(buf, 0, world, {algorithm::binomial, 4});
      },
      {"'binomial' takes no radix", "knomial"}, "radix of an algorithm without one");
  expect_error(
      [&] {
        allreduce(buf, out, ops::sum{}, world, {algorithm::automatic, 4});
      },
      {"'automatic' takes no radix", "recursive_multiplying"}, "radix of automatic");
  expect_error(
      [&] {
        barrier(world, {algorithm::dissemination, 2});
      },
      {"takes no radix", "k_dissemination"}, "radix of dissemination");
  if (p >= 3)
    expect_error(
        [&] {
          allreduce(buf, out, ops::sum{}, world, {algorithm::recursive_multiplying, 3});
        },
        {"power of two", "given 3"}, "radix 3 of recursive_multiplying");
  // Nothing was sent: the next collective on the communicator still pairs up.
  allreduce(buf, out, ops::sum{}, world, algorithm::vendor);
  BOOST_TEST(out[0] == p);
}

BOOST_AUTO_TEST_CASE(selections_are_spelt_name_colon_radix) {
  BOOST_TEST(to_string(selection{algorithm::knomial, 8}) == "knomial:8");
  BOOST_TEST(to_string(selection{algorithm::ring}) == "ring");
  BOOST_TEST((parse_selection("knomial:8") == selection{algorithm::knomial, 8}));
  BOOST_TEST((parse_selection("recursive_multiplying") == selection{algorithm::recursive_multiplying}));
  for (const char* bad : {"knomial:", "knomial:1", "knomial:0", "knomial:-4", "knomial:x", "knomial:8x",
                          "knomial: 8", ":4", "nothing:4", "knomial:99999999999"})
    BOOST_TEST(!parse_selection(bad).has_value(), bad);
  BOOST_TEST(default_radix(collective::broadcast, algorithm::knomial) == 4);
  BOOST_TEST(default_radix(collective::allreduce, algorithm::recursive_multiplying) == 4);
  BOOST_TEST(default_radix(collective::reduce_scatter, algorithm::recursive_multiplying) == 4);
  BOOST_TEST(default_radix(collective::barrier, algorithm::k_dissemination) == 4);
  BOOST_TEST(default_radix(collective::allgather, algorithm::k_bruck) == 4);
  BOOST_TEST(default_radix(collective::alltoall, algorithm::k_bruck) == 4);
  BOOST_TEST(default_radix(collective::broadcast, algorithm::binomial) == 0);
}
