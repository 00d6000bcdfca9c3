// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Schedules as data: what one rank of one collective call sends, receives, reduces and copies, in
// order, recorded by running the library's own algorithm code for that rank alone, without MPI
// (kit/recording.hpp), and the checker that replays the p schedules of one call together
// (check.hpp). Not part of the library: the tests and the benchmark link it
// (collectives_schedules, CMakeLists.txt).
//
// The premise: which rank sends how many bytes to whom, in which order, depends on (algorithm, p,
// rank, counts, root, hosts, E) and never on the values, so one rank's schedule can be recorded
// with nobody on the other end: a receive returns at once (with values of the recorder's own when
// it carries data). tests/schedules_test.cpp checks the premise on every algorithm: recorded
// twice, with different inputs and different received values, every schedule is the same.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "collectives/algorithm.hpp"
#include "kit/call.hpp"

namespace collectives::detail::schedule {

enum class op : std::uint8_t { send, recv, reduce, copy };

/// One step of a rank's schedule.
struct step {
  op kind;
  /// One half of transport::exchange; the half recorded first is the side that went first.
  bool exchange = false;
  /// The communicator: 0 the call's; a node-aware algorithm's 1 intra-host, 2 across hosts,
  /// 3 host leaders (kit/hosts.hpp). Messages match only on the same one.
  std::uint8_t comm = 0;
  /// send: its bytes are the caller's untouched input (its send buffer, a broadcast root's buffer),
  /// not bytes written during the call (received, reduced or copied); what a message costs on one
  /// node depends on it (bench/model/price.hpp).
  bool input = false;
  /// send, recv: the peer's rank in the call's communicator (also on 1-3); −1 otherwise.
  int peer = -1;
  /// send, recv, copy: bytes; reduce: elements.
  std::uint64_t bytes = 0;

  bool operator==(const step&) const = default;
};

/// One rank's steps in one call, in program order.
using rank_schedule = std::vector<step>;

/// Which ranks share a host, for the node-aware algorithms (as COLLECTIVES_SIMULATED_HOSTS says
/// it): `hosts` hosts of consecutive ranks, or dealt round-robin. One host (or fewer): all ranks
/// share one.
struct host_spec {
  int hosts = 1;
  bool cyclic = false;
};

/// One call as every rank makes it.
struct call_spec {
  collective coll = collective::barrier;
  algorithm alg = algorithm::naive;
  /// The radix-k algorithms' radix (kit/call.hpp); 0: the algorithm's default.
  int radix = 0;
  int p = 1;
  /// Elements of a block (call::count): the whole vector for broadcast, reduce, allreduce, scan,
  /// exscan; one rank's block for the others. The v-variants take `counts` instead.
  std::size_t count = 0;
  /// The v-variants: rank r's block, p values (gatherv, scatterv, allgatherv, reduce_scatterv);
  /// alltoallv: p × p values, counts[i·p + j] elements from rank i to rank j.
  std::vector<std::size_t> counts;
  int root = 0;
  std::size_t elem_size = 4;  ///< 1, 2, 4 or 8 (an unsigned integer sum)
  host_spec hosts;
  /// The eager size E the transport assumes for every peer (0: none), as it learns it from the
  /// MPI library (transport::eager_bytes): an exchange whose message is at most E sends first.
  std::size_t eager_bytes = 0;
  /// allreduce, scan, exscan: send and receive are one buffer, the input (as MPI_IN_PLACE).
  bool in_place = false;
  /// E to ranks on other hosts (`hosts`), where it differs (Open MPI: shared memory on the host,
  /// TCP across); unset: eager_bytes to every peer.
  std::optional<std::size_t> eager_bytes_across;
  /// Where eager_bytes_across is set, whether exchanges above it with other hosts go as segments
  /// of it (the library's eager_limits::segments_across).
  bool segments_across = true;
};

/// The host of `rank` under `spec.hosts` (hosts are numbered by their lowest rank).
int host_of(const call_spec& spec, int rank);
/// E from `from` to `to` under `spec`: eager_bytes on one host, eager_bytes_across between two.
std::size_t eager_between(const call_spec& spec, int from, int to);

/// Payloads sent while recording, for the receives of ranks recorded later: what lets a rank that
/// learns its peers' counts from a message (gatherv's and scatterv's binomial trees, where only
/// the root has them) follow the schedule it follows in a real call. Keyed by the message's place
/// in MPI's order: communicator, sender, receiver and its number on that channel.
class mailbox {
 public:
  /// Payloads up to this size are kept: counts, not the data of a large call.
  static constexpr std::size_t largest = std::size_t{64} << 10;

