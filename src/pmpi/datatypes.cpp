#include "pmpi/datatypes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstring>

#include "collectives/error.hpp"
#include "core/transport.hpp"

namespace collectives::pmpi {
namespace {

using detail::builtin_op;
using detail::builtin_type;
using detail::check_mpi;

// MPI 4.0 §6.9.2 groups the predefined types by what the predefined ops may be applied to.
enum class kind { c_integer, fortran_integer, floating, complex, logical, byte, pair };

struct named_type {
  MPI_Datatype type;
  kind k;
  bool is_signed;
};

const std::vector<named_type>& named_types() {
  static const std::vector<named_type> table = [] {
    std::vector<named_type> t{
        {MPI_SIGNED_CHAR, kind::c_integer, true},
        {MPI_SHORT, kind::c_integer, true},
        {MPI_INT, kind::c_integer, true},
        {MPI_LONG, kind::c_integer, true},
        {MPI_LONG_LONG_INT, kind::c_integer, true},
        {MPI_LONG_LONG, kind::c_integer, true},
        {MPI_INT8_T, kind::c_integer, true},
        {MPI_INT16_T, kind::c_integer, true},
        {MPI_INT32_T, kind::c_integer, true},
        {MPI_INT64_T, kind::c_integer, true},
        {MPI_AINT, kind::c_integer, true},
        {MPI_OFFSET, kind::c_integer, true},
        {MPI_COUNT, kind::c_integer, true},
        {MPI_UNSIGNED_CHAR, kind::c_integer, false},
        {MPI_UNSIGNED_SHORT, kind::c_integer, false},
        {MPI_UNSIGNED, kind::c_integer, false},
        {MPI_UNSIGNED_LONG, kind::c_integer, false},
        {MPI_UNSIGNED_LONG_LONG, kind::c_integer, false},
        {MPI_UINT8_T, kind::c_integer, false},
        {MPI_UINT16_T, kind::c_integer, false},
        {MPI_UINT32_T, kind::c_integer, false},
        {MPI_UINT64_T, kind::c_integer, false},
        {MPI_INTEGER, kind::fortran_integer, true},
        {MPI_FLOAT, kind::floating, true},
        {MPI_DOUBLE, kind::floating, true},
        {MPI_LONG_DOUBLE, kind::floating, true},
        {MPI_REAL, kind::floating, true},
        {MPI_DOUBLE_PRECISION, kind::floating, true},
        {MPI_C_FLOAT_COMPLEX, kind::complex, true},
        {MPI_C_DOUBLE_COMPLEX, kind::complex, true},
        {MPI_C_LONG_DOUBLE_COMPLEX, kind::complex, true},
        {MPI_COMPLEX, kind::complex, true},
        {MPI_DOUBLE_COMPLEX, kind::complex, true},
        {MPI_C_BOOL, kind::logical, false},
        {MPI_LOGICAL, kind::logical, false},
        {MPI_BYTE, kind::byte, false},
        {MPI_FLOAT_INT, kind::pair, true},
        {MPI_DOUBLE_INT, kind::pair, true},
        {MPI_LONG_INT, kind::pair, true},
        {MPI_2INT, kind::pair, true},
        {MPI_SHORT_INT, kind::pair, true},
        {MPI_LONG_DOUBLE_INT, kind::pair, true},
        {MPI_2REAL, kind::pair, true},
        {MPI_2DOUBLE_PRECISION, kind::pair, true},
        {MPI_2INTEGER, kind::pair, true},
    };
    // A language binding the MPI library was built without leaves its types null.
    std::erase_if(t, [](const named_type& n) { return n.type == MPI_DATATYPE_NULL; });
    return t;
  }();
  return table;
}

const named_type* find_named(MPI_Datatype type) {
  for (const named_type& n : named_types())
    if (n.type == type) return &n;
  return nullptr;
}

// The library's element type for a predefined type, where it has a kernel for its kind and size.
builtin_type builtin_of(const named_type& n, std::size_t size) {
  switch (n.k) {
    case kind::c_integer:
    case kind::fortran_integer:
    case kind::byte:
      switch (size) {
        case 1:
          return n.is_signed ? builtin_type::i8 : builtin_type::u8;
        case 2:
          return n.is_signed ? builtin_type::i16 : builtin_type::u16;
        case 4:
          return n.is_signed ? builtin_type::i32 : builtin_type::u32;
        case 8:
          return n.is_signed ? builtin_type::i64 : builtin_type::u64;
        default:
          return builtin_type::none;
      }
    case kind::floating:
      if (n.type == MPI_LONG_DOUBLE)
        return size == sizeof(long double) ? builtin_type::f80 : builtin_type::none;
      return size == 4 ? builtin_type::f32 : size == 8 ? builtin_type::f64 : builtin_type::none;
    case kind::complex:
      if (n.type == MPI_C_LONG_DOUBLE_COMPLEX) return builtin_type::none;
      return size == 8 ? builtin_type::c32 : size == 16 ? builtin_type::c64 : builtin_type::none;
    case kind::logical:
    case kind::pair:
      return builtin_type::none;
  }
  return builtin_type::none;
}

struct predefined_op {
  MPI_Op op;
  builtin_op id;  ///< none: no kernel (MINLOC, MAXLOC, REPLACE, NO_OP)
};

const std::vector<predefined_op>& predefined_ops() {
  static const std::vector<predefined_op> table{
      {MPI_SUM, builtin_op::sum},        {MPI_PROD, builtin_op::prod},
      {MPI_MIN, builtin_op::min},        {MPI_MAX, builtin_op::max},
      {MPI_BAND, builtin_op::bit_and},   {MPI_BOR, builtin_op::bit_or},
      {MPI_BXOR, builtin_op::bit_xor},   {MPI_LAND, builtin_op::logical_and},
      {MPI_LOR, builtin_op::logical_or}, {MPI_LXOR, builtin_op::logical_xor},
      {MPI_MINLOC, builtin_op::none},    {MPI_MAXLOC, builtin_op::none},
      {MPI_REPLACE, builtin_op::none},   {MPI_NO_OP, builtin_op::none},
  };
  return table;
}

// Whether MPI defines predefined op `op` on types of kind `k` (MPI 4.0 §6.9.2).
bool defined_for(MPI_Op op, kind k) {
  if (op == MPI_MIN || op == MPI_MAX)
    return k == kind::c_integer || k == kind::fortran_integer || k == kind::floating;
  if (op == MPI_SUM || op == MPI_PROD)
    return k == kind::c_integer || k == kind::fortran_integer || k == kind::floating || k == kind::complex;
  if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) return k == kind::c_integer || k == kind::logical;
  if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
    return k == kind::c_integer || k == kind::fortran_integer || k == kind::byte;
  if (op == MPI_MINLOC || op == MPI_MAXLOC) return k == kind::pair;
  return false;  // MPI_REPLACE, MPI_NO_OP: one-sided only
}

const std::byte* at(const void* base, MPI_Aint offset) {
  return static_cast<const std::byte*>(base) + offset;
}
std::byte* at(void* base, MPI_Aint offset) { return static_cast<std::byte*>(base) + offset; }

// MPI_Pack and MPI_Unpack count in int: larger buffers go through in slices of whole elements.
std::size_t elements_per_slice(const layout& l) {
  return std::max<std::size_t>(1, static_cast<std::size_t>(INT_MAX) / std::max<std::size_t>(l.size, 1));
}

void pack(const void* buf, std::size_t count, const layout& l, std::byte* out, MPI_Comm comm) {
  for (std::size_t done = 0, slice = elements_per_slice(l); done < count; done += slice) {
    const std::size_t n = std::min(slice, count - done);
    int position = 0;
    check_mpi(MPI_Pack(at(buf, static_cast<MPI_Aint>(done) * l.extent), static_cast<int>(n), l.type,
                       out + done * l.size, static_cast<int>(n * l.size), &position, comm),
              "MPI_Pack");
    if (static_cast<std::size_t>(position) != n * l.size)
      throw error(
          fmt::format("collectives_mpi: MPI_Pack packed {} elements into {} bytes, not {} (a "
                      "heterogeneous MPI?)",
                      n, position, n * l.size));
  }
}

void unpack(const std::byte* in, std::size_t count, const layout& l, void* buf, MPI_Comm comm) {
  for (std::size_t done = 0, slice = elements_per_slice(l); done < count; done += slice) {
    const std::size_t n = std::min(slice, count - done);
    int position = 0;
    check_mpi(MPI_Unpack(in + done * l.size, static_cast<int>(n * l.size), &position,
                         at(buf, static_cast<MPI_Aint>(done) * l.extent), static_cast<int>(n), l.type, comm),
              "MPI_Unpack");
  }
}

// inout = lhs ∘ inout through MPI_Reduce_local, whose operand order is the same
// (inoutbuf = inbuf op inoutbuf). Packed data is unpacked into typed copies first.
void reduce_local(const void* lhs, void* inout, std::size_t count, const void* state) {
  const auto& s = *static_cast<const mapped_reduction::local_state*>(state);
  const layout& l = s.l;
  if (count == 0) return;
  if (!l.contiguous) {
    // Typed copies: element i lies at base + i·extent, its data from base + true_lb.
    const std::size_t span =
        (count - 1) * static_cast<std::size_t>(l.extent) + static_cast<std::size_t>(l.true_extent);
    std::vector<std::byte> a(span), b(span);
    void* base_a = at(a.data(), -l.true_lb);
    void* base_b = at(b.data(), -l.true_lb);
    unpack(static_cast<const std::byte*>(lhs), count, l, base_a, s.comm);
    unpack(static_cast<const std::byte*>(inout), count, l, base_b, s.comm);
    for (std::size_t done = 0, slice = elements_per_slice(l); done < count; done += slice) {
      const std::size_t n = std::min(slice, count - done);
      const MPI_Aint offset = static_cast<MPI_Aint>(done) * l.extent;
      check_mpi(MPI_Reduce_local(at(base_a, offset), at(base_b, offset), static_cast<int>(n), l.type, s.op),
                "MPI_Reduce_local");
    }
    pack(base_b, count, l, static_cast<std::byte*>(inout), s.comm);
    return;
  }
  for (std::size_t done = 0, slice = elements_per_slice(l); done < count; done += slice) {
    const std::size_t n = std::min(slice, count - done);
    const MPI_Aint offset = static_cast<MPI_Aint>(done * l.size) - l.true_lb;
    check_mpi(MPI_Reduce_local(at(lhs, offset), at(inout, offset), static_cast<int>(n), l.type, s.op),
              "MPI_Reduce_local");
  }
}

}  // namespace

