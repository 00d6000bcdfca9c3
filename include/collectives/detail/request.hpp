// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <mpi.h>

#include <concepts>
#include <cstddef>
#include <cstring>
#include <ranges>
#include <type_traits>

#include "collectives/algorithm.hpp"
#include "collectives/datatype.hpp"
#include "collectives/export.hpp"
#include "collectives/ops.hpp"

namespace collectives::detail {

/// `inout[i] = lhs[i] ∘ inout[i]` for i < count, where `lhs` holds the lower ranks' contribution.
using combine_fn = void (*)(const void* lhs, void* inout, std::size_t count, const void* state);

/// A type-erased reduction: a block function plus what the algorithms and the vendor path need.
struct reduction {
  combine_fn combine;
  const void* state;  ///< the user's functor, for the thunk; null for a compiled kernel
  bool commutative;
  builtin_op op;  ///< lets the vendor path use MPI's predefined MPI_Op where one exists
};

/// The compiled kernel for a built-in (type × op) pair, or nullptr when the library has none.
COLLECTIVES_EXPORT combine_fn builtin_kernel(builtin_type type, builtin_op op);

template <class T, class Op>
void combine_thunk(const void* lhs, void* inout, std::size_t count, const void* state) {
  const Op& op = *static_cast<const Op*>(state);
  if constexpr (alignof(T) > alignof(std::max_align_t)) {
    // Temporaries (the library's and the MPI library's) are only max_align_t-aligned: an
    // over-aligned T is copied into aligned locals instead of being referenced in place.
    const auto* a = static_cast<const std::byte*>(lhs);
    auto* b = static_cast<std::byte*>(inout);
    for (std::size_t i = 0; i < count; ++i, a += sizeof(T), b += sizeof(T)) {
      T x, y;
      std::memcpy(static_cast<void*>(&x), a, sizeof(T));
      std::memcpy(static_cast<void*>(&y), b, sizeof(T));
      const T result = static_cast<T>(op(x, y));
      std::memcpy(b, static_cast<const void*>(&result), sizeof(T));
    }
  } else {
    const T* a = static_cast<const T*>(lhs);
    T* b = static_cast<T*>(inout);
    for (std::size_t i = 0; i < count; ++i) b[i] = static_cast<T>(op(a[i], b[i]));
  }
}

/// `op` must outlive the returned descriptor (the collective call keeps it on its stack).
/// Commutative: a built-in op over an arithmetic type (compiled kernel), or a user functor that
/// declares it; a built-in op over a user type calls that type's operator, which may not commute.
template <class T, class Op>
reduction make_reduction(const Op& op) {
  static_assert(std::is_invocable_r_v<T, const Op&, const T&, const T&>,
                "collectives: the op must be callable as T(const T&, const T&) for the buffers' T");
  constexpr builtin_op id = builtin_op_for<Op, T>;
  constexpr builtin_type type = builtin_type_of<T>();
  if constexpr (id != builtin_op::none && type != builtin_type::none) {
    // Asked once per (T, Op), not per call: the library's kernel for the pair, or none.
    static const combine_fn kernel = builtin_kernel(type, id);
    if (kernel != nullptr) return {kernel, nullptr, true, id};
  }
  constexpr bool commutative = id == builtin_op::none && op_traits<Op>::commutative;
  return {&combine_thunk<T, Op>, &op, commutative, id};
}

/// A user's counts or displacements, type-erased: a contiguous array of any integral type.
/// The core converts it once, checked, to its own form (run.cpp).
struct index_array {
  const void* data = nullptr;
  std::size_t size = 0;
  std::size_t width = 0;  ///< bytes per value; 0: the argument was not passed (displacements)
  bool is_signed = false;
};

/// The v-variants' per-rank counts and displacements of `send` and of `recv`, in elements.
struct block_arguments {
  index_array send_counts = {};
  index_array send_displs = {};
  index_array recv_counts = {};
  index_array recv_displs = {};
};

/// One collective call, type-erased. Counts are in elements.
struct request {
  collective coll;
  const void* send;
  std::size_t send_count;
  void* recv;
  std::size_t recv_count;
  element_type elem;
  const reduction* op;  ///< null unless the collective reduces
  int root;             ///< ignored by collectives without a root
  MPI_Comm comm;
  selection chosen;  ///< the algorithm asked for, and its radix (0: its default)
  /// The v-variants' counts and displacements (null: none given); null for the other
  /// collectives, whose calls thus build no empty ones.
  const block_arguments* blocks = nullptr;
};

/// Validates on this rank (throwing collectives::error before any message), then runs.
COLLECTIVES_EXPORT void run(const request& r);

template <class R>
concept buffer = std::ranges::contiguous_range<R> && std::ranges::sized_range<R>;

template <class R>
using element_of = std::remove_cv_t<std::ranges::range_value_t<R>>;

template <class R>
concept writable_buffer =
    buffer<R> && !std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<R>>>;

/// Counts and displacements: any contiguous range of an integral type (bool excluded), such as
/// an MPI program's std::vector<int>.
template <class R>
concept index_range = buffer<R> && std::integral<element_of<R>> && !std::same_as<element_of<R>, bool>;

template <index_range R>
index_array make_index_array(R&& r) {
  using I = element_of<R>;
  return {std::ranges::data(r), std::ranges::size(r), sizeof(I), std::is_signed_v<I>};
}

template <class S, class R>
constexpr void check_buffer_types() {
  static_assert(std::is_same_v<element_of<S>, element_of<R>>,
                "collectives: send and receive buffers must hold the same element type");
  static_assert(writable_buffer<R>, "collectives: the receive buffer must be writable (not const)");
}

}  // namespace collectives::detail
