// SPDX-License-Identifier: BSD-3-Clause
// The data-carrying replay (carry.hpp): an in-memory courier between the p fibers of one call, and
// the loop that runs each fiber until it waits for a message.

#include "schedule/carry.hpp"

#include <fmt/format.h>

#include <cstring>
#include <exception>
#include <vector>

#include "collectives/error.hpp"
#include "kit/recording.hpp"
#include "kit/trace.hpp"
#include "schedule/fiber.hpp"

namespace collectives::detail::schedule {
namespace {

constexpr const char* carried_comm_names[] = {"", " on intra", " on across", " on leaders"};
constexpr std::size_t listed = 8;  // problems listed per call, then a count

// Thrown into a fiber left waiting when the call is over, to unwind its stack; no std::exception,
// so that no handler of the library's takes it for an error of its own.
struct abandoned {};

// Active on the resuming side between two fibers, so that every switch swaps one recording for
// another (and the trace hooks' count of recording threads never moves); never used.
class between_fibers final : public recording {
 public:
  void send(MPI_Comm, int, const void*, std::size_t, message_part) override { misuse(); }
  void recv(MPI_Comm, int, void*, std::size_t, message_part) override { misuse(); }
  bool reduce(std::size_t) override { misuse(); }
  bool copy(std::size_t) override { misuse(); }
  void rank_and_size(MPI_Comm, int&, int&) override { misuse(); }
  const host_layout& hosts(MPI_Comm) override { misuse(); }

 private:
  [[noreturn]] static void misuse() {
    throw error("schedule: a library call outside the fibers of a replay");
  }
};

// The messages sent and not yet received, a queue per channel: a dense table of 4 p² heads (four
// communicators), kept per thread and reset where a call touched it; payloads in a pool whose
// buffers keep their capacity from one message and call to the next.
class in_flight {
 public:
  static in_flight& of_this_thread() {
    thread_local in_flight mine;
    return mine;
  }

  void reset(std::size_t keys) {
    for (std::size_t k : touched_) heads_[k] = tails_[k] = -1;
    touched_.clear();
    if (heads_.size() < keys) heads_.resize(keys, -1), tails_.resize(keys, -1);
    free_ = -1;
    for (std::size_t i = 0; i < pool_.size(); ++i) pool_[i].next = free_, free_ = static_cast<int>(i);
  }
  /// A new message at the back of `key`'s queue: its payload buffer, to be filled.
  std::vector<std::byte>& push(std::size_t key) {
    int i = free_;
    if (i >= 0) {
      free_ = pool_[static_cast<std::size_t>(i)].next;
    } else {
      i = static_cast<int>(pool_.size());
      pool_.emplace_back();
    }
    pool_[static_cast<std::size_t>(i)].next = -1;
    if (heads_[key] < 0) {
      if (tails_[key] == -1) touched_.push_back(key);
      heads_[key] = i;
    } else {
      pool_[static_cast<std::size_t>(tails_[key])].next = i;
    }
    tails_[key] = i;
    return pool_[static_cast<std::size_t>(i)].payload;
  }
  const std::vector<std::byte>* front(std::size_t key) const {
    const int i = heads_[key];
    return i < 0 ? nullptr : &pool_[static_cast<std::size_t>(i)].payload;
  }
  void pop(std::size_t key) {
    const int i = heads_[key];
    message& m = pool_[static_cast<std::size_t>(i)];
    heads_[key] = m.next;
    if (m.next < 0) tails_[key] = -2;  // empty, and already in touched_
    m.next = free_;
    free_ = i;
  }
  /// f(key, messages) for every channel with messages left.
  template <class F>
  void each_left(F f) const {
    for (std::size_t k : touched_) {
      std::size_t n = 0;
      for (int i = heads_[k]; i >= 0; i = pool_[static_cast<std::size_t>(i)].next) ++n;
      if (n > 0) f(k, n);
    }
  }

 private:
  struct message {
    std::vector<std::byte> payload;
    int next = -1;
  };
  std::vector<int> heads_, tails_;  ///< −1: empty; tail −2: empty and in touched_
  std::vector<std::size_t> touched_;
  std::vector<message> pool_;
  int free_ = -1;
};

class carrier final : public courier {
 public:
  carrier(const call_spec& spec, rank_data& data, const reduction* op, algorithm_fn run,
          std::uint64_t corrupt)
      : spec_(spec),
        p_(static_cast<std::size_t>(spec.p)),
        waits_(p_),
        active_(p_),
        marks_(p_),
        corrupt_(corrupt) {
    queues_.reset(4 * p_ * p_);
    options_.with_data = true;
    options_.locals = false;
    options_.run = run;
    options_.deliver = this;
    options_.data = &data;
    options_.op = op;
  }

  carried run() {
    fibers& f = fibers::of_this_thread();
    f.start(p_, &body, this);
    between_fibers idle;
    recording* const outside = set_active_recording(&idle);
    std::fill(active_.begin(), active_.end(), &idle);
    for (std::size_t r = 0; r < p_; ++r) runnable_.push_back(r);
    for (std::size_t next = 0; next < runnable_.size(); ++next) resume(f, runnable_[next]);
    report_leftovers();
    // Fibers still waiting: each is resumed once more to unwind (its receive throws abandoned).
    for (std::size_t r = 0; r < p_; ++r)
      if (waits_[r].waiting) resume(f, r);
    set_active_recording(outside);
    result_.ok = problems_ == 0;
    if (problems_ > listed) result_.problem += fmt::format("\n… and {} more", problems_ - listed);
    return result_;
  }

