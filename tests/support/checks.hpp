// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Shared pieces of the collective tests: the communicators every case runs on, the element
// types and ops, deterministic inputs value<T>(rank, index), the rank-order oracle and an
// equality check that names the first differing element.

#include <fmt/format.h>
#include <mpi.h>

#include <boost/test/unit_test.hpp>
#include <collectives/collectives.hpp>
#include <complex>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#ifndef COLLECTIVES_TEST_SMPI
#define COLLECTIVES_TEST_SMPI 0
#endif

namespace testing {

struct test_comm {
  std::string name;
  MPI_Comm comm;
  bool full_matrix;  ///< world also runs the large count
};

/// COLLECTIVES_TEST_MATRIX=scale: the matrix for hundreds of simulated ranks (CTest's smpi label,
/// scripts/mpirun/simulate), where every message costs real time: every algorithm still, on world
/// and its halves, for int32 (commutative) and mat2 (non-commutative; the reductions only, see
/// for_each_moved_type), without the large counts.
bool scale_matrix();

/// COLLECTIVES_SYNCHRONOUS_SENDS, read as the library's transport reads it: every library send is
/// an MPI_Ssend (and the eager size E is 0).
bool synchronous_sends();

/// At scale, a barrier on `comm` between cases of a test whose ranks may only send (a linear
/// gather's leaves, a scan chain's head): such ranks would otherwise run ahead through the whole
/// matrix with eager sends pending, and SimGrid 3.32 keeps every pending eager send in one list
/// that it scans at each completion (gatherv_test at 100 simulated ranks: 34 s, 5 s with this).
/// Within a case, the algorithms still follow each other with no barrier between them.
void pace_at_scale(MPI_Comm comm);

/// Whether the MPI library's scan and exscan keep rank order for a non-commutative op, so that
/// their results are a reference: not SimGrid SMPI's (3.32), whose MPI_Scan folds a matrix product
/// in another order (the serial oracle still checks every library algorithm there).
constexpr bool vendor_scan_keeps_rank_order() { return COLLECTIVES_TEST_SMPI == 0; }

/// world, the two halves of a split, world with ranks reversed, and MPI_COMM_SELF (at scale:
/// world and the halves).
const std::vector<test_comm>& test_comms();

int rank_of(MPI_Comm comm);
int size_of(MPI_Comm comm);

/// {0, 1, p−1, p, p+1, 7p+3} and, when `large`, 100 000; duplicates removed (at scale: {0, 1,
/// p−1, p+1}: fewer elements than ranks, and blocks of uneven size).
std::vector<std::size_t> test_counts(int p, bool large);
/// {0, p/2, p−1}, duplicates removed.
std::vector<int> test_roots(int p);

/// Every algorithm of `c` plus automatic.
/// COLLECTIVES_TEST_ALGORITHMS=name,name… keeps only those (for runs that target a few).
std::vector<collectives::algorithm> algorithms_with_automatic(collectives::collective c);

/// A user struct with a commutative user op: it travels as bytes, reduces through the thunk.
struct money {
  std::int64_t cents;
  std::int64_t payments;  // int64 too: no padding, so results can be compared bit for bit
  friend bool operator==(const money&, const money&) = default;
};
struct add_money {
  static constexpr bool commutative = true;
  money operator()(const money& a, const money& b) const {
    return {a.cents + b.cents, a.payments + b.payments};
  }
};

/// 2×2 integer matrices under multiplication modulo a prime: a non-commutative op.
struct mat2 {
  std::int64_t a, b, c, d;
  friend bool operator==(const mat2&, const mat2&) = default;
  friend mat2 operator*(const mat2& x, const mat2& y) {
    constexpr std::int64_t prime = 1'000'003;
    return {(x.a * y.a + x.b * y.c) % prime, (x.a * y.b + x.b * y.d) % prime, (x.c * y.a + x.d * y.c) % prime,
            (x.c * y.b + x.d * y.d) % prime};
  }
};
struct mat_mul {
  mat2 operator()(const mat2& x, const mat2& y) const { return x * y; }
};

/// Inputs that differ per rank and index. Small integers, so floating-point sums are exact in
/// any order and 8-rank sums of integers cannot overflow.
template <class T>
T value(int rank, std::size_t index) {
  const auto v = static_cast<std::int64_t>((static_cast<std::size_t>(rank) * 7 + index * 3) % 23 + 1);
  if constexpr (std::is_same_v<T, money>)
    return {v * 100 + rank, 1};
  else if constexpr (std::is_same_v<T, mat2>)
    return {1 + v % 3, v % 5, (v + rank) % 2, 1};
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return {static_cast<double>(v), static_cast<double>(-rank)};
  else
    return static_cast<T>(v);
}

template <class T>
std::vector<T> values(int rank, std::size_t count, std::size_t first_index = 0) {
  std::vector<T> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = value<T>(rank, first_index + i);
  return v;
}

/// Every rank's values(rank, count), one after the other in rank order: what gather leaves at
/// the root and allgather everywhere.
template <class T>
std::vector<T> concatenation(int p, std::size_t count) {
  std::vector<T> all;
  for (int r = 0; r < p; ++r) {
    const std::vector<T> block = values<T>(r, count);
    all.insert(all.end(), block.begin(), block.end());
  }
  return all;
}

/// x0 ∘ x1 ∘ … ∘ x(p−1) of every rank's values(rank, count), folded in rank order.
template <class T, class Op>
std::vector<T> rank_order_fold(int p, std::size_t count, const Op& op) {
  std::vector<T> acc = values<T>(0, count);
  for (int r = 1; r < p; ++r)
    for (std::size_t i = 0; i < count; ++i) acc[i] = op(acc[i], value<T>(r, i));
  return acc;
}

/// A recognisable value for receive buffers, so an element never written shows up.
template <class T>
T poison() {
  T t;
  std::memset(static_cast<void*>(&t), 0x5a, sizeof(T));
  return t;
}

/// Bitwise comparison; on mismatch one error naming the first differing element.
template <class T>
bool same_bits(const std::vector<T>& actual, const std::vector<T>& expected, const std::string& what) {
  std::string problem;
  if (actual.size() != expected.size()) {
    problem = fmt::format("size {} instead of {}", actual.size(), expected.size());
  } else {
    for (std::size_t i = 0; i < actual.size() && problem.empty(); ++i)
      if (std::memcmp(&actual[i], &expected[i], sizeof(T)) != 0)
        problem = fmt::format("element {} of {} differs", i, actual.size());
  }
  BOOST_CHECK_MESSAGE(problem.empty(), what << ": " << problem);
  return problem.empty();
}

/// Calls f(T{}, op) for every element type with the op the matrix uses for it (at scale: int32
/// and mat2). The non-commutative mat2 comes last.
template <class F>
void for_each_type(F&& f) {
  f(std::int32_t{}, collectives::ops::sum{});
  if (scale_matrix()) {
    f(mat2{}, mat_mul{});
    return;
  }
  f(std::int64_t{}, collectives::ops::sum{});
  f(float{}, collectives::ops::sum{});
  f(double{}, std::plus<>{});
  f(std::complex<double>{}, collectives::ops::sum{});
  f(money{}, add_money{});
  f(mat2{}, mat_mul{});
}

/// for_each_type for the collectives that move data and reduce none: at scale, int32 alone. There
/// a type's size changes no schedule, only bytes per block, which every type checks at 1–8 ranks;
/// mat2 stays where it matters, in the reductions (and halves the SMPI label's time in CI).
template <class F>
void for_each_moved_type(F&& f) {
  if (scale_matrix()) {
    f(std::int32_t{}, collectives::ops::sum{});
    return;
  }
  for_each_type(f);
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, std::int32_t>)
    return "int32";
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return "int64";
  else if constexpr (std::is_same_v<T, float>)
    return "float";
  else if constexpr (std::is_same_v<T, double>)
    return "double";
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return "complex<double>";
  else if constexpr (std::is_same_v<T, money>)
    return "money";
  else if constexpr (std::is_same_v<T, mat2>)
    return "mat2";
  else
    return "?";
}

/// Whether the (type, count) pair is part of the matrix on this communicator: every type at
/// every small count on every communicator; the large count for int32 and double on world.
template <class T>
bool in_matrix(const test_comm& tc, std::size_t count) {
  const bool headline = std::is_same_v<T, std::int32_t> || std::is_same_v<T, double>;
  return count < 100'000 || (tc.full_matrix && headline);
}

/// Context for every failure message of one case.
std::string case_name(const test_comm& tc, collectives::algorithm alg, const char* type, std::size_t count,
                      int root = -1);

/// Checks that running `fn` throws collectives::error whose message contains every fragment.
template <class F>
void expect_error(F&& fn, std::initializer_list<std::string> fragments, const std::string& what) {
  try {
    fn();
    BOOST_ERROR(what + ": no collectives::error was thrown");
  } catch (const collectives::error& e) {
    for (const std::string& fragment : fragments)
      BOOST_CHECK_MESSAGE(std::string(e.what()).find(fragment) != std::string::npos,
                          what << ": message \"" << e.what() << "\" does not mention \"" << fragment << "\"");
  }
}

}  // namespace testing
