// SPDX-License-Identifier: BSD-3-Clause
// Trace mode: the event buffer, the Chrome trace-event writer, the clock offsets and the
// MPI_Finalize hook behind include/collectives/trace.hpp and kit/trace.hpp.
//
// Format (Chrome "JSON Object Format"): {"traceEvents": [...]} with
//   - metadata ("ph":"M"): process_name "rank W (host)", and the library's own `host`,
//     `world_size` and `clock_offset` records (viewers ignore names they do not know);
//   - one complete slice ("ph":"X") per call (name "<collective> <algorithm>") and per event
//     (send, recv, reduce, copy), on track pid = world rank, tid = the calling thread's number;
//   - a flow ("ph":"s" in the send, "ph":"f" at the end of the receive) per message, whose id
//     names (source, destination, sequence number on that pair): MPI keeps messages between two
//     ranks in order on one communicator and tag, and the library's calls are blocking and
//     entered in the same order by every rank, so the n-th send from s to d is the n-th receive
//     at d from s.
// Events are written in the order they start (a call's slice is reserved when it begins), so
// "ts" never decreases along a rank's file.

#include "kit/trace.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "collectives/error.hpp"
#include "collectives/trace.hpp"
#include "kit/recording.hpp"
#include "kit/transport.hpp"

namespace collectives::detail::trace {

double now() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

block_marks& current_marks() {
  thread_local block_marks marks;
  return marks;
}

namespace {

// Whether this process traces; the hooks (`enabled`) are on while it does or while any thread
// records a schedule (kit/recording.hpp).
std::atomic<bool> tracing_on{false};
void set_tracing(bool on);

// The buffer is written out when a call begins with at least this many events in it.
constexpr std::size_t flush_threshold = 65536;
// Ping-pongs per rank with the communicator's rank 0; the one with the smallest round trip gives
// the offset, within half that round trip (bench/measure/start_sync.hpp's method).
constexpr int offset_exchanges = 16;

struct event {
  kind k;
  int tid;
  double t0, t1;
  int peer_world = -1, peer_comm = -1;
  std::size_t bytes = 0;
  std::uint64_t seq = 0;
  block_marks marks;
  // A call's.
  collective coll{};
  algorithm requested{}, resolved{};
  std::size_t count = 0, elem_size = 0;
  int comm_rank = 0, comm_size = 0, root = -1;
};

struct clock_offset {
  int reference;  ///< world rank of the communicator's rank 0
  double offset;  ///< this rank's clock minus the reference's, µs
  double error;   ///< half the round trip it was measured with, µs
};

// The world ranks of a communicator's members.
std::vector<int> world_ranks(MPI_Comm comm) {
  MPI_Group group, world;
  int size = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_group(comm, &group);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> mine(static_cast<std::size_t>(size)), theirs(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) mine[static_cast<std::size_t>(i)] = i;
  MPI_Group_translate_ranks(group, size, mine.data(), world, theirs.data());
  MPI_Group_free(&group);
  MPI_Group_free(&world);
  return theirs;
}

std::string json_escape(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (ch == '"' || ch == '\\')
      out += fmt::format("\\{}", ch);
    else if (static_cast<unsigned char>(ch) < 0x20)
      out += fmt::format("\\u{:04x}", static_cast<int>(static_cast<unsigned char>(ch)));
    else
      out += ch;
  }
  return out;
}

class recorder {
 public:
  std::mutex mutex;
  bool to_memory = false;
  std::string prefix;

  void start(std::string_view file_prefix, bool memory) {
    std::lock_guard lock(mutex);
    finish_locked();
    prefix = file_prefix;
    to_memory = memory;
    events_.clear();
    header_written_ = false;
    offsets_.clear();
    measured_.clear();
  }

  // Writes what is buffered and closes the file (file mode).
  void finish_locked() {
    if (!to_memory && !prefix.empty()) {
      write_locked(true);
      prefix.clear();
    }
  }

