// The rule behind algorithm::automatic when no decision table is loaded (or the table has nothing
// that fits a call; the table lookup is below, in choose_automatic). It chooses among the library's
// own algorithms, never vendor, and never hierarchical: the hierarchical algorithms run their
// steps with this rule. A non-commutative op always gets an order-keeping one. vendor_fastest,
// at the end, reads the table's "fastest" section for the drop-in's `fastest` selection (and
// collectives::fastest_choice); automatic never asks it.
//
// Where the numbers come from. Up to 4 ranks ("few ranks") the rule is what tune runs measured on
// this machine class (a shared 2-core VM, Open MPI 4.1, one-copy shared memory, float sum), at
// np 2 and 4 (np 4 oversubscribed), 8 B … 16 MiB, three runs each, on a machine loaded by other
// work (load average 10–16 on 2 cores, so single sizes are noisy): a threshold below was kept only
// where one algorithm led over a whole band of sizes in every run, judged by the geometric mean of
// its time ÷ the fastest over the band (8 B–512 B, –4 KiB, –32 KiB, –256 KiB, –2 MiB, –16 MiB). At
// p = 2 most algorithms send the same messages and tie; at np 4 the fewest hops win (naive's star
// waits for no intermediate rank to be scheduled). To redo them:
//   bash scripts/mpirun/tune.sh 2 4 -o t.json   # then read the ranges of t.json
// Beyond 4 ranks nothing was measured here: the thresholds are MPICH's defaults (measured on
// clusters), and the cost models in each algorithm's header say why: latency-bound messages get
// the ⌈log p⌉-step algorithms, bandwidth-bound ones those that move (p−1)/p of the data.
//
//   bytes: the size key, as collbench counts it (bench/metrics.hpp): the vector for broadcast,
//   reduce, allreduce, scan, exscan; the whole p-block array for scatter, gather, allgather,
//   reduce_scatter, alltoall; the whole result or vector for allgatherv, reduce_scatterv.
//
//   collective      rule
//   broadcast       few ranks or < 12 KiB: binomial;  otherwise scatter_allgather
//                   (np 4: binomial within 1% of the fastest from 32 KiB to 2 MiB, scatter_allgather
//                   1.5–3× slower)
//   scatter/gather  binomial (np 4: naive and binomial trade places band by band)
//   reduce          few ranks: naive (np 4: the fastest or within 3% in 5 of 6 bands, binomial and
//                   rabenseifner 1.3–2.9× slower);  commutative, ≥ 2 KiB and count ≥ p:
//                   rabenseifner;  otherwise binomial
//   allgather       few ranks and p a power of two: recursive_doubling (np 4: within 9% of the
//                   fastest in every band above 512 B);  result < 80 KiB: recursive_doubling if p is
//                   a power of two, else bruck;  < 512 KiB and p a power of two: recursive_doubling;
//                   otherwise ring
//   reduce_scatter  non-commutative: naive;  whole vector < 2 MiB: recursive_halving (np 4: within 3%
//                   up to 2 MiB, 1.6× ring's time above);  otherwise ring
//   alltoall        p ≥ 4 and whole array ≤ 4 KiB, or block ≤ 256 B and p ≥ 8: bruck (np 4: bruck
//                   within 16% below 4 KiB, pairwise 1.6–1.8×);  otherwise pairwise
//   allreduce       3–4 ranks: naive below 2 MiB (np 4: within 17% of the fastest in every band up
//                   to 2 MiB, recursive_doubling and rabenseifner up to 1.8× and 3×) or when it
//                   cannot be cut (non-commutative, count < p); from 2 MiB as below;
//                   non-commutative, < 8 KiB or count < p: recursive_doubling;  p a power of two:
//                   rabenseifner;  otherwise ring (no fold traffic)
//   barrier         dissemination (⌈log p⌉ rounds for every p; np 4: the fastest)
//   scan, exscan    few ranks: naive (np 4: the fastest in every band, recursive_doubling 1.2–3.6×
//                   slower: the chain of p−1 has fewer steps than it sounds at p ≤ 4);  otherwise
//                   recursive_doubling (⌈log p⌉ steps instead of a chain of p−1); both keep rank
//                   order, so commutativity does not matter
//
// The v-variants choose only by what every rank knows alike (the counts of gatherv and scatterv
// live at the root, those of alltoallv differ between ranks), so that all ranks agree. "Skewed":
// the largest block is more than twice the average, where the ring's p−1 steps each wait for it.
//   gatherv           few ranks: naive (np 4: within 21% in every band, binomial 1.1–1.7×);
//                     otherwise binomial
//   scatterv          few ranks: naive (np 4, three full compare.sh runs: naive's time ÷ the
//                     faster of the two 1.07–1.10 as a geometric mean over 16 B–16 MiB, binomial's
//                     1.12–1.21; binomial leads by up to 1.3× at 2–256 KiB, naive by 1.3× below
//                     1 KiB and 1.6× from 4 MiB); otherwise binomial
//   allgatherv        as allgather (skewed: recursive_doubling or bruck, never ring)
//   alltoallv         pairwise
//   reduce_scatterv   non-commutative: naive;  whole vector < 2 MiB or skewed: recursive_halving;
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

