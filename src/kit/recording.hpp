// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Recording a schedule without MPI (src/schedule/): while a recording is active on a thread, the
// transport, the primitives and hosts_of hand every message, reduction and copy of the library's
// own algorithm code to it instead of to MPI and the kernels. They look for it only on their
// traced path (trace::on(), which an active recording turns on), so the plain path pays nothing.
// With the trace hooks compiled out (COLLECTIVES_TRACE_HOOKS=OFF) nothing can be recorded.

#include <mpi.h>

#include <cstddef>

namespace collectives::detail {

struct host_layout;

/// Which verb a message belongs to: a send or receive of its own, or one half of
/// transport::exchange (the half recorded first is the side that went first).
enum class message_part : unsigned char { alone, exchange };

class recording {
 public:
  /// A recording may keep the payload for a later rank's receive.
  virtual void send(MPI_Comm comm, int peer, const void* buf, std::size_t bytes, message_part part) = 0;
  /// A recording writes what the sender sent into `buf` where it knows it, or values of its own.
  virtual void recv(MPI_Comm comm, int peer, void* buf, std::size_t bytes, message_part part) = 0;
  /// A reduction of `elements` elements, a copy of `bytes` bytes: true when the primitive is to do
  /// the work as well (a recording that carries data), false to skip it.
  virtual bool reduce(std::size_t elements) = 0;
  virtual bool copy(std::size_t bytes) = 0;
  /// This rank's rank in, and the size of, `comm`: one of the communicators hosts() hands out.
  virtual void rank_and_size(MPI_Comm comm, int& rank, int& size) = 0;
  /// What hosts_of(net) returns for a transport on `comm`.
  virtual const host_layout& hosts(MPI_Comm comm) = 0;

 protected:
  ~recording() = default;
};

/// The recording active on this thread, or null. Called only on the traced path.
recording* active_recording();

/// Makes `r` this thread's recording (null: none) and returns the one before. While any thread
/// records, the trace hooks are on process-wide: library calls on other threads take the traced
/// path (without writing a trace unless tracing is on), so record where no other calls run.
recording* set_active_recording(recording* r);

}  // namespace collectives::detail
