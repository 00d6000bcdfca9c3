// SPDX-License-Identifier: BSD-3-Clause
#include "core/primitives.hpp"

namespace collectives::detail {

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