  void post(int comm, int from, int to, std::uint64_t number, const void* buf, std::size_t bytes);
  /// Copies the payload into `buf` when one of exactly `bytes` bytes was posted; false otherwise.
  bool take(int comm, int from, int to, std::uint64_t number, void* buf, std::size_t bytes) const;

 private:
  std::unordered_map<std::uint64_t, std::vector<std::byte>> payloads_;
};

/// Carries messages between ranks that run together (carry.hpp): what a send hands over, a
/// receive takes, in MPI's order on each channel (communicator, sender, receiver).
class courier {
 public:
  virtual void send(int comm, int from, int to, const void* buf, std::size_t bytes) = 0;
  /// Returns once the message has come and is copied into `buf`; throws when its size differs.
  virtual void recv(int comm, int from, int to, void* buf, std::size_t bytes) = 0;

 protected:
  ~courier() = default;
};

/// A rank's own buffers, as the algorithm gets them: filled before the call, read after it.
class rank_data {
 public:
  /// `send` and `recv` as the recorder sized them (empty where the rank has none).
  virtual void fill(int rank, std::span<std::byte> send, std::span<std::byte> recv) = 0;
  virtual void read(int rank, std::span<const std::byte> send, std::span<const std::byte> recv) = 0;

 protected:
  ~rank_data() = default;
};

struct record_options {
  /// Moves real values: the inputs and every received message are filled from `seed` (and the
  /// rank and step), reductions and copies run. Otherwise no buffer is touched.
  bool with_data = false;
  std::uint64_t seed = 0;
  /// Records reductions and copies too; the checker needs only the messages.
  bool locals = true;
  /// Runs this instead of the registry's algorithm (the planted deadlocks of the tests).
  algorithm_fn run = nullptr;
  /// Posts every send's payload here and hands receives what was posted (record_call).
  mailbox* mail = nullptr;
  /// The data-carrying replay (carry.hpp): every message goes through `deliver`, the buffers are
  /// filled and read by `data`, reductions use `op` (default: an unsigned sum of the elements);
  /// with_data must be set. The messages are then not recorded as steps: the courier sees them.
  courier* deliver = nullptr;
  rank_data* data = nullptr;
  const reduction* op = nullptr;
};

/// Runs `spec` for `rank` alone and returns what it did. Throws what the algorithm throws.
rank_schedule record(const call_spec& spec, int rank, const record_options& options = {});
/// The same into `out` (emptied first), whose capacity a caller recording many calls reuses.
void record_into(const call_spec& spec, int rank, const record_options& options, rank_schedule& out);

/// True when the schedules of `c`'s algorithm `a` depend on what their messages carry: recorded
/// at small p with two different sets of received values, some rank's schedule differs. Probed once
/// per process. Such an algorithm must be recorded with its messages delivered (record_call).
bool learns_from_messages(collective c, algorithm a);

/// Every rank of `spec`, with what each rank learns from its messages where that matters
/// (learns_from_messages, or always with `deliver`): the ranks are recorded one after another from
/// the root on, every receive handed the payload its sender posted if the sender was recorded before
/// (in this pass or the last), and the passes repeat until no schedule changes — a tree that sends
/// counts down from the root settles in two. `passes` (optional) says how many it took. Throws when
/// the schedules do not settle, or what the algorithm throws.
std::vector<rank_schedule> record_call(const call_spec& spec, const record_options& options = {},
                                       bool deliver = false, int* passes = nullptr);
/// The same into `out` (resized to p), reusing its memory.
void record_call_into(const call_spec& spec, const record_options& options, bool deliver,
                      std::vector<rank_schedule>& out, int* passes = nullptr);

/// "allreduce ring, p 5, count 6, E 0", with root, counts and hosts where they apply.
std::string describe(const call_spec& spec);
/// "send 24 B to 3 (exchange) on intra".
std::string describe(const step& s);

}  // namespace collectives::detail::schedule
