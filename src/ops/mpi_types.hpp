// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// MPI datatypes and MPI_Ops for the vendor variant.

#include <mpi.h>

#include "collectives/detail/request.hpp"

namespace collectives::detail {

/// The predefined MPI datatype of a built-in element type, or a committed contiguous byte type
/// of the element's size for any other type (created once per size, freed by MPI_Finalize).
MPI_Datatype mpi_datatype(element_type elem);

/// The MPI_Op for a reduction: MPI's predefined op where MPI defines it for the type, otherwise
/// an op created with MPI_Op_create around the reduction's block function (freed on scope exit).
/// While it lives, the created op may only be used by this thread.
class mpi_op {
 public:
  mpi_op(const reduction& red, element_type elem);
  ~mpi_op();
  mpi_op(const mpi_op&) = delete;
  mpi_op& operator=(const mpi_op&) = delete;

  MPI_Op get() const { return op_; }

 private:
  MPI_Op op_ = MPI_OP_NULL;
  bool created_ = false;
};

}  // namespace collectives::detail
