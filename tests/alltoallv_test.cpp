// SPDX-License-Identifier: BSD-3-Clause
// alltoallv: every algorithm × count pattern × layout (packed, or displacements with gaps in
// reverse rank order, for send and recv) against the oracle, and against vendor. Rank i's block
// for rank j has c(i, j) elements: the pattern's count of rank i for j = the last rank, others
// varied with j so that what a rank sends and what it receives differ.

#include "support/vblocks.hpp"

namespace {

using namespace collectives;
using namespace testing;

// c(i, j) from a per-rank pattern: rank i's count, shifted by j where it is not zero.
std::size_t pair_count(const count_pattern& pattern, int i, int j) {
  const std::size_t c = pattern.counts[static_cast<std::size_t>(i)];
  return c == 0 || pattern.large ? c / (pattern.large ? 8 : 1) : c + static_cast<std::size_t>(j % 3);
}

// The block rank `from` sends rank `to`: unique per (from, to, index).
template <class T>
std::vector<T> pair_block(const count_pattern& pattern, int from, int to) {
  return values<T>(from, pair_count(pattern, from, to), 1000 * static_cast<std::size_t>(to));
}

template <class T>
void check_alltoallv(const test_comm& tc, const count_pattern& pattern, bool with_displs) {
  const int rank = rank_of(tc.comm), p = size_of(tc.comm);
  std::vector<std::size_t> out_counts(static_cast<std::size_t>(p)), in_counts(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) {
    out_counts[static_cast<std::size_t>(r)] = pair_count(pattern, rank, r);
    in_counts[static_cast<std::size_t>(r)] = pair_count(pattern, r, rank);
  }
  const block_places out_places = with_displs ? scattered_places(out_counts) : packed_places(out_counts);
  const block_places in_places = with_displs ? scattered_places(in_counts) : packed_places(in_counts);
  std::vector<T> input(out_places.extent, poison<T>()), expected(in_places.extent, poison<T>());
  for (int r = 0; r < p; ++r) {
    const std::vector<T> mine = pair_block<T>(pattern, rank, r), theirs = pair_block<T>(pattern, r, rank);
    std::copy(mine.begin(), mine.end(), input.begin() + out_places.displs[static_cast<std::size_t>(r)]);
    std::copy(theirs.begin(), theirs.end(), expected.begin() + in_places.displs[static_cast<std::size_t>(r)]);
  }
  const std::vector<int> send_counts = as_ints(out_counts), recv_counts = as_ints(in_counts);
  const auto run = [&](algorithm alg) {
    std::vector<T> send = input, recv(in_places.extent, poison<T>());
    if (with_displs)
      alltoallv(send, send_counts, out_places.displs, recv, recv_counts, in_places.displs, tc.comm, alg);
    else
      alltoallv(send, send_counts, recv, recv_counts, tc.comm, alg);
    same_bits(send, input, fmt::format("{} {} send buffer untouched", pattern.name, to_string(alg)));
    return recv;
  };
  const std::string where = fmt::format("[comm {} (p={}), {}, {}, {}]", tc.name, p, type_name<T>(),
                                        pattern.name, with_displs ? "displacements" : "packed");
  const std::vector<T> from_vendor = run(algorithm::vendor);
  same_bits(from_vendor, expected, where + " vendor vs oracle");
  for (algorithm alg : algorithms_with_automatic(collective::alltoallv)) {
    if (alg == algorithm::vendor) continue;
    const std::vector<T> recv = run(alg);
    same_bits(recv, expected, fmt::format("{} {} vs oracle", where, to_string(alg)));
    same_bits(recv, from_vendor, fmt::format("{} {} vs vendor", where, to_string(alg)));
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_algorithm_and_count_pattern_delivers_every_pair) {
  for (const test_comm& tc : test_comms())
    for_each_moved_type([&]<class T, class Op>(T, const Op&) {
      const bool headline = std::is_same_v<T, std::int32_t> || std::is_same_v<T, double>;
      for (const count_pattern& pattern : count_patterns(size_of(tc.comm), tc.full_matrix && headline, 4))
        for (bool with_displs : {false, true}) check_alltoallv<T>(tc, pattern, with_displs);
    });
}
