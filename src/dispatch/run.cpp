// SPDX-License-Identifier: BSD-3-Clause
// The compiled entry point behind every public collective: validate on this rank, before any
// message, then pick the algorithm and run it on the library's private communicator.

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <utility>

#include "collectives/checks.hpp"
#include "collectives/error.hpp"
#include "dispatch/automatic.hpp"
#include "dispatch/registry.hpp"
#include "kit/block_layout.hpp"
#include "kit/collective_traits.hpp"
#include "kit/trace.hpp"

namespace collectives::detail {
namespace {

// Value i of a user's counts or displacements, whatever its integral type.
struct index_value {
  bool negative;
  std::uint64_t magnitude;
};

template <class I>
index_value read_as(const std::byte* at) {
  I v;
  std::memcpy(&v, at, sizeof v);
  if constexpr (std::is_signed_v<I>)
    if (v < 0) return {true, static_cast<std::uint64_t>(-(static_cast<long long>(v) + 1)) + 1};
  return {false, static_cast<std::uint64_t>(v)};
}

index_value read_index(const index_array& a, std::size_t i) {
  const std::byte* at = static_cast<const std::byte*>(a.data) + i * a.width;
  switch (a.width) {
    case 1:
      return a.is_signed ? read_as<std::int8_t>(at) : read_as<std::uint8_t>(at);
    case 2:
      return a.is_signed ? read_as<std::int16_t>(at) : read_as<std::uint16_t>(at);
    case 4:
      return a.is_signed ? read_as<std::int32_t>(at) : read_as<std::uint32_t>(at);
    default:
      return a.is_signed ? read_as<std::int64_t>(at) : read_as<std::uint64_t>(at);
  }
}

// What validation hands to the algorithm: n (see call::count) and, for the v-variants, the
// layouts of the buffers this rank uses.
struct checked_call {
  std::size_t count = 0;
  block_layout send_blocks, recv_blocks;
};

class validator {
 public:
  /// `coll` is r.coll, passed apart so that run()'s fast path, which knows it at compile time,
  /// lets the compiler fold every test on it.
  validator(const request& r, collective coll, int rank, int size)
      : r_(r), blocks_(r.blocks != nullptr ? *r.blocks : no_blocks), coll_(coll), rank_(rank), size_(size) {}

  /// What every failure names besides its argument: the collective and the rank. Passed by value
  /// (one register) to the failures, which are static, out of line and cold: the checks that pass
  /// cost a compare each, and never need the validator in memory.
  struct site {
    collective coll;
    int rank;
  };
  [[noreturn, gnu::cold, gnu::noinline]] static void fail_at(site at, std::string_view argument,
                                                             std::string_view problem) {
    throw error(fmt::format("collectives::{}: argument '{}' on rank {}: {}", to_string(at.coll), argument,
                            at.rank, problem));
  }
  [[noreturn, gnu::always_inline]] void fail(std::string_view argument, std::string_view problem) const {
    fail_at(here(), argument, problem);
  }
  [[noreturn, gnu::cold, gnu::noinline]] static void fail_count(site at, std::string_view argument,
                                                                std::size_t given, std::size_t expected,
                                                                std::string_view why) {
    fail_at(at, argument, fmt::format("expected {} elements ({}), given {}", expected, why, given));
  }

  [[gnu::always_inline]] void expect_count(std::string_view argument, std::size_t given, std::size_t expected,
                                           std::string_view why) const {
    if (given != expected) [[unlikely]]
      fail_count(here(), argument, given, expected, why);
  }

  /// n, the per-rank block (or whole vector) of this call, after checking every buffer size: the
  /// size of the buffer n comes from gives n, the other one's must follow from it.
  [[gnu::always_inline]] std::size_t check_sizes() const {
    const collective_descriptor& d = descriptor_of(coll_);
    if (d.n_from == data_buffer::none) return 0;
    const std::size_t p = static_cast<std::size_t>(size_);
    const data_buffer other = d.n_from == data_buffer::send ? data_buffer::recv : data_buffer::send;
    const buffer_extent from = shape_of(d, d.n_from).at_root;
    const std::size_t given = count_of(d.n_from);
    if (from == buffer_extent::p_blocks && given % p != 0) [[unlikely]]
      fail_blocks(here(), name_of(d.n_from), p, given);
    const std::size_t n = from == buffer_extent::p_blocks ? given / p : given;
    const buffer_extent e = shape_of(d, other).on(rank_ == r_.root);
    if (e != buffer_extent::none)
      expect_count(name_of(other), count_of(other), e == from ? given : elements_in(e, p, n), d.size_rule);
    return n;
  }

