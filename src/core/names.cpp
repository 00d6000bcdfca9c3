// SPDX-License-Identifier: BSD-3-Clause
// Names, parsing and the per-collective algorithm lists of the public algorithm.hpp.
//
// One table per enum, in enumerator order: to_string, parse_* and all_collectives() all read it,
// and no size is written by hand. A name missing, doubled or out of order fails to compile.

#include <array>
#include <iterator>
#include <ostream>
#include <vector>

#include "collectives/algorithm.hpp"
#include "core/registry.hpp"

namespace collectives {
namespace {

template <class E>
struct named {
  E value;
  std::string_view name;
};

constexpr named<algorithm> algorithm_table[] = {
    {algorithm::automatic, "automatic"},
    {algorithm::vendor, "vendor"},
    {algorithm::naive, "naive"},
    {algorithm::binomial, "binomial"},
    {algorithm::pipeline, "pipeline"},
    {algorithm::scatter_allgather, "scatter_allgather"},
    {algorithm::ring, "ring"},
    {algorithm::recursive_doubling, "recursive_doubling"},
    {algorithm::recursive_halving, "recursive_halving"},
    {algorithm::rabenseifner, "rabenseifner"},
    {algorithm::bruck, "bruck"},
    {algorithm::pairwise, "pairwise"},
    {algorithm::dissemination, "dissemination"},
    {algorithm::hierarchical, "hierarchical"},
    {algorithm::pipelined_tree, "pipelined_tree"},
    {algorithm::scatter_recursive_doubling, "scatter_recursive_doubling"},
};

constexpr named<collective> collective_table[] = {
    {collective::broadcast, "broadcast"}, {collective::scatter, "scatter"},
    {collective::gather, "gather"},       {collective::reduce, "reduce"},
    {collective::allgather, "allgather"}, {collective::reduce_scatter, "reduce_scatter"},
    {collective::alltoall, "alltoall"},   {collective::allreduce, "allreduce"},
    {collective::barrier, "barrier"},     {collective::scan, "scan"},
    {collective::exscan, "exscan"},       {collective::gatherv, "gatherv"},
    {collective::scatterv, "scatterv"},   {collective::allgatherv, "allgatherv"},
    {collective::alltoallv, "alltoallv"}, {collective::reduce_scatterv, "reduce_scatterv"},
};

// Entry i names enumerator i (so to_string indexes), and every name is unique (so parse is the
// inverse of to_string).
template <class E, std::size_t n>
constexpr bool well_formed(const named<E> (&table)[n]) {
  for (std::size_t i = 0; i < n; ++i) {
    if (static_cast<std::size_t>(table[i].value) != i || table[i].name.empty()) return false;
    for (std::size_t j = 0; j < i; ++j)
      if (table[j].name == table[i].name) return false;
  }
  return true;
}
static_assert(well_formed(algorithm_table), "algorithm_table: one unique name per enumerator, in enum order");
static_assert(well_formed(collective_table),
              "collective_table: one unique name per enumerator, in enum order");
// The registry's bounds (core/registry.hpp) come from the last enumerators; the tables must reach them.
static_assert(std::size(algorithm_table) == detail::algorithm_count, "algorithm_table misses an enumerator");
static_assert(std::size(collective_table) == detail::collective_count,
              "collective_table misses an enumerator");

constexpr auto every_collective = [] {
  std::array<collective, std::size(collective_table)> all{};
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = collective_table[i].value;
  return all;
}();

template <class E, std::size_t n>
std::string_view name_in(const named<E> (&table)[n], E value, std::string_view otherwise) {
  const auto i = static_cast<std::size_t>(value);
  return i < n ? table[i].name : otherwise;
}

template <class E, std::size_t n>
std::optional<E> parse_in(const named<E> (&table)[n], std::string_view name) {
  for (const named<E>& entry : table)
    if (entry.name == name) return entry.value;
  return std::nullopt;
}

}  // namespace

std::span<const algorithm> algorithms_for(collective c) {
  // Built once from the registry, in its order.
  static const std::array<std::vector<algorithm>, std::size(collective_table)> lists = [] {
    std::array<std::vector<algorithm>, std::size(collective_table)> l;
    for (const detail::algorithm_entry& e : detail::registry())
      l[static_cast<std::size_t>(e.coll)].push_back(e.alg);
    return l;
  }();
  return lists.at(static_cast<std::size_t>(c));
}

std::span<const collective> all_collectives() { return every_collective; }

bool supports(collective c, algorithm a) {
  return a == algorithm::automatic || detail::find_algorithm(c, a) != nullptr;
}

bool keeps_rank_order(collective c, algorithm a) {
  const detail::algorithm_entry* e = detail::find_algorithm(c, a);
  return e == nullptr || e->keeps_rank_order;
}

// A value outside the enumeration (a cast from a bad integer) gets a name that says so,
// rather than an exception from inside an error message.
std::string_view to_string(algorithm a) { return name_in(algorithm_table, a, "(not an algorithm)"); }
std::string_view to_string(collective c) { return name_in(collective_table, c, "(not a collective)"); }

std::optional<algorithm> parse_algorithm(std::string_view name) { return parse_in(algorithm_table, name); }
std::optional<collective> parse_collective(std::string_view name) { return parse_in(collective_table, name); }

std::ostream& operator<<(std::ostream& os, algorithm a) { return os << to_string(a); }
std::ostream& operator<<(std::ostream& os, collective c) { return os << to_string(c); }

}  // namespace collectives
