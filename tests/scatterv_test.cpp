// SPDX-License-Identifier: BSD-3-Clause
// scatterv: every algorithm and root × count pattern × layout (packed, or displacements with gaps
// in reverse rank order) against each rank's own block, and against vendor.

#include "support/vblocks.hpp"

namespace {

using namespace collectives;
using namespace testing;

template <class T>
void check_scatterv(const test_comm& tc, const count_pattern& pattern, bool with_displs, int root) {
  const int rank = rank_of(tc.comm);
  const bool at_root = rank == root;
  const std::vector<std::size_t>& counts = pattern.counts;
  const block_places places = with_displs ? scattered_places(counts) : packed_places(counts);
  // The root's buffer: every rank's block at its place, poison in the gaps.
  const std::vector<T> input = at_root ? placed_blocks<T>(counts, places) : std::vector<T>{};
  const std::vector<T> expected = values<T>(rank, counts[static_cast<std::size_t>(rank)]);
  const std::vector<int> send_counts = at_root ? as_ints(counts) : std::vector<int>{};
  const std::vector<int> send_displs = at_root ? places.displs : std::vector<int>{};
  const auto run = [&](algorithm alg) {
    std::vector<T> send = input, recv(expected.size(), poison<T>());
    if (with_displs)
      scatterv(send, send_counts, send_displs, recv, root, tc.comm, alg);
    else
      scatterv(send, send_counts, recv, root, tc.comm, alg);
    same_bits(send, input, fmt::format("{} {} send buffer untouched", pattern.name, to_string(alg)));
    return recv;
  };
  const std::string where = fmt::format("[comm {}, {}, {}, root {}, {}]", tc.name, type_name<T>(),
                                        pattern.name, root, with_displs ? "displacements" : "packed");
  const std::vector<T> from_vendor = run(algorithm::vendor);
  same_bits(from_vendor, expected, where + " vendor vs oracle");
  for (algorithm alg : algorithms_with_automatic(collective::scatterv)) {
    if (alg == algorithm::vendor) continue;
    const std::vector<T> recv = run(alg);
    same_bits(recv, expected, fmt::format("{} {} vs oracle", where, to_string(alg)));
    same_bits(recv, from_vendor, fmt::format("{} {} vs vendor", where, to_string(alg)));
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_algorithm_root_and_count_pattern_delivers_each_block) {
  for (const test_comm& tc : test_comms())
    for_each_moved_type([&]<class T, class Op>(T, const Op&) {
      const bool headline = std::is_same_v<T, std::int32_t> || std::is_same_v<T, double>;
      for (const count_pattern& pattern : count_patterns(size_of(tc.comm), tc.full_matrix && headline, 2))
        for (bool with_displs : {false, true})
          for (int root : test_roots(size_of(tc.comm))) check_scatterv<T>(tc, pattern, with_displs, root);
    });
}
