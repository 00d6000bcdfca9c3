// SPDX-License-Identifier: BSD-3-Clause
// The public contract that code outside the repository relies on: names and parsing, the
// algorithm lists, op traits, and the buffer kinds the collectives accept.

#include <array>
#include <span>

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

struct declared_commutative {
  static constexpr bool commutative = true;
  int operator()(int a, int b) const { return a + b; }
};
struct undeclared {
  int operator()(int a, int b) const { return a + b; }
};

static_assert(op_traits<ops::sum>::commutative && op_traits<ops::logical_xor>::commutative);
static_assert(op_traits<std::plus<>>::commutative && op_traits<std::multiplies<double>>::commutative);
static_assert(op_traits<declared_commutative>::commutative);
static_assert(!op_traits<undeclared>::commutative);
static_assert(!op_traits<mat_mul>::commutative);

}  // namespace

BOOST_AUTO_TEST_CASE(names_round_trip) {
  for (collective c : all_collectives()) {
    BOOST_TEST((parse_collective(to_string(c)) == c));
    for (algorithm a : algorithms_for(c)) BOOST_TEST((parse_algorithm(to_string(a)) == a));
  }
  BOOST_TEST(to_string(algorithm::recursive_doubling) == "recursive_doubling");
  BOOST_TEST(to_string(collective::reduce_scatter) == "reduce_scatter");
  BOOST_TEST(to_string(algorithm::dissemination) == "dissemination");
  BOOST_TEST(to_string(collective::barrier) == "barrier");
  BOOST_TEST((parse_collective("exscan") == collective::exscan));
  BOOST_TEST((parse_algorithm("dissemination") == algorithm::dissemination));
  BOOST_TEST(to_string(collective::reduce_scatterv) == "reduce_scatterv");
  BOOST_TEST((parse_collective("allgatherv") == collective::allgatherv));
  BOOST_TEST((parse_algorithm("automatic") == algorithm::automatic));
  BOOST_TEST(!parse_algorithm("Ring").has_value());
  BOOST_TEST(!parse_collective("all_reduce").has_value());
}

BOOST_AUTO_TEST_CASE(every_collective_lists_vendor_and_naive_but_not_automatic) {
  BOOST_TEST(all_collectives().size() == 16u);
  for (collective c : all_collectives()) {
    const auto algs = algorithms_for(c);
    BOOST_TEST(std::ranges::count(algs, algorithm::vendor) == 1, to_string(c));
    BOOST_TEST(std::ranges::count(algs, algorithm::naive) == 1, to_string(c));
    BOOST_TEST(std::ranges::count(algs, algorithm::automatic) == 0, to_string(c));
    BOOST_TEST(supports(c, algorithm::automatic));
  }
  BOOST_TEST(!supports(collective::broadcast, algorithm::pairwise));
}