  std::string take() {
    std::lock_guard lock(mutex);
    if (!to_memory) return {};
    std::string out = document_head();
    out += body();
    out += "\n]}\n";
    // The offsets stay: every document taken carries them.
    events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(complete_prefix()));
    return out;
  }

  std::size_t append(const event& e) {
    events_.push_back(e);
    return events_.size() - 1;
  }
  event& at(std::size_t i) { return events_[i]; }
  std::size_t size() const { return events_.size(); }

  void maybe_flush_locked() {
    if (!to_memory && events_.size() >= flush_threshold) write_locked(false);
  }

  bool offset_measured(MPI_Comm comm) const {
    for (MPI_Comm c : measured_)
      if (c == comm) return true;
    return false;
  }
  void add_offset(MPI_Comm comm, clock_offset o) {
    measured_.push_back(comm);
    offsets_.push_back(o);
  }

  int world_rank() {
    if (world_rank_ < 0) {
      MPI_Comm_rank(MPI_COMM_WORLD, &world_rank_);
      MPI_Comm_size(MPI_COMM_WORLD, &world_size_);
      char name[256] = {};
      gethostname(name, sizeof name - 1);
      host_ = name;
    }
    return world_rank_;
  }
  std::uint64_t next_send_seq(int dest) { return next(send_seq_, dest); }
  std::uint64_t next_recv_seq(int source) { return next(recv_seq_, source); }

  // World ranks of `comm`'s members, cached until the next call begins (a handle may be reused
  // for another communicator once freed).
  const std::vector<int>& members(MPI_Comm comm) {
    auto it = members_.find(comm);
    if (it == members_.end()) it = members_.emplace(comm, world_ranks(comm)).first;
    return it->second;
  }
  void forget_members() { members_.clear(); }

 private:
  static std::uint64_t next(std::vector<std::uint64_t>& counters, int peer) {
    if (counters.size() <= static_cast<std::size_t>(peer))
      counters.resize(static_cast<std::size_t>(peer) + 1);
    return counters[static_cast<std::size_t>(peer)]++;
  }

  std::string document_head() {
    const int w = world_rank();
    std::string out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
    // clang-format off
    out += fmt::format(
        R"j({{"name":"process_name","ph":"M","pid":{0},"tid":0,"args":{{"name":"rank {0} ({1})"}}}},)j" "\n"
        R"({{"name":"process_sort_index","ph":"M","pid":{0},"tid":0,"args":{{"sort_index":{0}}}}},)" "\n"
        R"({{"name":"host","ph":"M","pid":{0},"tid":0,"args":{{"name":"{1}"}}}},)" "\n"
        R"({{"name":"world_size","ph":"M","pid":{0},"tid":0,"args":{{"size":{2}}}}})",
        w, json_escape(host_), world_size_);
    // clang-format on
    return out;
  }

  // Events whose slices are complete (a call still running keeps its slot and what follows).
  std::size_t complete_prefix() const {
    for (std::size_t i = 0; i < events_.size(); ++i)
      if (events_[i].k == kind::call && events_[i].t1 < events_[i].t0) return i;
    return events_.size();
  }

  std::string body() {
    std::string out;
    for (const clock_offset& o : offsets_)
      out += fmt::format(
          ",\n"
          R"({{"name":"clock_offset","ph":"M","pid":{},"tid":0,"args":{{"reference":{},"offset_us":{:.3f},"error_us":{:.3f}}}}})",
          world_rank_, o.reference, o.offset, o.error);
    const std::size_t n = complete_prefix();
    for (std::size_t i = 0; i < n; ++i) out += format(events_[i]);
    return out;
  }

