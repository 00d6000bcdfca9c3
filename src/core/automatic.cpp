// SPDX-License-Identifier: BSD-3-Clause
// The rule behind algorithm::automatic when no decision table is loaded (or the table has nothing
// that fits a call; the table lookup is below, in choose_automatic). It chooses among the library's
// own algorithms, never vendor, and never hierarchical: the hierarchical algorithms run their
// steps with this rule. A non-commutative op always gets an order-keeping one. vendor_fastest,
// at the end, reads the table's "fastest" section for the drop-in's `fastest` selection (and
// collectives::fastest_choice); automatic never asks it.
//
// Where the thresholds come from: up to 4 ranks ("few ranks"), tune runs on a small machine
// (scripts/mpirun/tune.sh 2 4, read beside compare.sh's run: a threshold kept where one algorithm
// led over a band of sizes in both); beyond 4 ranks, MPICH's defaults and the cost lines in each
// algorithm's header (latency-bound messages get the ⌈log p⌉-step algorithms, bandwidth-bound
// ones those that move (p−1)/p of the data); above 8 ranks ("many ranks"), simulated runs on fat
// trees (tune.sh --simulate, compare.sh --simulate). The measurements behind each threshold:
// docs/measurements/2026-11-28-automatic-rule-provenance.md. One small machine is not yours: run
// tune.sh there and load its table (COLLECTIVES_TUNING), which automatic follows before this rule.
//
//   bytes: the size key, as collbench counts it (bench/metrics.hpp): the vector for broadcast,
//   reduce, allreduce, scan, exscan; the whole p-block array for scatter, gather, allgather,
//   reduce_scatter, alltoall; the whole result or vector for allgatherv, reduce_scatterv.
//   "Cuttable": a commutative op and at least p elements.
//
//   collective      rule
//   broadcast       few ranks: naive below 512 B and from 128 KiB, between binomial (pipeline at
//                   p = 3);  many ranks: binomial below 4 KiB and from 64 to 128 KiB (where its
//                   messages stop being eager and each has the link to itself),
//                   scatter_recursive_doubling from 512 KiB if p is a power of two (its fold
//                   costs the whole vector once more otherwise), pipelined_tree below p × 64 KiB,
//                   else scatter_allgather;  < 12 KiB: binomial;  otherwise scatter_allgather
//   scatter         few ranks: binomial from 2 to 64 KiB, else naive;  otherwise binomial
//   gather          few ranks: naive;  otherwise binomial
//   reduce          few ranks: naive, but Rabenseifner at p = 4 from 4 MiB if cuttable;
//                   cuttable, ≥ 2 KiB: rabenseifner (many ranks: from 128 KiB);  otherwise binomial
//   allgather       many ranks, result < p × 256 KiB: recursive_doubling if p is a power of two,
//                   else bruck;  3–4 ranks up to 256 B: naive;  p = 3: recursive_doubling below
//                   512 KiB, ring from there;  few ranks and p a power of two: recursive_doubling;
//                   result < 80 KiB: recursive_doubling if p is a power of two, else bruck;
//                   < 512 KiB and p a power of two: recursive_doubling;  otherwise ring
//   reduce_scatter  non-commutative: naive;  p = 2: pairwise;  p = 3: naive up to 2 KiB,
//                   recursive_halving below 128 KiB, pairwise from there;  p = 4: naive below
//                   2 KiB, else recursive_halving;  many ranks: recursive_halving;  whole vector
//                   < 2 MiB: recursive_halving;  otherwise ring
//   alltoall        p ≥ 4 and whole array ≤ 4 KiB, or block ≤ 256 B and p ≥ 8 (many ranks: whole
//                   array below p × 16 KiB): bruck;  otherwise pairwise
//   allreduce       2–4 ranks: Rabenseifner if cuttable and, p a power of two, the vector is above
//                   2 and up to 4 KiB (its halves stay eager where Open MPI's shared memory
//                   sends 4 KiB by rendezvous), or from 256 KiB (p = 2, 3) / 128 KiB (p = 4);
//                   else naive at 3–4 ranks below 512 B and at p = 3 when it cannot be cut,
//                   recursive_doubling otherwise;  above 4 ranks: non-commutative, < 8 KiB (many
//                   ranks: ≤ 32 KiB) or count < p: recursive_doubling;  p a power of two:
//                   rabenseifner;  otherwise ring (no fold traffic)
//   barrier         3–4 ranks: naive;  otherwise dissemination (⌈log p⌉ rounds for every p)
//   scan, exscan    few ranks: naive (the chain of p−1 has fewer steps than it sounds at p ≤ 4);
//                   otherwise recursive_doubling (⌈log p⌉ steps instead of a chain of p−1); both
//                   keep rank order, so commutativity does not matter
//
// The v-variants choose only by what every rank knows alike (the counts of gatherv and scatterv
// live at the root, those of alltoallv differ between ranks), so that all ranks agree. "Skewed":
// the largest block is more than twice the average, where the ring's p−1 steps each wait for it.
//   gatherv           few ranks: naive;  otherwise binomial
//   scatterv          few ranks: naive (one choice for every size, since only the root knows
//                     them);  otherwise binomial
//   allgatherv        as allgather (skewed: recursive_doubling or bruck, never ring)
//   alltoallv         pairwise
//   reduce_scatterv   as reduce_scatter (skewed, above 4 ranks: recursive_halving, never ring)

