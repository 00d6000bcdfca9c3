// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The only code outside the vendor variant that moves data through MPI: blocking MPI_Send
// and MPI_Recv on a private duplicate of the user's communicator.

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kit/recording.hpp"
#include "kit/trace.hpp"

namespace collectives::detail {

/// MPI counts are int: larger messages travel as several chunks of at most this many bytes.
inline constexpr std::size_t max_chunk_bytes = std::size_t{1} << 30;
inline constexpr int library_tag = 0;

/// Test-only switch: COLLECTIVES_SYNCHRONOUS_SENDS=1 makes every send an MPI_Ssend, so a schedule
/// that relies on MPI's eager buffering deadlocks in the test suite instead of in production at
/// some larger message size. Read once, at start-up (no algorithm runs before main).
extern const bool synchronous_sends;

[[noreturn, gnu::cold]] void mpi_failed(int code, const char* what);

/// Throws collectives::error with MPI_Error_string's text when `code` is not MPI_SUCCESS.
inline void check_mpi(int code, const char* what) {
  if (code != MPI_SUCCESS) [[unlikely]]
    mpi_failed(code, what);
}

/// True when the receive that filled `status` brought exactly `bytes` bytes (of MPI_BYTE): what
/// MPI_Get_count says, read from the status itself where the MPI library's layout is known, since
/// MPI_Get_count (a call into the MPI library, with its own argument checks) cost as much as the
/// rest of the transport's receive. Open MPI keeps the byte count in `_ucount`; MPICH splits it
/// into `count_lo` and the bits above the cancelled bit of `count_hi_and_cancelled`
/// (MPIR_STATUS_GET_COUNT). Any other MPI asks MPI_Get_count. errors_test's short-message case
/// checks this on each MPI the CI builds against.
inline bool received_exactly(const MPI_Status& status, int bytes) {
#if defined(OPEN_MPI)
  return status._ucount == static_cast<std::size_t>(bytes);
#elif defined(MPICH)
  return status.count_lo == bytes && static_cast<unsigned>(status.count_hi_and_cancelled) >> 1 == 0;
#else
  int received = 0;
  MPI_Get_count(&status, MPI_BYTE, &received);
  return received == bytes;
#endif
}

/// What the library keeps with a user's communicator, as one attribute: its private duplicate
/// and what never changes for it — this rank's rank, the size and the eager size E to each peer.
/// Made only for intracommunicators (run() refuses the others before making it), so finding it
/// also says the communicator is one.
struct comm_info {
  MPI_Comm comm;  ///< the private duplicate
  int rank;
  int size;
  /// Per rank of `comm`: the largest message this rank's MPI_Send to it completes without its
  /// receiver (collectives/eager.hpp), by whether it shares this rank's host.
  std::vector<std::size_t> eager_to;
  /// Per rank of `comm`: for a rank on another host, E again: an exchange message above it goes as
  /// segments of at most E that both partners send first, so that both directions of the link
  /// carry data at once; 0 for ranks on this host (there a segment costs a copy more than one
  /// message does) and wherever the MPI library did not say which ranks share a host; empty where
  /// no rank is cut.
  std::vector<std::size_t> segment_to;
};

/// The rank in `whole` of each rank of `part`, a communicator whose ranks all belong to `whole`.
std::vector<int> ranks_in(MPI_Comm part, MPI_Comm whole);

/// E and the segment size to every rank of `info.comm` (comm_info::eager_to, segment_to) from this
/// process's eager limits: one MPI_Comm_split_type, a collective call, where the MPI library
/// reported them.
void learn_eager_sizes(comm_info& info);

/// The last communicator each thread ran on and its record: programs call collectives on one
/// communicator over and over, and this spares them the attribute lookup (MPI_Comm_get_attr takes
/// a lock and a hash lookup: in Open MPI about as long as the rest of the call path before the
/// first message). Freeing any communicator that carries a record bumps `comm_generation`, which
/// invalidates every thread's entry, so a handle that MPI reuses for a later communicator is never
/// taken for the freed one. Constant-initialised (constinit), so reading it needs no per-thread
/// initialisation check.
struct last_lookup {
  MPI_Comm user{};  ///< meaningful only with `info`
  const comm_info* info = nullptr;
  std::uint64_t generation = 0;
};
extern std::atomic<std::uint64_t> comm_generation;
extern constinit thread_local last_lookup last_comm;

/// cached_comm_info when this thread's previous call was on another communicator: the attribute.
[[gnu::noinline]] const comm_info* look_up_comm_info(MPI_Comm user_comm, std::uint64_t now);

/// This thread's record for `user_comm` when its previous call was on it, else nullptr: no call.
inline const comm_info* last_comm_info(MPI_Comm user_comm) {
  const std::uint64_t now = comm_generation.load(std::memory_order_acquire);
  return last_comm.info != nullptr && last_comm.user == user_comm && last_comm.generation == now
             ? last_comm.info
             : nullptr;
}

/// The library's record for `user_comm` (one attribute lookup, none when this thread's previous
/// call was on the same communicator; no other MPI call), or nullptr before the library's first
/// call on it.
inline const comm_info* cached_comm_info(MPI_Comm user_comm) {
  if (const comm_info* last = last_comm_info(user_comm)) [[likely]]
    return last;
  return look_up_comm_info(user_comm, comm_generation.load(std::memory_order_acquire));
}

class transport {
 public:
  /// Looks up (or, on first use, creates with MPI_Comm_dup, a collective call) the library's
  /// private duplicate of `user_comm`, cached on it as an attribute and freed with it.
  explicit transport(MPI_Comm user_comm);

