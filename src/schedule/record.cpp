// SPDX-License-Identifier: BSD-3-Clause
// The recording transport: one rank of a call run alone, its messages, reductions and copies
// handed to a recorder (kit/recording.hpp) instead of MPI and the kernels.

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <span>
#include <type_traits>
#include <unordered_map>

#include "collectives/error.hpp"
#include "kit/block_layout.hpp"
#include "kit/collective_traits.hpp"
#include "kit/eager.hpp"
#include "kit/hosts.hpp"
#include "kit/recording.hpp"
#include "dispatch/registry.hpp"
#include "schedule/schedule.hpp"

namespace collectives::detail::schedule {
namespace {

constexpr int comm_kinds = 4;  // the call's, intra, across, leaders
constexpr const char* comm_names[comm_kinds] = {"", "intra", "across", "leaders"};

// Handles that stand for the communicators of a recording: never given to MPI (every use is
// intercepted), never equal to a real one. Open MPI's MPI_Comm is a pointer: addresses of our own;
// MPICH's an int: values that are no valid MPICH handle.
template <class Handle>
Handle stand_in_of(int kind) {
  static char tags[comm_kinds];
  if constexpr (std::is_pointer_v<Handle>)
    return reinterpret_cast<Handle>(&tags[kind]);
  else
    return static_cast<Handle>(kind + 1);
}
MPI_Comm stand_in(int kind) { return stand_in_of<MPI_Comm>(kind); }

// A fast stream of bytes from a seed (splitmix64).
std::uint64_t mix(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

void fill(void* buf, std::size_t bytes, std::uint64_t seed) {
  auto* p = static_cast<unsigned char*>(buf);
  for (std::size_t i = 0; i < bytes; i += 8) {
    const std::uint64_t v = mix(seed + i);
    for (std::size_t k = 0; k < 8 && i + k < bytes; ++k) p[i + k] = static_cast<unsigned char>(v >> (8 * k));
  }
}

// Buffers that a recording without data never touches: new[] without initialisation, so that
// pages nobody writes are never mapped in.
struct buffer {
  std::unique_ptr<std::byte[]> data;
  explicit buffer(std::size_t bytes) : data(new std::byte[std::max<std::size_t>(bytes, 1)]) {}
  std::byte* get() const { return data.get(); }
};

element_type element_of(std::size_t size) {
  switch (size) {
    case 1:
      return {1, builtin_type::u8};
    case 2:
      return {2, builtin_type::u16};
    case 4:
      return {4, builtin_type::u32};
    case 8:
      return {8, builtin_type::u64};
    default:
      throw error(fmt::format("schedule: element size {} (expected 1, 2, 4 or 8)", size));
  }
}

block_layout packed(std::vector<std::size_t> counts) {
  block_layout l;
  l.displs.resize(counts.size());
  std::exclusive_scan(counts.begin(), counts.end(), l.displs.begin(), std::size_t{0});
  l.counts = std::move(counts);
  return l;
}

// As COLLECTIVES_SIMULATED_HOSTS (dispatch/hosts.cpp): consecutive ranks, or dealt round-robin. Hosts
// are numbered by their lowest rank, which both rules already do.
int host_of(int p, const host_spec& spec, int rank) {
  const int H = std::clamp(spec.hosts, 1, p);
  return spec.cyclic ? rank % H : static_cast<int>(static_cast<long long>(rank) * H / p);
}

// Which host every rank is on, the same for every rank of a call.
struct shared_hosts {
  int p = 0, hosts = 0;
  bool cyclic = false, uniform = true;
  std::vector<int> host_of, local_rank_of;
  std::vector<std::vector<int>> ranks_of;  ///< host → its ranks in rank order
};

const shared_hosts& shared_hosts_of(int p, const host_spec& spec) {
  thread_local shared_hosts cached;
  const int H = std::clamp(spec.hosts, 1, p);
  if (cached.p == p && cached.hosts == H && cached.cyclic == spec.cyclic) return cached;
  cached = {p, H, spec.cyclic, true, {}, {}, std::vector<std::vector<int>>(static_cast<std::size_t>(H))};
  for (int r = 0; r < p; ++r) {
    const int h = host_of(p, spec, r);
    std::vector<int>& on = cached.ranks_of[static_cast<std::size_t>(h)];
    cached.host_of.push_back(h);
    cached.local_rank_of.push_back(static_cast<int>(on.size()));
    on.push_back(r);
  }
  for (const std::vector<int>& on : cached.ranks_of)
    cached.uniform = cached.uniform && on.size() == cached.ranks_of[0].size();
  return cached;
}

class recorder final : public recording {
 public:
  // `input`: the caller's buffers this rank's sends leave untouched (send; a broadcast root's).
  recorder(const call_spec& spec, int rank, const record_options& options, rank_schedule& out,
           std::span<const std::byte> input)
      : spec_(spec), rank_(rank), options_(options), out_(out), input_(input) {}

  void send(MPI_Comm comm, int peer, const void* buf, std::size_t bytes, message_part part) override {
    const int k = kind_of(comm), to = global(k, peer);
    if (options_.deliver != nullptr) options_.deliver->send(k, rank_, to, buf, bytes);
    if (options_.mail != nullptr) options_.mail->post(k, rank_, to, number(sent_, k, to), buf, bytes);
    const auto* b = static_cast<const std::byte*>(buf);
    const bool input = bytes > 0 && std::less_equal<>()(input_.data(), b) &&
                       std::less_equal<>()(b + bytes, input_.data() + input_.size());
    if (options_.deliver == nullptr)
      out_.push_back(
          {op::send, part == message_part::exchange, static_cast<std::uint8_t>(k), input, to, bytes});
  }
  void recv(MPI_Comm comm, int peer, void* buf, std::size_t bytes, message_part part) override {
    const int k = kind_of(comm), from = global(k, peer);
    if (options_.deliver != nullptr) options_.deliver->recv(k, from, rank_, buf, bytes);
    const bool delivered = options_.deliver != nullptr ||
                           (options_.mail != nullptr &&
                            options_.mail->take(k, from, rank_, number(received_, k, from), buf, bytes));
    if (!delivered && options_.with_data && bytes > 0)
      fill(buf, bytes, mix(options_.seed ^ mix(rank_ * 7919 + out_.size())));
    if (options_.deliver == nullptr)
      out_.push_back(
          {op::recv, part == message_part::exchange, static_cast<std::uint8_t>(k), false, from, bytes});
  }
  bool reduce(std::size_t elements) override {
    if (options_.locals) out_.push_back({op::reduce, false, 0, false, -1, elements});
    return options_.with_data;
  }
  bool copy(std::size_t bytes) override {
    if (options_.locals) out_.push_back({op::copy, false, 0, false, -1, bytes});
    return options_.with_data;
  }
  void rank_and_size(MPI_Comm comm, int& rank, int& size) override {
    const std::vector<int>& m = members(kind_of(comm));
    rank = static_cast<int>(std::find(m.begin(), m.end(), rank_) - m.begin());
    size = static_cast<int>(m.size());
  }
  const host_layout& hosts(MPI_Comm comm) override {
    if (kind_of(comm) != 0)
      throw error("schedule: hosts_of on a communicator the node-aware algorithms made themselves");
    if (!layout_built_) build_layout();
    return layout_;
  }

 private:
  // The number of this rank's message on channel (k, peer) so far, counted up.
  static std::uint64_t number(std::unordered_map<std::uint64_t, std::uint64_t>& counts, int k, int peer) {
    return counts[static_cast<std::uint64_t>(k) << 32 | static_cast<std::uint32_t>(peer)]++;
  }

  int kind_of(MPI_Comm comm) const {
    for (int k = 0; k < comm_kinds; ++k)
      if (comm == stand_in(k)) return k;
    throw error("schedule: a message on a communicator the recording does not know");
  }
  // The members of communicator `kind` in rank order; the call's own is never built (rank r is r).
  const std::vector<int>& members(int kind) {
    if (kind == 0) throw error("schedule: rank_and_size on the call's own communicator");
    if (!layout_built_) build_layout();
    return members_[static_cast<std::size_t>(kind)];
  }
  int global(int kind, int peer) {
    const std::size_t size = kind == 0 ? static_cast<std::size_t>(spec_.p) : members(kind).size();
    if (peer < 0 || static_cast<std::size_t>(peer) >= size)
      throw error(
          fmt::format("schedule: rank {} addresses rank {} of a communicator of {}", rank_, peer, size));
    return kind == 0 ? peer : members_[static_cast<std::size_t>(kind)][static_cast<std::size_t>(peer)];
  }

  // The layout hosts_of would build (dispatch/hosts.cpp) for COLLECTIVES_SIMULATED_HOSTS, and the
  // members of each communicator in their rank order: what every rank shares comes from a cache
  // (a call records its p ranks one after another), this rank's own view is O(p) to make.
  void build_layout() {
    const shared_hosts& all = shared_hosts_of(spec_.p, spec_.hosts);
    const auto me = static_cast<std::size_t>(rank_);
    host_layout& l = layout_;
    l.hosts = all.hosts;
    l.host = all.host_of[me];
    l.local_rank = all.local_rank_of[me];
    l.uniform = all.uniform;
    l.host_of = all.host_of;
    l.local_rank_of = all.local_rank_of;
    l.host_size.clear();
    for (const std::vector<int>& ranks : all.ranks_of) l.host_size.push_back(static_cast<int>(ranks.size()));
    // The splits of dispatch/hosts.cpp: intra keeps rank order; `across` (one rank per host, at this
    // local rank) is ordered by across_position, `leaders` (local rank 0) by host.
    members_[1] = all.ranks_of[static_cast<std::size_t>(l.host)];
    for (int position = 0; position < l.hosts; ++position) {
      const std::vector<int>& on =
          all.ranks_of[static_cast<std::size_t>(l.across_position(position, l.local_rank))];
      if (static_cast<std::size_t>(l.local_rank) < on.size())
        members_[2].push_back(on[static_cast<std::size_t>(l.local_rank)]);
    }
    if (l.local_rank == 0)
      for (const std::vector<int>& ranks : all.ranks_of) members_[3].push_back(ranks.front());
    l.intra = stand_in(1);
    l.across = stand_in(2);
    l.leaders = l.local_rank == 0 ? stand_in(3) : MPI_COMM_NULL;
    // E to the members of each, as hosts.cpp's eager_in takes it from the call's communicator.
    for (auto [table, kind] : {std::pair{&l.intra_eager, 1}, {&l.across_eager, 2}, {&l.leaders_eager, 3}})
      for (int member : members_[kind]) table->push_back(eager_between(spec_, rank_, member));
    layout_built_ = true;
  }

  const call_spec& spec_;
  int rank_;
  const record_options& options_;
  rank_schedule& out_;
  std::span<const std::byte> input_;
  // Built on first use: only the node-aware algorithms ask.
  bool layout_built_ = false;
  host_layout layout_{};
  std::vector<int> members_[comm_kinds];
  std::unordered_map<std::uint64_t, std::uint64_t> sent_, received_;  ///< with a mailbox only
};

// Makes `r` this thread's recording for one scope.
class active_scope {
 public:
  explicit active_scope(recording* r) : before_(set_active_recording(r)) {}
  ~active_scope() { set_active_recording(before_); }
  active_scope(const active_scope&) = delete;
  active_scope& operator=(const active_scope&) = delete;

 private:
  recording* before_;
};

// The algorithm to record: options.run, or spec's from the registry (never vendor).
algorithm_fn algorithm_of(const call_spec& spec, const record_options& options) {
  if (options.run != nullptr) return options.run;
  const algorithm_descriptor* entry = find_algorithm(spec.coll, spec.alg);
  if (entry == nullptr || spec.alg == algorithm::vendor)
    throw error(fmt::format("schedule: {} has no algorithm '{}' to record", to_string(spec.coll),
                            to_string(spec.alg)));
  return entry->run;
}

// What run() hands the algorithm on one rank: each buffer's size in elements (collective.hpp's
// extents), n and the v-variants' layouts, packed in rank order.
struct rank_buffers {
  std::size_t send_elems = 0, recv_elems = 0, count = 0;
  block_layout send_blocks, recv_blocks;
};

rank_buffers buffers_of(const call_spec& spec, int rank) {
  const collective_descriptor& d = descriptor_of(spec.coll);
  const std::size_t P = static_cast<std::size_t>(spec.p), me = static_cast<std::size_t>(rank);
  const bool root = rank == spec.root;
  const std::vector<std::size_t>& counts = spec.counts;
  if (d.is_v_variant && counts.size() != (counts_per_pair(d) ? P * P : P))
    throw error(fmt::format("schedule: {} at p {} needs {} counts, given {}", to_string(spec.coll), spec.p,
                            counts_per_pair(d) ? P * P : P, counts.size()));
  rank_buffers out;
  const auto layout_of = [&](const buffer_shape& shape) -> block_layout& {
    return shape.laid_out_by == counts_argument::send_counts ? out.send_blocks : out.recv_blocks;
  };
  for (const data_buffer b : {data_buffer::send, data_buffer::recv}) {
    const buffer_shape& shape = shape_of(d, b);
    if (shape.on(root) != buffer_extent::blocks) continue;
    if (!counts_per_pair(d)) {
      layout_of(shape) = packed(counts);
      continue;
    }
    // counts[i·p + j] from rank i to rank j: this rank's row is its send, its column its recv.
    std::vector<std::size_t> line(P);
    for (std::size_t j = 0; j < P; ++j)
      line[j] = b == data_buffer::send ? counts[me * P + j] : counts[j * P + me];
    layout_of(shape) = packed(std::move(line));
  }
  const std::size_t own = d.is_v_variant && !counts_per_pair(d) ? counts[me] : 0;
  const auto elements = [&](data_buffer b) {
    const buffer_shape& shape = shape_of(d, b);
    return elements_in(shape.on(root), P, spec.count, own, layout_of(shape).total());
  };
  out.send_elems = elements(data_buffer::send);
  out.recv_elems = elements(data_buffer::recv);
  out.count = d.time_only ? 0 : d.is_v_variant ? elements(d.n_from) : spec.count;
  return out;
}

// E and the segment size to every peer, as the library learns them from the MPI library
// (transport.hpp, learn_eager_sizes, by the same rules: kit/eager.hpp), where E across hosts is
// known.
comm_info comm_info_of(const call_spec& spec, int rank) {
  comm_info info{stand_in(0), rank, spec.p, {}, {}};
  const eager_limits limits{.same_host = spec.eager_bytes,
                            .other_host = spec.eager_bytes_across.value_or(spec.eager_bytes),
                            .from_mpi = true,
                            .source = {},
                            .segments_across = spec.eager_bytes_across && spec.segments_across};
  for (int q = 0; q < spec.p; ++q) {
    info.eager_to.push_back(eager_between(spec, rank, q));
    info.segment_to.push_back(segment_to_peer(limits, host_of(spec, rank) == host_of(spec, q)));
  }
  return info;
}

}  // namespace

rank_schedule record(const call_spec& spec, int rank, const record_options& options) {
  rank_schedule out;
  record_into(spec, rank, options, out);
  return out;
}

void record_into(const call_spec& spec, int rank, const record_options& options, rank_schedule& out) {
  out.clear();
  const collective_descriptor& d = descriptor_of(spec.coll);
  const int p = spec.p;
  if (p < 1 || rank < 0 || rank >= p) throw error(fmt::format("schedule: rank {} of {}", rank, p));
  if (d.has_root && (spec.root < 0 || spec.root >= p))
    throw error(fmt::format("schedule: root {} of {}", spec.root, p));
  const algorithm_fn run = algorithm_of(spec, options);
  const element_type elem = element_of(spec.elem_size);
  const reduction sum{builtin_kernel(elem.type, builtin_op::sum), nullptr, true, builtin_op::sum};
  const reduction& op = options.op != nullptr ? *options.op : sum;
  const bool root = rank == spec.root;
  rank_buffers b = buffers_of(spec, rank);

  // In place (allreduce, scan, exscan): one buffer, the input, which the result overwrites.
  const bool in_place = spec.in_place && d.has_in_place_form;
  if (in_place) b.send_elems = 0;
  const buffer send(b.send_elems * elem.size), recv(b.recv_elems * elem.size);
  const std::span<std::byte> send_bytes(send.get(), b.send_elems * elem.size),
      recv_bytes(recv.get(), b.recv_elems * elem.size);
  if (options.data != nullptr) {
    options.data->fill(rank, send_bytes, recv_bytes);
  } else if (options.with_data) {
    fill(send.get(), send_bytes.size(), mix(options.seed ^ mix(rank + 1)));
    fill(recv.get(), recv_bytes.size(), mix(options.seed ^ mix(rank + 1) ^ 1));
  }
  // Buffers a rank does not pass are null, as in run(): root-only ones elsewhere, broadcast's send
  // (its one buffer is recv), barrier's.
  const bool with_send = d.send.on(root) != buffer_extent::none;
  const bool with_recv = d.recv.on(root) != buffer_extent::none;

  // The caller's input: the send buffer, and a broadcast root's buffer (it only sends from it).
  const std::span<const std::byte> input = in_place                          ? recv_bytes
                                           : with_send                       ? send_bytes
                                           : d.recv_is_input_at_root && root ? recv_bytes
                                                                             : std::span<std::byte>();
  recorder rec(spec, rank, options, out, input);
  const comm_info info = comm_info_of(spec, rank);  // outlives the transport, which points into it
  const transport net(info);
  const call c{net,
               in_place    ? recv.get()
               : with_send ? send.get()
                           : nullptr,
               with_recv ? recv.get() : nullptr,
               b.count,
               elem,
               &op,
               d.has_root ? spec.root : 0,
               b.send_blocks.counts.empty() ? nullptr : &b.send_blocks,
               b.recv_blocks.counts.empty() ? nullptr : &b.recv_blocks,
               spec.radix != 0 ? spec.radix : default_radix(spec.coll, spec.alg)};
  const active_scope scope(&rec);
  run(c);
  if (options.data != nullptr) options.data->read(rank, send_bytes, recv_bytes);
}

namespace {

std::uint64_t message_key(int comm, int from, int to, std::uint64_t number) {
  if (from >= 1 << 20 || to >= 1 << 20 || number >= std::uint64_t{1} << 22)
    throw error("schedule: mailbox keys hold ranks below 2^20 and 2^22 messages per channel");
  return static_cast<std::uint64_t>(comm) << 62 | static_cast<std::uint64_t>(from) << 42 |
         static_cast<std::uint64_t>(to) << 22 | number;
}

// record_into, its error saying which rank.
void record_rank(const call_spec& spec, int rank, const record_options& options, rank_schedule& out) {
  try {
    record_into(spec, rank, options, out);
  } catch (const std::exception& e) {
    throw error(fmt::format("rank {}: {}", rank, e.what()));
  }
}

}  // namespace

void mailbox::post(int comm, int from, int to, std::uint64_t number, const void* buf, std::size_t bytes) {
  if (bytes > largest) return;
  const auto* b = static_cast<const std::byte*>(buf);
  payloads_[message_key(comm, from, to, number)].assign(b, b + bytes);
}

bool mailbox::take(int comm, int from, int to, std::uint64_t number, void* buf, std::size_t bytes) const {
  const auto it = payloads_.find(message_key(comm, from, to, number));
  if (it == payloads_.end() || it->second.size() != bytes) return false;
  if (bytes > 0) std::memcpy(buf, it->second.data(), bytes);
  return true;
}

void record_call_into(const call_spec& spec, const record_options& options, bool deliver,
                      std::vector<rank_schedule>& out, int* passes) {
  const auto P = static_cast<std::size_t>(spec.p);
  if (out.size() < P) out.resize(P);
  if (!deliver && !learns_from_messages(spec.coll, spec.alg)) {
    for (int r = 0; r < spec.p; ++r) record_rank(spec, r, options, out[static_cast<std::size_t>(r)]);
    if (passes != nullptr) *passes = 1;
    return;
  }
  mailbox mail;
  record_options delivering = options;
  delivering.mail = &mail;
  const int start = has_root(spec.coll) ? spec.root : 0;
  std::vector<rank_schedule> before(P);
  // Each pass settles at least one more rank's messages in order from the root; p + 1 bound every
  // flow, trees settle in two.
  for (int pass = 1; pass <= spec.p + 1; ++pass) {
    bool changed = false;
    for (int i = 0; i < spec.p; ++i) {
      const auto r = static_cast<std::size_t>((start + i) % spec.p);
      before[r].swap(out[r]);
      record_rank(spec, static_cast<int>(r), delivering, out[r]);
      changed = changed || pass == 1 || out[r] != before[r];
    }
    if (!changed) {
      if (passes != nullptr) *passes = pass;
      return;
    }
  }
  throw error(
      fmt::format("schedule: {}: the schedules did not settle over {} passes", describe(spec), spec.p + 1));
}

std::vector<rank_schedule> record_call(const call_spec& spec, const record_options& options, bool deliver,
                                       int* passes) {
  std::vector<rank_schedule> out;
  record_call_into(spec, options, deliver, out, passes);
  return out;
}

bool learns_from_messages(collective c, algorithm a) {
  static std::mutex mutex;
  static std::map<std::pair<collective, algorithm>, bool> known;
  {
    std::lock_guard lock(mutex);
    if (const auto it = known.find({c, a}); it != known.end()) return it->second;
  }
  // Every rank at p = 6, root 2, with blocks of every size in the v-variants; each rank recorded
  // with two different sets of values received.
  call_spec spec;
  spec.coll = c;
  spec.alg = a;
  spec.p = 6;
  spec.root = 2;
  spec.count = 7;
  const std::size_t n = counts_per_pair(descriptor_of(c)) ? 36 : 6;
  for (std::size_t i = 0; i < n; ++i) spec.counts.push_back((i * 5 + 3) % 7);
  spec.hosts = {2, false};
  // Recorded alone, a receive leaves its buffer as it was (no data: nothing is written anywhere);
  // delivered, it holds what the sender sent.
  const std::vector<rank_schedule> delivered = record_call(spec, {}, true);
  bool learns = false;
  for (int r = 0; r < spec.p && !learns; ++r)
    learns = record(spec, r) != delivered[static_cast<std::size_t>(r)];
  std::lock_guard lock(mutex);
  known[{c, a}] = learns;
  return learns;
}

int host_of(const call_spec& spec, int rank) { return host_of(spec.p, spec.hosts, rank); }

std::size_t eager_between(const call_spec& spec, int from, int to) {
  if (!spec.eager_bytes_across || host_of(spec, from) == host_of(spec, to)) return spec.eager_bytes;
  return *spec.eager_bytes_across;
}

std::string describe(const call_spec& spec) {
  std::string s =
      fmt::format("{} {}, p {}", to_string(spec.coll), to_string(selection(spec.alg, spec.radix)), spec.p);
  if (is_v_variant(spec.coll)) {
    std::size_t total = 0, empty = 0, largest = 0;
    for (std::size_t c : spec.counts) total += c, empty += c == 0, largest = std::max(largest, c);
    s += fmt::format(", {} blocks: {} elements, {} empty, largest {}", spec.counts.size(), total, empty,
                     largest);
  } else if (!descriptor_of(spec.coll).time_only) {
    s += fmt::format(", count {}", spec.count);
  }
  if (has_root(spec.coll)) s += fmt::format(", root {}", spec.root);
  if (spec.in_place && has_in_place_form(spec.coll)) s += ", in place";
  if (node_aware(spec.coll, spec.alg) || spec.eager_bytes_across)
    s += fmt::format(", {} host{}{}", spec.hosts.hosts, spec.hosts.hosts == 1 ? "" : "s",
                     spec.hosts.cyclic ? " (round-robin)" : "");
  s += fmt::format(", {} B elements, E {}", spec.elem_size, spec.eager_bytes);
  if (spec.eager_bytes_across) s += fmt::format(" ({} across hosts)", *spec.eager_bytes_across);
  return s;
}

std::string describe(const step& s) {
  const char* on = comm_names[s.comm < comm_kinds ? s.comm : 0];
  const std::string where = *on != '\0' ? fmt::format(" on {}", on) : "";
  const char* half = s.exchange ? " (exchange)" : "";
  switch (s.kind) {
    case op::send:
      return fmt::format("send {} B to {}{}{}", s.bytes, s.peer, half, where);
    case op::recv:
      return fmt::format("receive {} B from {}{}{}", s.bytes, s.peer, half, where);
    case op::reduce:
      return fmt::format("reduce {} elements", s.bytes);
    case op::copy:
      return fmt::format("copy {} B", s.bytes);
  }
  return "?";
}

}  // namespace collectives::detail::schedule
