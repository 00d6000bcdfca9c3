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

#include <bit>

namespace collectives::detail {

algorithm choose_automatic(collective c, int p, std::size_t bytes, std::size_t count, bool commutative,
                           std::size_t largest_block) {
  constexpr std::size_t KiB = 1024;
  const bool power_of_two = std::has_single_bit(static_cast<unsigned>(p));
  const std::size_t whole = bytes * static_cast<std::size_t>(p);  // all p blocks
  const bool fewer_elements_than_ranks = count < static_cast<std::size_t>(p);
  const bool skewed =
      largest_block * static_cast<std::size_t>(p) > 2 * bytes;  // v-variants: bytes is the whole
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
      if (whole < 80 * KiB) return power_of_two ? algorithm::recursive_doubling : algorithm::bruck;
      return whole < 512 * KiB && power_of_two ? algorithm::recursive_doubling : algorithm::ring;
    case collective::reduce_scatter:
      if (!commutative) return algorithm::naive;
      return whole < 512 * KiB ? algorithm::recursive_halving : algorithm::ring;
    case collective::alltoall:
      return bytes <= 256 && p >= 8 ? algorithm::bruck : algorithm::pairwise;
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

}  // namespace collectives::detail
