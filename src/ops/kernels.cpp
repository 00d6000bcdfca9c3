// SPDX-License-Identifier: BSD-3-Clause
// Compiled reduction kernels for the built-in (type × op) pairs: plain loops over
// non-overlapping arrays that the compiler vectorises. A user's functor or type goes through
// the header's thunk instead.

#include <complex>
#include <cstdint>
#include <type_traits>

#include "collectives/detail/request.hpp"

namespace collectives::detail {
namespace {

template <class T, class Op>
void kernel(const void* lhs, void* inout, std::size_t count, const void*) {
  const T* __restrict a = static_cast<const T*>(lhs);
  T* __restrict b = static_cast<T*>(inout);
  const Op op;
  for (std::size_t i = 0; i < count; ++i) b[i] = op(a[i], b[i]);
}

template <class T, class Op>
combine_fn kernel_if_defined() {
  if constexpr (std::is_invocable_v<const Op&, const T&, const T&>)
    return &kernel<T, Op>;
  else
    return nullptr;
}

template <class T>
combine_fn kernel_for(builtin_op op) {
  switch (op) {
    case builtin_op::sum:
      return kernel_if_defined<T, ops::sum>();
    case builtin_op::prod:
      return kernel_if_defined<T, ops::prod>();
    case builtin_op::min:
      return kernel_if_defined<T, ops::min>();
    case builtin_op::max:
      return kernel_if_defined<T, ops::max>();
    case builtin_op::bit_and:
      return kernel_if_defined<T, ops::bit_and>();
    case builtin_op::bit_or:
      return kernel_if_defined<T, ops::bit_or>();
    case builtin_op::bit_xor:
      return kernel_if_defined<T, ops::bit_xor>();
    case builtin_op::logical_and:
      return kernel_if_defined<T, ops::logical_and>();
    case builtin_op::logical_or:
      return kernel_if_defined<T, ops::logical_or>();
    case builtin_op::logical_xor:
      return kernel_if_defined<T, ops::logical_xor>();
    case builtin_op::none:
      return nullptr;
  }
  return nullptr;
}

}  // namespace

combine_fn builtin_kernel(builtin_type type, builtin_op op) {
  switch (type) {
    case builtin_type::i8:
      return kernel_for<std::int8_t>(op);
    case builtin_type::u8:
      return kernel_for<std::uint8_t>(op);
    case builtin_type::i16:
      return kernel_for<std::int16_t>(op);
    case builtin_type::u16:
      return kernel_for<std::uint16_t>(op);
    case builtin_type::i32:
      return kernel_for<std::int32_t>(op);
    case builtin_type::u32:
      return kernel_for<std::uint32_t>(op);
    case builtin_type::i64:
      return kernel_for<std::int64_t>(op);
    case builtin_type::u64:
      return kernel_for<std::uint64_t>(op);
    case builtin_type::f32:
      return kernel_for<float>(op);
    case builtin_type::f64:
      return kernel_for<double>(op);
    case builtin_type::f80:
      return kernel_for<long double>(op);
    case builtin_type::c32:
      return kernel_for<std::complex<float>>(op);
    case builtin_type::c64:
      return kernel_for<std::complex<double>>(op);
    case builtin_type::none:
      return nullptr;
  }
  return nullptr;
}

}  // namespace collectives::detail