// The size key: what collbench calls bytes (bench/metrics.hpp), for the table and the rule alike;
// `bytes` is what a call passes (one block of the p-block collectives).
std::size_t size_key(collective c, int p, std::size_t bytes) {
  return keyed_by_whole_array(c) ? bytes * static_cast<std::size_t>(p) : bytes;
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
  constexpr std::size_t KiB = 1024, MiB = 1024 * KiB;
  const bool power_of_two = std::has_single_bit(static_cast<unsigned>(p));
  const bool few_ranks = p <= 4;  // measured on this machine class; MPICH's thresholds above
  const auto allgather = [&](bool skew) {
    if ((few_ranks && power_of_two) || bytes < 80 * KiB || skew)
      return power_of_two ? algorithm::recursive_doubling : algorithm::bruck;
    return bytes < 512 * KiB && power_of_two ? algorithm::recursive_doubling : algorithm::ring;
  };
  switch (c) {
    case collective::broadcast:
      return few_ranks || bytes < 12 * KiB ? algorithm::binomial : algorithm::scatter_allgather;
    case collective::scatter:
    case collective::gather:
      return algorithm::binomial;
    case collective::reduce:
      if (few_ranks) return algorithm::naive;
      return commutative && bytes >= 2 * KiB && !fewer_elements_than_ranks ? algorithm::rabenseifner
                                                                           : algorithm::binomial;
    case collective::allgather:
      return allgather(false);
    case collective::reduce_scatter:
      if (!commutative) return algorithm::naive;
      return bytes < 2 * MiB ? algorithm::recursive_halving : algorithm::ring;
    case collective::alltoall:
      return (p >= 4 && bytes <= 4 * KiB) || (p >= 8 && bytes <= 256 * static_cast<std::size_t>(p))
                 ? algorithm::bruck
                 : algorithm::pairwise;
    case collective::allreduce:
      // p = 2 keeps recursive doubling: on one host it sends naive's two messages, and across
      // hosts (the hierarchical algorithm's step 2) its pairs alternate which side sends first.
      if (few_ranks && p > 2 && (bytes < 2 * MiB || !commutative || fewer_elements_than_ranks))
        return algorithm::naive;
      if (!commutative || bytes < 8 * KiB || fewer_elements_than_ranks) return algorithm::recursive_doubling;
      return power_of_two ? algorithm::rabenseifner : algorithm::ring;
    case collective::barrier:
      return algorithm::dissemination;
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
      if (!commutative) return algorithm::naive;
      return bytes < 2 * MiB || skewed ? algorithm::recursive_halving : algorithm::ring;
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
  // As for the table's algorithm: only sizes every rank knows alike, and equal blocks (measured).
  const bool skewed = largest_block * static_cast<std::size_t>(p) > 2 * bytes;
  if (!size_known_alike(c) || skewed) return false;
  const auto& table = active_tuning();
  return table && table->vendor_fastest(c, p, size_key(c, p, bytes)).value_or(false);
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