  [[noreturn, gnu::cold, gnu::noinline]] static void fail_blocks(site at, std::string_view argument,
                                                                 std::size_t p, std::size_t given) {
    fail_at(at, argument, fmt::format("expected p = {} equal blocks, given {} elements", p, given));
  }

  /// The v-variants: converts and checks the counts and displacements, fills the layouts and
  /// returns this rank's own block (see call::count).
  std::size_t check_blocks(checked_call& out) const {
    const collective_descriptor& d = descriptor_of(coll_);
    const bool at_root = rank_ == r_.root;
    const block_layout* laid_out = nullptr;  // the one layout of a buffer's own block
    std::string_view laid_out_by;
    for (const data_buffer b : {data_buffer::send, data_buffer::recv}) {
      const buffer_shape& shape = shape_of(d, b);
      if (shape.on(at_root) != buffer_extent::blocks) continue;
      const bool by_send = shape.laid_out_by == counts_argument::send_counts;
      block_layout& l = by_send ? out.send_blocks : out.recv_blocks;
      laid_out_by = by_send ? "send_counts" : "recv_counts";
      const index_array& displs = by_send ? blocks_.send_displs : blocks_.recv_displs;
      l = layout(name_of(b), count_of(b), by_send ? blocks_.send_counts : blocks_.recv_counts,
                 d.with_displacements ? displs : index_array{}, laid_out_by);
      laid_out = &l;
    }
    if (counts_per_pair(d)) {
      if (out.send_blocks.count(rank_) != out.recv_blocks.count(rank_))
        fail("recv_counts",
             fmt::format("this rank sends itself send_counts[{}] = {} elements but expects "
                         "recv_counts[{}] = {}",
                         rank_, out.send_blocks.count(rank_), rank_, out.recv_blocks.count(rank_)));
      return out.send_blocks.total();
    }
    for (const data_buffer b : {data_buffer::send, data_buffer::recv})
      if (shape_of(d, b).on(at_root) == buffer_extent::own_block && laid_out != nullptr)
        own_block(name_of(b), count_of(b), laid_out_by, *laid_out);
    return count_of(d.n_from);
  }

  /// Reads counts (and displacements, when given) of p blocks lying in a buffer of `extent`
  /// elements: non-negative, p of each, inside the buffer, not overlapping; without
  /// displacements the blocks are packed in rank order and their sum must be the buffer's size.
  block_layout layout(std::string_view buffer, std::size_t extent, const index_array& counts,
                      const index_array& displs, std::string_view counts_of) const {
    const std::string counts_name(counts_of);
    const std::string displs_name = buffer == "send" ? "send_displs" : "recv_displs";
    const std::size_t p = static_cast<std::size_t>(size_);
    const auto read_all = [&](const index_array& a, const std::string& name) {
      if (a.size != p) fail(name, fmt::format("expected p = {} values (one per rank), given {}", p, a.size));
      std::vector<std::size_t> v(p);
      for (std::size_t i = 0; i < p; ++i) {
        const index_value x = read_index(a, i);
        if (x.negative) fail(name, fmt::format("{}[{}] is negative: -{}", name, i, x.magnitude));
        if (x.magnitude > extent)
          fail(name,
               fmt::format("{}[{}] = {} exceeds {}'s {} elements", name, i, x.magnitude, buffer, extent));
        v[i] = static_cast<std::size_t>(x.magnitude);
      }
      return v;
    };
    block_layout l;
    l.counts = read_all(counts, counts_name);
    if (displs.width == 0) {
      l.displs.resize(p);
      std::size_t at = 0;
      for (std::size_t i = 0; i < p; ++i) {
        l.displs[i] = at;
        at += l.counts[i];
        if (at > extent) break;  // reported below; stops the sum short of any overflow
      }
      if (at > extent)
        fail(buffer, fmt::format("the sum of {} is more than its {} elements (blocks packed in rank order)",
                                 counts_name, extent));
      if (at != extent)
        fail(buffer,
             fmt::format("expected the sum of {} = {} elements (blocks packed in rank order), given {}",
                         counts_name, at, extent));
      return l;
    }
    l.displs = read_all(displs, displs_name);
    for (std::size_t i = 0; i < p; ++i)
      if (l.counts[i] > extent - l.displs[i])
        fail(displs_name, fmt::format("the block of rank {} (elements [{}, {})) runs past {}'s {} elements",
                                      i, l.displs[i], l.displs[i] + l.counts[i], buffer, extent));
    // Sorted by start, every non-empty block must end before the next one begins.
    std::vector<std::size_t> order(p);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::erase_if(order, [&](std::size_t i) { return l.counts[i] == 0; });
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return l.displs[a] < l.displs[b]; });
    for (std::size_t k = 1; k < order.size(); ++k) {
      const std::size_t a = order[k - 1], b = order[k];
      if (l.displs[a] + l.counts[a] > l.displs[b])
        fail(displs_name,
             fmt::format("the blocks of ranks {} and {} overlap (elements [{}, {}) and [{}, {}))", a, b,
                         l.displs[a], l.displs[a] + l.counts[a], l.displs[b], l.displs[b] + l.counts[b]));
    }
    return l;
  }

