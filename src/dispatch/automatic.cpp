// SPDX-License-Identifier: BSD-3-Clause
// How algorithm::automatic chooses: the table in force (COLLECTIVES_TUNING or load_tuning), else
// the library's built-in table (src/dispatch/automatic-table.json, compiled in; where its rows come
// from: docs/measurements/2026-11-28-automatic-default-table.md), else the fallback rule below for
// what a table cannot express (counts not known alike, skewed blocks, non-commutative ops, fewer
// elements than ranks). The lookup, the fallback's choices and their reasons: docs/tuning.md,
// "Lookup". vendor_fastest, at the end, reads the table's "fastest" section for the drop-in's
// `fastest`; automatic never asks it, and never chooses vendor or hierarchical.
//   bytes: the size key, as collbench counts it (bench/measure/metrics.hpp).

#include "dispatch/automatic.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <iterator>

#include "collectives/error.hpp"
#include "collectives/tuning.hpp"
#include "dispatch/registry.hpp"
#include "dispatch/tuning.hpp"

namespace collectives::detail {
namespace {

// p-block collectives whose calls pass one block: their size key (collbench's bytes) is the whole
// array, p blocks.
bool keyed_by_whole_array(collective c) { return counts_whole_array(c) && !is_v_variant(c); }

// Sizes every rank knows alike: the v-variants whose counts live on one rank or differ between
// ranks have none, so a table (keyed by size) cannot choose for them.
bool size_known_alike(collective c) { return descriptor_of(c).size_known_alike; }

// allgatherv's and reduce_scatterv's counts, the same on every rank: their largest block is known.
bool blocks_known_alike(collective c) { return is_v_variant(c) && size_known_alike(c); }

// The size key: what collbench calls bytes (bench/measure/metrics.hpp), for the table and the rule alike;
// `bytes` is what a call passes (one block of the p-block collectives).
std::size_t size_key(collective c, int p, std::size_t bytes) {
  return keyed_by_whole_array(c) ? bytes * static_cast<std::size_t>(p) : bytes;
}

// The fallback rule (see the top of this file): what each collective runs, by what the call
// allows.
enum class fallback : std::uint8_t {
  binomial,                    // broadcast
  naive_if_few_else_binomial,  // the rooted ones but broadcast
  doubling_if_pof2_else_bruck,
  halving_if_commutative_else_naive,
  pairwise,
  recursive_doubling,
  dissemination,
};

struct fallback_of {
  collective coll;
  fallback rule;
};

constexpr fallback_of fallback_table[] = {
    {collective::broadcast, fallback::binomial},
    {collective::scatter, fallback::naive_if_few_else_binomial},
    {collective::gather, fallback::naive_if_few_else_binomial},
    {collective::reduce, fallback::naive_if_few_else_binomial},
    {collective::allgather, fallback::doubling_if_pof2_else_bruck},
    {collective::reduce_scatter, fallback::halving_if_commutative_else_naive},
    {collective::alltoall, fallback::pairwise},
    {collective::allreduce, fallback::recursive_doubling},
    {collective::barrier, fallback::dissemination},
    {collective::scan, fallback::recursive_doubling},
    {collective::exscan, fallback::recursive_doubling},
    {collective::gatherv, fallback::naive_if_few_else_binomial},
    {collective::scatterv, fallback::naive_if_few_else_binomial},
    {collective::allgatherv, fallback::doubling_if_pof2_else_bruck},
    {collective::alltoallv, fallback::pairwise},
    {collective::reduce_scatterv, fallback::halving_if_commutative_else_naive},
};

constexpr bool one_rule_per_collective() {
  if (std::size(fallback_table) != collective_count) return false;
  for (std::size_t i = 0; i < collective_count; ++i)
    if (static_cast<std::size_t>(fallback_table[i].coll) != i) return false;
  return true;
}
static_assert(one_rule_per_collective(), "fallback_table: row i is collective i, one per collective");

algorithm rule(collective c, int p, bool commutative) {
  const bool power_of_two = std::has_single_bit(static_cast<unsigned>(p));
  const bool few_ranks = p <= 4;
  switch (fallback_table[static_cast<std::size_t>(c)].rule) {
    case fallback::binomial:
      return algorithm::binomial;
    case fallback::naive_if_few_else_binomial:
      return few_ranks ? algorithm::naive : algorithm::binomial;
    case fallback::doubling_if_pof2_else_bruck:
      return power_of_two ? algorithm::recursive_doubling : algorithm::bruck;
    case fallback::halving_if_commutative_else_naive:
      return commutative ? algorithm::recursive_halving : algorithm::naive;
    case fallback::pairwise:
      return algorithm::pairwise;
    case fallback::recursive_doubling:
      return algorithm::recursive_doubling;
    case fallback::dissemination:
      return algorithm::dissemination;
  }
  return algorithm::naive;
}

// The choice itself: the table in force where it speaks for the call, else the built-in table, else
// the fallback rule.
algorithm choose_uncached(collective c, int p, std::size_t bytes, std::size_t count, bool commutative,
                          std::size_t largest_block) {
  const std::size_t key = size_key(c, p, bytes);
  const bool fewer_elements_than_ranks = count < static_cast<std::size_t>(p);
  // v-variants: bytes is the whole; "skewed", the largest block is more than twice the average.
  const bool skewed = largest_block * static_cast<std::size_t>(p) > 2 * bytes;
  if (size_known_alike(c) && !skewed) {
    const auto allowed = [&](std::optional<algorithm> a) {
      return a && (commutative || keeps_rank_order(c, *a)) && !(fewer_elements_than_ranks && cuts_vector(c, *a));
    };
    if (const auto& table = active_tuning())
      if (const std::optional<algorithm> a = table->lookup(c, p, key); allowed(a)) return *a;
    if (const std::optional<algorithm> a = builtin_tuning().lookup(c, p, key); allowed(a)) return *a;
  }
  return rule(c, p, commutative);
}

}  // namespace

constinit thread_local automatic_memo last_automatic_choice;

algorithm choose_and_remember(const automatic_key& k) {
  last_automatic_choice = {k, choose_uncached(k.c, k.p, k.bytes, k.count, k.commutative, k.largest_block)};
  return last_automatic_choice.chosen;
}

bool vendor_fastest(collective c, int p, std::size_t bytes, std::size_t largest_block) {
  // As for the table's algorithm: equal blocks (measured). Where the size is not known alike on
  // every rank, the table's one verdict for every size (colltune), read at 0 bytes.
  const bool skewed = largest_block * static_cast<std::size_t>(p) > 2 * bytes;
  if (skewed) return false;
  const auto& table = active_tuning();
  const std::size_t key = size_known_alike(c) ? size_key(c, p, bytes) : 0;
  return table && table->vendor_fastest(c, p, key).value_or(false);
}

}  // namespace collectives::detail

