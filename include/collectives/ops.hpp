// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <functional>
#include <type_traits>

namespace collectives {

/// Reduction operations: plain function objects, written `ops::sum{}`, that work for any T
/// having the operator. All of them are commutative. Any other callable `T(const T&, const T&)`
/// may be used too; it counts as non-commutative unless its type declares
/// `static constexpr bool commutative = true`.
namespace ops {

// Each op is constrained on its expression, so "does T have this operator?" is answerable
// at compile time (std::is_invocable) instead of failing inside the body.
#define COLLECTIVES_BINARY_OP(name, expr)                                                 \
  struct name {                                                                           \
    static constexpr bool commutative = true;                                             \
    template <class T>                                                                    \
    requires requires(const T& a, const T& b) { static_cast<T>(expr); }                   \
    constexpr T operator()(const T& a, const T& b) const { return static_cast<T>(expr); } \
  }

COLLECTIVES_BINARY_OP(sum, a + b);
COLLECTIVES_BINARY_OP(prod, (a * b));
COLLECTIVES_BINARY_OP(min, b < a ? b : a);
COLLECTIVES_BINARY_OP(max, a < b ? b : a);
COLLECTIVES_BINARY_OP(bit_and, (a & b));
COLLECTIVES_BINARY_OP(bit_or, a | b);
COLLECTIVES_BINARY_OP(bit_xor, a ^ b);
COLLECTIVES_BINARY_OP(logical_and, (a && b));
COLLECTIVES_BINARY_OP(logical_or, a || b);
COLLECTIVES_BINARY_OP(logical_xor, !a != !b);

#undef COLLECTIVES_BINARY_OP

}  // namespace ops

namespace detail {

/// The built-in operations the library has compiled kernels and MPI_Ops for.
enum class builtin_op {
  none,
  sum,
  prod,
  min,
  max,
  bit_and,
  bit_or,
  bit_xor,
  logical_and,
  logical_or,
  logical_xor
};

template <class Op>
struct builtin_op_of : std::integral_constant<builtin_op, builtin_op::none> {};

#define COLLECTIVES_RECOGNISE(type, id) \
  template <>                           \
  struct builtin_op_of<type> : std::integral_constant<builtin_op, builtin_op::id> {}
COLLECTIVES_RECOGNISE(ops::sum, sum);
COLLECTIVES_RECOGNISE(ops::prod, prod);
COLLECTIVES_RECOGNISE(ops::min, min);
COLLECTIVES_RECOGNISE(ops::max, max);
COLLECTIVES_RECOGNISE(ops::bit_and, bit_and);
COLLECTIVES_RECOGNISE(ops::bit_or, bit_or);
COLLECTIVES_RECOGNISE(ops::bit_xor, bit_xor);
COLLECTIVES_RECOGNISE(ops::logical_and, logical_and);
COLLECTIVES_RECOGNISE(ops::logical_or, logical_or);
COLLECTIVES_RECOGNISE(ops::logical_xor, logical_xor);
COLLECTIVES_RECOGNISE(std::plus<>, sum);
COLLECTIVES_RECOGNISE(std::multiplies<>, prod);
COLLECTIVES_RECOGNISE(std::bit_and<>, bit_and);
COLLECTIVES_RECOGNISE(std::bit_or<>, bit_or);
COLLECTIVES_RECOGNISE(std::bit_xor<>, bit_xor);
COLLECTIVES_RECOGNISE(std::logical_and<>, logical_and);
COLLECTIVES_RECOGNISE(std::logical_or<>, logical_or);
#undef COLLECTIVES_RECOGNISE

// The typed standard functors (std::plus<int>, ...) are recognised too.
template <class T>
struct builtin_op_of<std::plus<T>> : builtin_op_of<std::plus<>> {};
template <class T>
struct builtin_op_of<std::multiplies<T>> : builtin_op_of<std::multiplies<>> {};
template <class T>
struct builtin_op_of<std::bit_and<T>> : builtin_op_of<std::bit_and<>> {};
template <class T>
struct builtin_op_of<std::bit_or<T>> : builtin_op_of<std::bit_or<>> {};
template <class T>
struct builtin_op_of<std::bit_xor<T>> : builtin_op_of<std::bit_xor<>> {};
template <class T>
struct builtin_op_of<std::logical_and<T>> : builtin_op_of<std::logical_and<>> {};
template <class T>
struct builtin_op_of<std::logical_or<T>> : builtin_op_of<std::logical_or<>> {};

template <class Op>
concept declares_commutative = requires {
  Op::commutative;
};

/// A typed standard functor (std::plus<U>, ...) computes in U: it is the built-in op only for
/// elements of type U itself; std::plus<int> over doubles truncates like the functor does.
template <class Op, class T>
struct functor_computes_in : std::true_type {};
template <template <class> class F, class U, class T>
struct functor_computes_in<F<U>, T> : std::bool_constant<std::is_void_v<U> || std::is_same_v<U, T>> {};

/// The built-in op that `Op` is for elements of type T, or none.
template <class Op, class T>
inline constexpr builtin_op builtin_op_for =
    functor_computes_in<Op, T>::value ? builtin_op_of<Op>::value : builtin_op::none;

}  // namespace detail

/// Traits of a reduction functor. `commutative` is true for the built-in ops and the standard
/// functors, for any type that declares `static constexpr bool commutative = true`, and false
/// otherwise. The library relies on a built-in op's commutativity only for arithmetic element
/// types (those with a compiled kernel): on a user type, `ops::prod` or `std::multiplies<>` call
/// the type's own operator, which may not commute (a matrix product), so there they count as
/// non-commutative; a functor of the user's that declares `commutative` is believed.
template <class Op>
struct op_traits {
  static constexpr bool commutative = [] {
    if constexpr (detail::builtin_op_of<Op>::value != detail::builtin_op::none)
      return true;
    else if constexpr (detail::declares_commutative<Op>)
      return static_cast<bool>(Op::commutative);
    else
      return false;
  }();
};

}  // namespace collectives
