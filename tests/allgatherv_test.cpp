// SPDX-License-Identifier: BSD-3-Clause
// allgatherv: every algorithm × count pattern × layout (packed, or displacements with gaps in
// reverse rank order) against the blocks placed by the oracle, and against vendor.

#include "support/vblocks.hpp"

namespace {

using namespace collectives;
using namespace testing;

template <class T>
void check_allgatherv(const test_comm& tc, const count_pattern& pattern, bool with_displs) {
  const int rank = rank_of(tc.comm);
  const std::vector<std::size_t>& counts = pattern.counts;
  const block_places places = with_displs ? scattered_places(counts) : packed_places(counts);
  const std::vector<T> input = values<T>(rank, counts[static_cast<std::size_t>(rank)]);
  const std::vector<T> expected = placed_blocks<T>(counts, places);
  const std::vector<int> recv_counts = as_ints(counts);
  const auto run = [&](algorithm alg) {
    std::vector<T> send = input, recv(places.extent, poison<T>());
    if (with_displs)
      allgatherv(send, recv, recv_counts, places.displs, tc.comm, alg);
    else
      allgatherv(send, recv, recv_counts, tc.comm, alg);
    same_bits(send, input, fmt::format("{} {} send buffer untouched", pattern.name, to_string(alg)));
    return recv;
  };
  const std::string where =
      fmt::format("[comm {} (p={}), {}, {}, {}]", tc.name, size_of(tc.comm), type_name<T>(), pattern.name,
                  with_displs ? "displacements" : "packed");
  const std::vector<T> from_vendor = run(algorithm::vendor);
  same_bits(from_vendor, expected, where + " vendor vs oracle");
  for (algorithm alg : algorithms_with_automatic(collective::allgatherv)) {
    if (alg == algorithm::vendor) continue;
    const std::vector<T> recv = run(alg);
    same_bits(recv, expected, fmt::format("{} {} vs oracle", where, to_string(alg)));
    same_bits(recv, from_vendor, fmt::format("{} {} vs vendor", where, to_string(alg)));
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_algorithm_and_count_pattern_gathers_everywhere) {
  for (const test_comm& tc : test_comms())
    for_each_moved_type([&]<class T, class Op>(T, const Op&) {
      const bool headline = std::is_same_v<T, std::int32_t> || std::is_same_v<T, double>;
      for (const count_pattern& pattern : count_patterns(size_of(tc.comm), tc.full_matrix && headline, 3))
        for (bool with_displs : {false, true}) check_allgatherv<T>(tc, pattern, with_displs);
    });
}

BOOST_AUTO_TEST_CASE(counts_of_any_integral_type) {
  // std::size_t, unsigned char and long long counts and displacements, mixed.
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = rank_of(comm), p = size_of(comm);
  std::vector<std::size_t> counts(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) counts[static_cast<std::size_t>(r)] = static_cast<std::size_t>(r % 3 + 1);
  const block_places places = scattered_places(counts);
  const std::vector<unsigned char> small(counts.begin(), counts.end());
  const std::vector<long long> displs(places.displs.begin(), places.displs.end());
  const std::vector<int> input = values<int>(rank, counts[static_cast<std::size_t>(rank)]);
  std::vector<int> a(places.extent, poison<int>()), b(places.extent, poison<int>());
  allgatherv(input, a, counts, displs, comm, algorithm::ring);
  allgatherv(input, b, small, std::span<const long long>(displs), comm, algorithm::bruck);
  same_bits(a, placed_blocks<int>(counts, places), "size_t counts, long long displacements");
  same_bits(b, placed_blocks<int>(counts, places), "unsigned char counts, span of long long displacements");
}