namespace collectives {

algorithm automatic_choice(const call_shape& s) {
  if (s.p < 1) throw error(fmt::format("collectives::automatic_choice: p must be ≥ 1, given {}", s.p));
  if (s.elem_size == 0) throw error("collectives::automatic_choice: elem_size must be ≥ 1, given 0");
  const std::size_t p = static_cast<std::size_t>(s.p);
  const std::size_t count = s.bytes / s.elem_size;  // in collbench's bytes: the whole for p-block ones
  if (detail::keyed_by_whole_array(s.coll))         // what a call passes: one block
    return detail::choose_automatic(s.coll, s.p, s.bytes / p, count / p, s.commutative);
  if (!detail::size_known_alike(s.coll)) return detail::choose_automatic(s.coll, s.p, 0, 0, s.commutative);
  const bool v = detail::blocks_known_alike(s.coll);
  return detail::choose_automatic(s.coll, s.p, s.bytes, count, s.commutative, v ? s.bytes / p : 0);
}

algorithm fastest_choice(const call_shape& s) {
  const algorithm library = automatic_choice(s);  // checks the shape
  const std::size_t p = static_cast<std::size_t>(s.p);
  const bool v = detail::blocks_known_alike(s.coll);
  const std::size_t bytes = detail::keyed_by_whole_array(s.coll) ? s.bytes / p : s.bytes;
  return detail::vendor_fastest(s.coll, s.p, bytes, v ? s.bytes / p : 0) ? algorithm::vendor : library;
}

}  // namespace collectives
