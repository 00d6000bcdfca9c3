// SPDX-License-Identifier: BSD-3-Clause
#include "kit/transport.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <vector>

#include "collectives/eager.hpp"
#include "collectives/error.hpp"
#include "kit/eager.hpp"
#include "kit/exchange_order.hpp"
#include "kit/primitives.hpp"
#include "kit/trace.hpp"

namespace collectives::detail {

// Read once, at start-up: a send tests a plain flag.
const bool synchronous_sends = [] {
  const char* v = std::getenv("COLLECTIVES_SYNCHRONOUS_SENDS");
  return v != nullptr && std::string_view(v) != "0" && std::string_view(v) != "";
}();

std::atomic<std::uint64_t> comm_generation{0};
constinit thread_local last_lookup last_comm;

namespace {

int delete_private_comm(MPI_Comm, int, void* attribute, void*) {
  comm_generation.fetch_add(1, std::memory_order_acq_rel);
  auto* info = static_cast<comm_info*>(attribute);
  int code = MPI_Comm_free(&info->comm);
  delete info;
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

const comm_info& private_comm_of(MPI_Comm user_comm) {
  if (const comm_info* found = cached_comm_info(user_comm)) return *found;
  // First, so that a bad COLLECTIVES_EAGER_BYTES stops every rank before any communication.
  eager_limits_in_force();
  auto info = std::make_unique<comm_info>(comm_info{MPI_COMM_NULL, 0, 0, {}, {}});
  check_mpi(MPI_Comm_dup(user_comm, &info->comm), "MPI_Comm_dup");
  // Errors on the private communicator come back as codes and become collectives::error.
  check_mpi(MPI_Comm_set_errhandler(info->comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check_mpi(MPI_Comm_rank(info->comm, &info->rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(info->comm, &info->size), "MPI_Comm_size");
  learn_eager_sizes(*info);
  check_mpi(MPI_Comm_set_attr(user_comm, private_comm_keyval(), info.get()), "MPI_Comm_set_attr");
  return *info.release();  // now owned by the attribute, freed by delete_private_comm
}

}  // namespace

const comm_info* look_up_comm_info(MPI_Comm user_comm, std::uint64_t now) {
  void* attribute = nullptr;
  int found = 0;
  check_mpi(MPI_Comm_get_attr(user_comm, private_comm_keyval(), &attribute, &found), "MPI_Comm_get_attr");
  if (!found) return nullptr;
  last_comm = {user_comm, static_cast<const comm_info*>(attribute), now};
  return last_comm.info;
}

void mpi_failed(int code, const char* what) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw error(fmt::format("collectives: {} failed: {}", what, std::string_view(text, length)));
}

transport::transport(MPI_Comm user_comm) : transport(private_comm_of(user_comm)) {}

std::vector<int> ranks_in(MPI_Comm part, MPI_Comm whole) {
  int size = 0;
  check_mpi(MPI_Comm_size(part, &size), "MPI_Comm_size");
  MPI_Group part_group, whole_group;
  check_mpi(MPI_Comm_group(part, &part_group), "MPI_Comm_group");
  check_mpi(MPI_Comm_group(whole, &whole_group), "MPI_Comm_group");
  std::vector<int> own(static_cast<std::size_t>(size)), ranks(own.size());
  for (int i = 0; i < size; ++i) own[static_cast<std::size_t>(i)] = i;
  check_mpi(MPI_Group_translate_ranks(part_group, size, own.data(), whole_group, ranks.data()),
            "MPI_Group_translate_ranks");
  MPI_Group_free(&part_group);
  MPI_Group_free(&whole_group);
  return ranks;
}

void learn_eager_sizes(comm_info& info) {
  const eager_limits& limits = eager_limits_in_force();
  const auto size = static_cast<std::size_t>(info.size);
  info.eager_to.assign(size, eager_to_peer(limits, false));
  info.segment_to.clear();
  // Whether to split is a collective decision, so it must not depend on what differs between
  // processes: a rank alone on its host loads no shared-memory layer and sees equal limits on and
  // across hosts where its neighbours do not. from_mpi is the same on every rank of one launch.
  if (!limits.from_mpi || size == 1) return;
  // The ranks of this host: the MPI library's own notion (shared memory), whatever
  // COLLECTIVES_SIMULATED_HOSTS makes the node-aware algorithms believe.
  MPI_Comm host;
  check_mpi(MPI_Comm_split_type(info.comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host),
            "MPI_Comm_split_type");
  const std::vector<int> on_host = ranks_in(host, info.comm);
  check_mpi(MPI_Comm_free(&host), "MPI_Comm_free");
  info.segment_to.assign(size, segment_to_peer(limits, false));
  for (int r : on_host) {
    info.eager_to[static_cast<std::size_t>(r)] = eager_to_peer(limits, true);
    info.segment_to[static_cast<std::size_t>(r)] = segment_to_peer(limits, true);
  }
  // Nothing cut (every rank on this host, or no segments here): no table, so that an exchange
  // tests one pointer instead of reading two sizes.
  if (std::ranges::all_of(info.segment_to, [](std::size_t s) { return s == 0; })) info.segment_to.clear();
}

transport::transport(MPI_Comm private_comm, on_private_t, const std::size_t* eager_to)
    : comm_(private_comm), eager_to_(eager_to) {
  if (trace::on()) [[unlikely]]
    if (recording* r = active_recording()) {
      r->rank_and_size(comm_, rank_, size_);
      return;
    }
  check_mpi(MPI_Comm_rank(comm_, &rank_), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm_, &size_), "MPI_Comm_size");
}

void transport::send_general(int dest, const void* buf, std::size_t bytes, message_part part) const {
  const auto post = [&] {
    const auto* p = static_cast<const std::byte*>(buf);
    std::size_t left = bytes;
    // One message even when empty, so that every send is matched by exactly one receive.
    do {
      const int n = static_cast<int>(std::min(left, max_chunk_bytes));
      check_mpi(synchronous_sends ? MPI_Ssend(p, n, MPI_BYTE, dest, library_tag, comm_)
                                  : MPI_Send(p, n, MPI_BYTE, dest, library_tag, comm_),
                "MPI_Send");
      p += n;
      left -= static_cast<std::size_t>(n);
    } while (left > 0);
  };
  if (trace::on()) [[unlikely]] {
    if (recording* r = active_recording()) return r->send(comm_, dest, buf, bytes, part);
    const double t0 = trace::now();
    post();
    trace::message(trace::kind::send, comm_, dest, bytes, t0, trace::now());
    return;
  }
  post();
}

void transport::wrong_size(int source, int expected, const MPI_Status& status) const {
  int received = 0;
  MPI_Get_count(&status, MPI_BYTE, &received);
  throw error(fmt::format(
      "collectives: rank {} expected {} bytes from rank {}, got {}: the ranks disagree on the message "
      "size (different counts on different ranks?)",
      rank_, expected, source, received));
}

void transport::recv_general(int source, void* buf, std::size_t bytes, message_part part) const {
  const auto take = [&] {
    auto* p = static_cast<std::byte*>(buf);
    std::size_t left = bytes;
    do {
      const int n = static_cast<int>(std::min(left, max_chunk_bytes));
      recv_chunk(source, p, n);
      p += n;
      left -= static_cast<std::size_t>(n);
    } while (left > 0);
  };
  if (trace::on()) [[unlikely]] {
    if (recording* r = active_recording()) return r->recv(comm_, source, buf, bytes, part);
    const double t0 = trace::now();
    take();
    trace::message(trace::kind::recv, comm_, source, bytes, t0, trace::now());
    return;
  }
  take();
}

// Blocking send/recv pairs deadlock if every rank of a cycle sends first and the messages are
// too large to be buffered. Every exchange step is a permutation whose cycles we can name:
// a pairing has cycles of length two (one side sends first, the other receives first); a shift
// by k has cycles rank, rank+k, rank+2k, ... of length p/gcd(k,p). Along each cycle, ranks at
// even positions send first and ranks at odd positions receive first, so every send meets a
// posted receive within two steps (an odd-length cycle has two adjacent senders, which only
// delays one of them by one message).
//
// Which side of a pair sends first is chosen so that pairs crossing the same link in one step
// do not all send in the same direction: an ordered exchange uses one direction of a full-duplex
// link at a time, so if every pair's lower rank sent first, the pairs (0,2) and (1,3) of 2 hosts
// × 2 ranks would both load host 0 → host 1, then both host 1 → host 0, each half at half speed.
// The lower rank sends first when the number of one bits of the lower rank is even (the
// Thue–Morse sequence), else the upper rank does: in the pairings of recursive doubling and
// halving (rank xor 2^k) the lower ranks of the pairs that cross one boundary alternate in that
// parity, on hosts of consecutive ranks and on round-robin hosts alike. Both sides compute the
// rule from the same pair, so they always agree (one sends, the other receives).
bool transport::sends_first(int to, int from) const {
  // Any other pattern could pair two senders: a bug in the calling algorithm, reported here
  // rather than left to hang when the messages are too large for eager buffering.
  if (to != from && (rank_ - (to - rank_ + size_) % size_ + size_) % size_ != from)
    throw error(
        fmt::format("collectives: internal error: rank {} exchanges with to = {}, from = {}, which is "
                    "neither a pairing nor a shift",
                    rank_, to, from));
  return detail::sends_first(rank_, to, from, size_);
}

// A message of at most E bytes (sends_eagerly) is sent before the receive, whatever the partner
// does: its MPI_Send returns without the receiver. Mixing such steps with ordered ones cannot
// deadlock, even within one step where some messages are eager and others not (the v-variants'
// uneven blocks, E differing between peers on and across hosts). Take one step's cycle and
// suppose every rank in it waits: a rank waiting in a send (a large one, ordered) waits for its
// successor to post the receive, so the successor also waits in a send it makes before receiving;
// a rank waiting in a receive waits for its predecessor's message, so the predecessor also waits
// in a receive it makes before sending. A wait would thus need a whole cycle of ordered senders or
// a whole cycle of ordered receivers, and the rule above gives every cycle a rank of each kind;
// an eager rank is neither, as it never waits in its send. Across steps, an eager send is a send
// that cannot block moved ahead of a receive, and the messages between two ranks keep their order
// (MPI matches them in order): it only makes its message available sooner. So every schedule
// that makes progress with all exchanges ordered and no buffering at all still does.
//
// Above E, a message to a rank on another host is cut into segments of at most E (segment_bytes),
// which its receiver, knowing the same E, receives piece by piece: each segment's send returns at
// once, so both directions of the link carry data together instead of one after the other. Such a
// sender never waits in a send either, and the argument above holds for it if its successor is
// never left waiting on it while it waits itself. It sends piece i before it receives piece i
// only when its own incoming message is also one whose sender never waits (eager, or cut): a rank
// waiting for piece i then has a predecessor of the same kind that has not sent piece i, so it
// waits in turn for a piece numbered less than i, and so on back — the numbers fall at every
// step, so no cycle of such waits can close. Otherwise it sends every piece before receiving, and
// no one waits on it at all. A rank whose own message is ordered (large, to its own host) keeps
// the ordered rule and only receives its incoming message in pieces.
void transport::exchange(int to, const void* send_buf, std::size_t send_bytes, int from, void* recv_buf,
                         std::size_t recv_bytes) const {
  if (to == rank_ && from == rank_) {
    if (send_bytes != recv_bytes)
      throw error(fmt::format("collectives: rank {} exchanges {} bytes with itself but expects {}", rank_,
                              send_bytes, recv_bytes));
    copy_bytes(recv_buf, send_buf, send_bytes);
    return;
  }
  const std::size_t send_segment = segment_bytes(to), recv_segment = segment_bytes(from);
  const bool send_cut = send_segment != 0 && send_bytes > send_segment;
  const bool recv_cut = recv_segment != 0 && recv_bytes > recv_segment;
  if (send_cut || recv_cut) [[unlikely]] {
    const bool never_waits = send_cut || sends_eagerly(to, send_bytes);
    const bool partner_never_waits = recv_cut || sends_eagerly(from, recv_bytes);
    const piece_order order = never_waits && partner_never_waits ? piece_order::interleaved
                              : never_waits || sends_first(to, from) ? piece_order::sends_first
                                                                     : piece_order::receives_first;
    return exchange_in_pieces(to, send_buf, send_bytes, from, recv_buf, recv_bytes, order);
  }
  if (sends_eagerly(to, send_bytes) || sends_first(to, from)) {
    send_as(to, send_buf, send_bytes, message_part::exchange);
    recv_as(from, recv_buf, recv_bytes, message_part::exchange);
  } else {
    recv_as(from, recv_buf, recv_bytes, message_part::exchange);
    send_as(to, send_buf, send_bytes, message_part::exchange);
  }
}

void transport::exchange_in_pieces(int to, const void* send_buf, std::size_t send_bytes, int from,
                                   void* recv_buf, std::size_t recv_bytes, piece_order order) const {
  // A message's pieces: segments where it is cut, else the whole message as one (even when empty).
  struct pieces {
    std::size_t bytes, size, count;
    pieces(std::size_t total, std::size_t segment)
        : bytes(total),
          size(segment != 0 && total > segment ? segment : total),
          count(size == 0 ? 1 : (total + size - 1) / size) {}
    std::size_t offset(std::size_t i) const { return i * size; }
    std::size_t length(std::size_t i) const { return std::min(size, bytes - i * size); }
  };
  const pieces out(send_bytes, segment_bytes(to)), in(recv_bytes, segment_bytes(from));
  const auto* send_bytes_at = static_cast<const std::byte*>(send_buf);
  auto* recv_bytes_at = static_cast<std::byte*>(recv_buf);
  const auto send_piece = [&](std::size_t i) {
    send_as(to, send_bytes_at + out.offset(i), out.length(i), message_part::exchange);
  };
  const auto recv_piece = [&](std::size_t i) {
    recv_as(from, recv_bytes_at + in.offset(i), in.length(i), message_part::exchange);
  };
  const auto send_all = [&] {
    for (std::size_t i = 0; i < out.count; ++i) send_piece(i);
  };
  const auto recv_all = [&] {
    for (std::size_t i = 0; i < in.count; ++i) recv_piece(i);
  };
  switch (order) {
    case piece_order::interleaved:
      for (std::size_t i = 0; i < std::max(out.count, in.count); ++i) {
        if (i < out.count) send_piece(i);
        if (i < in.count) recv_piece(i);
      }
      return;
    case piece_order::sends_first:
      send_all();
      recv_all();
      return;
    case piece_order::receives_first:
      recv_all();
      send_all();
      return;
  }
}

void transport::agree_on_maximum(long long* values, int count) const {
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_LONG_LONG, MPI_MAX, comm_), "MPI_Allreduce");
}

void transport::agree_on_sum(std::uint64_t* values, int count) const {
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, values, count, MPI_UINT64_T, MPI_SUM, comm_), "MPI_Allreduce");
}

}  // namespace collectives::detail