  /// This rank's own block must have the size the counts give it.
  void own_block(std::string_view buffer, std::size_t given, std::string_view counts_name,
                 const block_layout& l) const {
    const std::size_t expected = l.count(rank_);
    if (given != expected)
      fail(buffer,
           fmt::format("expected {} elements ({}[{}]), given {}", expected, counts_name, rank_, given));
  }

  [[gnu::always_inline]] void check_no_overlap() const {
    const auto* s = static_cast<const std::byte*>(r_.send);
    const auto* d = static_cast<const std::byte*>(r_.recv);
    const std::size_t sb = r_.send_count * r_.elem.size, db = r_.recv_count * r_.elem.size;
    if (!descriptor_of(coll_).send.used() || sb == 0 || db == 0) return;  // broadcast: one buffer
    if (!uses_send(coll_, r_.root, rank_) || !uses_recv(coll_, r_.root, rank_)) return;
    if (has_in_place_form(coll_) && s == d) return;  // in place
    const std::less<const std::byte*> before;
    if (before(s, d + db) && before(d, s + sb)) [[unlikely]]
      fail("recv", has_in_place_form(coll_)
                       ? "overlaps send without being the same range (pass the same range twice for in place)"
                       : "overlaps send; this collective has no in-place form");
  }

  /// The checks of every collective before its buffers: the algorithm (returns its entry, null
  /// for automatic), the root, the op's order.
  [[gnu::always_inline]] const algorithm_descriptor* check_algorithm_root_and_op() const {
    const algorithm_descriptor* entry = nullptr;
    if (r_.chosen.alg != algorithm::automatic) {
      entry = find_algorithm(coll_, r_.chosen.alg);
      if (entry == nullptr) [[unlikely]]
        fail_algorithm(here(), r_.chosen.alg);
    }
    if (has_root(coll_) && (r_.root < 0 || r_.root >= size_)) [[unlikely]]
      fail("root", fmt::format("expected a rank in [0, {}), given {}", size_, r_.root));
    if (r_.op != nullptr && !r_.op->commutative && entry != nullptr && !entry->keeps_rank_order) [[unlikely]]
      fail("op",
           fmt::format("the op is not commutative (declare `static constexpr bool commutative = true` if it "
                       "is), and '{}' cannot keep rank order; use naive, automatic or an order-keeping "
                       "algorithm",
                       to_string(r_.chosen.alg)));
    return entry;
  }

  /// A radix named with the call (run_general's calls only: run() sends them there): the
  /// algorithm takes one, and it fits the communicator.
  void check_radix(const algorithm_descriptor* entry) const {
    if (r_.chosen.radix == 0) return;
    const std::string problem = radix_problem(entry, r_.chosen.radix, size_);
    if (!problem.empty()) [[unlikely]]
      fail_radix(here(), r_.chosen, entry, problem);
  }

