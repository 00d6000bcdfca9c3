// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// --model: the machine parameters of the α-β-γ cost model, measured in the same run, on ranks 0
// and 1 while the others wait (the figures of one core): two ping-pongs (forward: bytes the sender
// just received; clean: bytes it never wrote), α and β their least-squares line; γ the library's
// own reduction kernel and the memcpy bandwidth, and both per size from 4 KiB up; an eager
// exchange, 1 B … E. What each measures and why: docs/benchmark.md, "The model (--model)".

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
