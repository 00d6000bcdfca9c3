// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// MPI datatypes and ops as the library sees them: bytes, an element size and a reduction.
//
// - Data whose elements lie back to back (extent = true extent = size: every predefined type
//   but the pair types with padding, and contiguous derived types) is used where it lies.
// - Any other datatype (a vector with a stride, MPI_DOUBLE_INT with its padding, a struct) is
//   packed into a contiguous copy with MPI_Pack before the collective and unpacked with
//   MPI_Unpack after it: local copies, no messages.
// - A predefined op on a predefined type MPI defines it for uses the library's compiled kernel
//   when there is one; every other valid pair (MINLOC/MAXLOC on the pair types, logical ops on
//   MPI_C_BOOL, a user MPI_Op on anything) is applied with MPI_Reduce_local. Commutativity comes
//   from MPI_Op_commutative.
// - What MPI would answer for a predefined datatype or op (its size and extents, which predefined
//   ops apply to it, the library's kernel for each) is asked once per process and kept in a table
//   keyed by handle: predefined handles never change. A derived datatype or a user op is asked of
//   MPI on every call, since its handle can be freed and reused for another type or op.

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "collectives/detail/request.hpp"

namespace collectives::pmpi {

struct predefined_type;

/// How `count` elements of an MPI datatype lie in memory.
struct layout {
  MPI_Datatype type;
  std::size_t size;  ///< bytes of data per element (MPI_Type_size)
  MPI_Aint true_lb;
  MPI_Aint true_extent;
  MPI_Aint extent;
  bool contiguous;  ///< count elements are count·size bytes starting at buf + true_lb
  /// The table's entry when `type` is a predefined datatype, else null.
  const predefined_type* predefined = nullptr;
};

/// MPI's predefined ops, in the order of predefined_type::on (MPI_SUM first: the commonest).
inline constexpr std::size_t predefined_op_count = 14;
extern const std::array<MPI_Op, predefined_op_count> predefined_op_handles;

/// One predefined op on one predefined datatype.
struct op_on_type {
  bool defined;               ///< MPI defines the op on the type (MPI 4.0 §6.9.2)
  detail::combine_fn kernel;  ///< the library's kernel, or null: MPI_Reduce_local
  detail::builtin_op id;
};

/// What never changes for a predefined datatype: its layout, and what each predefined op does on it.
struct predefined_type {
  layout l;                                        ///< l.predefined points here
  detail::builtin_type builtin;                    ///< the kernels' element type, or none
  std::array<op_on_type, predefined_op_count> on;  ///< all undefined for MPI_CHAR, MPI_PACKED, …
};

/// Every predefined datatype by handle (open addressing; handles never change, so it is made once,
/// at the first collective call, and only read after).
struct predefined_types {
  static constexpr unsigned slot_bits = 8;
  std::vector<predefined_type> types;  ///< reserved up front: slots point into it
  std::array<const predefined_type*, std::size_t{1} << slot_bits> slots{};

  /// A handle as an integer: a pointer in Open MPI, an int in MPICH.
  template <class Handle>
  static std::uintptr_t bits(Handle h) {
    if constexpr (std::is_pointer_v<Handle>)
      return reinterpret_cast<std::uintptr_t>(h);
    else
      return static_cast<std::uintptr_t>(h);
  }
  static std::size_t slot_of(MPI_Datatype t) {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(bits(t)) * 0x9E3779B97F4A7C15ull) >>
                                    (64 - slot_bits));
  }
  const predefined_type* find(MPI_Datatype t) const {
    for (std::size_t i = slot_of(t);; i = (i + 1) % slots.size())
      if (const predefined_type* p = slots[i]; p == nullptr || p->l.type == t) return p;
  }
};
const predefined_types& make_predefined_types();
inline const predefined_types& predefined_type_table() {
  static const predefined_types& t = make_predefined_types();
  return t;
}

/// What MPI says of `type` now (MPI_Type_size, MPI_Type_get_true_extent, MPI_Type_get_extent).
layout ask_mpi(MPI_Datatype type);

/// The layout of no datatype: a buffer the call does not use on this rank.
inline constexpr layout no_layout{};

/// Packing and unpacking of non-contiguous data (MPI_Pack, MPI_Unpack), out of line.
void unpack_output(void* buf, std::size_t count, const layout& l, const std::vector<std::byte>& scratch,
                   MPI_Comm comm);
/// A copy of the bytes of `count` elements at `buf` in `scratch`: packed where `l` is not contiguous.
const std::byte* copy_input(const void* buf, std::size_t count, const layout& l,
                            std::vector<std::byte>& scratch, MPI_Comm comm);

/// After the library wrote the bytes of `count` elements destined for `buf` into `scratch` (where
/// `l` is not contiguous): unpacks them into `buf`.
inline void store_output(void* buf, std::size_t count, const layout& l, const std::vector<std::byte>& scratch,
                         MPI_Comm comm) {
  if (!l.contiguous) [[unlikely]]
    unpack_output(buf, count, l, scratch, comm);
}

/// A reduction the library can run for (op, datatype), with what it needs kept alive.
struct mapped_reduction {
  detail::reduction red;
  detail::element_type elem;
  /// For MPI_Reduce_local: the op, the type and its layout (red.state points here).
  struct local_state {
    MPI_Op op;
    layout l;
    MPI_Comm comm;
  } local;
  const char* how;  ///< "kernel" or "MPI_Reduce_local", for messages
};

/// The index of `op` in predefined_op_handles, or -1 for a user op.
inline int predefined_op_index(MPI_Op op) {
  for (std::size_t i = 0; i < predefined_op_count; ++i)
    if (predefined_op_handles[i] == op) return static_cast<int>(i);
  return -1;
}

/// map_reduction for everything but a predefined op with a kernel on a predefined datatype.
bool map_reduction_general(MPI_Op op, const layout& l, MPI_Comm comm, mapped_reduction& out);

/// The reduction for `op` over `l` (true), or false when the call is to be forwarded: a
/// predefined op on a datatype MPI does not define it for (the MPI library then decides).
/// `out` must not move while the library uses it (red.state points into it).
inline bool map_reduction(MPI_Op op, const layout& l, MPI_Comm comm, mapped_reduction& out) {
  if (l.predefined != nullptr) [[likely]] {
    // Every predefined op is commutative (MPI 4.0 §6.9.2), as MPI_Op_commutative says of them.
    if (const int i = predefined_op_index(op); i >= 0) {
      const op_on_type& o = l.predefined->on[static_cast<std::size_t>(i)];
      if (o.kernel != nullptr) [[likely]] {
        out.elem = {l.size, l.predefined->builtin};
        out.red = {o.kernel, nullptr, true, o.id};
        out.how = "kernel";
        return true;
      }
    }
  }
  return map_reduction_general(op, l, comm, out);
}

/// True for MPI's predefined ops (MPI_SUM … MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP).
inline bool is_predefined_op(MPI_Op op) { return predefined_op_index(op) >= 0; }

}  // namespace collectives::pmpi
