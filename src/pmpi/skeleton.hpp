// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The one path of every collective entry point (entry_points.cpp), parameterised by a description
// of its MPI function: a struct of its C arguments with f, comm, forward() (its PMPI_ call),
// shape(), buffers(), decision_counts() where `fastest` decides by counts, op, and plan(a) (its
// checks, in MPI's order, and how the library reaches each buffer: served_plan). A call, in order:
//   1. goes to PMPI_ from the entry point, unchecked, when its collective is `vendor` without a
//      report, when it comes from inside the library, or when `fastest` forwarded its shape last;
//   2. is served with this thread's last served request when it has that call's shape;
//   3. else is checked, then forwarded or served (chosen, packed, run, unpacked, remembered).
// The members in full, the steps, and why the skeleton adds no call and no indirection:
// docs/design.md, "The drop-in's path".

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "collectives/detail/request.hpp"
#include "pmpi/boundary.hpp"
#include "pmpi/checks.hpp"
#include "pmpi/memory.hpp"

namespace collectives::pmpi {

using bytes_t = std::vector<std::byte>;

/// How the library reaches one buffer of a served call.
enum class use : std::uint8_t {
  none,     ///< not at all: this rank passes nothing there (a non-root's side)
  read,     ///< reads its elements where they lie, or packed into scratch; writes nothing back
  copy,     ///< reads a copy of them (MPI_IN_PLACE: the input lies in the output buffer)
  write,    ///< writes where they lie, or into scratch that is unpacked into the buffer after
  update,   ///< reads and writes: where they lie, or a packed copy unpacked after (gaps keep their bytes)
  discard,  ///< writes into scratch that is dropped (the root's own block of an in-place scatter)
  recv,     ///< send side only: the receive side's bytes (the library's in-place form)
};

/// One buffer of a served call: `count` elements of `*l` at `buf` (a v-variant's: its blocks, by
/// `counts` and `displs`), and how the library reaches them. `l` is the table's or the call's
/// (arguments::describe).
struct side {
  use how = use::none;
  const void* buf = nullptr;
  std::size_t count = 0;
  const layout* l = &no_layout;
  const int* counts = nullptr;  ///< a v-variant's blocks on this side (where it is used), else null
  const int* displs = nullptr;  ///< null: packed in rank order (MPI_Reduce_scatter)

