// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The element types and reduction ops collbench can measure, their names on the command line
// and in the output, and the dispatch from those runtime names to the typed library calls.

#include <mpi.h>

#include <collectives/ops.hpp>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>

namespace collbench {

enum class element_kind { int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32, float64 };
enum class op_kind { sum, prod, min, max, band, bor, bxor };

std::span<const element_kind> all_element_kinds();
std::span<const op_kind> all_op_kinds();

/// "int32", "float", "double", ... (nccl-tests spelling); parse also takes float32/float64.
std::string_view to_string(element_kind t);
std::string_view to_string(op_kind o);
std::optional<element_kind> parse_element_kind(std::string_view name);
std::optional<op_kind> parse_op_kind(std::string_view name);

std::size_t size_of(element_kind t);
bool is_floating(element_kind t);
/// False for the bitwise ops on floating-point types.
bool op_applies(op_kind o, element_kind t);

/// The MPI datatype and op the vendor's internal algorithms are called with.
MPI_Datatype mpi_datatype(element_kind t);
MPI_Op mpi_op(op_kind o);

/// Calls `f(std::type_identity<T>{})` with the C++ type of `t`.
template <class F>
decltype(auto) with_type(element_kind t, F&& f) {
  switch (t) {
    case element_kind::int8:
      return f(std::type_identity<std::int8_t>{});
    case element_kind::uint8:
      return f(std::type_identity<std::uint8_t>{});
    case element_kind::int16:
      return f(std::type_identity<std::int16_t>{});
    case element_kind::uint16:
      return f(std::type_identity<std::uint16_t>{});
    case element_kind::int32:
      return f(std::type_identity<std::int32_t>{});
    case element_kind::uint32:
      return f(std::type_identity<std::uint32_t>{});
    case element_kind::int64:
      return f(std::type_identity<std::int64_t>{});
    case element_kind::uint64:
      return f(std::type_identity<std::uint64_t>{});
    case element_kind::float32:
      return f(std::type_identity<float>{});
    case element_kind::float64:
      break;
  }
  return f(std::type_identity<double>{});
}

/// Calls `f(op)` with the library functor of `o`.
template <class F>
decltype(auto) with_op(op_kind o, F&& f) {
  namespace ops = collectives::ops;
  switch (o) {
    case op_kind::sum:
      return f(ops::sum{});
    case op_kind::prod:
      return f(ops::prod{});
    case op_kind::min:
      return f(ops::min{});
    case op_kind::max:
      return f(ops::max{});
    case op_kind::band:
      return f(ops::bit_and{});
    case op_kind::bor:
      return f(ops::bit_or{});
    case op_kind::bxor:
      break;
  }
  return f(ops::bit_xor{});
}

}  // namespace collbench
