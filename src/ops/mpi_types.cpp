// SPDX-License-Identifier: BSD-3-Clause
#include "ops/mpi_types.hpp"

#include <map>
#include <mutex>

#include "kit/transport.hpp"

namespace collectives::detail {
namespace {

bool is_integer(builtin_type t) { return t >= builtin_type::i8 && t <= builtin_type::u64; }
bool is_complex(builtin_type t) { return t == builtin_type::c32 || t == builtin_type::c64; }

// MPI defines SUM/PROD for every numeric type, MIN/MAX for the non-complex ones and the
// bitwise and logical ops for integers only; anything else gets a user-defined op.
MPI_Op predefined_op(builtin_op op, builtin_type t) {
  if (t == builtin_type::none) return MPI_OP_NULL;
  switch (op) {
    case builtin_op::sum:
      return MPI_SUM;
    case builtin_op::prod:
      return MPI_PROD;
    case builtin_op::min:
      return is_complex(t) ? MPI_OP_NULL : MPI_MIN;
    case builtin_op::max:
      return is_complex(t) ? MPI_OP_NULL : MPI_MAX;
    case builtin_op::bit_and:
      return is_integer(t) ? MPI_BAND : MPI_OP_NULL;
    case builtin_op::bit_or:
      return is_integer(t) ? MPI_BOR : MPI_OP_NULL;
    case builtin_op::bit_xor:
      return is_integer(t) ? MPI_BXOR : MPI_OP_NULL;
    case builtin_op::logical_and:
      return is_integer(t) ? MPI_LAND : MPI_OP_NULL;
    case builtin_op::logical_or:
      return is_integer(t) ? MPI_LOR : MPI_OP_NULL;
    case builtin_op::logical_xor:
      return is_integer(t) ? MPI_LXOR : MPI_OP_NULL;
    case builtin_op::none:
      return MPI_OP_NULL;
  }
  return MPI_OP_NULL;
}

// MPI_Op_create takes a plain function without user data: the reduction in use is passed
// through this thread-local while the vendor collective runs.
thread_local const reduction* active_reduction = nullptr;

void call_active_reduction(void* in, void* inout, int* len, MPI_Datatype*) {
  active_reduction->combine(in, inout, static_cast<std::size_t>(*len), active_reduction->state);
}

// The byte types, one per element size, created on first use and kept until MPI_Finalize.
std::mutex byte_types_mutex;
std::map<std::size_t, MPI_Datatype> byte_types;

// MPI_Finalize deletes MPI_COMM_SELF's attributes before anything else is torn down (MPI-3.1
// §8.7.1): an attribute there frees the byte types, so none outlives MPI (MPICH reports those
// that do as leaked handles).
int free_byte_types(MPI_Comm, int, void*, void*) {
  const std::lock_guard lock(byte_types_mutex);
  int code = MPI_SUCCESS;
  for (auto& [size, type] : byte_types)
    if (const int c = MPI_Type_free(&type); c != MPI_SUCCESS) code = c;
  byte_types.clear();
  return code;
}

void free_byte_types_at_finalize() {
  int keyval = MPI_KEYVAL_INVALID;
  check_mpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &free_byte_types, &keyval, nullptr),
            "MPI_Comm_create_keyval");
  check_mpi(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr), "MPI_Comm_set_attr");
}

}  // namespace

MPI_Datatype mpi_datatype(element_type elem) {
  switch (elem.type) {
    case builtin_type::i8:
      return MPI_INT8_T;
    case builtin_type::u8:
      return MPI_UINT8_T;
    case builtin_type::i16:
      return MPI_INT16_T;
    case builtin_type::u16:
      return MPI_UINT16_T;
    case builtin_type::i32:
      return MPI_INT32_T;
    case builtin_type::u32:
      return MPI_UINT32_T;
    case builtin_type::i64:
      return MPI_INT64_T;
    case builtin_type::u64:
      return MPI_UINT64_T;
    case builtin_type::f32:
      return MPI_FLOAT;
    case builtin_type::f64:
      return MPI_DOUBLE;
    case builtin_type::f80:
      return MPI_LONG_DOUBLE;
    case builtin_type::c32:
      return MPI_C_FLOAT_COMPLEX;
    case builtin_type::c64:
      return MPI_C_DOUBLE_COMPLEX;
    case builtin_type::none:
      break;
  }
  const std::lock_guard lock(byte_types_mutex);
  if (const auto it = byte_types.find(elem.size); it != byte_types.end()) return it->second;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  check_mpi(MPI_Type_contiguous(static_cast<int>(elem.size), MPI_BYTE, &type), "MPI_Type_contiguous");
  check_mpi(MPI_Type_commit(&type), "MPI_Type_commit");
  if (byte_types.empty()) free_byte_types_at_finalize();
  byte_types.emplace(elem.size, type);
  return type;
}

mpi_op::mpi_op(const reduction& red, element_type elem) : op_(predefined_op(red.op, elem.type)) {
  if (op_ != MPI_OP_NULL) return;
  check_mpi(MPI_Op_create(&call_active_reduction, red.commutative ? 1 : 0, &op_), "MPI_Op_create");
  created_ = true;
  active_reduction = &red;
}

mpi_op::~mpi_op() {
  if (!created_) return;
  active_reduction = nullptr;
  MPI_Op_free(&op_);
}

}  // namespace collectives::detail