BOOST_AUTO_TEST_CASE(accepts_vectors_arrays_and_temporary_spans) {
  const int rank = rank_of(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  std::array<double, 3> a{1.0 * rank, 2.0, 3.0};
  std::vector<double> v(3);
  allreduce(a, std::span<double>(v), ops::max{}, MPI_COMM_WORLD);
  BOOST_TEST(v[0] == p - 1.0);
  allreduce(
      std::span<const double>(a), v, [](double x, double y) { return x + y; }, MPI_COMM_WORLD);
  BOOST_TEST(v[1] == 2.0 * p);

  std::array<long, 2> b{rank == 0 ? 7L : 0L, rank == 0 ? 8L : 0L};
  broadcast(std::span<long>(b), 0, MPI_COMM_WORLD);
  BOOST_TEST(b[1] == 8L);

  // Root-only buffers may be empty elsewhere.
  std::vector<int> gathered(rank == 0 ? static_cast<std::size_t>(p) : 0);
  gather(std::array<int, 1>{rank}, gathered, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < p; ++r) BOOST_TEST(gathered[static_cast<std::size_t>(r)] == r);
}

BOOST_AUTO_TEST_CASE(barrier_scan_and_exscan_with_default_algorithm_and_any_buffer) {
  const int rank = rank_of(MPI_COMM_WORLD);
  barrier(MPI_COMM_WORLD);
  // A lambda is non-commutative to the library: concatenation of decimal digits (associative, as
  // every op must be, and not commutative) shows the order.
  const auto append = [](long a, long b) {
    long shift = 1;
    for (long rest = b; rest > 0; rest /= 10) shift *= 10;
    return a * shift + b;
  };
  std::array<long, 1> mine{rank + 1};
  std::vector<long> prefix(1);
  scan(mine, std::span<long>(prefix), append, MPI_COMM_WORLD);
  long expected = 0;
  for (int r = 0; r <= rank; ++r) expected = r == 0 ? 1 : append(expected, r + 1);
  BOOST_TEST(prefix[0] == expected);
  std::vector<long> before{-7};
  exscan(std::span<const long>(mine), before, append, MPI_COMM_WORLD);
  long below = -7;
  for (int r = 0; r < rank; ++r) below = r == 0 ? 1 : append(below, r + 1);
  BOOST_TEST(before[0] == below);  // rank 0: untouched
}

BOOST_AUTO_TEST_CASE(every_builtin_op_reduces_like_the_serial_fold) {
  const int rank = rank_of(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  auto check = [&]<class Op>(const Op& op, const char* name) {
    const std::vector<unsigned> mine{static_cast<unsigned>(rank + 1), static_cast<unsigned>(rank % 2),
                                     static_cast<unsigned>(5 * rank + 3)};
    std::vector<unsigned> expected{1u, 0u, 3u};
    for (int r = 1; r < p; ++r) {
      const std::vector<unsigned> x{static_cast<unsigned>(r + 1), static_cast<unsigned>(r % 2),
                                    static_cast<unsigned>(5 * r + 3)};
      for (std::size_t i = 0; i < 3; ++i) expected[i] = op(expected[i], x[i]);
    }
    for (algorithm alg : algorithms_with_automatic(collective::allreduce)) {
      std::vector<unsigned> out(3);
      allreduce(mine, out, op, MPI_COMM_WORLD, alg);
      BOOST_TEST(out == expected, name << " with " << to_string(alg));
    }
  };
  check(ops::sum{}, "sum");
  check(ops::prod{}, "prod");
  check(ops::min{}, "min");
  check(ops::max{}, "max");
  check(ops::bit_and{}, "bit_and");
  check(ops::bit_or{}, "bit_or");
  check(ops::bit_xor{}, "bit_xor");
  check(ops::logical_and{}, "logical_and");
  check(ops::logical_or{}, "logical_or");
  check(ops::logical_xor{}, "logical_xor");
  check(std::bit_xor<unsigned>{}, "std::bit_xor<unsigned>");
}

namespace {
int add_ints(const int& a, const int& b) { return a + b; }

// Over-aligned: the library's and MPI's temporaries are only max_align_t-aligned.
struct alignas(64) wide {
  double x[8];
};
struct add_wide {
  static constexpr bool commutative = true;
  wide operator()(const wide& a, const wide& b) const {
    wide r;
    for (int i = 0; i < 8; ++i) r.x[i] = a.x[i] + b.x[i];
    return r;
  }
};
}  // namespace

BOOST_AUTO_TEST_CASE(a_plain_function_is_an_op) {
  const int rank = rank_of(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  for (algorithm alg : algorithms_with_automatic(collective::allreduce)) {
    if (!keeps_rank_order(collective::allreduce, alg)) continue;  // a function does not declare commutative
    std::vector<int> mine{rank, 1}, out(2);
    allreduce(mine, out, add_ints, MPI_COMM_WORLD, alg);
    BOOST_TEST(out == (std::vector<int>{p * (p - 1) / 2, p}), to_string(alg));
  }
}

BOOST_AUTO_TEST_CASE(builtin_ops_on_a_user_type_keep_rank_order) {
  // std::multiplies<> over matrices calls their operator*, which does not commute: the library
  // must not treat it as commutative just because multiplication of numbers is.
  const int rank = rank_of(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  const std::vector<mat2> mine = values<mat2>(rank, 64);
  const std::vector<mat2> expected = rank_order_fold<mat2>(p, 64, std::multiplies<>{});
  std::vector<mat2> out(64);
  allreduce(mine, out, std::multiplies<>{}, MPI_COMM_WORLD);
  same_bits(out, expected, "automatic with std::multiplies<> over mat2");
  allreduce(mine, out, std::multiplies<>{}, MPI_COMM_WORLD, algorithm::vendor);
  same_bits(out, expected, "vendor with std::multiplies<> over mat2");
  if (p > 1)
    expect_error([&] { allreduce(mine, out, std::multiplies<>{}, MPI_COMM_WORLD, algorithm::ring); },
                 {"allreduce", "'op'", "commutative"}, "ring with std::multiplies<> over mat2");
}

BOOST_AUTO_TEST_CASE(typed_standard_functors_compute_in_their_own_type) {
  // std::plus<int> over doubles truncates every partial sum to int, as the functor does.
  const int rank = rank_of(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  const std::vector<double> mine{0.75 + rank};
  double expected = 0.75;  // x0, then (x0 ∘ x1) ∘ x2 …, each ∘ converting both sides to int
  for (int r = 1; r < p; ++r)
    expected = std::plus<int>{}(static_cast<int>(expected), static_cast<int>(0.75 + r));
  for (algorithm alg : algorithms_with_automatic(collective::allreduce)) {
    std::vector<double> out(1);
    allreduce(mine, out, std::plus<int>{}, MPI_COMM_WORLD, alg);
    BOOST_TEST(out[0] == expected, to_string(alg));
  }
}

BOOST_AUTO_TEST_CASE(over_aligned_elements) {
  const int rank = rank_of(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  for (algorithm alg : algorithms_with_automatic(collective::allreduce)) {
    for (std::size_t count : test_counts(p, false)) {
      std::vector<wide> mine(count), out(count);
      for (std::size_t i = 0; i < count; ++i)
        for (int k = 0; k < 8; ++k)
          mine[i].x[k] = rank + static_cast<double>(i + static_cast<std::size_t>(k));
      allreduce(mine, out, add_wide{}, MPI_COMM_WORLD, alg);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < count; ++i)
        for (int k = 0; k < 8; ++k)
          wrong +=
              out[i].x[k] != p * (p - 1) / 2.0 + p * static_cast<double>(i + static_cast<std::size_t>(k));
      BOOST_TEST(wrong == 0u, to_string(alg) << " count " << count);
    }
  }
}