layout describe(MPI_Datatype type) {
  layout l{type, 0, 0, 0, 0, false};
  int size = 0;
  MPI_Aint lb = 0;
  check_mpi(MPI_Type_size(type, &size), "MPI_Type_size");
  check_mpi(MPI_Type_get_true_extent(type, &l.true_lb, &l.true_extent), "MPI_Type_get_true_extent");
  check_mpi(MPI_Type_get_extent(type, &lb, &l.extent), "MPI_Type_get_extent");
  l.size = static_cast<std::size_t>(size);
  l.contiguous = static_cast<MPI_Aint>(l.size) == l.true_extent && l.extent == l.true_extent;
  return l;
}

const std::byte* input_bytes(const void* buf, std::size_t count, const layout& l,
                             std::vector<std::byte>& scratch, MPI_Comm comm) {
  if (l.contiguous) return at(buf, l.true_lb);
  scratch.resize(count * l.size);
  pack(buf, count, l, scratch.data(), comm);
  return scratch.data();
}

const std::byte* input_copy(const void* buf, std::size_t count, const layout& l,
                            std::vector<std::byte>& scratch, MPI_Comm comm) {
  scratch.resize(count * l.size);
  if (l.contiguous) {
    if (count * l.size > 0) std::memcpy(scratch.data(), at(buf, l.true_lb), count * l.size);
  } else {
    pack(buf, count, l, scratch.data(), comm);
  }
  return scratch.data();
}

