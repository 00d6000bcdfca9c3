// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The hooks of trace mode (include/collectives/trace.hpp): run.cpp opens one call record per
// library call, the transport and the primitives record each send, receive, reduction and copy.
// Off, every hook is one branch on a global flag, marked unlikely; built with
// -DCOLLECTIVES_TRACE_HOOKS=OFF, on() is constant false and the hooks vanish. The flag is also on
// while a schedule is being recorded (kit/recording.hpp): the hooks then ask active_recording()
// first.
//
// Algorithms that know which blocks of their partition a step moves say so with a scoped
// `trace_blocks` marker around the step's transport calls; the events inside it carry the
// blocks (sends the sent range, receives, reductions and copies the received one).

#include <mpi.h>

#include <atomic>
#include <cstddef>

#include "collectives/algorithm.hpp"

#ifndef COLLECTIVES_TRACE_HOOKS
#define COLLECTIVES_TRACE_HOOKS 1
#endif

namespace collectives::detail::trace {

#if COLLECTIVES_TRACE_HOOKS
/// On while this process traces or any thread records a schedule.
extern std::atomic<bool> enabled;
inline bool on() { return enabled.load(std::memory_order_relaxed); }
#else
constexpr bool on() { return false; }
#endif

/// CLOCK_MONOTONIC in µs.
double now();

enum class kind { call, send, recv, reduce, copy };

/// A send or receive of `bytes` with `peer` (a rank of `comm`), from t0 to t1.
void message(kind k, MPI_Comm comm, int peer, std::size_t bytes, double t0, double t1);
/// A local reduction (`bytes` = elements × the call's element size is computed here from
/// `elements`) or copy (`elements` = bytes, elem_size 1).
void local(kind k, std::size_t elements, std::size_t elem_size, double t0, double t1);

/// One library call, from construction to destruction, on the private communicator `comm`.
/// The first call on a communicator measures this rank's clock offset to its rank 0.
class call_scope {
 public:
  /// `root` is −1 for a collective without one.
  call_scope(MPI_Comm comm, collective c, algorithm requested, algorithm resolved, std::size_t count,
             std::size_t elem_size, int root);
  ~call_scope();
  call_scope(const call_scope&) = delete;
  call_scope& operator=(const call_scope&) = delete;

 private:
  std::size_t slot_;
  bool open_;
};

/// A range of blocks of an algorithm's partition into `parts` blocks; count 0: none known.
struct block_range {
  int first = -1;
  int count = 0;
};

struct block_marks {
  block_range sent, received;
  int parts = 0;
};
/// The marks in force on this thread (read by the recording side only).
block_marks& current_marks();

/// Scoped: the transport events inside carry these blocks. Off, one branch.
class trace_blocks {
 public:
  trace_blocks(block_range sent, block_range received, int parts) {
    if (on()) [[unlikely]] {
      saved_ = current_marks();
      current_marks() = {sent, received, parts};
      active_ = true;
    }
  }
  /// One block each way.
  trace_blocks(int sent_block, int received_block, int parts)
      : trace_blocks(block_range{sent_block, sent_block >= 0 ? 1 : 0},
                     block_range{received_block, received_block >= 0 ? 1 : 0}, parts) {}
  ~trace_blocks() {
    if (active_) [[unlikely]]
      current_marks() = saved_;
  }
  trace_blocks(const trace_blocks&) = delete;
  trace_blocks& operator=(const trace_blocks&) = delete;

 private:
  block_marks saved_{};
  bool active_ = false;
};

}  // namespace collectives::detail::trace

namespace collectives::detail {
using trace::block_range;
using trace::trace_blocks;
}  // namespace collectives::detail
