// SPDX-License-Identifier: BSD-3-Clause
// Properties over random inputs:
// - every rank of an all-reduce holds bitwise-identical floating-point results, for every
//   algorithm, with values of mixed magnitudes and signs (where summation order matters);
// - a seeded generator draws (collective, algorithm, type, count, root) many times and
//   compares each result with vendor's. The seed is printed on failure; replay a case with
//   COLLECTIVES_PROPERTY_SEED=<seed>. Without it, every run draws a new seed;
// - repeated large calls reuse their scratch (kit/scratch.hpp): they touch no new pages.

#include <chrono>
#include <cstdlib>
#include <random>

#ifdef __linux__
#include <sys/resource.h>
#endif

#include "support/checks.hpp"

namespace {

using namespace collectives;
using namespace testing;

std::vector<double> mixed_magnitudes(std::mt19937_64& gen, std::size_t count) {
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-40, 40);
  std::vector<double> v(count);
  for (double& x : v) x = std::ldexp(mantissa(gen), exponent(gen));
  return v;
}

// Every rank's result, as seen by every rank (through vendor allgather), must match its own.
void expect_identical_everywhere(const std::vector<double>& mine, MPI_Comm comm, const std::string& what) {
  const int p = size_of(comm);
  std::vector<double> all(mine.size() * static_cast<std::size_t>(p));
  allgather(mine, all, comm, algorithm::vendor);
  for (int r = 0; r < p; ++r) {
    const auto first = all.begin() + static_cast<std::ptrdiff_t>(mine.size() * static_cast<std::size_t>(r));
    same_bits(std::vector<double>(first, first + static_cast<std::ptrdiff_t>(mine.size())), mine,
              fmt::format("{}: rank {} vs this rank", what, r));
  }
}

std::uint64_t shared_seed(MPI_Comm comm) {
  std::uint64_t seed = 0;
  if (const char* fixed = std::getenv("COLLECTIVES_PROPERTY_SEED"))
    seed = std::strtoull(fixed, nullptr, 10);
  else
    seed = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  broadcast(std::span(&seed, 1), 0, comm, algorithm::vendor);
  return seed;
}

// Draws one case of collective `c` and compares algorithm `alg` with vendor on it.
template <class T, class Op>
bool check_against_vendor(collective c, algorithm alg, std::size_t count, int root, const Op& op,
                          MPI_Comm comm, std::mt19937_64& gen) {
  const int rank = rank_of(comm);
  const auto p = static_cast<std::size_t>(size_of(comm));
  const bool at_root = rank == root;
  // Inputs from value<T> at a random offset: exact in any summation order, unique per rank.
  const std::size_t offset = gen() % 1000;
  const std::size_t in_count =
      c == collective::barrier ? 0
      : (c == collective::broadcast || c == collective::reduce || c == collective::allreduce ||
         c == collective::gather || c == collective::allgather || c == collective::scan ||
         c == collective::exscan)
          ? count
          : count * p;
  const std::size_t out_count = [&]() -> std::size_t {
    switch (c) {
      case collective::gather:
        return at_root ? count * p : 0;
      case collective::reduce:
        return at_root ? count : 0;
      case collective::allgather:
      case collective::alltoall:
        return count * p;
      case collective::barrier:
        return 0;
      case collective::broadcast:
      case collective::scatter:
      case collective::reduce_scatter:
      case collective::allreduce:
      case collective::scan:
      case collective::exscan:
      case collective::gatherv:  // the v-variants are not drawn (see run)
      case collective::scatterv:
      case collective::allgatherv:
      case collective::alltoallv:
      case collective::reduce_scatterv:
        return count;
    }
    return count;
  }();
  const std::vector<T> input = values<T>(rank, in_count, offset);
  auto run = [&](algorithm a) {
    std::vector<T> out(out_count, poison<T>());
    switch (c) {
      case collective::broadcast:
        out = rank == root ? input : std::vector<T>(count, poison<T>());
        broadcast(out, root, comm, a);
        break;
      case collective::scatter:
        scatter(input, out, root, comm, a);
        break;
      case collective::gather:
        gather(input, out, root, comm, a);
        break;
      case collective::reduce:
        reduce(input, out, op, root, comm, a);
        break;
      case collective::allgather:
        allgather(input, out, comm, a);
        break;
      case collective::reduce_scatter:
        reduce_scatter(input, out, op, comm, a);
        break;
      case collective::alltoall:
        alltoall(input, out, comm, a);
        break;
      case collective::allreduce:
        allreduce(input, out, op, comm, a);
        break;
      case collective::barrier:
        barrier(comm, a);
        break;
      case collective::scan:
        scan(input, out, op, comm, a);
        break;
      case collective::exscan:  // rank 0's out stays poison for both, as it must
        exscan(input, out, op, comm, a);
        break;
      case collective::gatherv:
      case collective::scatterv:
      case collective::allgatherv:
      case collective::alltoallv:
      case collective::reduce_scatterv:
        BOOST_FAIL("not drawn: " << to_string(c));
    }
    return out;
  };
  return same_bits(run(alg), run(algorithm::vendor), "vs vendor");
}

}  // namespace

