// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The checks the descriptions of entry_points.cpp share, in the order MPI states a function's
// arguments: one buffer's (count, datatype, MPI_IN_PLACE, a null buffer), a rooted call's, and a
// v-variant's count and displacement arrays, which are also summed and turned into the library's
// blocks (MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv, MPI_Alltoallv, MPI_Reduce_scatter).

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <string_view>

#include "collectives/detail/request.hpp"
#include "pmpi/boundary.hpp"

namespace collectives::pmpi {

inline std::size_t sz(int n) { return static_cast<std::size_t>(n); }

/// A span of elements as the int argument checks take it.
inline int span_int(std::size_t span) { return static_cast<int>(std::min<std::size_t>(span, INT_MAX)); }

/// How a function names one buffer's arguments in its messages (`count`: a v-variant's counts array).
struct names {
  std::string_view buf, count, type, displs = {};
};
inline constexpr names send_names{"sendbuf", "sendcount", "sendtype"};
inline constexpr names recv_names{"recvbuf", "recvcount", "recvtype"};

/// One buffer's checks (its count, its datatype, MPI_IN_PLACE where refused, a null buffer holding
/// data), and its layout.
inline const layout& checked(const arguments& a, const names& n, const void* buf, int count,
                             MPI_Datatype type, bool refuse_in_place) {
  a.count(n.count, count);
  a.type(n.type, type);
  if (refuse_in_place) a.not_in_place(n.buf, buf);
  const layout& l = a.describe(type);
  a.buffer(n.buf, buf, count, l);
  return l;
}

/// Where a rooted call stands after its root is checked: at the root, and with MPI_IN_PLACE as `buf`
/// (allowed at the root only; elsewhere refused when `refused_elsewhere`, else ignored with the buffer).
struct rooted {
  bool at_root, in_place;
};
inline rooted check_root(const arguments& a, int root, std::string_view name, const void* buf,
                         bool refused_elsewhere) {
  a.root(root);
  const bool at_root = a.rank == root;
  if (!at_root && refused_elsewhere) a.not_in_place(name, buf);
  return {at_root, at_root && buf == MPI_IN_PLACE};
}

/// A v-variant's MPI counts and displacements of elements of `*l` (displacements in its extent),
/// checked, and what the call needs of them: the bytes of all blocks and of the largest, and the
/// elements they span from the buffer.
struct v_blocks {
  const int* counts = nullptr;
  const int* displs = nullptr;  ///< null: packed in rank order (MPI_Reduce_scatter)
  const layout* l = &no_layout;
  std::size_t span = 0;
  std::size_t total = 0, largest = 0;  ///< bytes

  std::size_t count(int r) const { return sz(counts[r]) * l->size; }  ///< bytes
};

/// Checks `counts` (and `displs`, unless `displs_name` is empty) of a.size blocks of `l`.
v_blocks v_layout(const arguments& a, std::string_view counts_name, const int* counts,
                  std::string_view displs_name, const int* displs, const layout& l);

/// A v-variant's buffer of blocks: its datatype, MPI_IN_PLACE where refused, its counts and
/// displacements, a null buffer holding data.
inline v_blocks checked_v(const arguments& a, const names& n, const void* buf, const int* counts,
                          const int* displs, MPI_Datatype type, bool refuse_in_place) {
  a.type(n.type, type);
  if (refuse_in_place) a.not_in_place(n.buf, buf);
  const v_blocks b = v_layout(a, n.count, counts, n.displs, displs, a.describe(type));
  a.buffer(n.buf, buf, span_int(b.span), *b.l);
  return b;
}

/// `b`'s blocks as the library takes them: counts and displacements in bytes (the drop-in moves
/// bytes, so every rank counts alike whatever datatypes it passes; an empty block's displacement
/// 0, as MPI ignores it), written into this thread's arrays for `side` (0 or 1: alltoallv has
/// two), kept from call to call so that a served call allocates nothing for them once they are
/// large enough. Valid until this thread's next served call: the library reads them during the
/// call only.
struct v_arrays {
  detail::index_array counts, displs;
};
v_arrays in_bytes(const v_blocks& b, int p, int side);

}  // namespace collectives::pmpi
