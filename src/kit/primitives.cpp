// SPDX-License-Identifier: BSD-3-Clause
#include "kit/primitives.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace collectives::detail {

void combine_traced(const reduction& op, const void* lhs, void* inout, std::size_t count) {
  if (recording* r = active_recording()) {
    if (r->reduce(count)) op.combine(lhs, inout, count, op.state);
    return;
  }
  const double t0 = trace::now();
  op.combine(lhs, inout, count, op.state);
  trace::local(trace::kind::reduce, count, 0, t0, trace::now());
}

void swap_bytes_untraced(std::byte* a, std::byte* b, std::size_t bytes) {
  std::byte parked[256];
  while (bytes > 0) {
    const std::size_t n = std::min(bytes, sizeof parked);
    std::memcpy(parked, a, n);
    std::memcpy(a, b, n);
    std::memcpy(b, parked, n);
    a += n;
    b += n;
    bytes -= n;
  }
}

void swap_bytes_traced(std::byte* a, std::byte* b, std::size_t bytes) {
  if (recording* r = active_recording()) {
    if (r->copy(2 * bytes)) swap_bytes_untraced(a, b, bytes);
    return;
  }
  const double t0 = trace::now();
  swap_bytes_untraced(a, b, bytes);
  trace::local(trace::kind::copy, 2 * bytes, 1, t0, trace::now());
}

void copy_bytes_traced(void* to, const void* from, std::size_t bytes) {
  if (recording* r = active_recording()) {
    if (r->copy(bytes)) std::memmove(to, from, bytes);
    return;
  }
  const double t0 = trace::now();
  std::memmove(to, from, bytes);
  trace::local(trace::kind::copy, bytes, 1, t0, trace::now());
}

void recv_reduce(const transport& net, int source, std::byte* inout, std::byte* scratch, std::size_t count,
                 std::size_t elem_size, const reduction& op, peer_side side) {
  net.recv(source, scratch, count * elem_size);
  if (side == peer_side::lower) {
    combine(op, scratch, inout, count);
  } else {
    // inout ∘ received, computed in the scratch block and copied back.
    combine(op, inout, scratch, count);
    copy_bytes(inout, scratch, count * elem_size);
  }
}

void exchange_with_peers(const transport& net, std::span<const step_peer> peers, const void* out,
                         std::size_t out_bytes, int parts) {
  // Every message of the step both ways at most E (E is the same both ways between two ranks):
  // then no send waits, and no peer cuts its message into segments (transport::exchange cuts
  // only above E), so plain sends and receives meet whatever path each peer takes.
  const auto message = [&](const step_peer& peer) {
    return peer.out != nullptr ? std::pair<const void*, std::size_t>(peer.out, peer.out_bytes)
                               : std::pair<const void*, std::size_t>(out, out_bytes);
  };
  const bool all_eager = std::all_of(peers.begin(), peers.end(), [&](const step_peer& peer) {
    return net.sends_eagerly(peer.to, message(peer).second) && net.sends_eagerly(peer.from, peer.in_bytes);
  });
  if (!all_eager) {
    for (const step_peer& peer : peers) {
      const trace_blocks mark(peer.sent, peer.received, parts);
      const auto [buf, bytes] = message(peer);
      net.exchange(peer.to, buf, bytes, peer.from, peer.in, peer.in_bytes);
    }
    return;
  }
  for (const step_peer& peer : peers) {
    const trace_blocks mark(peer.sent, {}, parts);
    const auto [buf, bytes] = message(peer);
    net.send(peer.to, buf, bytes);
  }
  for (const step_peer& peer : peers) {
    const trace_blocks mark({}, peer.received, parts);
    net.recv(peer.from, peer.in, peer.in_bytes);
  }
}

void exchange_with_peers(const transport& net, std::span<const step_peer> peers, int parts) {
  exchange_with_peers(net, peers, nullptr, 0, parts);
}

}  // namespace collectives::detail
