// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The few verbs algorithms are written with, on top of the transport and the reduction kernel.

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <span>

#include "collectives/detail/request.hpp"
#include "kit/scratch.hpp"
#include "kit/trace.hpp"
#include "kit/transport.hpp"

namespace collectives::detail {

// The traced (or recorded, kit/recording.hpp) reduction and copy, out of line.
[[gnu::noinline]] void combine_traced(const reduction& op, const void* lhs, void* inout, std::size_t count);
[[gnu::noinline]] void copy_bytes_traced(void* to, const void* from, std::size_t bytes);
[[gnu::noinline]] void swap_bytes_traced(std::byte* a, std::byte* b, std::size_t bytes);
void swap_bytes_untraced(std::byte* a, std::byte* b, std::size_t bytes);

/// `inout = lhs ∘ inout`, element-wise, where `lhs` holds the lower ranks' contribution.
/// Traced (kit/trace.hpp): one event each, with the blocks of the trace_blocks in force.
inline void combine(const reduction& op, const void* lhs, void* inout, std::size_t count) {
  if (count == 0) return;
  if (trace::on()) [[unlikely]] {
    combine_traced(op, lhs, inout, count);
    return;
  }
  op.combine(lhs, inout, count, op.state);
}

inline void copy_bytes(void* to, const void* from, std::size_t bytes) {
  if (bytes == 0 || to == from) return;
  if (trace::on()) [[unlikely]] {
    copy_bytes_traced(to, from, bytes);
    return;
  }
  std::memmove(to, from, bytes);
}

/// Swaps two ranges of `bytes` bytes that do not overlap, with memcpy-speed copies through a
/// small buffer on the stack; traced as one copy of both ranges.
inline void swap_bytes(std::byte* a, std::byte* b, std::size_t bytes) {
  if (bytes == 0 || a == b) return;
  if (trace::on()) [[unlikely]] {
    swap_bytes_traced(a, b, bytes);
    return;
  }
  swap_bytes_untraced(a, b, bytes);
}

/// Rotates [first, last) left so that `middle` comes first, with memmove-speed copies (a
/// byte-wise std::rotate runs several times slower): the shorter of the two parts waits in
/// scratch while the longer one moves, so min(middle − first, last − middle) bytes of scratch
/// and that many plus (last − first) bytes copied.
inline void rotate_bytes(std::byte* first, std::byte* middle, std::byte* last) {
  const std::size_t front = static_cast<std::size_t>(middle - first),
                    back = static_cast<std::size_t>(last - middle);
  if (front == 0 || back == 0) return;
  const scratch parked = make_scratch(std::min(front, back));
  if (front <= back) {
    copy_bytes(parked.get(), first, front);
    copy_bytes(first, middle, back);
    copy_bytes(first + back, parked.get(), front);
  } else {
    copy_bytes(parked.get(), middle, back);
    copy_bytes(last - front, first, front);
    copy_bytes(first, parked.get(), back);
  }
}

/// Which side of `∘` the data received from a peer belongs on.
enum class peer_side {
  lower,   ///< the peer's data comes from lower ranks:  inout = received ∘ inout
  higher,  ///< the peer's data comes from higher ranks: inout = inout ∘ received
};

/// Receives `count` elements from `source` into `scratch` and folds them into `inout` on the
/// given side. `scratch` holds at least `count` elements.
void recv_reduce(const transport& net, int source, std::byte* inout, std::byte* scratch, std::size_t count,
                 std::size_t elem_size, const reduction& op, peer_side side);

/// A peer of one step of a radix-k exchange: the rank this rank sends to and the one it hears
/// from (the same rank in a pairing), where its message lands, and the blocks of the partition
/// into `parts` that each way carries (trace_blocks; empty where unknown). `out`, where set, is
/// the message this peer alone gets (`out_bytes`), in place of the step's shared one.
struct step_peer {
  int to, from;
  std::byte* in;
  std::size_t in_bytes;
  block_range sent = {}, received = {};
  const std::byte* out = nullptr;
  std::size_t out_bytes = 0;
};

/// One step of a radix-k exchange: `out` to every peer of `peers`, each peer's message into its
/// `in`. The peers come in the same order of patterns on every rank, each a pairing or a shift
/// (transport::exchange; for example rank XOR j·d, or rank ± j·d, for j = 1 … k − 1), so that one
/// exchange after another is deadlock-free whatever the sizes. When every message of the step,
/// sent or received, is at most E, every send leaves before any receive and the step pays one
/// latency instead of k − 1; otherwise the exchanges go one after the other (transport::exchange).
/// Peers may take either path in one step: a plain send meets an exchange's receive and back.
void exchange_with_peers(const transport& net, std::span<const step_peer> peers, const void* out,
                         std::size_t out_bytes, int parts);

/// The same step where every peer gets a message of its own (step_peer::out).
void exchange_with_peers(const transport& net, std::span<const step_peer> peers, int parts);

}  // namespace collectives::detail