  void send(int comm, int from, int to, const void* buf, std::size_t bytes) override {
    ++result_.messages;
    result_.bytes += bytes;
    const std::size_t key = channel(comm, from, to);
    const bool flip = corrupt_ != 0 && result_.messages >= corrupt_ && bytes > 0;
    if (flip) corrupt_ = 0, result_.corrupted = true;
    wait& w = waits_[static_cast<std::size_t>(to)];
    if (w.waiting && w.key == key) {  // its queue is empty: the receive took every earlier one
      w.waiting = false;
      if (w.bytes == bytes) {
        if (bytes > 0) std::memcpy(w.buf, buf, bytes);
        if (flip) *static_cast<std::byte*>(w.buf) ^= std::byte{0xFF};
      } else {
        w.error = mismatch(comm, from, to, bytes, w.bytes);
      }
      runnable_.push_back(static_cast<std::size_t>(to));
      return;
    }
    const auto* b = static_cast<const std::byte*>(buf);
    std::vector<std::byte>& payload = queues_.push(key);
    payload.assign(b, b + bytes);
    if (flip) payload[0] ^= std::byte{0xFF};
  }

  void recv(int comm, int from, int to, void* buf, std::size_t bytes) override {
    const std::size_t key = channel(comm, from, to);
    if (const std::vector<std::byte>* payload = queues_.front(key)) {
      if (payload->size() != bytes) throw error(mismatch(comm, from, to, payload->size(), bytes));
      if (bytes > 0) std::memcpy(buf, payload->data(), bytes);
      queues_.pop(key);
      return;
    }
    wait& w = waits_[static_cast<std::size_t>(to)];
    w = {key, buf, bytes, true, {}};
    fibers::of_this_thread().yield();
    if (w.waiting) throw abandoned{};  // the call is over, and the message never came
    if (!w.error.empty()) throw error(std::move(w.error));
  }

 private:
  struct wait {
    std::size_t key = 0;
    void* buf = nullptr;
    std::size_t bytes = 0;
    bool waiting = false;
    std::string error;
  };
  // (communicator, sender, receiver) as one index into the in_flight' table.
  std::size_t channel(int comm, int from, int to) const {
    return (static_cast<std::size_t>(comm) * p_ + static_cast<std::size_t>(from)) * p_ +
           static_cast<std::size_t>(to);
  }
  void channel_ends(std::size_t key, int& comm, int& from, int& to) const {
    to = static_cast<int>(key % p_);
    from = static_cast<int>(key / p_ % p_);
    comm = static_cast<int>(key / p_ / p_);
  }

  static std::string mismatch(int comm, int from, int to, std::size_t sent, std::size_t expected) {
    return fmt::format("size mismatch: rank {} sent {} B to rank {}{}, which expected {} B", from, sent, to,
                       carried_comm_names[comm & 3], expected);
  }

  static void body(void* self, std::size_t rank) { static_cast<carrier*>(self)->run_rank(rank); }

  void run_rank(std::size_t rank) {
    rank_schedule steps;
    try {
      record_into(spec_, static_cast<int>(rank), options_, steps);
    } catch (const abandoned&) {
      // unwound; reported as waiting already
    } catch (const std::exception& e) {
      add_problem(fmt::format("rank {}: {}", rank, e.what()));
    }
  }

  // Runs fiber r with its own recording and trace marks in force, until it waits or ends.
  void resume(fibers& f, std::size_t r) {
    recording* const idle = set_active_recording(active_[r]);
    std::swap(trace::current_marks(), marks_[r]);
    f.resume(r);
    std::swap(trace::current_marks(), marks_[r]);
    active_[r] = set_active_recording(idle);
  }

  void report_leftovers() {
    int comm = 0, from = 0, to = 0;
    for (std::size_t r = 0; r < p_; ++r)
      if (waits_[r].waiting) {
        channel_ends(waits_[r].key, comm, from, to);
        add_problem(fmt::format("rank {} waits for {} B from rank {}{}, which never sends it", r,
                                waits_[r].bytes, from, carried_comm_names[comm]));
      }
    queues_.each_left([&](std::size_t key, std::size_t messages) {
      channel_ends(key, comm, from, to);
      add_problem(fmt::format("never received: {} message{} from rank {} to rank {}{}", messages,
                              messages == 1 ? "" : "s", from, to, carried_comm_names[comm]));
    });
  }

  void add_problem(std::string text) {
    if (++problems_ <= listed) result_.problem += (result_.problem.empty() ? "" : "\n") + text;
  }

  const call_spec& spec_;
  const std::size_t p_;
  record_options options_;
  std::vector<wait> waits_;
  std::vector<recording*> active_;  ///< each fiber's active recording while switched away
  std::vector<trace::block_marks> marks_;
  std::vector<std::size_t> runnable_;  ///< in the order they became runnable
  in_flight& queues_ = in_flight::of_this_thread();
  std::uint64_t corrupt_;
  std::size_t problems_ = 0;
  carried result_;
};

}  // namespace

carried carry(const call_spec& spec, rank_data& data, const reduction* op, algorithm_fn run,
              std::uint64_t corrupt) {
  if (spec.p < 1) throw error(fmt::format("schedule: p = {}", spec.p));
  carrier c(spec, data, op, run, corrupt);
  return c.run();
}

}  // namespace collectives::detail::schedule