  /// A transport on a record cached_comm_info() found: no MPI call at all.
  explicit transport(const comm_info& info)
      : comm_(info.comm),
        rank_(info.rank),
        size_(info.size),
        eager_to_(info.eager_to.data()),
        segment_to_(info.segment_to.empty() ? nullptr : info.segment_to.data()) {}

  /// A transport straight on `private_comm`, a communicator the library made itself (the
  /// per-host communicators of kit/hosts.hpp), without looking up a duplicate. `eager_to`, E per
  /// rank of it, outlives the transport; null: E = 0, every exchange ordered. Exchanges on such a
  /// transport are never cut into segments.
  struct on_private_t {};
  transport(MPI_Comm private_comm, on_private_t, const std::size_t* eager_to = nullptr);

  int rank() const { return rank_; }
  int size() const { return size_; }
  /// The private communicator; the vendor variant runs its MPI collectives on it.
  MPI_Comm comm() const { return comm_; }

  /// Inline, the common case: one message in standard mode without a trace is a test, the MPI
  /// call and a test (a receive: one more, of the received size).
  void send(int dest, const void* buf, std::size_t bytes) const {
    send_as(dest, buf, bytes, message_part::alone);
  }
  void recv(int source, void* buf, std::size_t bytes) const {
    recv_as(source, buf, bytes, message_part::alone);
  }

  /// The largest message to `peer` whose send completes without its receiver; 0: none is known.
  std::size_t eager_bytes(int peer) const { return eager_to_ != nullptr ? eager_to_[peer] : 0; }
  /// True when a send of `bytes` to `peer` completes without its receiver (E = 0: never, not
  /// even an empty message: E = 0 is also the synchronous-send mode).
  bool sends_eagerly(int peer, std::size_t bytes) const {
    const std::size_t e = eager_bytes(peer);
    return e != 0 && bytes <= e;
  }

  /// Above E, the size of the segments a message to (or from) `peer` is cut into; 0: never cut.
  std::size_t segment_bytes(int peer) const { return segment_to_ != nullptr ? segment_to_[peer] : 0; }

  /// Sends to `to` and receives from `from` in one step, deadlock-free with blocking calls
  /// whatever the message size, provided every rank of the step calls it with the same
  /// pattern: either a pairing (to == from, both sides name each other) or a shift
  /// (to = rank + k, from = rank − k, mod p). `to == from == rank()` copies locally. A message
  /// of at most eager_bytes(to) is sent first, before the receive (one latency); a larger one to
  /// a rank on another host goes as segments of at most E, also sent first (segment_bytes); any
  /// other waits its turn in the ordered exchange.
  void exchange(int to, const void* send_buf, std::size_t send_bytes, int from, void* recv_buf,
                std::size_t recv_bytes) const;

  /// Element-wise maximum of `values` over all ranks, in place. Only the optional collective
  /// argument checks use it (argument_checks::collective), never an algorithm.
  void agree_on_maximum(long long* values, int count) const;
  /// Element-wise sum of `values` over all ranks, wrapping, in place. Likewise only for the
  /// collective argument checks (the v-variants' counts, which live on different ranks).
  void agree_on_sum(std::uint64_t* values, int count) const;

 private:
  bool sends_first(int to, int from) const;
  // The segmented exchange (transport.cpp): the messages as pieces of segment_bytes() where they
  // are cut, else whole; piece i sent before piece i is received, or every piece sent before any
  // is received, or the reverse.
  enum class piece_order { interleaved, sends_first, receives_first };
  void exchange_in_pieces(int to, const void* send_buf, std::size_t send_bytes, int from, void* recv_buf,
                          std::size_t recv_bytes, piece_order order) const;
  // `part` tells a recording (kit/recording.hpp) which verb the message belongs to; only the out
  // of line path reads it.
  [[gnu::always_inline]] void send_as(int dest, const void* buf, std::size_t bytes, message_part part) const {
    if (bytes <= max_chunk_bytes && !synchronous_sends && !trace::on()) [[likely]] {
      check_mpi(MPI_Send(buf, static_cast<int>(bytes), MPI_BYTE, dest, library_tag, comm_), "MPI_Send");
      return;
    }
    send_general(dest, buf, bytes, part);
  }
  [[gnu::always_inline]] void recv_as(int source, void* buf, std::size_t bytes, message_part part) const {
    if (bytes <= max_chunk_bytes && !trace::on()) [[likely]] {
      recv_chunk(source, buf, static_cast<int>(bytes));
      return;
    }
    recv_general(source, buf, bytes, part);
  }
  // Out of line: what send and recv do beyond one message in standard mode without a trace, and
  // a recording's messages.
  [[gnu::noinline]] void send_general(int dest, const void* buf, std::size_t bytes, message_part part) const;
  [[gnu::noinline]] void recv_general(int source, void* buf, std::size_t bytes, message_part part) const;
  void recv_chunk(int source, void* buf, int bytes) const {
    MPI_Status status;
    check_mpi(MPI_Recv(buf, bytes, MPI_BYTE, source, library_tag, comm_, &status), "MPI_Recv");
    if (!received_exactly(status, bytes)) [[unlikely]]
      wrong_size(source, bytes, status);
  }
  [[noreturn, gnu::cold, gnu::noinline]] void wrong_size(int source, int expected,
                                                         const MPI_Status& status) const;

  MPI_Comm comm_;
  int rank_;
  int size_;
  const std::size_t* eager_to_ = nullptr;
  const std::size_t* segment_to_ = nullptr;
};

}  // namespace collectives::detail
