// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The C boundary: argument checks that become MPI error classes, the guard that sends the
// library's own MPI calls straight to the MPI library, the choice of algorithm, and the report's
// bookkeeping (what a thread remembers of its last calls is in memory.hpp). Everything a call
// passes through on its way to the library or to PMPI_ is inline here and costs no MPI call once
// the call's shape is known (bench/dropin_instructions.sh counts it); what each step costs and
// why: docs/design.md, "The drop-in's path".

#include <mpi.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "collectives/detail/request.hpp"
#include "dispatch/automatic.hpp"
#include "kit/collective_traits.hpp"
#include "kit/transport.hpp"
#include "pmpi/datatypes.hpp"
#include "pmpi/functions.hpp"
#include "pmpi/report.hpp"

namespace collectives::pmpi {

/// A bad argument: becomes `error_class` through the communicator's error handler.
struct mpi_failure {
  int error_class;
  std::string message;
};

/// Per thread: > 0 while this thread runs the library's code for a drop-in call.
extern constinit thread_local int library_depth;

/// True while this thread runs the library's code for a drop-in call: an MPI collective called
/// from there (the library's MPI_Allreduce for collective argument checks, the vendor variant,
/// anything the MPI library calls back) is forwarded unchanged and uncounted, never served again.
inline bool inside_library() { return library_depth > 0; }

/// Per MPI function: true when every call goes to PMPI_ unchanged and uncounted (its collective
/// is selected `vendor` and there is no report), so the entry point forwards before anything
/// else. False until the plan is made (at MPI_Init, or at the first collective call).
extern constinit std::array<std::atomic<bool>, functions.size()> straight_to_mpi;

/// True when the entry point of `f` forwards this call at once: straight_to_mpi, or the guard.
inline bool forward_at_once(mpi_function f) {
  return straight_to_mpi[static_cast<std::size_t>(f)].load(std::memory_order_relaxed) || inside_library();
}

using detail::collective_count;

/// The settings as each call reads them: made once per process from current_settings() (which
/// stops the job, as MPI_Init would have, when the selection is invalid).
struct plan {
  std::array<selection, collective_count> chosen{};
  std::array<bool, collective_count> fastest{};
  bool report = false;
};
const plan& make_plan();
inline const plan& current_plan() {
  static const plan& p = make_plan();
  return p;
}

/// Checks one call's arguments on this rank, before any message, throwing mpi_failure.
class arguments {
 public:
  /// Throws MPI_ERR_COMM for MPI_COMM_NULL; learns rank, size and whether comm is an
  /// intercommunicator: from the library's record when this thread's last call was on comm (a
  /// record exists only for intracommunicators), else from MPI.
  arguments(mpi_function fn, MPI_Comm c) : f(fn), comm(c) {
    if (const detail::comm_info* known = detail::last_comm_info(c)) [[likely]] {
      rank = known->rank;
      size = known->size;
      return;
    }
    query();
  }

  [[noreturn, gnu::cold]] void fail(int error_class, std::string_view problem) const;
  void count(std::string_view name, int c) const {
    if (c < 0) [[unlikely]]
      bad_count(name, c);
  }
  void type(std::string_view name, MPI_Datatype t) const {
    if (t == MPI_DATATYPE_NULL) [[unlikely]]
      bad_type(name);
  }
  void root(int r) const {
    if (r < 0 || r >= size) [[unlikely]]
      bad_root(r);
  }
  void op(MPI_Op o) const {
    if (o == MPI_OP_NULL) [[unlikely]]
      fail(MPI_ERR_OP, "op is MPI_OP_NULL");
  }
  void not_in_place(std::string_view name, const void* buf) const {
    if (buf == MPI_IN_PLACE) [[unlikely]]
      bad_in_place(name);
  }
  /// A null buffer holding data (MPI_BOTTOM with a type of absolute addresses is fine).
  void buffer(std::string_view name, const void* buf, int c, const layout& l) const {
    if (buf == nullptr && c > 0 && l.size > 0 && l.true_lb == 0) [[unlikely]]
      bad_buffer(name, c);
  }
  /// Send and receive sides must carry the same bytes per block.
  void same_bytes(std::size_t send_bytes, std::size_t recv_bytes) const {
    if (send_bytes != recv_bytes) [[unlikely]]
      bad_bytes(send_bytes, recv_bytes);
  }