  std::string format(const event& e) const {
    const int w = world_rank_;
    const double dur = std::max(0.0, e.t1 - e.t0);
    if (e.k == kind::call)
      return fmt::format(
          ",\n"
          R"({{"name":"{} {}","cat":"call","ph":"X","pid":{},"tid":{},"ts":{:.3f},"dur":{:.3f},"args":{{"collective":"{}","algorithm":"{}","requested":"{}","count":{},"elem_size":{},"comm_rank":{},"comm_size":{}{}}}}})",
          to_string(e.coll), to_string(e.resolved), w, e.tid, e.t0, dur, to_string(e.coll),
          to_string(e.resolved), to_string(e.requested), e.count, e.elem_size, e.comm_rank, e.comm_size,
          e.root >= 0 ? fmt::format(R"(,"root":{})", e.root) : "");
    const bool message = e.k == kind::send || e.k == kind::recv;
    const block_range& b = e.k == kind::send ? e.marks.sent : e.marks.received;
    const std::string blocks =
        b.count > 0 ? fmt::format(R"(,"blocks":[{},{}],"parts":{})", b.first, b.count, e.marks.parts) : "";
    const char* name = e.k == kind::send     ? "send"
                       : e.k == kind::recv   ? "recv"
                       : e.k == kind::reduce ? "reduce"
                                             : "copy";
    std::string out;
    if (message) {
      out = fmt::format(
          ",\n"
          R"({{"name":"{}","cat":"{}","ph":"X","pid":{},"tid":{},"ts":{:.3f},"dur":{:.3f},"args":{{"peer":{},"peer_comm_rank":{},"bytes":{},"seq":{}{}}}}})",
          name, name, w, e.tid, e.t0, dur, e.peer_world, e.peer_comm, e.bytes, e.seq, blocks);
      // The flow's id: (source, destination, sequence number on that pair).
      const int src = e.k == kind::send ? w : e.peer_world, dst = e.k == kind::send ? e.peer_world : w;
      const std::uint64_t id =
          (e.seq * static_cast<std::uint64_t>(world_size_) + static_cast<std::uint64_t>(src)) *
              static_cast<std::uint64_t>(world_size_) +
          static_cast<std::uint64_t>(dst);
      // The flow ends just inside the receive's slice, at the moment the data is there.
      const double at = e.k == kind::send ? e.t0 : std::max(e.t0, e.t1 - 0.001);
      out += fmt::format(
          ",\n"
          R"({{"name":"message","cat":"message","ph":"{}",{}"id":{},"pid":{},"tid":{},"ts":{:.3f}}})",
          e.k == kind::send ? "s" : "f", e.k == kind::send ? "" : R"("bp":"e",)", id, w, e.tid, at);
    } else {
      out = fmt::format(
          ",\n"
          R"({{"name":"{}","cat":"{}","ph":"X","pid":{},"tid":{},"ts":{:.3f},"dur":{:.3f},"args":{{"bytes":{}{}}}}})",
          name, name, w, e.tid, e.t0, dur, e.bytes, blocks);
    }
    return out;
  }

  // Appends the complete events to <prefix>.<rank>.json (created by the first write) and drops
  // them; `closing` ends the document.
  void write_locked(bool closing) {
    const std::string path = fmt::format("{}.{}.json", prefix, world_rank());
    std::FILE* f = std::fopen(path.c_str(), header_written_ ? "a" : "w");
    if (f == nullptr) {
      fmt::print(stderr, "collectives: trace: cannot write '{}'; trace off\n", path);
      set_tracing(false);
      return;
    }
    std::string out = header_written_ ? "" : document_head();
    header_written_ = true;
    out += body();
    const std::size_t n = complete_prefix();
    events_.erase(events_.begin(), events_.begin() + static_cast<std::ptrdiff_t>(n));
    offsets_.clear();
    if (closing) out += "\n]}\n";
    std::fwrite(out.data(), 1, out.size(), f);
    std::fclose(f);
  }

  std::vector<event> events_;
  std::vector<clock_offset> offsets_;
  std::vector<MPI_Comm> measured_;
  bool header_written_ = false;
  int world_rank_ = -1, world_size_ = 1;
  std::string host_;
  std::vector<std::uint64_t> send_seq_, recv_seq_;
  std::unordered_map<MPI_Comm, std::vector<int>> members_;
};

