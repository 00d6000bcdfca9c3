// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// One collective with its buffers, for one element type and op: what the measurement loop runs,
// fills and checks without knowing the type. Library algorithms go through the public typed API;
// vendor internals call the MPI collective on their locked communicator.

#include <mpi.h>

#include <collectives/algorithm.hpp>
#include <cstddef>
#include <memory>
#include <span>

#include "types.hpp"
#include "variants.hpp"

namespace collbench {

class workload {
 public:
  virtual ~workload() = default;
  /// Sizes the buffers for calls of `call_count` elements (message::call_count).
  virtual void resize(std::size_t call_count) = 0;
  /// Inputs ← values unique per rank and index (chosen so that any order of reduction gives the
  /// same bits); outputs ← the bitwise complement of `reference` (the expected result, as
  /// result() lays it out), so that an element never written differs from it in every byte, or
  /// a marker byte when `reference` is empty.
  virtual void fill(std::span<const std::byte> reference) = 0;
  virtual void run(const variant& v) = 0;
  /// This rank's result: empty where the collective defines none (gather, reduce off the root).
  virtual std::span<std::byte> result() = 0;
  virtual std::size_t element_size() const = 0;
};

/// `skew` shapes the v-variants' blocks: rank r's block ∝ 1 + skew·r/(p−1), 0 = equal (see
/// v_counts); the other collectives ignore it.
std::unique_ptr<workload> make_workload(collectives::collective c, element_kind type, op_kind op, int root,
                                        MPI_Comm comm, double skew = 0);

}  // namespace collbench
