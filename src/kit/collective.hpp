// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The description of each collective, as algorithm_descriptor describes an algorithm: its name,
// what kind of call it is, its buffers per rank (extents in p, rank, n and root) and what its
// receive buffer holds afterwards. One row per collective, in enum order. Validation and dispatch
// (run.cpp, automatic), the recorder and the oracle (src/schedule/), the drop-in, the benchmark
// and the tests read it instead of switching on the collective; kit/collective_traits.hpp asks it
// the common questions. constexpr: run()'s fast path reads its row with the collective a template
// parameter, where every test on it folds away.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "collectives/algorithm.hpp"

namespace collectives::detail {

/// Every collective, for tables indexed by one (this one, the registry's, the drop-in's plan).
inline constexpr std::size_t collective_count = static_cast<std::size_t>(collective::reduce_scatterv) + 1;

/// How many elements one of a call's buffers holds on one rank; n is the call's count
/// (call::count: the vector, or one rank's block).
enum class buffer_extent : std::uint8_t {
  none,       ///< not passed, or ignored on this rank (null in the call)
  n,          ///< n elements
  p_blocks,   ///< p blocks of n elements, block q for or from rank q: p·n
  own_block,  ///< the v-variants: this rank's own block, as the counts give it
  blocks,     ///< the v-variants: p blocks laid out by counts (and displacements), their sum
};

/// One of a call's two buffers.
enum class data_buffer : std::uint8_t { none, send, recv };

/// The argument whose counts lay out a v-variant's blocks (with the displacements of the same buffer,
/// where the collective takes them).
enum class counts_argument : std::uint8_t { none, send_counts, recv_counts };

/// One buffer of a collective: its extent at the root and on the other ranks (the same for the
/// collectives without a root); for `blocks`, which counts lay them out.
struct buffer_shape {
  buffer_extent at_root;
  buffer_extent elsewhere;
  counts_argument laid_out_by = counts_argument::none;

