// The rule behind algorithm::automatic. It chooses among the library's own algorithms, never
// vendor, by the cost models in each algorithm's header: latency-bound messages get the
// ⌈log p⌉-step algorithms, bandwidth-bound ones the algorithms that move (p−1)/p of the data.
// The thresholds follow MPICH's defaults (which were measured on clusters); collbench shows
// where they fall on a given machine. A non-commutative op always gets an order-keeping one.
// It never picks hierarchical: the hierarchical algorithms run their steps with this rule.
//
//   collective      rule (bytes: the vector for broadcast/reduce/allreduce, one block otherwise)
//   broadcast       < 12 KiB or p ≤ 2: binomial;  otherwise scatter_allgather
//   scatter/gather  binomial
//   reduce          commutative, ≥ 2 KiB and count ≥ p: rabenseifner;  otherwise binomial
//   allgather       whole result < 80 KiB: recursive_doubling if p is a power of two, else bruck;
//                   < 512 KiB and p a power of two: recursive_doubling;  otherwise ring
//   reduce_scatter  non-commutative: naive;  whole vector < 512 KiB: recursive_halving;
//                   otherwise ring
//   alltoall        block ≤ 256 B and p ≥ 8: bruck;  otherwise pairwise
//   allreduce       non-commutative, < 8 KiB or count < p: recursive_doubling;
//                   p a power of two: rabenseifner;  otherwise ring (no fold traffic)
//   barrier         dissemination (⌈log p⌉ rounds for every p: no fold, half the binomial's)
//   scan, exscan    p ≤ 2: naive (the same one message, without the partial's extra copy
//                   and reductions);  otherwise recursive_doubling (⌈log p⌉ steps instead of
//                   a chain of p−1); both keep rank order, so commutativity does not matter
//
// The v-variants choose only by what every rank knows alike (the counts of gatherv and scatterv
// live at the root, those of alltoallv differ between ranks), so that all ranks agree. "Skewed":
// the largest block is more than twice the average, where the ring's p−1 steps each wait for it.
//   gatherv/scatterv  binomial
//   allgatherv        whole result < 80 KiB or skewed: recursive_doubling if p is a power of two,
//                     else bruck;  < 512 KiB and p a power of two: recursive_doubling;  otherwise ring
//   alltoallv         pairwise
//   reduce_scatterv   non-commutative: naive;  whole vector < 512 KiB or skewed: recursive_halving;
//                     otherwise ring

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

// Algorithms that cut the vector into p (or pof2) parts: a table measured at whole vectors does
// not speak for calls with fewer elements than ranks, where some parts are empty.
bool cuts_vector(collective c, algorithm a) {
  return (c == collective::broadcast && a == algorithm::scatter_allgather) ||
         (c == collective::reduce && a == algorithm::rabenseifner) ||
         (c == collective::allreduce && (a == algorithm::ring || a == algorithm::rabenseifner));
}

// The built-in rule (see the top of this file); `bytes` is the size key.
algorithm rule(collective c, int p, std::size_t bytes, bool fewer_elements_than_ranks, bool commutative,
               bool skewed) {
  constexpr std::size_t KiB = 1024;
  const bool power_of_two = std::has_single_bit(static_cast<unsigned>(p));
  switch (c) {
    case collective::broadcast:
      return bytes < 12 * KiB || p <= 2 ? algorithm::binomial : algorithm::scatter_allgather;
    case collective::scatter:
    case collective::gather:
      return algorithm::binomial;
    case collective::reduce:
      return commutative && bytes >= 2 * KiB && !fewer_elements_than_ranks ? algorithm::rabenseifner
                                                                           : algorithm::binomial;
    case collective::allgather:
      if (bytes < 80 * KiB) return power_of_two ? algorithm::recursive_doubling : algorithm::bruck;
      return bytes < 512 * KiB && power_of_two ? algorithm::recursive_doubling : algorithm::ring;
    case collective::reduce_scatter:
      if (!commutative) return algorithm::naive;
      return bytes < 512 * KiB ? algorithm::recursive_halving : algorithm::ring;
    case collective::alltoall:
      return bytes <= 256 * static_cast<std::size_t>(p) && p >= 8 ? algorithm::bruck : algorithm::pairwise;
    case collective::allreduce:
      if (!commutative || bytes < 8 * KiB || fewer_elements_than_ranks) return algorithm::recursive_doubling;
      return power_of_two ? algorithm::rabenseifner : algorithm::ring;
    case collective::barrier:
      return algorithm::dissemination;
    case collective::scan:
    case collective::exscan:
      return p <= 2 ? algorithm::naive : algorithm::recursive_doubling;
    case collective::gatherv:
    case collective::scatterv:
      return algorithm::binomial;
    case collective::allgatherv:
      if (bytes < 80 * KiB || skewed) return power_of_two ? algorithm::recursive_doubling : algorithm::bruck;
      return bytes < 512 * KiB && power_of_two ? algorithm::recursive_doubling : algorithm::ring;
    case collective::alltoallv:
      return algorithm::pairwise;
    case collective::reduce_scatterv:
      if (!commutative) return algorithm::naive;
      return bytes < 512 * KiB || skewed ? algorithm::recursive_halving : algorithm::ring;
  }
  return algorithm::naive;
}
}  // namespace

algorithm choose_automatic(collective c, int p, std::size_t bytes, std::size_t count, bool commutative,
                           std::size_t largest_block) {
  // The size key: what collbench calls bytes (bench/metrics.hpp), for the table and the rule alike.
  const std::size_t key = keyed_by_whole_array(c) ? bytes * static_cast<std::size_t>(p) : bytes;
  const bool fewer_elements_than_ranks = count < static_cast<std::size_t>(p);
  // v-variants: bytes is the whole; "skewed", the largest block is more than twice the average.
  const bool skewed = largest_block * static_cast<std::size_t>(p) > 2 * bytes;
  if (size_known_alike(c) && !skewed) {
    if (const auto table = active_tuning()) {
      const std::optional<algorithm> a = table->lookup(c, p, key);
      if (a && (commutative || keeps_rank_order(c, *a)) && !(fewer_elements_than_ranks && cuts_vector(c, *a)))
        return *a;
    }
  }
  return rule(c, p, key, fewer_elements_than_ranks, commutative, skewed);
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

}  // namespace collectives
