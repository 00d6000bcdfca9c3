// SPDX-License-Identifier: BSD-3-Clause
#include "measure/types.hpp"

#include <array>

namespace collbench {
namespace {

struct type_info {
  element_kind kind;
  std::string_view name;
  std::string_view alias;
  std::size_t size;
  bool floating;
  MPI_Datatype mpi;
};

// MPI_Datatype handles are not constant expressions in every MPI, so the table is built at
// first use.
const std::array<type_info, 10>& types() {
  static const std::array<type_info, 10> table{{
      {element_kind::int8, "int8", "char", 1, false, MPI_INT8_T},
      {element_kind::uint8, "uint8", "uchar", 1, false, MPI_UINT8_T},
      {element_kind::int16, "int16", "short", 2, false, MPI_INT16_T},
      {element_kind::uint16, "uint16", "ushort", 2, false, MPI_UINT16_T},
      {element_kind::int32, "int32", "int", 4, false, MPI_INT32_T},
      {element_kind::uint32, "uint32", "uint", 4, false, MPI_UINT32_T},
      {element_kind::int64, "int64", "long", 8, false, MPI_INT64_T},
      {element_kind::uint64, "uint64", "ulong", 8, false, MPI_UINT64_T},
      {element_kind::float32, "float", "float32", 4, true, MPI_FLOAT},
      {element_kind::float64, "double", "float64", 8, true, MPI_DOUBLE},
  }};
  return table;
}

const type_info& info(element_kind t) { return types().at(static_cast<std::size_t>(t)); }

constexpr std::array<std::string_view, 7> op_names{"sum", "prod", "min", "max", "band", "bor", "bxor"};
constexpr std::array<element_kind, 10> every_type{
    element_kind::int8,    element_kind::uint8,  element_kind::int16, element_kind::uint16,
    element_kind::int32,   element_kind::uint32, element_kind::int64, element_kind::uint64,
    element_kind::float32, element_kind::float64};
constexpr std::array<op_kind, 7> every_op{op_kind::sum,  op_kind::prod, op_kind::min, op_kind::max,
                                          op_kind::band, op_kind::bor,  op_kind::bxor};

}  // namespace

std::span<const element_kind> all_element_kinds() { return every_type; }
std::span<const op_kind> all_op_kinds() { return every_op; }

std::string_view to_string(element_kind t) { return info(t).name; }
std::string_view to_string(op_kind o) { return op_names.at(static_cast<std::size_t>(o)); }

std::optional<element_kind> parse_element_kind(std::string_view name) {
  for (const type_info& t : types())
    if (t.name == name || t.alias == name) return t.kind;
  return std::nullopt;
}

std::optional<op_kind> parse_op_kind(std::string_view name) {
  for (std::size_t i = 0; i < op_names.size(); ++i)
    if (op_names[i] == name) return every_op[i];
  return std::nullopt;
}

std::size_t size_of(element_kind t) { return info(t).size; }
bool is_floating(element_kind t) { return info(t).floating; }

bool op_applies(op_kind o, element_kind t) {
  const bool bitwise = o == op_kind::band || o == op_kind::bor || o == op_kind::bxor;
  return !(bitwise && is_floating(t));
}

MPI_Datatype mpi_datatype(element_kind t) { return info(t).mpi; }

MPI_Op mpi_op(op_kind o) {
  switch (o) {
    case op_kind::sum:
      return MPI_SUM;
    case op_kind::prod:
      return MPI_PROD;
    case op_kind::min:
      return MPI_MIN;
    case op_kind::max:
      return MPI_MAX;
    case op_kind::band:
      return MPI_BAND;
    case op_kind::bor:
      return MPI_BOR;
    case op_kind::bxor:
      break;
  }
  return MPI_BXOR;
}

}  // namespace collbench
