// SPDX-License-Identifier: BSD-3-Clause
#include "pmpi/datatypes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>

#include "collectives/error.hpp"
#include "kit/transport.hpp"

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

// The library's op for each of predefined_op_handles; none: no kernel (MINLOC, MAXLOC, REPLACE, NO_OP).
constexpr std::array<builtin_op, predefined_op_count> predefined_op_ids{
    builtin_op::sum,        builtin_op::prod,        builtin_op::min,     builtin_op::max,
    builtin_op::bit_and,    builtin_op::bit_or,      builtin_op::bit_xor, builtin_op::logical_and,
    builtin_op::logical_or, builtin_op::logical_xor, builtin_op::none,    builtin_op::none,
    builtin_op::none,       builtin_op::none};

// Predefined datatypes the predefined ops do not apply to, kept for their layout only (the
// non-reducing collectives move them; a predefined op on them is forwarded: MPI decides).
std::vector<MPI_Datatype> other_predefined_types() {
  std::vector<MPI_Datatype> t{MPI_CHAR,
                              MPI_WCHAR,
                              MPI_PACKED,
                              MPI_C_COMPLEX,
                              MPI_CXX_BOOL,
                              MPI_CXX_FLOAT_COMPLEX,
                              MPI_CXX_DOUBLE_COMPLEX,
                              MPI_CXX_LONG_DOUBLE_COMPLEX,
                              MPI_CHARACTER};
  std::erase(t, MPI_DATATYPE_NULL);
  return t;
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

const std::array<MPI_Op, predefined_op_count> predefined_op_handles{
    MPI_SUM,  MPI_PROD, MPI_MIN,  MPI_MAX,    MPI_BAND,   MPI_BOR,     MPI_BXOR,
    MPI_LAND, MPI_LOR,  MPI_LXOR, MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP};

layout ask_mpi(MPI_Datatype type) {
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

const predefined_types& make_predefined_types() {
  static const predefined_types table = [] {
    predefined_types made;
    const std::vector<MPI_Datatype> others = other_predefined_types();
    made.types.reserve(named_types().size() + others.size());  // no reallocation: slots point in
    const auto add = [&](MPI_Datatype t, const named_type* named) {
      if (made.find(t) != nullptr) return;  // an alias of one already in (MPI_LONG_LONG = MPI_LONG_LONG_INT)
      predefined_type& p = made.types.emplace_back();
      p.l = ask_mpi(t);
      p.l.predefined = &p;
      p.builtin = named != nullptr ? builtin_of(*named, p.l.size) : builtin_type::none;
      for (std::size_t i = 0; i < predefined_op_count; ++i) {
        const bool defined = named != nullptr && defined_for(predefined_op_handles[i], named->k);
        p.on[i] = {defined, defined ? detail::builtin_kernel(p.builtin, predefined_op_ids[i]) : nullptr,
                   predefined_op_ids[i]};
      }
      std::size_t i = predefined_types::slot_of(t);
      while (made.slots[i] != nullptr) i = (i + 1) % made.slots.size();
      made.slots[i] = &p;
    };
    for (const named_type& n : named_types()) add(n.type, &n);
    for (MPI_Datatype o : others) add(o, nullptr);
    return made;
  }();
  return table;
}

const std::byte* copy_input(const void* buf, std::size_t count, const layout& l,
                            std::vector<std::byte>& scratch, MPI_Comm comm) {
  scratch.resize(count * l.size);
  if (l.contiguous) {
    if (count * l.size > 0) std::memcpy(scratch.data(), at(buf, l.true_lb), count * l.size);
  } else {
    pack(buf, count, l, scratch.data(), comm);
  }
  return scratch.data();
}

void unpack_output(void* buf, std::size_t count, const layout& l, const std::vector<std::byte>& scratch,
                   MPI_Comm comm) {
  unpack(scratch.data(), count, l, buf, comm);
}

bool map_reduction_general(MPI_Op op, const layout& l, MPI_Comm comm, mapped_reduction& out) {
  out.local = {op, l, comm};
  out.elem = {l.size, builtin_type::none};
  out.how = "MPI_Reduce_local";
  const int index = predefined_op_index(op);
  if (index < 0) {  // a user op: MPI_Reduce_local on any datatype, commutative as it was created
    int commutative = 0;
    check_mpi(MPI_Op_commutative(op, &commutative), "MPI_Op_commutative");
    out.red = {&reduce_local, &out.local, commutative != 0, builtin_op::none};
    return true;
  }
  // A predefined op: on a derived datatype, or one it is not defined on, MPI decides (forwarded).
  const predefined_type* type = l.predefined;
  if (type == nullptr || !type->on[static_cast<std::size_t>(index)].defined) return false;
  if (const detail::combine_fn kernel = type->on[static_cast<std::size_t>(index)].kernel) {
    out.elem = {l.size, type->builtin};
    out.red = {kernel, nullptr, true, type->on[static_cast<std::size_t>(index)].id};
    out.how = "kernel";
    return true;
  }
  out.red = {&reduce_local, &out.local, true, builtin_op::none};  // every predefined op commutes
  return true;
}

}  // namespace collectives::pmpi