  constexpr buffer_extent on(bool is_root) const { return is_root ? at_root : elsewhere; }
  /// Used at the root only, ignored elsewhere (neither checked nor passed on): scatter's send, ...
  constexpr bool root_only() const {
    return at_root != buffer_extent::none && elsewhere == buffer_extent::none;
  }
  /// Passed on some rank: false for broadcast's send (its one buffer is recv) and barrier's.
  constexpr bool used() const { return at_root != buffer_extent::none || elsewhere != buffer_extent::none; }
};

/// The same extent on every rank.
constexpr buffer_shape everywhere(buffer_extent e, counts_argument by = counts_argument::none) {
  return {e, e, by};
}

/// What a rank's recv holds after the call: one contribution (or p, block q from rank q), each
/// either a whole input or the receiver's block of it (collective_descriptor::takes_own_block).
enum class recv_contents : std::uint8_t {
  nothing,           ///< barrier; a root-only recv on the other ranks
  root_input,        ///< the root's input: broadcast, scatter, scatterv
  every_input,       ///< p blocks, block q from rank q's input: gather, allgather, alltoall and v
  reduction,         ///< every rank's input combined in rank order
  inclusive_prefix,  ///< the inputs of ranks 0…rank combined: scan
  exclusive_prefix,  ///< the inputs of ranks 0…rank−1 combined; rank 0's left as it was: exscan
};

/// The bus bandwidth's factor on the algorithm bandwidth (nccl-tests' busbw).
enum class bus_share : std::uint8_t {
  none,               ///< 0: no data (barrier)
  whole,              ///< 1
  all_but_own,        ///< (p − 1)/p
  twice_all_but_own,  ///< 2(p − 1)/p: allreduce
};

struct collective_descriptor {
  collective coll;
  std::string_view name;  ///< to_string's spelling
  bool has_root = false;
  bool reduces = false;            ///< takes an op: combines the ranks' contributions
  bool is_v_variant = false;       ///< counts (and displacements) per rank
  bool has_in_place_form = false;  ///< the same range as send and recv means in place
  /// A size in bytes (collbench's, automatic's key) counts the whole array of p blocks, not one
  /// rank's vector: the block collectives (whose calls pass one block) and the v-variants.
  bool counts_whole_array = false;
  bool time_only = false;  ///< moves no data: barrier
  /// Every rank knows the call's size alike: false where the counts live on one rank (gatherv,
  /// scatterv) or differ between ranks (alltoallv).
  bool size_known_alike = true;
  buffer_shape send = {buffer_extent::none, buffer_extent::none};
  buffer_shape recv = {buffer_extent::none, buffer_extent::none};
  /// The buffer whose size gives n: its extent is n (or own_block), p_blocks (n is its size / p,
  /// which must divide), or blocks (alltoallv: n is the send layout's total); none for barrier.
  data_buffer n_from = data_buffer::none;
  /// Validation's reason for the other buffer's size, when it is not n_from's: the "(…)" of
  /// "expected 8 elements (p blocks of send's size), given 6". Empty for the v-variants.
  std::string_view size_rule = {};
  /// v-variants: the layouts take displacements (else the blocks are packed in rank order).
  bool with_displacements = false;
  bool recv_is_input_at_root = false;  ///< the root sends from recv: broadcast
  recv_contents result = recv_contents::nothing;
  /// Each contribution to recv is the receiver's block of its sender's input (scatter,
  /// reduce_scatter, alltoall and their v-variants), not the whole input.
  bool takes_own_block = false;
  bus_share bus = bus_share::none;
};

namespace collective_rows {
using e = buffer_extent;
using c = counts_argument;
using b = data_buffer;
using r = recv_contents;
using s = bus_share;
inline constexpr buffer_shape none = everywhere(e::none), n = everywhere(e::n),
                              p_blocks = everywhere(e::p_blocks), own = everywhere(e::own_block);
}  // namespace collective_rows

// clang-format off
/// Row i describes collective i.
inline constexpr std::array<collective_descriptor, collective_count> collectives_table = [] {
  using namespace collective_rows;
  using enum collective;
  return std::array<collective_descriptor, collective_count>{{
      {.coll = broadcast, .name = "broadcast", .has_root = true,
       .recv = n, .n_from = b::recv, .recv_is_input_at_root = true, .result = r::root_input, .bus = s::whole},
      {.coll = scatter, .name = "scatter", .has_root = true, .counts_whole_array = true,
       .send = {e::p_blocks, e::none}, .recv = n, .n_from = b::recv,
       .size_rule = "p blocks of recv's size at the root",
       .result = r::root_input, .takes_own_block = true, .bus = s::all_but_own},
      {.coll = gather, .name = "gather", .has_root = true, .counts_whole_array = true,
       .send = n, .recv = {e::p_blocks, e::none}, .n_from = b::send,
       .size_rule = "p blocks of send's size at the root",
       .result = r::every_input, .bus = s::all_but_own},
      {.coll = reduce, .name = "reduce", .has_root = true, .reduces = true,
       .send = n, .recv = {e::n, e::none}, .n_from = b::send, .size_rule = "the size of send, at the root",
       .result = r::reduction, .bus = s::whole},
      {.coll = allgather, .name = "allgather", .counts_whole_array = true,
       .send = n, .recv = p_blocks, .n_from = b::send, .size_rule = "p blocks of send's size",
       .result = r::every_input, .bus = s::all_but_own},
      {.coll = reduce_scatter, .name = "reduce_scatter", .reduces = true, .counts_whole_array = true,
       .send = p_blocks, .recv = n, .n_from = b::recv, .size_rule = "p blocks of recv's size",
       .result = r::reduction, .takes_own_block = true, .bus = s::all_but_own},
      {.coll = alltoall, .name = "alltoall", .counts_whole_array = true,
       .send = p_blocks, .recv = p_blocks, .n_from = b::send, .size_rule = "the size of send",
       .result = r::every_input, .takes_own_block = true, .bus = s::all_but_own},
      {.coll = allreduce, .name = "allreduce", .reduces = true, .has_in_place_form = true,
       .send = n, .recv = n, .n_from = b::send, .size_rule = "the size of send",
       .result = r::reduction, .bus = s::twice_all_but_own},
      {.coll = barrier, .name = "barrier", .time_only = true},
      {.coll = scan, .name = "scan", .reduces = true, .has_in_place_form = true,
       .send = n, .recv = n, .n_from = b::send, .size_rule = "the size of send",
       .result = r::inclusive_prefix, .bus = s::whole},
      {.coll = exscan, .name = "exscan", .reduces = true, .has_in_place_form = true,
       .send = n, .recv = n, .n_from = b::send, .size_rule = "the size of send",
       .result = r::exclusive_prefix, .bus = s::whole},
      {.coll = gatherv, .name = "gatherv", .has_root = true, .is_v_variant = true,
       .counts_whole_array = true, .size_known_alike = false,
       .send = own, .recv = {e::blocks, e::none, c::recv_counts}, .n_from = b::send,
       .with_displacements = true, .result = r::every_input, .bus = s::all_but_own},
      {.coll = scatterv, .name = "scatterv", .has_root = true, .is_v_variant = true,
       .counts_whole_array = true, .size_known_alike = false,
       .send = {e::blocks, e::none, c::send_counts}, .recv = own, .n_from = b::recv,
       .with_displacements = true, .result = r::root_input, .takes_own_block = true, .bus = s::all_but_own},
      {.coll = allgatherv, .name = "allgatherv", .is_v_variant = true, .counts_whole_array = true,
       .send = own, .recv = everywhere(e::blocks, c::recv_counts), .n_from = b::send,
       .with_displacements = true, .result = r::every_input, .bus = s::all_but_own},
      {.coll = alltoallv, .name = "alltoallv", .is_v_variant = true, .counts_whole_array = true,
       .size_known_alike = false, .send = everywhere(e::blocks, c::send_counts),
       .recv = everywhere(e::blocks, c::recv_counts), .n_from = b::send,
       .with_displacements = true, .result = r::every_input, .takes_own_block = true, .bus = s::all_but_own},
      // MPI_Reduce_scatter: recv_counts lay out the send vector, packed in rank order.
      {.coll = reduce_scatterv, .name = "reduce_scatterv", .reduces = true, .is_v_variant = true,
       .counts_whole_array = true,
       .send = everywhere(e::blocks, c::recv_counts), .recv = own, .n_from = b::recv,
       .result = r::reduction, .takes_own_block = true, .bus = s::all_but_own},
  }};
}();
// clang-format on

/// The row of collective `c`.
constexpr const collective_descriptor& descriptor_of(collective c) {
  return collectives_table[static_cast<std::size_t>(c)];
}

/// A buffer's size in elements on one rank: `own` is this rank's block of the counts, `blocks_total`
/// the sum of the blocks that lay the buffer out (both for the v-variants only).
constexpr std::size_t elements_in(buffer_extent e, std::size_t p, std::size_t n, std::size_t own = 0,
                                  std::size_t blocks_total = 0) {
  switch (e) {
    case buffer_extent::none:
      return 0;
    case buffer_extent::n:
      return n;
    case buffer_extent::p_blocks:
      return p * n;
    case buffer_extent::own_block:
      return own;
    case buffer_extent::blocks:
      return blocks_total;
  }
  return 0;
}

/// The shape of `which` of collective `d`.
constexpr const buffer_shape& shape_of(const collective_descriptor& d, data_buffer which) {
  return which == data_buffer::send ? d.send : d.recv;
}

/// The v-variants whose send and recv both hold p blocks have counts per pair of ranks (alltoallv):
/// a rank's send counts are a row of the p×p matrix, its recv counts a column.
constexpr bool counts_per_pair(const collective_descriptor& d) {
  return d.send.at_root == buffer_extent::blocks && d.recv.at_root == buffer_extent::blocks;
}

namespace collective_rows {
constexpr bool well_formed() {
  for (std::size_t i = 0; i < collective_count; ++i) {
    const collective_descriptor& d = collectives_table[i];
    if (static_cast<std::size_t>(d.coll) != i || d.name.empty()) return false;
    // Without a root every rank is alike; a v-variant has blocks somewhere, the others none.
    const bool alike = d.send.at_root == d.send.elsewhere && d.recv.at_root == d.recv.elsewhere;
    if (!d.has_root && !alike) return false;
    const bool v_extents = d.send.at_root >= e::own_block || d.recv.at_root >= e::own_block;
    if (v_extents != d.is_v_variant) return false;
    // n comes from a buffer every rank passes alike.
    const buffer_shape& from = shape_of(d, d.n_from);
    if (d.n_from != b::none && (from.at_root != from.elsewhere || from.at_root == e::none)) return false;
    if ((d.n_from == b::none) != d.time_only) return false;
  }
  return true;
}
static_assert(well_formed(), "collectives_table: row i is collective i, with consistent extents");
}  // namespace collective_rows

}  // namespace collectives::detail