  /// vendor hands MPI an int count.
  [[gnu::always_inline]] void check_vendor_count(std::size_t count) const {
    const collective_descriptor& d = descriptor_of(coll_);
    const bool per_block = shape_of(d, d.n_from).at_root != buffer_extent::blocks;  // alltoallv: a total
    if (r_.chosen.alg == algorithm::vendor && per_block && count > static_cast<std::size_t>(INT_MAX))
        [[unlikely]]
      fail("alg",
           fmt::format("vendor takes at most INT_MAX elements per block (MPI's int count), given {}", count));
  }

 private:
  site here() const { return {coll_, rank_}; }
  static std::string_view name_of(data_buffer b) { return b == data_buffer::send ? "send" : "recv"; }
  std::size_t count_of(data_buffer b) const { return b == data_buffer::send ? r_.send_count : r_.recv_count; }

  // A radix_problem of the call's radix, with the collective's radix-k algorithms where the
  // algorithm takes none.
  [[noreturn, gnu::cold, gnu::noinline]] static void fail_radix(site at, selection chosen,
                                                                const algorithm_descriptor* entry,
                                                                const std::string& problem) {
    const bool takes_none = entry == nullptr || entry->default_radix == 0;
    fail_at(at, "alg",
            takes_none
                ? fmt::format("'{}' {} (given {}); the radix-k algorithms of {}: {}", to_string(chosen.alg),
                              problem, chosen.radix, to_string(at.coll), radix_algorithms(at.coll))
                : fmt::format("'{}' {}", to_string(chosen), problem));
  }

  static std::string radix_algorithms(collective c) {
    std::string names;
    for (algorithm a : algorithms_for(c))
      if (default_radix(c, a) != 0) names += fmt::format("{}{}", names.empty() ? "" : ", ", to_string(a));
    return names.empty() ? "none" : names;
  }

  [[noreturn, gnu::cold, gnu::noinline]] static void fail_algorithm(site at, algorithm alg) {
    std::string known;
    for (algorithm a : algorithms_for(at.coll))
      known += fmt::format("{}{}", known.empty() ? "" : ", ", to_string(a));
    fail_at(at, "alg",
            fmt::format("{} has no algorithm '{}'; it has automatic, {}", to_string(at.coll), to_string(alg),
                        known));
  }

  static constexpr block_arguments no_blocks{};

  const request& r_;
  const block_arguments& blocks_;  ///< the v-variants' counts and displacements
  collective coll_;
  int rank_;
  int size_;
};

// vendor passes counts and displacements to MPI as int.
void check_fits_int(const validator& v, const block_layout& l, std::string_view buffer) {
  for (std::size_t i = 0; i < l.counts.size(); ++i) {
    if (l.counts[i] > static_cast<std::size_t>(INT_MAX) || l.displs[i] > static_cast<std::size_t>(INT_MAX))
      v.fail("alg",
             fmt::format("vendor passes counts and displacements to MPI as int, and {}'s block of rank "
                         "{} (count {}, displacement {}) does not fit",
                         buffer, i, l.counts[i], l.displs[i]));
  }
}

// Every rank checks its own arguments; returns n (see call::count) and the v-variants' layouts,
// or throws. The general path (run_general); check_fixed is the same for the other collectives.
checked_call validate(const request& r, int rank, int size) {
  const validator v(r, r.coll, rank, size);
  v.check_radix(v.check_algorithm_root_and_op());
  checked_call out;
  out.count = is_v_variant(r.coll) ? v.check_blocks(out) : v.check_sizes();
  v.check_no_overlap();
  if (r.chosen.alg == algorithm::vendor && is_v_variant(r.coll)) {
    check_fits_int(v, out.send_blocks, "send");
    check_fits_int(v, out.recv_blocks, "recv");
  }
  v.check_vendor_count(out.count);
  return out;
}

// validate() for the collectives without counts and displacements, with nothing on the heap: what
// a call of run()'s fast path needs (the algorithm's entry, null for automatic, and n). C is r.coll.
struct fixed_checks {
  const algorithm_descriptor* entry;
  std::size_t count;
};
template <collective C>
[[gnu::always_inline]] inline fixed_checks check_fixed(const request& r, int rank, int size) {
  const validator v(r, C, rank, size);
  const algorithm_descriptor* entry = v.check_algorithm_root_and_op();
  const std::size_t count = v.check_sizes();
  v.check_no_overlap();
  v.check_vendor_count(count);
  return {entry, count};
}

