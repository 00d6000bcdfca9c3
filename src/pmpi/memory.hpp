// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// What each thread remembers of its last calls of each MPI function, so that a call with the shape
// of an earlier one (the same arguments but the buffers, on the same communicator) skips what it
// would only find again (skeleton.hpp, steps 1 and 2): per function, `fastest`'s last verdict, the
// shape of the last call `fastest` forwarded and of the last call the library served (with its
// request). A record holds only while tuning_generation, comm_generation and comms_freed (here)
// say nothing behind its handles has changed; nothing is remembered with the report on. Each
// record and counter, and why: docs/design.md, "The drop-in's path"; what each shortcut saves:
// docs/measurements/2026-11-28-dropin-one-skeleton.md.

#include <mpi.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <tuple>
#include <vector>

#include "collectives/detail/request.hpp"
#include "pmpi/boundary.hpp"

namespace collectives::pmpi {

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

/// `fastest`'s last verdict: a function of what it was asked and of the table in force, whose
/// generation is part of the key.
struct fastest_verdict {
  std::uint64_t generation = 0;  // no table has generation 0: a thread's first call asks
  int p = 0;
  std::size_t bytes = 0, largest_block = 0;
  bool vendor = false;
};

/// The last call `fastest` sent to the MPI library, by its shape. Remembered only when every
/// datatype the decision read is predefined (a predefined handle never changes, so the same
/// counts mean the same bytes). The decision is a function of the bytes, the communicator's size
/// and the decision table: the table's generation is part of the record, and so is comms_freed
/// (no communicator freed since: the handle is still a communicator of that size). The
/// arguments' checks passed for that shape; only the buffers are new, and the MPI library checks
/// those.
struct forwarded_shape {
  std::uint64_t tuning_generation = 0;  // no table has generation 0: none yet
  MPI_Comm comm{};
  call_shape shape{};
  std::uint64_t comms_freed = 0;
};

/// The last call the library served, by its shape, and the request that served it. Remembered only
/// when nothing about it can change behind the handles: every datatype predefined and contiguous
/// from its start (the same count means the same bytes, and buffers are used where they lie), no
/// MPI_IN_PLACE that needs a copy, an op with a kernel (no state), a communicator the library has
/// a record of; the decision table's generation and detail::comm_generation are part of the
/// record. Its checks passed for that shape; only the buffers are new, and a null one where data
/// moves goes the long way, to be refused.
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

/// What this thread remembers of its last calls of one MPI function.
struct memory {
  fastest_verdict fastest;
  forwarded_shape forwarded;
  served_shape served;
};
extern constinit thread_local std::array<memory, functions.size()> memories;
inline memory& memory_of(mpi_function f) { return memories[static_cast<std::size_t>(f)]; }

/// allgatherv and MPI_Reduce_scatter, whose decision reads their counts (their total and largest):
/// the p counts of the call memory::forwarded holds, part of its shape; empty for the other
/// functions. Apart from memories, which then stay trivially destructible: a thread_local with a
/// destructor costs every entry point that reads it a first-use check and a stack frame.
extern thread_local std::array<std::vector<int>, functions.size()> forwarded_counts;

/// detail::vendor_fastest for a call of `f` (collective `c`), remembered.
inline bool vendor_fastest(mpi_function f, collective c, int p, std::size_t bytes,
                           std::size_t largest_block) {
  fastest_verdict& m = memory_of(f).fastest;
  const std::uint64_t generation = detail::tuning_generation();  // read before asking
  if (m.generation == generation && m.p == p && m.bytes == bytes && m.largest_block == largest_block)
      [[likely]]
    return m.vendor;
  const bool vendor = detail::vendor_fastest(c, p, bytes, largest_block);
  m = {generation, p, bytes, largest_block, vendor};
  return vendor;
}

/// Why this call goes to the MPI library: COLLECTIVES_ALGORITHMS selected `vendor` for its
/// collective, or `fastest` and the decision table measured vendor clearly faster for it (the
/// arguments as choose takes them, so every rank decides alike); std::nullopt when the library
/// serves it. A `fastest` forward of a call of shape `shape` is remembered for forwarded_last_time
/// when `types_predefined` (every datatype that made `bytes` is predefined); with the call's p
/// `counts` when its decision reads them (allgatherv, MPI_Reduce_scatter: `largest_block`).
inline std::optional<forward_reason> to_vendor(const arguments& a, const call_shape& shape,
                                               bool types_predefined, collective c, std::size_t bytes,
                                               std::size_t largest_block, const int* counts) {
  const plan& s = current_plan();
  const std::size_t i = static_cast<std::size_t>(c);
  if (s.chosen[i].alg == algorithm::vendor) [[unlikely]]
    return forward_reason::vendor_chosen;
  if (!s.fastest[i]) return std::nullopt;
  // Read before deciding, so that a table or communicator change during the decision is seen.
  const std::uint64_t generation = detail::tuning_generation();
  const std::uint64_t freed = comms_freed.load(std::memory_order_acquire);
  if (!vendor_fastest(a.f, c, a.size, bytes, largest_block)) return std::nullopt;
  if (types_predefined && !s.report) {
    memory_of(a.f).forwarded = {generation, a.comm, shape, freed};
    forwarded_counts[static_cast<std::size_t>(a.f)].assign(counts, counts + (counts != nullptr ? a.size : 0));
  }
  return forward_reason::vendor_fastest;
}

/// True when this thread's last call of `f` of this shape on `comm` was sent to the MPI library by
/// `fastest` and would be again. Loads and comparisons only: the entry point needs no stack frame.
inline bool forwarded_last_time(mpi_function f, MPI_Comm comm, const call_shape& shape) {
  const forwarded_shape& last = memory_of(f).forwarded;
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

/// The generations a served call is remembered with, read before the call decides anything.
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
  served_shape& last = memory_of(f).served;
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
  const served_shape& last = memory_of(f).served;
  return {true, last.request.chosen.alg, {}, last.bytes, MPI_SUCCESS};
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
  served_shape& m = memory_of(a.f).served;
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

}  // namespace collectives::pmpi
