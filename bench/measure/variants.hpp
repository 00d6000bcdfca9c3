// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// What collbench measures for one collective: the rows ("variants"). Each is either a library
// algorithm called through the public API, or an MPI collective called directly:
//   - vendor, the baseline: MPI_<Collective> itself, as an application calls it (through the
//     drop-in, or any tool that intercepts MPI_*, when one is preloaded);
//   - pmpi, only when named: PMPI_<Collective>, the MPI library's own even when MPI_* is
//     intercepted, so that one launch through the drop-in measures it beside the MPI library;
//   - vendor:<name>: one of the MPI library's internal algorithms, forced through MPI_T: Open
//     MPI's coll/tuned on a communicator duplicated while coll_tuned_<collective>_algorithm names
//     it (forcing_scope's per-call MPIR_CVAR_<COLLECTIVE>_INTRA_ALGORITHM for MPICH), or SimGrid
//     SMPI's algorithms and selectors switched around a row's calls (smpi_colls.hpp, ompi41.hpp).
// docs/benchmark.md (vendor:<name>) says how each is forced and why.

#include <mpi.h>
#if COLLBENCH_SMPI
#include "measure/mpit_smpi.hpp"
#endif

#include <collectives/algorithm.hpp>

#ifndef COLLBENCH_SMPI
#define COLLBENCH_SMPI 0
#endif
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace collbench {

/// A control variable held at `value` around each call of a row, then set back to `restore`.
struct cvar_setting {
  MPI_T_cvar_handle handle;
  int value;
  int restore;
};

struct variant {
  std::string label;  ///< "vendor", "ring", "vendor:ring": the row name
  /// A library algorithm (with a radix for a row named `knomial:8`); `vendor` for the rows that
  /// call MPI directly.
  collectives::selection alg = collectives::algorithm::vendor;
  /// A vendor internal: the communicator on which the MPI library is locked to it.
  MPI_Comm forced_comm = MPI_COMM_NULL;
  /// A vendor internal of MPICH: what forcing_scope sets around each call.
  std::vector<cvar_setting> per_call = {};
  /// SimGrid SMPI: the algorithm or selector set around the row's calls, and the launch's own to
  /// go back to (smpi_colls.hpp, workload.hpp's smpi_selection).
  std::string smpi_choice = {}, smpi_restore = {};
  /// The pmpi row: PMPI_<Collective> instead of MPI_<Collective>.
  bool profiling_name = false;
};

/// Holds a variant's per-call control variables for its lifetime (nothing for the others).
/// Throws if one cannot be written; aborts the run if one cannot be set back.
class forcing_scope {
 public:
  explicit forcing_scope(const variant& v);
  ~forcing_scope();
  forcing_scope(const forcing_scope&) = delete;
  forcing_scope& operator=(const forcing_scope&) = delete;

 private:
  const std::vector<cvar_setting>& settings_;
};

/// One internal algorithm of the MPI library, as its control variable names it.
struct vendor_internal {
  collectives::collective coll;
  std::string name;       ///< e.g. "ring", "recursive_doubling" (normalised to snake_case)
  int value;              ///< the control variable's value that selects it
  int segment_bytes = 0;  ///< the segment size forced with it; 0: the algorithm is not segmented
};

/// The library's pipeline segment in bytes, as src/kit/segment.cpp reads it, which the segmented
/// vendor internals are given too: COLLECTIVES_PIPELINE_SEGMENT_BYTES, a positive integer, else
/// `unset` (the chain's 64 KiB). (A value the library rejects stops the run at the first
/// pipelined call; here it counts as unset.)
std::size_t pipeline_segment_bytes(std::size_t unset = 65536);

/// Before MPI_Init: turns on Open MPI's coll_tuned_use_dynamic_rules in this process's
/// environment unless the user set it. Returns true if it did.
bool enable_vendor_forcing();

/// The MPI library's internal algorithms that can be forced here, discovered through MPI_T, and
/// the communicators locked to them. Construct and destroy collectively (after MPI_Init, before
/// MPI_Finalize).
class vendor_internals {
 public:
  vendor_internals(MPI_Comm base, int ranks);
  ~vendor_internals();
  vendor_internals(const vendor_internals&) = delete;
  vendor_internals& operator=(const vendor_internals&) = delete;

  std::span<const vendor_internal> available() const { return available_; }
  /// Why nothing is available (empty when something is).
  const std::string& unavailable_reason() const { return reason_; }
  /// Why `name` ("vendor:<name>") of `c` is left out here, or empty: SimGrid's algorithms that fail
  /// at this process count (smpi_colls.hpp: unusable).
  std::string left_out(collectives::collective c, std::string_view name) const;
  /// Every one left out here, with its reason.
  std::span<const std::pair<vendor_internal, std::string>> left_out() const { return left_out_; }
  /// A communicator locked to `v` (collective: every rank must ask for the same ones in the
  /// same order). Kept until destruction. With MPICH, `base` itself.
  MPI_Comm communicator(const vendor_internal& v);
  /// MPICH: the control variables to hold around each call of `v`; empty for Open MPI.
  std::vector<cvar_setting> per_call(const vendor_internal& v) const;
  /// Forcing through MPICH's per-call control variables (rather than Open MPI's communicators).
  bool mpich() const { return !mpich_.empty(); }
  /// SimGrid SMPI's algorithms, switched per call (smpi_colls.hpp).
  static constexpr bool smpi() { return COLLBENCH_SMPI != 0; }

 private:
  /// MPICH's two control variables of one collective, and their values at start-up.
  struct mpich_cvars {
    MPI_T_cvar_handle algorithm = MPI_T_CVAR_HANDLE_NULL, device = MPI_T_CVAR_HANDLE_NULL;
    int algorithm_default = 0, device_default = 0;
    bool valid = false;
  };
  void discover_mpich();
  /// Open MPI's coll/tuned variables, each value probed (some are listed but refused).
  void discover_open_mpi(int ranks);

  struct locked {
    collectives::collective coll;
    int value;
    MPI_Comm comm;
  };
  MPI_Comm base_;
  bool mpit_ = false;
  std::vector<vendor_internal> available_;
  std::vector<std::pair<vendor_internal, std::string>> left_out_;  ///< with the reason
  std::vector<int> cvar_index_;     ///< per collective, -1 if none
  std::vector<int> segment_index_;  ///< per collective, its segment size variable, -1 if none
  std::vector<locked> comms_;
  std::vector<mpich_cvars> mpich_;  ///< per collective, in all_collectives() order; empty: not MPICH
  std::string reason_;
};

/// The variants to measure for `c`, in row order: vendor first (always: the baseline), then the
/// library's requested algorithms in algorithms_for() order, then the requested vendor
/// internals. `requested` holds names as checked by check_selection.
std::vector<variant> select_variants(collectives::collective c, const std::vector<std::string>& requested,
                                     vendor_internals& internals);

/// Empty if every requested name exists for at least one of `colls`, else the message of the
/// usage error (a name no selected collective has: unknown or mismatched). A vendor:<name> that
/// exists but is left out at this process count (vendor_internals::left_out) is an error too, with
/// its reason, unless `skip_left_out`.
std::string check_selection(std::span<const collectives::collective> colls,
                            const std::vector<std::string>& requested, const vendor_internals& internals,
                            bool skip_left_out = false);

}  // namespace collbench