// A 62-bit fingerprint of counts every rank must pass alike (allgatherv's and reduce_scatterv's).
long long fingerprint(const std::vector<std::size_t>& counts) {
  std::uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (std::size_t c : counts) {
    h ^= c + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ULL;
  }
  return static_cast<long long>(h >> 2);
}

// A weight per (sender, receiver) pair: the checksum below cancels only when each pair agrees.
std::uint64_t pair_weight(int from, int to) {
  std::uint64_t z =
      (static_cast<std::uint64_t>(from) << 32 | static_cast<std::uint32_t>(to)) + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return (z ^ (z >> 31)) | 1;
}

// Σ weight·(elements this rank sends to each rank) − Σ weight·(elements it expects from each),
// wrapping: summed over all ranks it is 0 when every receiver expects what its sender sends
// (gatherv, scatterv, alltoallv, whose counts live on different ranks).
std::uint64_t traffic_checksum(const request& r, const checked_call& k, int rank, int size) {
  std::uint64_t sum = 0;
  const auto sends = [&](int to, std::size_t n) { sum += pair_weight(rank, to) * n; };
  const auto expects = [&](int from, std::size_t n) { sum -= pair_weight(from, rank) * n; };
  const collective_descriptor& d = descriptor_of(r.coll);
  const bool at_root = rank == r.root;
  // An own block goes to (or comes from) the root; a layout's blocks to (from) every rank.
  if (d.send.on(at_root) == buffer_extent::own_block) sends(r.root, k.count);
  if (d.send.on(at_root) == buffer_extent::blocks)
    for (int i = 0; i < size; ++i) sends(i, k.send_blocks.count(i));
  if (d.recv.on(at_root) == buffer_extent::own_block) expects(r.root, k.count);
  if (d.recv.on(at_root) == buffer_extent::blocks)
    for (int i = 0; i < size; ++i) expects(i, k.recv_blocks.count(i));
  return sum;
}

// argument_checks::collective: one small all-reduce before any data moves, so that a problem
// seen by one rank, or a disagreement between ranks, makes every rank throw.
void agree_on_arguments(const transport& net, const request& r, const std::optional<checked_call>& checked,
                        const std::string& local_problem) {
  // The v-variants' own blocks differ between ranks: their counts are compared below instead.
  const long long n = !checked ? -1 : is_v_variant(r.coll) ? 0 : static_cast<long long>(checked->count);
  // The algorithm and its radix as one number (a radix is below 2^31).
  const long long root = r.root,
                  alg = static_cast<long long>(r.chosen.alg) << 32 | static_cast<unsigned>(r.chosen.radix);
  const auto elem = static_cast<long long>(r.elem.size);
  const bool same_counts = is_v_variant(r.coll) && descriptor_of(r.coll).size_known_alike;
  const long long counts = checked && same_counts ? fingerprint(checked->recv_blocks.counts) : 0;
  // Maxima of x and of −x give the range of x over the ranks.
  long long agreed[] = {
      local_problem.empty() ? -1 : net.rank(), n, -n, root, -root, alg, -alg, elem, -elem, counts, -counts};
  net.agree_on_maximum(agreed, 11);
  std::uint64_t traffic = 0;
  if (!descriptor_of(r.coll).size_known_alike) {  // counts on different ranks must pair up
    if (checked) traffic = traffic_checksum(r, *checked, net.rank(), net.size());
    net.agree_on_sum(&traffic, 1);
  }
  const auto disagree = [&](int at) { return agreed[at] != -agreed[at + 1]; };
  const std::string_view name = to_string(r.coll);
  if (!local_problem.empty()) throw error(local_problem);
  if (agreed[0] >= 0)
    throw error(
        fmt::format("collectives::{}: rank {} rejected its arguments (see its error); no data was sent", name,
                    agreed[0]));
  if (disagree(1))
    throw error(
        fmt::format("collectives::{}: the ranks disagree on the element count n: from {} to {} across "
                    "{} ranks",
                    name, -agreed[2], agreed[1], net.size()));
  if (has_root(r.coll) && disagree(3))
    throw error(fmt::format("collectives::{}: the ranks disagree on the root: from {} to {}", name,
                            -agreed[4], agreed[3]));
  if (disagree(5)) throw error(fmt::format("collectives::{}: the ranks disagree on the algorithm", name));
  if (disagree(7))
    throw error(fmt::format("collectives::{}: the ranks disagree on the element size: from {} to {} bytes",
                            name, -agreed[8], agreed[7]));
  if (disagree(9))
    throw error(fmt::format(
        "collectives::{}: the ranks disagree on recv_counts (every rank must pass the same)", name));
  if (traffic != 0)
    throw error(
        fmt::format("collectives::{}: the ranks disagree on the counts: some rank would send a block of "
                    "another size than "
                    "its receiver's counts expect",
                    name));
}

