// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// --model: the machine parameters of the α-β-γ cost model, measured in the same run.
//   α  latency of one message, and β  seconds per byte: a least-squares fit of the one-way
//      time t(m) = α + m·β of a ping-pong between ranks 0 and 1 over sizes 1 B … the run's
//      largest message (at least 4 MiB), weighted by 1/t² so small and large messages count
//      alike (relative error). Two ping-pongs, since on one node a message's time depends on
//      where its bytes sit (the receiver copies them out of the sender's memory):
//        forward  one buffer bounced: every message sends what the sender just received, so its
//                 bytes are dirty in the other core's cache (β);
//        clean    a send buffer per rank, never written while timed, and a separate receive
//                 buffer: every message sends bytes the sender did not just write (β_clean);
//   γ  seconds per byte reduced: the library's own reduction kernel for the run's type and op,
//      over 8 MiB, on rank 0;
//   memcpy bandwidth: std::memcpy of 16 MiB on rank 0, bytes copied per second;
//   and the time of a reduction and of a memcpy of 4 KiB, 8 KiB, … ×2 up to the run's largest
//   message (at least 4 MiB), on rank 0: within the caches both run several times faster than
//   from memory, and the model prices a call's copies and reductions at its size;
//   an eager exchange: ranks 0 and 1 both send m bytes, then both receive the other's (what
//   transport::exchange does up to the eager size E), 1 B … E by ×2: the time of one exchange,
//   which is not the ping-pong's one way (both ranks copy in and out of the same queues at once).
// Rank 0 measures alone while the others wait, so these are the figures of one core.

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "measure/types.hpp"

namespace collbench {

struct pingpong_point {
  std::size_t bytes;
  double seconds;  ///< one way: half the median round trip (copy, reduce: the median time)
};

struct machine {
  double alpha = 0;                      ///< s
  double beta = 0;                       ///< s per byte, forwarding what was just received
  double beta_clean = 0;                 ///< s per byte, sending bytes the sender did not just write
  double gamma = 0;                      ///< s per byte reduced
  double memcpy_bandwidth = 0;           ///< bytes per s
  std::vector<pingpong_point> pingpong;  ///< forward; empty with one rank (α = β = 0)
  std::vector<pingpong_point> pingpong_clean;
  std::vector<pingpong_point> copy, reduce;  ///< on rank 0
  std::vector<pingpong_point> exchange;      ///< an eager exchange's time; empty when E = 0
};

/// Collective over `comm`; the result is the same on every rank. `largest`: the run's largest
/// message in bytes, where the ping-pongs stop (4 MiB if smaller); `eager`: the largest message
/// ranks 0 and 1 send eagerly, where the exchanges stop (0: none).
machine measure_machine(MPI_Comm comm, element_kind type, op_kind op, std::size_t largest, std::size_t eager);

enum class pingpong_kind { forward, clean };

/// The one-way times of a ping-pong between ranks 0 and 1 of `comm` (1 B … 4 MiB by ×2, or up to
/// `largest`, the last point at `largest`); only those two ranks call it, with their rank.
std::vector<pingpong_point> pingpong(MPI_Comm comm, int rank, pingpong_kind kind = pingpong_kind::forward,
                                     std::size_t largest = std::size_t{4} << 20);

/// Both ping-pongs at once, their round trips alternating at every size (1 B … `largest` by ×2,
/// the last point at `largest`); only ranks 0 and 1 call it, with their rank.
void pingpongs(MPI_Comm comm, int rank, std::size_t largest, std::vector<pingpong_point>& forward,
               std::vector<pingpong_point>& clean);

/// The weighted least-squares line through the points (α clamped at 0).
void fit_alpha_beta(const std::vector<pingpong_point>& points, double& alpha, double& beta);

}  // namespace collbench
