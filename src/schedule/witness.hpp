// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// What the data-carrying replay (carry.hpp) carries, and what every rank must hold at the end: the
// serial oracle of each collective, element by element, for two witnesses.
// - tags (exact, non-commutative): rank q's input element j is (j, q, q), and the reduction joins
//   (j, a, b) ∘ (j, b + 1, c) into (j, a, c); anything else breaks the element for good, so
//   (j, 0, p − 1) is the rank-order answer of any associative op. For the data-moving collectives a
//   tag names where an element came from.
// - sums (commutative, for the algorithms that reorder): rank q's element j is h(j) + g(q) for
//   random 64-bit tables h and g, reduced by the library's own unsigned 64-bit sum; a wrong
//   multiset of contributions shows with probability at least 1 − 2⁻⁶⁰.
// Why each witness catches what it does: docs/algorithms.md, "Results: proven at every p".

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "collectives/detail/request.hpp"
#include "schedule/schedule.hpp"

namespace collectives::detail::schedule {

enum class witness : std::uint8_t { tags, sums };

/// One tag (8 bytes, the call's element). `first` = broken marks a combination out of rank order;
/// bytes never written read as poison (0xA5 everywhere).
struct tag {
  std::uint32_t index;
  std::uint16_t first, last;
  static constexpr std::uint16_t broken = 0xFFFF;
  friend bool operator==(const tag&, const tag&) = default;
};
static_assert(sizeof(tag) == 8);

/// The tags' reduction (non-commutative), the kernel the algorithms call through `combine`.
const reduction& tag_reduction();
/// The sums' reduction: the library's unsigned 64-bit sum kernel, commutative.
const reduction& sum_reduction();

/// One call's inputs and expected outputs for one witness: the rank_data of carry(), filling every
/// rank's buffers and comparing them with the oracle when its call returns — its output with the
/// collective's result, its input with what it was given (an algorithm must not write there).
class oracle final : public rank_data {
 public:
  oracle(const call_spec& spec, witness w, std::uint64_t seed = 1);

  const reduction& op() const { return w_ == witness::tags ? tag_reduction() : sum_reduction(); }

  void fill(int rank, std::span<std::byte> send, std::span<std::byte> recv) override;
  void read(int rank, std::span<const std::byte> send, std::span<const std::byte> recv) override;

  bool ok() const { return wrong_ranks_ == 0; }
  /// The first wrong element of the first few wrong ranks, in words.
  const std::string& problem() const { return problem_; }
  std::uint64_t elements_checked() const { return checked_; }

  /// A run of expected elements: `count` from `at`, element k the fold of ranks first … last of
  /// input index `index + k`; untouched: the poison the buffer was filled with.
  struct run {
    std::size_t at, count, index;
    int first, last;
    bool untouched = false;
  };

 private:
  std::uint64_t value(std::size_t index, int first, int last) const;
  std::string describe_value(std::uint64_t v) const;
  std::vector<run> expected_recv(int rank) const;
  std::size_t first_wrong(const run& r, const std::byte* at) const;
  std::size_t check(int rank, const char* buffer, std::span<const std::byte> bytes,
                    const std::vector<run>& runs);

  const call_spec& spec_;
  witness w_;
  std::uint64_t seed_;
  std::vector<std::uint64_t> prefix_g_;  ///< sums: g(0) + … + g(q − 1)
  std::vector<std::size_t> displs_;      ///< the v-variants: packed block offsets
  std::vector<std::size_t> row_displs_;  ///< alltoallv: offset of block j in rank q's send
  std::size_t wrong_ranks_ = 0;
  std::uint64_t checked_ = 0;
  std::string problem_;
};

}  // namespace collectives::detail::schedule