recorder& the_recorder() {
  static recorder r;
  return r;
}

// Events of the offset measurement are not the schedule: not recorded.
thread_local bool suppressed = false;

int thread_number() {
  static std::atomic<int> next{0};
  thread_local const int mine = next.fetch_add(1);
  return mine;
}

// This rank's clock offset to rank 0 of `comm`: rank 0 ping-pongs with every rank in turn and
// sends each its best estimate. Library messages on the private communicator, inside the call,
// before the algorithm's first message, on every rank of it: they cannot be taken for another.
clock_offset measure_offset(MPI_Comm comm, int rank, int size, int reference) {
  const transport net(comm, transport::on_private_t{});
  suppressed = true;
  clock_offset mine{reference, 0, 0};
  if (rank == 0) {
    for (int r = 1; r < size; ++r) {
      double best[2] = {0, HUGE_VAL};
      for (int i = 0; i < offset_exchanges; ++i) {
        double remote = 0;
        const double sent = now();
        net.send(r, nullptr, 0);
        net.recv(r, &remote, sizeof remote);
        const double received = now();
        if ((received - sent) / 2 < best[1])
          best[0] = remote - (sent + received) / 2, best[1] = (received - sent) / 2;
      }
      net.send(r, best, sizeof best);
    }
  } else {
    for (int i = 0; i < offset_exchanges; ++i) {
      net.recv(0, nullptr, 0);
      const double t = now();
      net.send(0, &t, sizeof t);
    }
    double best[2] = {0, 0};
    net.recv(0, best, sizeof best);
    mine.offset = best[0];
    mine.error = best[1];
  }
  suppressed = false;
  return mine;
}

struct call_context {
  MPI_Comm comm = MPI_COMM_NULL;
  std::size_t elem_size = 1;
};
thread_local call_context current;

int finalize_keyval = MPI_KEYVAL_INVALID;

int write_at_finalize(MPI_Comm, int, void*, void*) {
  trace_off();
  return MPI_SUCCESS;
}

// Once per process: an attribute on MPI_COMM_SELF, whose delete callback MPI_Finalize runs first.
void write_at_finalize_once() {
  static const bool installed = [] {
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &write_at_finalize, &finalize_keyval, nullptr);
    MPI_Comm_set_attr(MPI_COMM_SELF, finalize_keyval, nullptr);
    return true;
  }();
  (void)installed;
}

#if COLLECTIVES_TRACE_HOOKS
bool start_from_environment() {
  const char* prefix = std::getenv("COLLECTIVES_TRACE");
  if (prefix == nullptr || *prefix == '\0') return false;
  the_recorder().start(prefix, false);
  return true;
}
#endif

thread_local recording* active = nullptr;
int recordings = 0;  ///< threads with an active recording, under hooks_mutex
std::mutex hooks_mutex;

void update_hooks_locked() {
#if COLLECTIVES_TRACE_HOOKS
  enabled.store(tracing_on.load() || recordings > 0);
#endif
}

void set_tracing(bool on) {
  std::lock_guard lock(hooks_mutex);
  tracing_on.store(on);
  update_hooks_locked();
}

}  // namespace

#if COLLECTIVES_TRACE_HOOKS
std::atomic<bool> enabled{[] {
  tracing_on.store(start_from_environment());
  return tracing_on.load();
}()};
#endif

void message(kind k, MPI_Comm comm, int peer, std::size_t bytes, double t0, double t1) {
  if (suppressed || !tracing_on.load(std::memory_order_relaxed)) return;
  recorder& r = the_recorder();
  std::lock_guard lock(r.mutex);
  event e{k, thread_number(), t0, t1, -1, -1, 0, 0, {}};
  e.peer_comm = peer;
  e.peer_world = r.members(comm)[static_cast<std::size_t>(peer)];
  e.bytes = bytes;
  r.world_rank();
  e.seq = k == kind::send ? r.next_send_seq(e.peer_world) : r.next_recv_seq(e.peer_world);
  e.marks = current_marks();
  r.append(e);
}