argument_checks initial_argument_checks() {
  const char* v = std::getenv("COLLECTIVES_ARGUMENT_CHECKS");
  return v != nullptr && std::string_view(v) == "collective" ? argument_checks::collective
                                                             : argument_checks::local;
}

std::atomic<argument_checks> checks_level{initial_argument_checks()};

// What automatic runs for a call of n = `count` elements, a collective without counts and
// displacements.
[[gnu::noinline]] algorithm resolve_automatic(const request& r, int size, std::size_t count) {
  const bool commutative = r.op == nullptr || r.op->commutative;
  return choose_automatic(r.coll, size, count * r.elem.size, count, commutative);
}

// The same for the v-variants, which pass their layouts.
[[gnu::noinline]] algorithm resolve_automatic_v(const request& r, int size, const block_layout* recv_blocks) {
  const bool commutative = r.op == nullptr || r.op->commutative;
  // Only what every rank knows alike: allgatherv's and reduce_scatterv's counts.
  if (!descriptor_of(r.coll).size_known_alike || recv_blocks == nullptr)
    return choose_automatic(r.coll, size, 0, 0, commutative);
  return choose_automatic(r.coll, size, recv_blocks->total() * r.elem.size, recv_blocks->total(), commutative,
                          recv_blocks->largest() * r.elem.size);
}

// The call traced (kit/trace.hpp): one call record around the algorithm.
[[gnu::noinline]] void run_traced(const request& r, const call& c, const algorithm_descriptor& entry) {
  const trace::call_scope traced(c.net.comm(), r.coll, r.chosen.alg, entry.alg, c.count, r.elem.size,
                                 has_root(r.coll) ? r.root : -1);
  entry.run(c);
}

// Runs the checked call: `entry` is the algorithm's (null for automatic, resolved here); `coll` is
// r.coll (known at compile time on run()'s fast path). Inline there. `radix`: the call's (0 on the
// fast path, which takes no call that names one), else the algorithm's default.
[[gnu::always_inline]] inline void execute(const request& r, collective coll, const transport& net,
                                           const algorithm_descriptor* entry, std::size_t count,
                                           const block_layout* send_blocks, const block_layout* recv_blocks,
                                           int radix) {
  if (entry == nullptr)
    entry = find_algorithm(coll, is_v_variant(coll) ? resolve_automatic_v(r, net.size(), recv_blocks)
                                                    : resolve_automatic(r, net.size(), count));
  const int rank = net.rank();
  const call c{net,
               uses_send(coll, r.root, rank) ? static_cast<const std::byte*>(r.send) : nullptr,
               uses_recv(coll, r.root, rank) ? static_cast<std::byte*>(r.recv) : nullptr,
               count,
               r.elem,
               r.op,
               has_root(coll) ? r.root : 0,
               send_blocks,
               recv_blocks,
               radix != 0 ? radix : entry->default_radix};
  if (trace::on()) [[unlikely]] {
    run_traced(r, c, *entry);
    return;
  }
  entry->run(c);
}

