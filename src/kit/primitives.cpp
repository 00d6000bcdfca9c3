// SPDX-License-Identifier: BSD-3-Clause
#include "kit/primitives.hpp"

#include <algorithm>
#include <cstring>

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

}  // namespace collectives::detail