BOOST_AUTO_TEST_CASE(allreduce_results_are_bitwise_identical_on_every_rank) {
  for (const test_comm& tc : test_comms()) {
    const int rank = rank_of(tc.comm), p = size_of(tc.comm);
    std::mt19937_64 gen(1234567 + static_cast<unsigned>(rank));
    const auto n = static_cast<std::size_t>(p);
    for (std::size_t count :
         {std::size_t{1}, n - 1, n + 1, 7 * n + 3, std::size_t{1000}, std::size_t{100'003}}) {
      const std::vector<double> input = mixed_magnitudes(gen, count);
      for (algorithm alg : algorithms_with_automatic(collective::allreduce)) {
        std::vector<double> out(count);
        allreduce(input, out, ops::sum{}, tc.comm, alg);
        expect_identical_everywhere(out, tc.comm, case_name(tc, alg, "double", count));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(random_cases_match_vendor) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int p = size_of(comm);
  const std::uint64_t seed = shared_seed(comm);
  BOOST_TEST_MESSAGE("property seed " << seed << " (replay with COLLECTIVES_PROPERTY_SEED=" << seed << ")");
  // Same seed on every rank: every rank draws the same sequence of cases.
  std::mt19937_64 gen(seed);
  // The eight block collectives, barrier, scan and exscan; the v-variants draw their seeded random
  // counts in their own tests.
  std::vector<collective> collectives_list;
  for (collective c : all_collectives())
    if (static_cast<int>(c) <= static_cast<int>(collective::exscan)) collectives_list.push_back(c);
  for (int draw = 0; draw < 300; ++draw) {
    const collective c = collectives_list[gen() % collectives_list.size()];
    const auto algs = algorithms_for(c);
    const algorithm alg = algs[gen() % algs.size()];
    const std::size_t count = gen() % 4 == 0 ? gen() % 20'000 : gen() % static_cast<std::size_t>(3 * p + 2);
    const int root = static_cast<int>(gen() % static_cast<std::uint64_t>(p));
    const unsigned type = static_cast<unsigned>(gen() % 4);
    const std::string what = fmt::format("seed {} draw {}: {} {} type#{} count {} root {}", seed, draw,
                                         to_string(c), to_string(alg), type, count, root);
    bool ok = true;
    switch (type) {
      case 0:
        ok = check_against_vendor<std::int32_t>(c, alg, count, root, ops::max{}, comm, gen);
        break;
      case 1:
        ok = check_against_vendor<double>(c, alg, count, root, ops::sum{}, comm, gen);
        break;
      case 2:
        ok = check_against_vendor<money>(c, alg, count, root, add_money{}, comm, gen);
        break;
      default:
        if (keeps_rank_order(c, alg))
          ok = check_against_vendor<mat2>(c, alg, count, root, mat_mul{}, comm, gen);
        else
          ok = check_against_vendor<std::uint64_t>(c, alg, count, root, ops::bit_xor{}, comm, gen);
    }
    BOOST_TEST_REQUIRE(ok, what);
  }
}

#ifdef __linux__
// Scratch freed after every call comes back as fresh pages, each a page fault on first touch (on a
// virtual machine that cost 40× the time of scan_recursive_doubling at 16 MiB): the library keeps
// its blocks between calls. scan_recursive_doubling receives its partner's vector in a block of
// scratch, 1024 pages here, so a call that got new memory would fault at least 1024 times. The
// count also holds the faults of the MPI library and the rest of the process, hundreds in 4 calls
// when eight ranks share two cores, so the bound is one call's fresh scratch, which any call that
// missed the kept block reaches alone.
BOOST_AUTO_TEST_CASE(repeated_large_calls_reuse_their_scratch) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  if (size_of(comm) == 1) return;  // no scratch at one rank
  const std::vector<float> input(std::size_t{1} << 20, 1.0f);
  std::vector<float> out(input.size());
  const auto minor_faults = [] {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
  };
  scan(input, out, ops::sum{}, comm, algorithm::recursive_doubling);  // the blocks are made here
  const long before = minor_faults();
  constexpr int calls = 4;
  for (int i = 0; i < calls; ++i) scan(input, out, ops::sum{}, comm, algorithm::recursive_doubling);
  const long faults = minor_faults() - before;
  BOOST_TEST(faults < 1024, faults << " page faults in " << calls << " calls (fresh scratch: at least "
                                   << 1024 * calls << ")");
  BOOST_TEST(out.back() == static_cast<float>(rank_of(comm) + 1));
}
#endif
