// SPDX-License-Identifier: BSD-3-Clause
// The witnesses and the serial oracle of every collective (witness.hpp).

#include "schedule/witness.hpp"

#include <fmt/format.h>

#include <cstring>
#include <numeric>

#include "collectives/error.hpp"
#include "kit/collective_traits.hpp"

namespace collectives::detail::schedule {
namespace {

constexpr std::uint64_t poison = 0xA5A5A5A5A5A5A5A5ULL;
constexpr std::size_t listed_ranks = 4;  // wrong ranks described per call

std::uint64_t scramble(std::uint64_t z) {  // splitmix64
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A tag made of real ranks: below 2^15, so poison (0xA5A5) and broken (0xFFFF) never pass.
bool valid(const tag& t) { return t.first <= t.last && t.last < 0x8000; }

void combine_tags(const void* lhs, void* inout, std::size_t count, const void*) {
  const auto* a = static_cast<const std::byte*>(lhs);
  auto* b = static_cast<std::byte*>(inout);
  for (std::size_t i = 0; i < count; ++i, a += sizeof(tag), b += sizeof(tag)) {
    tag x, y;
    std::memcpy(&x, a, sizeof x);
    std::memcpy(&y, b, sizeof y);
    const bool joins = valid(x) && valid(y) && x.index == y.index && x.last + 1 == y.first;
    y = joins ? tag{y.index, x.first, y.last} : tag{y.index, tag::broken, tag::broken};
    std::memcpy(b, &y, sizeof y);
  }
}

std::uint64_t as_word(const tag& t) {
  std::uint64_t w;
  std::memcpy(&w, &t, sizeof w);
  return w;
}

std::vector<std::size_t> exclusive_sums(std::span<const std::size_t> counts) {
  std::vector<std::size_t> out(counts.size());
  std::exclusive_scan(counts.begin(), counts.end(), out.begin(), std::size_t{0});
  return out;
}

}  // namespace

const reduction& tag_reduction() {
  static const reduction r{&combine_tags, nullptr, false, builtin_op::none};
  return r;
}

const reduction& sum_reduction() {
  static const reduction r{builtin_kernel(builtin_type::u64, builtin_op::sum), nullptr, true,
                           builtin_op::sum};
  return r;
}

oracle::oracle(const call_spec& spec, witness w, std::uint64_t seed)
    : spec_(spec), w_(w), seed_(scramble(seed)) {
  if (spec.elem_size != sizeof(tag)) throw error("schedule: the witnesses are 8-byte elements");
  const auto P = static_cast<std::size_t>(spec.p);
  if (w == witness::sums) {
    prefix_g_.assign(P + 1, 0);
    for (std::size_t q = 0; q < P; ++q)
      prefix_g_[q + 1] = prefix_g_[q] + scramble(seed_ ^ scramble(q + 0x51));
  }
  if (counts_per_pair(descriptor_of(spec.coll))) {
    row_displs_.resize(P * P);
    for (std::size_t q = 0; q < P; ++q) {
      const std::span<const std::size_t> row(spec.counts.data() + q * P, P);
      std::exclusive_scan(row.begin(), row.end(), row_displs_.begin() + static_cast<std::ptrdiff_t>(q * P),
                          std::size_t{0});
    }
  } else if (is_v_variant(spec.coll)) {
    displs_ = exclusive_sums(spec.counts);
  }
}

std::uint64_t oracle::value(std::size_t index, int first, int last) const {
  if (w_ == witness::tags)
    return as_word({static_cast<std::uint32_t>(index), static_cast<std::uint16_t>(first),
                    static_cast<std::uint16_t>(last)});
  const std::uint64_t h = scramble(seed_ + index);
  return static_cast<std::uint64_t>(last - first + 1) * h +
         (prefix_g_[static_cast<std::size_t>(last) + 1] - prefix_g_[static_cast<std::size_t>(first)]);
}

std::string oracle::describe_value(std::uint64_t v) const {
  if (v == poison) return "never written";
  if (w_ == witness::sums) return fmt::format("{:#018x}", v);
  tag t;
  std::memcpy(&t, &v, sizeof t);
  if (t.first == tag::broken)
    return fmt::format(
        "index {} combined out of rank order (reversed, twice, with a gap, or with another index)", t.index);
  if (t.first == t.last) return fmt::format("index {} of rank {}", t.index, t.first);
  return fmt::format("index {} of ranks {}…{}", t.index, t.first, t.last);
}

void oracle::fill(int rank, std::span<std::byte> send, std::span<std::byte> recv) {
  // Rank `rank`'s input, element j at j (a tag's index is its low 32 bits).
  const auto input = [&](std::span<std::byte> to) {
    const std::uint64_t first = value(0, rank, rank);
    for (std::size_t j = 0; j < to.size() / sizeof(tag); ++j) {
      const std::uint64_t v = w_ == witness::tags ? first + j : value(j, rank, rank);
      std::memcpy(to.data() + j * sizeof v, &v, sizeof v);
    }
  };
  input(send);
  if ((descriptor_of(spec_.coll).recv_is_input_at_root && rank == spec_.root) ||
      (spec_.in_place && has_in_place_form(spec_.coll)))
    input(recv);
  else
    std::memset(recv.data(), 0xA5, recv.size());  // poison
}

void oracle::read(int rank, std::span<const std::byte> send, std::span<const std::byte> recv) {
  const std::size_t wrong = check(rank, "send", send, {{0, send.size() / sizeof(tag), 0, rank, rank}}) +
                            check(rank, "receive", recv, expected_recv(rank));
  if (wrong > 0) ++wrong_ranks_;
}

// The first element of run `r` (at `at`) that differs from the oracle's, or r.count. A tag's index
// is its low 32 bits: along a run the expected word grows by one.
std::size_t oracle::first_wrong(const run& r, const std::byte* at) const {
  const auto word = [at](std::size_t k) {
    std::uint64_t have;
    std::memcpy(&have, at + k * sizeof have, sizeof have);
    return have;
  };
  std::size_t k = 0;
  if (r.untouched) {
    while (k < r.count && word(k) == poison) ++k;
  } else if (w_ == witness::tags) {
    const std::uint64_t first = r.count == 0 ? 0 : value(r.index, r.first, r.last);
    while (k < r.count && word(k) == first + k) ++k;
  } else {
    while (k < r.count && word(k) == value(r.index + k, r.first, r.last)) ++k;
  }
  return k;
}

// Compares `bytes` with `runs`, which must cover it; describes the first wrong element. Returns 1
// when one is wrong.
std::size_t oracle::check(int rank, const char* buffer, std::span<const std::byte> bytes,
                          const std::vector<run>& runs) {
  const std::size_t n = bytes.size() / sizeof(tag);
  std::size_t covered = 0;
  for (const run& r : runs) covered += r.count;
  std::string wrong;
  if (covered != n) wrong = fmt::format("{} elements, the oracle expects {}", n, covered);
  for (std::size_t i = 0; i < runs.size() && wrong.empty(); ++i) {
    const run& r = runs[i];
    const std::size_t k = first_wrong(r, bytes.data() + r.at * sizeof(tag));
    if (k == r.count) continue;
    std::uint64_t have;
    std::memcpy(&have, bytes.data() + (r.at + k) * sizeof have, sizeof have);
    const std::uint64_t want = r.untouched ? poison : value(r.index + k, r.first, r.last);
    wrong = fmt::format("element {} of {} (run {} of {}): expected {}, found {}", r.at + k, n, i, runs.size(),
                        describe_value(want), describe_value(have));
  }
  checked_ += n;
  if (wrong.empty()) return 0;
  if (wrong_ranks_ < listed_ranks)
    problem_ += fmt::format("{}rank {}'s {} buffer, {}", problem_.empty() ? "" : "\n", rank, buffer, wrong);
  return 1;
}

// What recv holds after the call (collective.hpp's recv_contents): runs of contributions, each
// the whole input of its sender or the receiver's block of it, packed in rank order.
std::vector<oracle::run> oracle::expected_recv(int rank) const {
  const collective_descriptor& d = descriptor_of(spec_.coll);
  const std::size_t n = spec_.count, P = static_cast<std::size_t>(spec_.p),
                    r = static_cast<std::size_t>(rank);
  const int root = spec_.root, last = spec_.p - 1;
  const auto& c = spec_.counts;
  const bool per_pair = counts_per_pair(d);
  // The elements rank q contributes to this rank, and where they start in q's input.
  const auto length = [&](std::size_t q) {
    return !d.is_v_variant ? n : per_pair ? c[q * P + r] : d.takes_own_block ? c[r] : c[q];
  };
  const auto index = [&](std::size_t q) -> std::size_t {
    if (!d.takes_own_block) return 0;
    return !d.is_v_variant ? r * n : per_pair ? row_displs_[q * P + r] : displs_[r];
  };
  std::vector<run> out;
  if (d.recv.on(rank == root) == buffer_extent::none) return out;
  const auto whole = [&](std::size_t q, int first, int to) {
    out.push_back({0, length(q), index(q), first, to});
  };
  switch (d.result) {
    case recv_contents::nothing:
      break;
    case recv_contents::root_input:
      whole(static_cast<std::size_t>(root), root, root);
      break;
    case recv_contents::every_input: {
      out.reserve(P);
      std::size_t at = 0;
      for (std::size_t q = 0; q < P; ++q) {
        out.push_back({at, length(q), index(q), static_cast<int>(q), static_cast<int>(q)});
        at += length(q);
      }
      break;
    }
    case recv_contents::reduction:
      whole(r, 0, last);
      break;
    case recv_contents::inclusive_prefix:
      whole(r, 0, rank);
      break;
    case recv_contents::exclusive_prefix:
      // Rank 0's output is undefined in MPI; the library leaves it untouched (in place: the input).
      if (rank == 0)
        out.push_back({0, n, 0, 0, 0, !spec_.in_place});
      else
        whole(r, 0, rank - 1);
      break;
  }
  return out;
}

}  // namespace collectives::detail::schedule
