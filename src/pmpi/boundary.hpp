// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The C boundary: argument checks that become MPI error classes, the guard that sends the
// library's own MPI calls straight to the MPI library, and the serve/forward bookkeeping.
//
// Everything a call passes through on its way to the library or to PMPI_ is inline here and costs
// no MPI call once the call's shape is known (bench/dropin_instructions.sh counts it):
//   - a collective that COLLECTIVES_ALGORITHMS sends to `vendor`, with no report, goes to PMPI_
//     at the C entry point itself: one load (straight_to_mpi);
//   - the communicator's rank and size come from the library's record of it when this thread's
//     previous call was on it (core/transport.hpp), else from three MPI calls (query);
//   - the datatype's layout and the op's kernel come from tables of the predefined ones
//     (datatypes.hpp); derived datatypes and user ops are asked of MPI on every call, since
//     their handles can be freed and reused;
//   - the selection is read once per process into a plan; clocks are read and counters added
//     only when the report is on.

#include <mpi.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "collectives/detail/request.hpp"
#include "core/automatic.hpp"
#include "core/transport.hpp"
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

inline constexpr std::size_t collective_count = static_cast<std::size_t>(collective::reduce_scatterv) + 1;

/// The settings as each call reads them: made once per process from current_settings() (which
/// stops the job, as MPI_Init would have, when the selection is invalid).
struct plan {
  std::array<algorithm, collective_count> chosen{};
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

/// The algorithm serving collective `c`: the selection, or automatic's choice when it is
/// automatic or cannot keep the rank order a non-commutative op needs. The v-variants pass
/// what every rank knows alike, as detail::choose_automatic takes it (0 where nothing is).
inline algorithm choose(collective c, int p, std::size_t bytes, std::size_t count, bool commutative,
                        std::size_t largest_block = 0) {
  const algorithm a = current_plan().chosen[static_cast<std::size_t>(c)];
  if (a == algorithm::automatic || (!commutative && !keeps_rank_order(c, a)))
    return detail::choose_automatic(c, p, bytes, count, commutative, largest_block);
  return a;
}

/// `fastest`'s last answer per collective on this thread, with what it was asked of: calls repeat
/// their shapes, and the decision table's lookup (detail::vendor_fastest) cost about 300
/// instructions per call (callgrind), more than PMPI_Allreduce's 255 at np 1. The answer is a
/// function of the key and the table in force, whose generation is part of the key.
struct fastest_memo {
  std::uint64_t generation = 0;  // no table has generation 0: a thread's first call asks
  int p = 0;
  std::size_t bytes = 0, largest_block = 0;
  bool vendor = false;
};
extern constinit thread_local std::array<fastest_memo, collective_count> last_fastest;

/// detail::vendor_fastest, remembered per thread and collective.
inline bool vendor_fastest(collective c, int p, std::size_t bytes, std::size_t largest_block) {
  fastest_memo& m = last_fastest[static_cast<std::size_t>(c)];
  const std::uint64_t generation = detail::tuning_generation();  // read before asking
  if (m.generation == generation && m.p == p && m.bytes == bytes && m.largest_block == largest_block)
      [[likely]]
    return m.vendor;
  const bool vendor = detail::vendor_fastest(c, p, bytes, largest_block);
  m = {generation, p, bytes, largest_block, vendor};
  return vendor;
}

/// Why this call of collective `c` goes to the MPI library: COLLECTIVES_ALGORITHMS selected
/// `vendor`, or `fastest` and the decision table measured vendor clearly faster for it (the
/// arguments as choose takes them, so every rank decides alike); std::nullopt when the library
/// serves it.
inline std::optional<forward_reason> to_vendor(collective c, int p, std::size_t bytes,
                                               std::size_t largest_block = 0) {
  const plan& s = current_plan();
  const std::size_t i = static_cast<std::size_t>(c);
  if (s.chosen[i] == algorithm::vendor) [[unlikely]]
    return forward_reason::vendor_chosen;
  if (s.fastest[i] && vendor_fastest(c, p, bytes, largest_block)) return forward_reason::vendor_fastest;
  return std::nullopt;
}

/// A call's arguments other than its communicator and buffers, as integers: counts, datatype and op
/// handles, root, and whether a buffer is MPI_IN_PLACE, two ints to a word (both_ints). Zero where
/// a function has fewer.
using call_shape = std::array<std::uint64_t, 4>;
template <class... Args>
call_shape shape_of(Args... args) {
  static_assert(sizeof...(Args) <= std::tuple_size_v<call_shape>);
  return {static_cast<std::uint64_t>(predefined_types::bits(args))...};
}
/// Two ints in one word of a call_shape.
inline std::uint64_t both_ints(int high, int low) {
  return static_cast<std::uint64_t>(static_cast<std::uint32_t>(high)) << 32 | static_cast<std::uint32_t>(low);
}

/// Which of a call's buffers are MPI_IN_PLACE (send 1, receive 2), for its shape: where MPI_IN_PLACE
/// is wrong, the checks refused it and the shape was not remembered.
inline unsigned in_place_bits(const void* sendbuf, const void* recvbuf) {
  return (sendbuf == MPI_IN_PLACE ? 1u : 0u) | (recvbuf == MPI_IN_PLACE ? 2u : 0u);
}

/// Bumped by every MPI_Comm_free and MPI_Comm_disconnect (the drop-in defines them), before the
/// handle is freed: a communicator handle can be reused only after it.
extern constinit std::atomic<std::uint64_t> comms_freed;

/// Per thread and MPI function, the last call `fastest` sent to the MPI library, by its shape: the
/// next call of that shape on that communicator goes to PMPI_ from the entry point, with no check
/// and no lookup (forwarded_last_time; bench/dropin_instructions.sh, MPI_Allreduce 8 B at np 1:
/// 788 instructions → 296, PMPI_Allreduce's own 255). Remembered only with the report off (the
/// shortcut counts nothing) and when every datatype the decision read is predefined (a predefined
/// handle never changes, so the same counts mean the same bytes). The decision is a function of
/// the bytes, the communicator's size and the decision table: the table's generation is part of
/// the record, and so is comms_freed (no communicator freed since: the handle is still a
/// communicator of that size). The arguments' checks passed for that shape; only the buffers are
/// new, and the MPI library checks those.
struct forwarded_shape {
  std::uint64_t tuning_generation = 0;  // no table has generation 0: none yet
  MPI_Comm comm{};
  call_shape shape{};
  std::uint64_t comms_freed = 0;
};
extern constinit thread_local std::array<forwarded_shape, functions.size()> last_forwarded;
/// allgatherv and MPI_Reduce_scatter, whose decision reads the counts (their total and largest):
/// the p counts of the call last_forwarded holds, part of its shape; empty for the other functions.
/// Apart from last_forwarded, which then stays trivially destructible: a thread_local with a
/// destructor costs every entry point that reads it a first-use check and a stack frame.
extern thread_local std::array<std::vector<int>, functions.size()> forwarded_counts;

/// True when this thread's last call of `f` of this shape on `comm` was sent to the MPI library by
/// `fastest` and would be again. Loads and comparisons only: the entry point needs no stack frame.
inline bool forwarded_last_time(mpi_function f, MPI_Comm comm, const call_shape& shape) {
  const forwarded_shape& last = last_forwarded[static_cast<std::size_t>(f)];
  // The generation first: a function `fastest` never forwarded (0) is told apart in two loads.
  // Word by word, so that the shape stays in registers.
  return last.tuning_generation == detail::tuning_generation() && last.comm == comm &&
         last.shape[0] == shape[0] && last.shape[1] == shape[1] && last.shape[2] == shape[2] &&
         last.shape[3] == shape[3] && last.comms_freed == comms_freed.load(std::memory_order_acquire);
}
/// The same for a call whose decision reads its p counts (the communicator not freed since, p is
/// the size of the remembered call's).
inline bool forwarded_last_time(mpi_function f, MPI_Comm comm, const call_shape& shape, const int* counts) {
  if (!forwarded_last_time(f, comm, shape) || counts == nullptr) return false;
  const std::vector<int>& last = forwarded_counts[static_cast<std::size_t>(f)];
  return !last.empty() && std::equal(last.begin(), last.end(), counts);
}

/// to_vendor for a call of shape `shape`, remembering a `fastest` forward for forwarded_last_time
/// when `types_predefined` (every datatype that made `bytes` is predefined); with the call's p
/// `counts` when its decision reads them (allgatherv, MPI_Reduce_scatter: `largest_block`).
inline std::optional<forward_reason> to_vendor(const arguments& a, const call_shape& shape,
                                               bool types_predefined, collective c, std::size_t bytes,
                                               std::size_t largest_block = 0, const int* counts = nullptr) {
  // Read before deciding, so that a table or communicator change during the decision is seen.
  const std::uint64_t generation = detail::tuning_generation();
  const std::uint64_t freed = comms_freed.load(std::memory_order_acquire);
  const std::optional<forward_reason> why = to_vendor(c, a.size, bytes, largest_block);
  if (why == forward_reason::vendor_fastest && types_predefined && !current_plan().report) {
    forwarded_shape& last = last_forwarded[static_cast<std::size_t>(a.f)];
    last = {generation, a.comm, shape, freed};
    forwarded_counts[static_cast<std::size_t>(a.f)].assign(counts, counts + (counts != nullptr ? a.size : 0));
  }
  return why;
}

/// Runs the library on `r` (its algorithm already chosen) with the guard set.
inline void run_library(const detail::request& r) {
  struct scope {
    scope() { ++library_depth; }
    ~scope() { --library_depth; }
  } const guard;
  detail::run(r);
}

/// Per thread and MPI function, the last call the library served, by its shape, and the request
/// that served it: the next call of that shape on that communicator runs the same request with its
/// own buffers, with no check and no lookup (callgrind, MPI_Allreduce 8 B at np 1: 400
/// instructions → 295, the C++ call 266). Remembered only when nothing about it can change behind
/// the handles: the report off (the shortcut counts nothing), every datatype predefined and
/// contiguous from its start (the same count means the same bytes, and buffers are used where they
/// lie), no MPI_IN_PLACE that needs a copy, an op with a kernel (no state), a communicator the
/// library has a record of; the decision table's generation and detail::comm_generation (bumped
/// when a communicator with a record is freed) are part of the record. Its checks passed for that
/// shape; only the buffers are new, and a null one where data moves goes the long way, to be refused.
struct served_shape {
  MPI_Comm comm{};
  call_shape shape{};
  std::uint64_t tuning_generation = 0;  // no table has generation 0: none yet
  std::uint64_t comm_generation = 0;
  detail::request request{};                  ///< its buffers are the last call's
  detail::reduction red{};                    ///< request.op points here when the collective reduces
  bool uses_send = false, uses_recv = false;  ///< the call passed data there (not a non-root's side)
  bool send_is_recv = false;                  ///< the library's in-place form: the receive buffer twice
  std::size_t bytes = 0;                      ///< the call's outcome
};
extern constinit thread_local std::array<served_shape, functions.size()> last_served;

/// The generations a remembered call is valid for, read before the call decides anything.
struct generations {
  std::uint64_t tuning = detail::tuning_generation();
  std::uint64_t comm = detail::comm_generation.load(std::memory_order_acquire);
};

/// Serves this call as this thread's last served call of `f` when it had this shape on `comm`
/// (see served_shape): true when done, false when the call must go the long way. The remembered
/// request takes this call's buffers in place (a call from inside the library never gets here:
/// forward_at_once).
inline bool served_as_last_time(mpi_function f, MPI_Comm comm, const call_shape& shape, const void* sendbuf,
                                void* recvbuf) {
  served_shape& last = last_served[static_cast<std::size_t>(f)];
  if (last.shape != shape || last.comm != comm || last.tuning_generation != detail::tuning_generation() ||
      last.comm_generation != detail::comm_generation.load(std::memory_order_acquire)) [[unlikely]]
    return false;
  detail::request& r = last.request;
  const void* send = last.send_is_recv ? recvbuf : sendbuf;
  if ((r.send_count > 0 && last.uses_send && send == nullptr) ||
      (r.recv_count > 0 && last.uses_recv && recvbuf == nullptr)) [[unlikely]]
    return false;
  if (last.uses_send) r.send = send;
  if (last.uses_recv) r.recv = recvbuf;
  run_library(r);
  return true;
}

/// The outcome of a call served_as_last_time served.
inline outcome served_last_time(mpi_function f) {
  const served_shape& last = last_served[static_cast<std::size_t>(f)];
  return {true, last.request.alg, {}, last.bytes, MPI_SUCCESS};
}

/// A datatype whose buffers the library uses where they lie with no question to MPI.
inline bool plain(const layout& l) { return l.predefined != nullptr && l.contiguous && l.true_lb == 0; }

/// Remembers the call just served by `r` for served_as_last_time, when `reusable` (its datatypes
/// plain, no MPI_IN_PLACE that needed a copy) and the rest of served_shape's conditions hold.
inline void remember_served(const arguments& a, const call_shape& shape, bool reusable, const generations& g,
                            const detail::request& r, bool send_is_recv, std::size_t bytes) {
  if (!reusable || current_plan().report || (r.op != nullptr && r.op->state != nullptr) ||
      detail::last_comm_info(a.comm) == nullptr)
    return;
  served_shape& m = last_served[static_cast<std::size_t>(a.f)];
  m = {a.comm,
       shape,
       g.tuning,
       g.comm,
       r,
       r.op != nullptr ? *r.op : detail::reduction{},
       r.send != nullptr,
       r.recv != nullptr,
       send_is_recv,
       bytes};
  if (r.op != nullptr) m.request.op = &m.red;
}

int raise(MPI_Comm comm, int error_class, const std::string& message);
[[gnu::cold]] int raise_out_of_memory(mpi_function f, MPI_Comm comm);

/// Converts failures into MPI error classes and, when the report is on, times the call and
/// records its outcome.
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
