// SPDX-License-Identifier: BSD-3-Clause
// Names, parsing and the per-collective algorithm lists of the public algorithm.hpp.
//
// An algorithm's name is its descriptors' (dispatch/registry.hpp), automatic's is written here; a
// collective's is its descriptor's (kit/collective.hpp). to_string, parse_*, all_collectives() and
// algorithms_for() all read them, built by the compiler; no size is written by hand. A name missing,
// doubled, out of order or spelt two ways fails to compile.

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <iterator>
#include <ostream>

#include "collectives/algorithm.hpp"
#include "dispatch/registry.hpp"

namespace collectives {
namespace {

template <class E>
struct named {
  E value;
  std::string_view name;
};

// Every collective's name, from its descriptor (kit/collective.hpp).
constexpr auto collective_table = [] {
  std::array<named<collective>, detail::collective_count> table{};
  for (std::size_t i = 0; i < table.size(); ++i)
    table[i] = {detail::collectives_table[i].coll, detail::collectives_table[i].name};
  return table;
}();

// Entry i names enumerator i (so to_string indexes), and every name is unique (so parse is the
// inverse of to_string).
template <class E>
constexpr bool well_formed(std::span<const named<E>> table) {
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (static_cast<std::size_t>(table[i].value) != i || table[i].name.empty()) return false;
    for (std::size_t j = 0; j < i; ++j)
      if (table[j].name == table[i].name) return false;
  }
  return true;
}
static_assert(well_formed<collective>(collective_table),
              "collective_table: one unique name per enumerator, in enum order");

// Every algorithm's name, from its descriptors; automatic, a choice rather than an algorithm, has
// none and is named here.
constexpr auto algorithm_table = [] {
  std::array<named<algorithm>, detail::algorithm_count> table{};
  for (std::size_t i = 0; i < table.size(); ++i) table[i].value = static_cast<algorithm>(i);
  table[static_cast<std::size_t>(algorithm::automatic)].name = "automatic";
  for (const detail::algorithm_descriptor& d : detail::registry())
    table[static_cast<std::size_t>(d.alg)].name = d.name;
  return table;
}();

// Every collective's descriptor of an algorithm spells it alike, and none describes automatic.
constexpr bool spelt_alike() {
  for (const detail::algorithm_descriptor& d : detail::registry())
    if (d.alg == algorithm::automatic || d.name != algorithm_table[static_cast<std::size_t>(d.alg)].name)
      return false;
  return true;
}
static_assert(spelt_alike(),
              "an algorithm's descriptors spell its name two ways (or one describes automatic)");
static_assert(well_formed<algorithm>(algorithm_table),
              "every algorithm up to the last one described needs a descriptor, and a name of its own");

constexpr auto every_collective = [] {
  std::array<collective, std::size(collective_table)> all{};
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = collective_table[i].value;
  return all;
}();

// Every algorithm of every collective, collective by collective in the registry's order, and where
// each collective's run starts: algorithms_for() is a view of it.
constexpr auto every_algorithm = [] {
  std::array<algorithm, detail::registry().size()> all{};
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = detail::registry()[i].alg;
  return all;
}();
constexpr auto first_of_collective = [] {
  std::array<std::size_t, detail::collective_count + 1> first{};
  for (std::size_t c = 0; c < detail::collective_count; ++c)
    first[c + 1] = first[c] + detail::registry_tables[c].size();
  return first;
}();

template <class E>
std::string_view name_in(std::span<const named<E>> table, E value, std::string_view otherwise) {
  const auto i = static_cast<std::size_t>(value);
  return i < table.size() ? table[i].name : otherwise;
}

template <class E>
std::optional<E> parse_in(std::span<const named<E>> table, std::string_view name) {
  for (const named<E>& entry : table)
    if (entry.name == name) return entry.value;
  return std::nullopt;
}

}  // namespace

std::span<const algorithm> algorithms_for(collective c) {
  const auto i = static_cast<std::size_t>(c);
  if (i >= detail::collective_count) return {};
  return std::span(every_algorithm)
      .subspan(first_of_collective[i], first_of_collective[i + 1] - first_of_collective[i]);
}

std::span<const collective> all_collectives() { return every_collective; }

bool supports(collective c, algorithm a) {
  return a == algorithm::automatic || detail::find_algorithm(c, a) != nullptr;
}

bool keeps_rank_order(collective c, algorithm a) {
  const detail::algorithm_descriptor* d = detail::find_algorithm(c, a);
  return d == nullptr || d->keeps_rank_order;
}

// A value outside the enumeration (a cast from a bad integer) gets a name that says so,
// rather than an exception from inside an error message.
std::string_view to_string(algorithm a) {
  return name_in<algorithm>(algorithm_table, a, "(not an algorithm)");
}
std::string_view to_string(collective c) {
  return name_in<collective>(collective_table, c, "(not a collective)");
}

std::optional<algorithm> parse_algorithm(std::string_view name) {
  return parse_in<algorithm>(algorithm_table, name);
}
std::optional<collective> parse_collective(std::string_view name) {
  return parse_in<collective>(collective_table, name);
}

int default_radix(collective c, algorithm a) {
  const detail::algorithm_descriptor* d = detail::find_algorithm(c, a);
  return d == nullptr ? 0 : d->default_radix;
}

namespace detail {

std::string radix_problem(const algorithm_descriptor* d, int k, int size) {
  if (d == nullptr || d->default_radix == 0) return "takes no radix";
  const int most = std::max(size, 2);
  if (k < 2 || (size > 1 && k > size))
    return fmt::format("takes a radix from 2 to the {} ranks, given {}", most, k);
  if (d->radix_power_of_two && !std::has_single_bit(static_cast<unsigned>(k)))
    return fmt::format("takes a power of two as its radix, given {}", k);
  return "";
}

}  // namespace detail

std::string to_string(const selection& s) {
  if (s.radix == 0) return std::string(to_string(s.alg));
  return fmt::format("{}:{}", to_string(s.alg), s.radix);
}

std::optional<selection> parse_selection(std::string_view text) {
  const std::size_t colon = text.find(':');
  const std::optional<algorithm> a = parse_algorithm(text.substr(0, colon));
  if (!a || colon == std::string_view::npos) return a ? std::optional<selection>(*a) : std::nullopt;
  const std::string_view digits = text.substr(colon + 1);
  int radix = 0;
  const auto [end, problem] = std::from_chars(digits.data(), digits.data() + digits.size(), radix);
  if (problem != std::errc() || end != digits.data() + digits.size() || digits.empty() || radix < 2)
    return std::nullopt;
  return selection(*a, radix);
}

std::ostream& operator<<(std::ostream& os, algorithm a) { return os << to_string(a); }
std::ostream& operator<<(std::ostream& os, collective c) { return os << to_string(c); }
std::ostream& operator<<(std::ostream& os, const selection& s) { return os << to_string(s); }

}  // namespace collectives