#include "core/automatic.hpp"

#include <fmt/format.h>

#include <bit>

#include "collectives/error.hpp"
#include "collectives/tuning.hpp"
#include "core/tuning.hpp"

namespace collectives::detail {
namespace {

// p-block collectives: their size key (collbench's bytes) is the whole array, p blocks.
bool keyed_by_whole_array(collective c) {
  return c == collective::scatter || c == collective::gather || c == collective::allgather ||
         c == collective::reduce_scatter || c == collective::alltoall;
}

// Sizes every rank knows alike: the v-variants whose counts live on one rank or differ between
// ranks have none, so a table (keyed by size) cannot choose for them.
bool size_known_alike(collective c) {
  return c != collective::gatherv && c != collective::scatterv && c != collective::alltoallv;
}

// The size key: what collbench calls bytes (bench/metrics.hpp), for the table and the rule alike;
// `bytes` is what a call passes (one block of the p-block collectives).
std::size_t size_key(collective c, int p, std::size_t bytes) {
  return keyed_by_whole_array(c) ? bytes * static_cast<std::size_t>(p) : bytes;
}

// Algorithms that cut the vector into p (or pof2) parts: a table measured at whole vectors does
// not speak for calls with fewer elements than ranks, where some parts are empty.
bool cuts_vector(collective c, algorithm a) {
  return (c == collective::broadcast &&
          (a == algorithm::scatter_allgather || a == algorithm::scatter_recursive_doubling)) ||
         (c == collective::reduce && a == algorithm::rabenseifner) ||
         (c == collective::allreduce && (a == algorithm::ring || a == algorithm::rabenseifner));
}

// The built-in rule (see the top of this file); `bytes` is the size key.
algorithm rule(collective c, int p, std::size_t bytes, bool fewer_elements_than_ranks, bool commutative,
               bool skewed) {
  constexpr std::size_t KiB = 1024, MiB = 1024 * KiB;
  const bool power_of_two = std::has_single_bit(static_cast<unsigned>(p));
  const bool few_ranks = p <= 4;  // measured on this machine class; MPICH's thresholds above
  const bool many_ranks = p > 8;  // simulated fat trees at p = 64, 256 and 1024 (see the top)
  const bool cuttable = commutative && !fewer_elements_than_ranks;
  const auto allgather = [&](bool skew) {
    if (many_ranks && bytes < 256 * KiB * static_cast<std::size_t>(p))
      return power_of_two ? algorithm::recursive_doubling : algorithm::bruck;
    if (few_ranks && p > 2 && bytes <= 256) return algorithm::naive;
    if (p == 3 && !skew) return bytes < 512 * KiB ? algorithm::recursive_doubling : algorithm::ring;
    if ((few_ranks && power_of_two) || bytes < 80 * KiB || skew)
      return power_of_two ? algorithm::recursive_doubling : algorithm::bruck;
    return bytes < 512 * KiB && power_of_two ? algorithm::recursive_doubling : algorithm::ring;
  };
  const auto reduce_scatter = [&](bool skew) {
    if (!commutative) return algorithm::naive;
    if (p == 2) return algorithm::pairwise;
    if (p == 3)
      return bytes <= 2 * KiB    ? algorithm::naive
             : bytes < 128 * KiB ? algorithm::recursive_halving
                                 : algorithm::pairwise;
    if (p == 4) return bytes < 2 * KiB ? algorithm::naive : algorithm::recursive_halving;
    return bytes < 2 * MiB || skew || many_ranks ? algorithm::recursive_halving : algorithm::ring;
  };
  switch (c) {
    case collective::broadcast:
      if (few_ranks && (bytes < 512 || bytes >= 128 * KiB)) return algorithm::naive;
      if (few_ranks) return p == 3 ? algorithm::pipeline : algorithm::binomial;
      if (many_ranks) {
        if (bytes < 4 * KiB || (bytes >= 64 * KiB && bytes < 128 * KiB)) return algorithm::binomial;
        if (power_of_two && bytes >= 512 * KiB) return algorithm::scatter_recursive_doubling;
        return bytes < 64 * KiB * static_cast<std::size_t>(p) ? algorithm::pipelined_tree
                                                              : algorithm::scatter_allgather;
      }
      return bytes < 12 * KiB ? algorithm::binomial : algorithm::scatter_allgather;
    case collective::scatter:
      if (few_ranks) return bytes >= 2 * KiB && bytes <= 64 * KiB ? algorithm::binomial : algorithm::naive;
      return algorithm::binomial;
    case collective::gather:
      return few_ranks ? algorithm::naive : algorithm::binomial;
    case collective::reduce:
      if (few_ranks)
        return p == 4 && cuttable && bytes >= 4 * MiB ? algorithm::rabenseifner : algorithm::naive;
      return cuttable && bytes >= (many_ranks ? 128 : 2) * KiB ? algorithm::rabenseifner
                                                               : algorithm::binomial;
    case collective::allgather:
      return allgather(false);
    case collective::reduce_scatter:
      return reduce_scatter(false);
    case collective::alltoall:
      return (p >= 4 && bytes <= 4 * KiB) || (p >= 8 && bytes <= 256 * static_cast<std::size_t>(p)) ||
                     (many_ranks && bytes < 16 * KiB * static_cast<std::size_t>(p))
                 ? algorithm::bruck
                 : algorithm::pairwise;
    case collective::allreduce:
      if (few_ranks && p > 1) {
        // A vector just above Open MPI's 4 KiB eager limit: Rabenseifner's halves stay below it.
        const bool just_above_eager = power_of_two && bytes > 2 * KiB && bytes <= 4 * KiB;
        if (cuttable && (just_above_eager || bytes >= (p == 4 ? 128 : 256) * KiB))
          return algorithm::rabenseifner;
        return (p > 2 && bytes < 512) || (p == 3 && !cuttable) ? algorithm::naive
                                                               : algorithm::recursive_doubling;
      }
      if (!commutative || (many_ranks ? bytes <= 32 * KiB : bytes < 8 * KiB) || fewer_elements_than_ranks)
        return algorithm::recursive_doubling;
      return power_of_two ? algorithm::rabenseifner : algorithm::ring;
    case collective::barrier:
      return few_ranks && p > 2 ? algorithm::naive : algorithm::dissemination;
    case collective::scan:
    case collective::exscan:
      return few_ranks ? algorithm::naive : algorithm::recursive_doubling;
    case collective::gatherv:
    case collective::scatterv:
      return few_ranks ? algorithm::naive : algorithm::binomial;
    case collective::allgatherv:
      return allgather(skewed);
    case collective::alltoallv:
      return algorithm::pairwise;
    case collective::reduce_scatterv:
      return reduce_scatter(skewed);
  }
  return algorithm::naive;
}

// The choice itself: the table where it speaks for the call, else the rule.
algorithm choose_uncached(collective c, int p, std::size_t bytes, std::size_t count, bool commutative,
                          std::size_t largest_block) {
  const std::size_t key = size_key(c, p, bytes);
  const bool fewer_elements_than_ranks = count < static_cast<std::size_t>(p);
  // v-variants: bytes is the whole; "skewed", the largest block is more than twice the average.
  const bool skewed = largest_block * static_cast<std::size_t>(p) > 2 * bytes;
  if (size_known_alike(c) && !skewed) {
    if (const auto& table = active_tuning()) {
      const std::optional<algorithm> a = table->lookup(c, p, key);
      if (a && (commutative || keeps_rank_order(c, *a)) && !(fewer_elements_than_ranks && cuts_vector(c, *a)))
        return *a;
    }
  }
  return rule(c, p, key, fewer_elements_than_ranks, commutative, skewed);
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
  const bool v = s.coll == collective::allgatherv || s.coll == collective::reduce_scatterv;
  return detail::choose_automatic(s.coll, s.p, s.bytes, count, s.commutative, v ? s.bytes / p : 0);
}

algorithm fastest_choice(const call_shape& s) {
  const algorithm library = automatic_choice(s);  // checks the shape
  const std::size_t p = static_cast<std::size_t>(s.p);
  const bool v = s.coll == collective::allgatherv || s.coll == collective::reduce_scatterv;
  const std::size_t bytes = detail::keyed_by_whole_array(s.coll) ? s.bytes / p : s.bytes;
  return detail::vendor_fastest(s.coll, s.p, bytes, v ? s.bytes / p : 0) ? algorithm::vendor : library;
}

}  // namespace collectives