// Every call that run()'s fast path does not take: the first on a communicator (which queries it
// and makes its private duplicate), the v-variants (whose checks build layouts), and
// argument_checks::collective.
[[gnu::noinline]] void run_general(const request& r, const comm_info* cached) {
  int rank = 0, size = 0;
  if (cached) {
    rank = cached->rank;
    size = cached->size;
  } else {
    int inter = 0;
    check_mpi(MPI_Comm_rank(r.comm, &rank), "MPI_Comm_rank");
    check_mpi(MPI_Comm_size(r.comm, &size), "MPI_Comm_size");
    check_mpi(MPI_Comm_test_inter(r.comm, &inter), "MPI_Comm_test_inter");
    if (inter)
      throw error(
          fmt::format("collectives::{}: argument 'comm' on rank {}: an intercommunicator; the library "
                      "runs on intracommunicators only",
                      to_string(r.coll), rank));
  }

  std::optional<checked_call> checked;
  std::string local_problem;
  const bool collective_checks = checks_level.load(std::memory_order_relaxed) == argument_checks::collective;
  if (!collective_checks) {
    checked = validate(r, rank, size);
  } else {
    try {
      checked = validate(r, rank, size);
    } catch (const std::exception& e) {
      local_problem = e.what();
    }
  }
  // Made only now, after the checks: the first call on a communicator duplicates it (collective).
  const transport net = cached ? transport(*cached) : transport(r.comm);
  if (collective_checks) agree_on_arguments(net, r, checked, local_problem);
  const bool v = is_v_variant(r.coll);
  execute(r, r.coll, net,
          r.chosen.alg == algorithm::automatic ? nullptr : find_algorithm(r.coll, r.chosen.alg),
          checked->count, v && !checked->send_blocks.counts.empty() ? &checked->send_blocks : nullptr,
          v && !checked->recv_blocks.counts.empty() ? &checked->recv_blocks : nullptr, r.chosen.radix);
}

[[noreturn, gnu::cold, gnu::noinline]] void fail_null_comm(const request& r) {
  throw error(fmt::format("collectives::{}: argument 'comm': MPI_COMM_NULL is not a communicator",
                          to_string(r.coll)));
}

// run()'s fast path for the collective C = r.coll: its checks and the call, with every test on
// the collective folded at compile time; the v-variants take the general path.
template <collective C>
void run_fixed(const request& r, const comm_info& info) {
  if constexpr (is_v_variant(C)) {
    run_general(r, &info);  // their checks build layouts
  } else {
    const fixed_checks k = check_fixed<C>(r, info.rank, info.size);
    execute(r, C, transport(info), k.entry, k.count, nullptr, nullptr, 0);
  }
}

// run_fixed of every collective, indexed by the collective.
using fast_path = void (*)(const request&, const comm_info&);
template <std::size_t... C>
constexpr std::array<fast_path, sizeof...(C)> fast_paths(std::index_sequence<C...>) {
  return {&run_fixed<static_cast<collective>(C)>...};
}
constexpr auto fast_path_of = fast_paths(std::make_index_sequence<collective_count>{});

// run() where this thread's previous call was on another communicator (one attribute lookup) or
// none, or with collective checks. Apart, so that run() itself only jumps: nothing to save.
[[gnu::noinline]] void run_looked_up(const request& r, const comm_info* last) {
  if (r.comm == MPI_COMM_NULL) [[unlikely]]
    fail_null_comm(r);
  const comm_info* cached = last != nullptr ? last : cached_comm_info(r.comm);
  const auto c = static_cast<std::size_t>(r.coll);
  if (cached != nullptr && checks_level.load(std::memory_order_relaxed) != argument_checks::collective &&
      c < collective_count && r.chosen.radix == 0)
    return fast_path_of[c](r, *cached);
  run_general(r, cached);
}

}  // namespace

// The fast path, taken by every call of a collective without counts and displacements on a
// communicator the library has used before, with local checks (the default), that names no radix:
// the record of the
// communicator (no MPI call when this thread's previous call was on it), one jump to the
// collective's own straight-line checks, the algorithm's entry, and the algorithm; nothing on the
// heap, no MPI call before the algorithm's first message.
void run(const request& r) {
  const comm_info* last = last_comm_info(r.comm);  // null for MPI_COMM_NULL, which has no record
  const auto c = static_cast<std::size_t>(r.coll);
  if (last == nullptr || checks_level.load(std::memory_order_relaxed) == argument_checks::collective ||
      c >= collective_count || r.chosen.radix != 0) [[unlikely]]
    return run_looked_up(r, last);
  fast_path_of[c](r, *last);
}

}  // namespace collectives::detail

namespace collectives {

void set_argument_checks(argument_checks level) { detail::checks_level.store(level); }
argument_checks get_argument_checks() { return detail::checks_level.load(); }

}  // namespace collectives