  /// Where the library finds or puts the bytes (null for none and recv): where they lie when the
  /// datatype is contiguous and the side is no copy, else scratch (scratch_bytes).
  [[gnu::always_inline]] std::byte* bytes(bytes_t& scratch, MPI_Comm comm) const {
    if (how == use::none || how == use::recv) return nullptr;
    if (l->contiguous && how != use::copy && how != use::discard) [[likely]]
      return static_cast<std::byte*>(const_cast<void*>(buf)) + l->true_lb;
    return scratch_bytes(scratch, comm);
  }
  [[gnu::noinline]] std::byte* scratch_bytes(bytes_t& scratch, MPI_Comm comm) const {
    if (how == use::write || how == use::discard) {
      scratch.resize(count * l->size);
      return scratch.data();
    }
    return const_cast<std::byte*>(copy_input(buf, count, *l, scratch, comm));  // packed where not contiguous
  }
  /// After the library ran: what it wrote into scratch, unpacked into the buffer.
  [[gnu::always_inline]] void store(const bytes_t& scratch, MPI_Comm comm) const {
    if (how == use::write || how == use::update)
      store_output(const_cast<void*>(buf), count, *l, scratch, comm);
  }
  /// The request's count for this side: elements of the datatype when the collective reduces,
  /// else bytes (the non-reducing collectives move bytes, so send and receive types may differ).
  [[gnu::always_inline]] std::size_t request_count(bool elements) const {
    if (how == use::none) return 0;
    return elements ? count : count * l->size;
  }
  /// Used where it lies (or not at all) with a datatype the library may take again unasked.
  [[gnu::always_inline]] bool reusable() const {
    return how == use::none || (how != use::copy && how != use::discard && plain(*l));
  }
  [[gnu::always_inline]] bool predefined() const { return how == use::none || l->predefined != nullptr; }
  /// This side's blocks as v_blocks (the library's, in bytes: in_bytes).
  v_blocks blocks() const { return {counts, displs, l}; }
};

/// What a served call's checks found (a description's plan): the sizes the report and the
/// decisions read, and how the library reaches each of its buffers.
struct served_plan {
  std::size_t bytes = 0;     ///< this rank's data, as the report counts it (outcome::bytes)
  std::size_t decide = 0;    ///< bytes every rank knows alike: `fastest` and choose decide by them
  std::size_t elements = 0;  ///< a reduction's count for choose (elements)
  std::size_t largest = 0;   ///< the largest block's bytes, for the v-variants that decide by counts
  int root = 0;
  side send{}, recv{};
};

/// The v-variants' blocks as the library takes them: in bytes, except a reduction's (MPI_Reduce_scatter:
/// its counts in elements, packed in rank order).
inline detail::block_arguments library_blocks(const served_plan& s, int p, bool elements) {
  detail::block_arguments blocks;
  if (s.send.how != use::none && s.send.counts != nullptr) {
    const v_arrays b = in_bytes(s.send.blocks(), p, 0);
    blocks.send_counts = b.counts;
    blocks.send_displs = b.displs;
  }
  if (s.recv.how == use::none || s.recv.counts == nullptr) return blocks;
  if (elements) {
    blocks.recv_counts = detail::make_index_array(std::span<const int>(s.recv.counts, sz(p)));
  } else {
    const v_arrays b = in_bytes(s.recv.blocks(), p, 1);
    blocks.recv_counts = b.counts;
    blocks.recv_displs = b.displs;
  }
  return blocks;
}

/// Step 1: true when the entry point forwards this call to PMPI_ at once.
template <class Call>
[[gnu::always_inline]] inline bool forwarded_at_entry(const Call& c) {
  if (forward_at_once(Call::f)) return true;
  if constexpr (requires { c.decision_counts(); })
    return forwarded_last_time(Call::f, c.comm, c.shape(), c.decision_counts());
  else
    return forwarded_last_time(Call::f, c.comm, c.shape());
}

/// Steps 2 and 3, inside at_boundary.
template <class Call>
[[gnu::always_inline]] inline outcome serve_call(const Call& c) {
  constexpr mpi_function f = Call::f;
  constexpr collective coll = info(f).coll;
  constexpr bool elements = detail::reduces(coll);
  const call_shape shape = c.shape();
  // The v-variants are never served from memory: what would be remembered is p counts long.
  if constexpr (!detail::is_v_variant(coll)) {
    const auto [sendbuf, recvbuf] = c.buffers();
    if (served_as_last_time(f, c.comm, shape, sendbuf, recvbuf)) [[likely]]
      return served_last_time(f);
  }
  const generations g;
  const arguments a(f, c.comm);
  if (a.inter) return forwarded(forward_reason::intercommunicator, 0, c.forward());
  const served_plan s = c.plan(a);
  const int* counts = nullptr;
  if constexpr (requires { c.decision_counts(); }) counts = c.decision_counts();
  // The datatypes whose sizes made `decide`: a v-variant's receive blocks' when it decides by its
  // counts (none when by the process count alone), every buffer's otherwise.
  const bool predefined = detail::is_v_variant(coll) ? counts == nullptr || s.recv.l->predefined != nullptr
                                                     : s.send.predefined() && s.recv.predefined();
  if (const auto why = to_vendor(a, shape, predefined, coll, s.decide, s.largest, counts))
    return forwarded(*why, s.bytes, c.forward());
  mapped_reduction m;
  if constexpr (elements)
    if (!map_reduction(c.op, *s.send.l, c.comm, m))
      return forwarded(forward_reason::op, s.bytes, c.forward());
  const selection alg = choose(coll, a.size, s.decide, elements ? s.elements : s.decide,
                               !elements || m.red.commutative, s.largest);
  bytes_t send_scratch, recv_scratch;
  const std::byte* send = s.send.bytes(send_scratch, c.comm);
  std::byte* const recv = s.recv.bytes(recv_scratch, c.comm);
  if (s.send.how == use::recv) send = recv;
  detail::block_arguments blocks;
  if constexpr (detail::is_v_variant(coll)) blocks = library_blocks(s, a.size, elements);
  constexpr detail::element_type byte_elements{1, detail::builtin_type::none};
  const detail::request r{coll,
                          send,
                          s.send.request_count(elements),
                          recv,
                          s.recv.request_count(elements),
                          elements ? m.elem : byte_elements,
                          elements ? &m.red : nullptr,
                          s.root,
                          c.comm,
                          alg,
                          detail::is_v_variant(coll) ? &blocks : nullptr};
  run_library(r);
  s.recv.store(recv_scratch, c.comm);
  if constexpr (!detail::is_v_variant(coll))
    remember_served(a, shape, s.send.reusable() && s.recv.reusable(), g, r, s.send.how == use::recv, s.bytes);
  return served(alg.alg, s.bytes);
}

/// Steps 2 and 3 out of line: the entry point itself is then a few instructions around its PMPI_
/// call when it forwards at once (no stack frame to set up for this path's locals).
template <class Call, class... Args>
[[gnu::noinline]] int serve(Args... args) {
  const Call c(args...);
  return at_boundary(Call::f, c.comm, [&] { return serve_call(c); });
}

/// An entry point: the description of this call, then the path above.
template <class Call, class... Args>
[[gnu::always_inline]] inline int enter(Args... args) {
  const Call c(args...);
  if (forwarded_at_entry(c)) return c.forward();
  return serve<Call>(args...);
}

}  // namespace collectives::pmpi
