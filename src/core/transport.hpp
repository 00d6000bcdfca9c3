#pragma once

// The only code outside the vendor variant that moves data through MPI: blocking MPI_Send
// and MPI_Recv on a private duplicate of the user's communicator.

#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace collectives::detail {

class transport {
 public:
  /// Looks up (or, on first use, creates with MPI_Comm_dup, a collective call) the library's
  /// private duplicate of `user_comm`, cached on it as an attribute and freed with it.
  explicit transport(MPI_Comm user_comm);

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

  MPI_Comm comm_;
  int rank_;
  int size_;
};

/// Throws collectives::error with MPI_Error_string's text when `code` is not MPI_SUCCESS.
void check_mpi(int code, const char* what);

}  // namespace collectives::detail
