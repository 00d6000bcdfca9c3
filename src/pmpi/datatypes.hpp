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

#include <mpi.h>

#include <cstddef>
#include <optional>
#include <vector>

#include "collectives/detail/request.hpp"

namespace collectives::pmpi {

/// How `count` elements of an MPI datatype lie in memory.
struct layout {
  MPI_Datatype type;
  std::size_t size;  ///< bytes of data per element (MPI_Type_size)
  MPI_Aint true_lb;
  MPI_Aint true_extent;
  MPI_Aint extent;
  bool contiguous;  ///< count elements are count·size bytes starting at buf + true_lb
};

layout describe(MPI_Datatype type);

/// The bytes of `count` elements at `buf`: where they lie when contiguous, else packed into
/// `scratch`.
const std::byte* input_bytes(const void* buf, std::size_t count, const layout& l,
                             std::vector<std::byte>& scratch, MPI_Comm comm);

/// A copy of the bytes of `count` elements at `buf` in `scratch` (for MPI_IN_PLACE, where the
/// input lies in the output buffer).
const std::byte* input_copy(const void* buf, std::size_t count, const layout& l,
                            std::vector<std::byte>& scratch, MPI_Comm comm);

/// Where the collective writes the bytes of `count` elements destined for `buf`: `buf` itself
/// when contiguous, else `scratch` (then `store_output` unpacks it into `buf`).
std::byte* output_bytes(void* buf, std::size_t count, const layout& l, std::vector<std::byte>& scratch);
void store_output(void* buf, std::size_t count, const layout& l, const std::vector<std::byte>& scratch,
                  MPI_Comm comm);

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

/// The reduction for `op` over `l`, or std::nullopt when the call is to be forwarded: a
/// predefined op on a datatype MPI does not define it for (the MPI library then decides).
/// `out` must not move while the library uses it (red.state points into it).
bool map_reduction(MPI_Op op, const layout& l, MPI_Comm comm, mapped_reduction& out);

/// True for MPI's predefined ops (MPI_SUM … MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP).
bool is_predefined_op(MPI_Op op);

}  // namespace collectives::pmpi