void local(kind k, std::size_t elements, std::size_t elem_size, double t0, double t1) {
  if (suppressed || !tracing_on.load(std::memory_order_relaxed)) return;
  recorder& r = the_recorder();
  std::lock_guard lock(r.mutex);
  event e{k, thread_number(), t0, t1, -1, -1, 0, 0, {}};
  e.bytes = elements * (k == kind::reduce ? (elem_size > 0 ? elem_size : current.elem_size) : 1);
  e.marks = current_marks();
  r.append(e);
}

call_scope::call_scope(MPI_Comm comm, collective c, algorithm requested, algorithm resolved,
                       std::size_t count, std::size_t elem_size, int root)
    : slot_(0), open_(false) {
  recorder& r = the_recorder();
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  bool measure = false;
  int reference = 0;
  {
    std::lock_guard lock(r.mutex);
    if (!tracing_on.load()) return;
    write_at_finalize_once();
    r.world_rank();
    r.forget_members();
    r.maybe_flush_locked();
    measure = !r.offset_measured(comm);
    reference = r.members(comm)[0];
  }
  if (measure) {
    const clock_offset o =
        size > 1 ? measure_offset(comm, rank, size, reference) : clock_offset{reference, 0, 0};
    std::lock_guard lock(r.mutex);
    r.add_offset(comm, o);
  }
  current = {comm, elem_size};
  std::lock_guard lock(r.mutex);
  event e{kind::call, thread_number(), now(), -1.0, -1, -1, 0, 0, {}};
  e.coll = c;
  e.requested = requested;
  e.resolved = resolved;
  e.count = count;
  e.elem_size = elem_size;
  e.comm_rank = rank;
  e.comm_size = size;
  e.root = root;
  slot_ = r.append(e);
  open_ = true;
}

call_scope::~call_scope() {
  if (!open_) return;
  recorder& r = the_recorder();
  std::lock_guard lock(r.mutex);
  if (slot_ < r.size() && r.at(slot_).k == kind::call && r.at(slot_).t1 < 0) r.at(slot_).t1 = now();
  current = {};
}

}  // namespace collectives::detail::trace

namespace collectives::detail {

recording* active_recording() { return trace::active; }

recording* set_active_recording(recording* r) {
#if COLLECTIVES_TRACE_HOOKS
  recording* before = trace::active;
  if ((before == nullptr) != (r == nullptr)) {
    std::lock_guard lock(trace::hooks_mutex);
    trace::recordings += r != nullptr ? 1 : -1;
    trace::update_hooks_locked();
  }
  trace::active = r;
  return before;
#else
  if (r != nullptr)
    throw error(
        "collectives: recording a schedule needs the trace hooks (built with COLLECTIVES_TRACE_HOOKS=OFF)");
  return nullptr;
#endif
}

}  // namespace collectives::detail

namespace collectives {

using detail::trace::the_recorder;

void trace_to(std::string_view prefix) {
#if COLLECTIVES_TRACE_HOOKS
  the_recorder().start(prefix, false);
  detail::trace::set_tracing(!prefix.empty());
#else
  (void)prefix;
#endif
}

void trace_to_memory() {
#if COLLECTIVES_TRACE_HOOKS
  the_recorder().start("", true);
  detail::trace::set_tracing(true);
#endif
}

void trace_off() {
#if COLLECTIVES_TRACE_HOOKS
  detail::trace::set_tracing(false);
  detail::trace::recorder& r = the_recorder();
  std::lock_guard lock(r.mutex);
  r.finish_locked();
#endif
}

bool tracing() { return detail::trace::tracing_on.load(); }

std::string trace_take() { return the_recorder().take(); }

}  // namespace collectives
