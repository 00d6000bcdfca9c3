#pragma once

// The only code outside the vendor variant that moves data through MPI: blocking MPI_Send
// and MPI_Recv on a private duplicate of the user's communicator.

#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace collectives::detail {

/// What the library keeps with a user's communicator, as one attribute: its private duplicate
/// and what never changes for it — this rank's rank and the size. Made only for
/// intracommunicators (run() refuses the others before making it), so finding it also says the
/// communicator is one.
struct comm_info {
  MPI_Comm comm;  ///< the private duplicate
  int rank;
  int size;
};

/// The library's record for `user_comm` (one attribute lookup, none when this thread's previous
/// call was on the same communicator; no other MPI call), or nullptr
/// before the library's first call on it.
const comm_info* cached_comm_info(MPI_Comm user_comm);

class transport {
 public:
  /// Looks up (or, on first use, creates with MPI_Comm_dup, a collective call) the library's
  /// private duplicate of `user_comm`, cached on it as an attribute and freed with it.
  explicit transport(MPI_Comm user_comm);

  /// A transport on a record cached_comm_info() found: no MPI call at all.
  explicit transport(const comm_info& info) : comm_(info.comm), rank_(info.rank), size_(info.size) {}

  /// A transport straight on `private_comm`, a communicator the library made itself (the
  /// per-host communicators of core/hosts.hpp), without looking up a duplicate.
  struct on_private_t {};
  transport(MPI_Comm private_comm, on_private_t);

  int rank() const { return rank_; }
  int size() const { return size_; }
  /// The private communicator; the vendor variant runs its MPI collectives on it.
  MPI_Comm comm() const { return comm_; }

  void send(int dest, const void* buf, std::size_t bytes) const;
  void recv(int source, void* buf, std::size_t bytes) const;

  /// Sends to `to` and receives from `from` in one step, deadlock-free with blocking calls
  /// whatever the message size, provided every rank of the step calls it with the same
  /// pattern: either a pairing (to == from, both sides name each other) or a shift
  /// (to = rank + k, from = rank − k, mod p). `to == from == rank()` copies locally.
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
  // Out of line: what send and recv do beyond one message in standard mode without a trace.
  [[gnu::noinline]] void send_general(int dest, const void* buf, std::size_t bytes) const;
  [[gnu::noinline]] void recv_general(int source, void* buf, std::size_t bytes) const;
  void recv_chunk(int source, void* buf, int bytes) const;
  [[noreturn, gnu::cold, gnu::noinline]] void wrong_size(int source, int expected, int received) const;

  MPI_Comm comm_;
  int rank_;
  int size_;
};

[[noreturn, gnu::cold]] void mpi_failed(int code, const char* what);

/// Throws collectives::error with MPI_Error_string's text when `code` is not MPI_SUCCESS.
inline void check_mpi(int code, const char* what) {
  if (code != MPI_SUCCESS) [[unlikely]]
    mpi_failed(code, what);
}

}  // namespace collectives::detail
