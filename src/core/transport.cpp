#include "core/transport.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <string_view>

#include "collectives/error.hpp"

namespace collectives::detail {
namespace {

// MPI counts are int: larger messages travel as several chunks of at most this many bytes.
constexpr std::size_t max_chunk_bytes = std::size_t{1} << 30;
constexpr int library_tag = 0;

// Test-only switch: COLLECTIVES_SYNCHRONOUS_SENDS=1 makes every send an MPI_Ssend, so a
// schedule that relies on MPI's eager buffering deadlocks in the test suite instead of in
// production at some larger message size.
bool synchronous_sends() {
  static const bool enabled = [] {
    const char* v = std::getenv("COLLECTIVES_SYNCHRONOUS_SENDS");
    return v != nullptr && std::string_view(v) != "0" && std::string_view(v) != "";
  }();
  return enabled;
}

int delete_private_comm(MPI_Comm, int, void* attribute, void*) {
  auto* private_comm = static_cast<MPI_Comm*>(attribute);
  int code = MPI_Comm_free(private_comm);
  delete private_comm;
  return code;
}

int private_comm_keyval() {
  static const int keyval = [] {
    int k = MPI_KEYVAL_INVALID;
    check_mpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &delete_private_comm, &k, nullptr),
              "MPI_Comm_create_keyval");
    return k;
  }();
  return keyval;
}

MPI_Comm private_comm_of(MPI_Comm user_comm) {
  const int keyval = private_comm_keyval();
  void* attribute = nullptr;
  int found = 0;
  check_mpi(MPI_Comm_get_attr(user_comm, keyval, &attribute, &found), "MPI_Comm_get_attr");
  if (found) return *static_cast<MPI_Comm*>(attribute);
  auto private_comm = std::make_unique<MPI_Comm>(MPI_COMM_NULL);
  check_mpi(MPI_Comm_dup(user_comm, private_comm.get()), "MPI_Comm_dup");
  // Errors on the private communicator come back as codes and become collectives::error.
  check_mpi(MPI_Comm_set_errhandler(*private_comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check_mpi(MPI_Comm_set_attr(user_comm, keyval, private_comm.get()), "MPI_Comm_set_attr");
  return *private_comm.release();  // now owned by the attribute, freed by delete_private_comm
}

// Modular inverse of a modulo m, for a and m coprime (extended Euclid).
int inverse_mod(int a, int m) {
  int old_r = a, r = m, old_s = 1, s = 0;
  while (r != 0) {
    const int q = old_r / r;
    std::tie(old_r, r) = std::pair{r, old_r - q * r};
    std::tie(old_s, s) = std::pair{s, old_s - q * s};
  }
  return ((old_s % m) + m) % m;
}

}  // namespace

void check_mpi(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw error(fmt::format("collectives: {} failed: {}", what, std::string_view(text, length)));
}

transport::transport(MPI_Comm user_comm) : transport(private_comm_of(user_comm), on_private_t{}) {}

transport::transport(MPI_Comm private_comm, on_private_t) : comm_(private_comm) {
  check_mpi(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

void transport::send(int dest, const void* buf, std::size_t bytes) const {
  const auto* p = static_cast<const std::byte*>(buf);
  // One message even when empty, so that every send is matched by exactly one receive.
  do {
    const int n = static_cast<int>(std::min(bytes, max_chunk_bytes));
    check_mpi(synchronous_sends() ? MPI_Ssend(p, n, MPI_BYTE, dest, library_tag, comm_)
                                  : MPI_Send(p, n, MPI_BYTE, dest, library_tag, comm_),
              "MPI_Send");
    p += n;
    bytes -= static_cast<std::size_t>(n);
  } while (bytes > 0);
}

void transport::recv(int source, void* buf, std::size_t bytes) const {
  auto* p = static_cast<std::byte*>(buf);
  do {
    const int n = static_cast<int>(std::min(bytes, max_chunk_bytes));
    MPI_Status status;
    check_mpi(MPI_Recv(p, n, MPI_BYTE, source, library_tag, comm_, &status), "MPI_Recv");
    int received = 0;
    MPI_Get_count(&status, MPI_BYTE, &received);
    if (received != n)
      throw error(
          fmt::format("collectives: rank {} expected {} bytes from rank {}, got {}: the ranks "
                      "disagree on the message size (different counts on different ranks?)",
                      rank_, n, source, received));
    p += n;
    bytes -= static_cast<std::size_t>(n);
  } while (bytes > 0);
}

// Blocking send/recv pairs deadlock if every rank of a cycle sends first and the messages are
// too large to be buffered. Every exchange step is a permutation whose cycles we can name:
// a pairing has cycles of length two (the lower rank sends first); a shift by k has cycles
// rank, rank+k, rank+2k, ... of length p/gcd(k,p). Along each cycle, ranks at even positions
// send first and ranks at odd positions receive first, so every send meets a posted receive
// within two steps (an odd-length cycle has two adjacent senders, which only delays one of
// them by one message).
bool transport::sends_first(int to, int from) const {
  if (to == from) return rank_ < to;
  const int shift = (to - rank_ + size_) % size_;
  // Any other pattern could pair two senders: a bug in the calling algorithm, reported here
  // rather than left to hang when the messages are too large for eager buffering.
  if ((rank_ - shift + size_) % size_ != from)
    throw error(
        fmt::format("collectives: internal error: rank {} exchanges with to = {}, from = {}, which is "
                    "neither a pairing nor a shift",
                    rank_, to, from));
  const int g = std::gcd(shift, size_);
  const int cycle_length = size_ / g;
  // rank = c + position·shift (mod p) with c = rank mod g, the cycle's smallest member.
  const int position = static_cast<int>(
      (static_cast<long long>((rank_ - rank_ % g) / g) * inverse_mod(shift / g, cycle_length)) %
      cycle_length);
  return position % 2 == 0;
}

void transport::exchange(int to, const void* send_buf, std::size_t send_bytes, int from, void* recv_buf,
                         std::size_t recv_bytes) const {
  if (to == rank_ && from == rank_) {
    if (send_bytes != recv_bytes)
      throw error(fmt::format("collectives: rank {} exchanges {} bytes with itself but expects {}", rank_,
                              send_bytes, recv_bytes));
    if (send_bytes > 0 && send_buf != recv_buf) std::memmove(recv_buf, send_buf, send_bytes);
    return;
  }
  if (sends_first(to, from)) {
    send(to, send_buf, send_bytes);
    recv(from, recv_buf, recv_bytes);
  } else {
    recv(from, recv_buf, recv_bytes);
    send(to, send_buf, send_bytes);
  }
}

void transport::agree_on_maximum(long long* values, int count) const {
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_LONG_LONG, MPI_MAX, comm_), "MPI_Allreduce");
}

void transport::agree_on_sum(std::uint64_t* values, int count) const {
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_UINT64_T, MPI_SUM, comm_), "MPI_Allreduce");
}

}  // namespace collectives::detail
