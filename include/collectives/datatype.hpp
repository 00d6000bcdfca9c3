// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <complex>
#include <concepts>
#include <cstddef>
#include <type_traits>

namespace collectives {
namespace detail {

/// Element types with a compiled reduction kernel and a predefined MPI datatype. Every other
/// trivially copyable type travels as plain bytes and is reduced by a thunk over the user's op.
enum class builtin_type { none, i8, u8, i16, u16, i32, u32, i64, u64, f32, f64, f80, c32, c64 };

template <class T>
constexpr builtin_type builtin_type_of() {
  if constexpr (std::is_enum_v<T>) {
    return builtin_type_of<std::underlying_type_t<T>>();
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    constexpr bool s = std::is_signed_v<T>;
    switch (sizeof(T)) {
      case 1:
        return s ? builtin_type::i8 : builtin_type::u8;
      case 2:
        return s ? builtin_type::i16 : builtin_type::u16;
      case 4:
        return s ? builtin_type::i32 : builtin_type::u32;
      case 8:
        return s ? builtin_type::i64 : builtin_type::u64;
      default:
        return builtin_type::none;
    }
  } else if constexpr (std::is_same_v<T, float>) {
    return builtin_type::f32;
  } else if constexpr (std::is_same_v<T, double>) {
    return builtin_type::f64;
  } else if constexpr (std::is_same_v<T, long double>) {
    return builtin_type::f80;
  } else if constexpr (std::is_same_v<T, std::complex<float>>) {
    return builtin_type::c32;
  } else if constexpr (std::is_same_v<T, std::complex<double>>) {
    return builtin_type::c64;
  } else {
    return builtin_type::none;
  }
}

/// What the compiled library needs to know about an element type.
struct element_type {
  std::size_t size;   ///< bytes per element
  builtin_type type;  ///< none: a user type, moved as bytes
};

template <class T>
constexpr element_type element_type_of() {
  static_assert(!std::is_pointer_v<T>,
                "collectives: pointers cannot be sent; an address means nothing in another process");
  static_assert(std::is_trivially_copyable_v<T>,
                "collectives: elements travel as bytes, so the element type must be trivially copyable");
  return {sizeof(T), builtin_type_of<T>()};
}

}  // namespace detail
}  // namespace collectives