  /// `type`'s layout, valid while this object lives: the table's for a predefined datatype (no MPI
  /// call), else MPI's answer now, kept here for this call only (a derived datatype's handle can be
  /// freed and reused for another type).
  const layout& describe(MPI_Datatype type) const {
    if (const predefined_type* p = predefined_type_table().find(type)) [[likely]]
      return p->l;
    return ask(type);
  }

  mpi_function f;
  MPI_Comm comm;
  int rank = 0;
  int size = 0;
  bool inter = false;

 private:
  [[gnu::noinline]] void query();
  [[gnu::noinline]] const layout& ask(MPI_Datatype type) const;
  mutable std::array<layout, 2> asked_;  ///< a call's derived datatypes: its send and receive types
  mutable std::size_t asked_count_ = 0;
  [[noreturn, gnu::cold]] void bad_count(std::string_view name, int c) const;
  [[noreturn, gnu::cold]] void bad_type(std::string_view name) const;
  [[noreturn, gnu::cold]] void bad_root(int r) const;
  [[noreturn, gnu::cold]] void bad_in_place(std::string_view name) const;
  [[noreturn, gnu::cold]] void bad_buffer(std::string_view name, int c) const;
  [[noreturn, gnu::cold]] void bad_bytes(std::size_t send_bytes, std::size_t recv_bytes) const;
};

/// `a` on a communicator of p < a.radix ranks: the largest radix p allows (a power of two for the
/// algorithms that need one), the default below 2 ranks.
selection radix_within(collective c, selection a, int p);

/// The algorithm serving collective `c`: the selection, or automatic's choice when it is
/// automatic or cannot keep the rank order a non-commutative op needs. The v-variants pass
/// what every rank knows alike, as detail::choose_automatic takes it (0 where nothing is). A
/// radix above a communicator's p runs as the largest radix p allows (make_plan checked it
/// against MPI_COMM_WORLD's).
inline selection choose(collective c, int p, std::size_t bytes, std::size_t count, bool commutative,
                        std::size_t largest_block = 0) {
  const selection a = current_plan().chosen[static_cast<std::size_t>(c)];
  if (a.alg == algorithm::automatic || (!commutative && !keeps_rank_order(c, a.alg)))
    return detail::choose_automatic(c, p, bytes, count, commutative, largest_block);
  if (a.radix > p) [[unlikely]]
    return radix_within(c, a, p);
  return a;
}

/// Runs the library on `r` (its algorithm already chosen) with the guard set.
inline void run_library(const detail::request& r) {
  struct scope {
    scope() { ++library_depth; }
    ~scope() { --library_depth; }
  } const guard;
  detail::run(r);
}

int raise(MPI_Comm comm, int error_class, const std::string& message);
[[gnu::cold]] int raise_out_of_memory(mpi_function f, MPI_Comm comm);

/// Converts failures into MPI error classes and, when the report is on, times the call and
/// records its outcome. Always inline: it wraps a served path whole (skeleton.hpp), and a call to it
/// would cost every call served from memory.
template <class Body>
[[gnu::always_inline]] inline int at_boundary(mpi_function f, MPI_Comm comm, Body&& body) {
  try {
    // One call of body, so that the compiler inlines it here.
    const bool report = current_plan().report;
    std::chrono::steady_clock::time_point start{};
    if (report) [[unlikely]]
      start = std::chrono::steady_clock::now();
    const outcome o = body();
    if (report) [[unlikely]]
      record(f, o, std::chrono::steady_clock::now() - start);
    return o.code;
  } catch (const mpi_failure& e) {
    return raise(comm, e.error_class, e.message);
  } catch (const std::bad_alloc&) {
    return raise_out_of_memory(f, comm);
  } catch (const std::exception& e) {  // collectives::error, or an MPI failure inside the library
    return raise(comm, MPI_ERR_OTHER, e.what());
  }
}

inline outcome served(algorithm a, std::size_t bytes) { return {true, a, {}, bytes, MPI_SUCCESS}; }
inline outcome forwarded(forward_reason r, std::size_t bytes, int code) {
  return {false, {}, r, bytes, code};
}

}  // namespace collectives::pmpi