std::byte* output_bytes(void* buf, std::size_t count, const layout& l, std::vector<std::byte>& scratch) {
  if (l.contiguous) return at(buf, l.true_lb);
  scratch.resize(count * l.size);
  return scratch.data();
}

void store_output(void* buf, std::size_t count, const layout& l, const std::vector<std::byte>& scratch,
                  MPI_Comm comm) {
  if (!l.contiguous) unpack(scratch.data(), count, l, buf, comm);
}

bool is_predefined_op(MPI_Op op) {
  const auto& ops = predefined_ops();
  return std::any_of(ops.begin(), ops.end(), [&](const predefined_op& p) { return p.op == op; });
}

bool map_reduction(MPI_Op op, const layout& l, MPI_Comm comm, mapped_reduction& out) {
  int commutative = 0;
  check_mpi(MPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
  out.local = {op, l, comm};
  out.elem = {l.size, builtin_type::none};
  out.red = {&reduce_local, &out.local, commutative != 0, builtin_op::none};
  out.how = "MPI_Reduce_local";
  const auto& ops = predefined_ops();
  const auto predefined =
      std::find_if(ops.begin(), ops.end(), [&](const predefined_op& p) { return p.op == op; });
  if (predefined == ops.end()) return true;  // a user op: MPI_Reduce_local on any datatype
  const named_type* named = find_named(l.type);
  if (named == nullptr || !defined_for(op, named->k)) return false;
  const builtin_type type = builtin_of(*named, l.size);
  if (detail::combine_fn kernel = detail::builtin_kernel(type, predefined->id)) {
    out.elem = {l.size, type};
    out.red = {kernel, nullptr, true, predefined->id};
    out.how = "kernel";
  }
  return true;
}

}  // namespace collectives::pmpi
