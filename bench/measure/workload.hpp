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

#include "measure/types.hpp"
#include "measure/variants.hpp"

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
  /// SimGrid SMPI: selects a vendor:<name> row's algorithm for every call that follows until
  /// release_smpi_choice(), of any rank (smpi_colls.hpp); nothing for the other rows and MPI
  /// libraries. Both are collective: see smpi_selection.
  virtual void select_smpi_choice(const variant& v) = 0;
  virtual void release_smpi_choice(const variant& v) = 0;
  /// This rank's result: empty where the collective defines none (gather, reduce off the root).
  virtual std::span<std::byte> result() = 0;
  virtual std::size_t element_size() const = 0;
};

/// Holds a SimGrid SMPI row's algorithm selected for its lifetime (nothing for the other rows and
/// MPI libraries): construct it around the row's calls, collectively. SMPI's choice of algorithm is
/// one global of the simulator, shared by all simulated ranks and read at every dispatch of a
/// collective, nested ones included (an all-reduce made of a reduce and a broadcast dispatches its
/// broadcast when its reduce is done). It must therefore not change while any rank is inside a call:
/// a rank that had finished its calls and set it back, while another still waited inside one with
/// the row's choice in force, would dispatch its next collective (collbench's own all-reduce of the
/// times) through the row's choice, the other ranks through the launch's, and messages of one call
/// would be received by another. So a barrier comes before the choice is set (every rank is past its
/// earlier calls) and another before it is set back (every rank is past the row's calls).
class smpi_selection {
 public:
  smpi_selection(workload& w, const variant& v) : w_(w), v_(v) { w_.select_smpi_choice(v_); }
  ~smpi_selection() { w_.release_smpi_choice(v_); }
  smpi_selection(const smpi_selection&) = delete;
  smpi_selection& operator=(const smpi_selection&) = delete;

 private:
  workload& w_;
  const variant& v_;
};

/// `skew` shapes the v-variants' blocks: rank r's block ∝ 1 + skew·r/(p−1), 0 = equal (see
/// v_counts); the other collectives ignore it.
std::unique_ptr<workload> make_workload(collectives::collective c, element_kind type, op_kind op, int root,
                                        MPI_Comm comm, double skew = 0);

}  // namespace collbench
