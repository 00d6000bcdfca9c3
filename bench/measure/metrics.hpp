// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// What a message size means for each collective, and the bandwidth figures derived from a time,
// as nccl-tests defines them (github.com/NVIDIA/nccl-tests, doc/PERFORMANCE.md).
//
//   bytes   broadcast, reduce, allreduce, scan, exscan: the vector every rank holds; the block
//           collectives and the v-variants (counts_whole_array): the whole p-block array (the
//           root's buffer, the gathered result, the unreduced input, each rank's send; the
//           v-variants' p blocks sum to it whatever --skew makes of them, alltoallv's are what
//           each rank receives); barrier: 0 (it moves no data: time only).
//   algbw   bytes / time.
//   busbw   algbw × factor(p): the bandwidth each rank's link must sustain, comparable across
//           collectives and with the hardware's peak: 2(p−1)/p for allreduce; (p−1)/p for the
//           block collectives and their v-variants (as with equal blocks: skew does not change
//           it); 1 for broadcast, reduce, scan and exscan (a rank's link carries about one
//           vector); 0 for barrier. Each collective's bus_share (kit/collective.hpp) says which.

#include <collectives/algorithm.hpp>
#include <cstddef>
#include <optional>
#include <vector>

namespace collbench {

/// True when `bytes` counts the whole p-block array rather than one rank's vector.
bool counts_whole_array(collectives::collective c);
bool reduces(collectives::collective c);
bool has_root(collectives::collective c);
/// True for a collective that moves no data (barrier): measured once, at 0 bytes, time only.
bool time_only(collectives::collective c);

double busbw_factor(collectives::collective c, int ranks);

/// One measured message: `bytes` as defined above, `count` = bytes / element size, and
/// `call_count`, the element count the library call takes (the vector, or one rank's block).
struct message {
  std::size_t bytes;
  std::size_t count;
  std::size_t call_count;
  bool operator==(const message&) const = default;
};

/// The message closest to `requested` bytes that the collective can carry at `ranks`: the
/// p-block collectives round down to whole elements per block; std::nullopt when not even one
/// element per block fits. A time-only collective has one message, 0 bytes, whatever is requested.
std::optional<message> shape(collectives::collective c, std::size_t requested, std::size_t elem_size,
                             int ranks);

/// The v-variants' block sizes for `total` elements on `ranks` ranks (--skew): rank r's share
/// ∝ 1 + skew·r/(p−1), rounded down, the elements left over going one each to the first ranks,
/// so that they sum to `total`.
std::vector<std::size_t> v_counts(std::size_t total, int ranks, double skew);

/// GB/s (10⁹ bytes per second) for `bytes` moved in `seconds`.
double gigabytes_per_second(std::size_t bytes, double seconds);

}  // namespace collbench
