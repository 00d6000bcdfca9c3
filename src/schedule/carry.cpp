// SPDX-License-Identifier: BSD-3-Clause
// The data-carrying replay (carry.hpp): an in-memory courier between the p fibers of one call, and
// the loop that runs each fiber until it waits for a message.

#include "schedule/carry.hpp"

#include <fmt/format.h>

#include <cstring>
#include <exception>
#include <unordered_map>
#include <vector>

#include "collectives/error.hpp"
#include "core/recording.hpp"
#include "core/trace.hpp"
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
  [[noreturn]] static void misuse() { throw error("schedule: a library call outside the fibers of a replay"); }
};

class carrier final : public courier {
 public:
  carrier(const call_spec& spec, rank_data& data, const reduction* op, algorithm_fn run)
      : spec_(spec), p_(static_cast<std::size_t>(spec.p)), waits_(p_), active_(p_), marks_(p_) {
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
    const std::uint64_t key = channel(comm, from, to);
    wait& w = waits_[static_cast<std::size_t>(to)];
    if (w.waiting && w.key == key) {  // its queue is empty: the receive took every earlier one
      w.waiting = false;
      if (w.bytes == bytes) {
        if (bytes > 0) std::memcpy(w.buf, buf, bytes);
      } else {
        w.error = mismatch(comm, from, to, bytes, w.bytes);
      }
      runnable_.push_back(static_cast<std::size_t>(to));
      return;
    }
    std::vector<std::byte> payload;
    if (!spare_.empty()) {
      payload = std::move(spare_.back());
      spare_.pop_back();
    }
    const auto* b = static_cast<const std::byte*>(buf);
    payload.assign(b, b + bytes);
    queues_[key].push_back(std::move(payload));
  }

  void recv(int comm, int from, int to, void* buf, std::size_t bytes) override {
    const std::uint64_t key = channel(comm, from, to);
    if (const auto it = queues_.find(key); it != queues_.end() && it->second.size() > it->second.front_index) {
      queue& q = it->second;
      std::vector<std::byte>& payload = q.messages[q.front_index++];
      if (payload.size() != bytes) throw error(mismatch(comm, from, to, payload.size(), bytes));
      if (bytes > 0) std::memcpy(buf, payload.data(), bytes);
      spare_.push_back(std::move(payload));
      if (q.front_index == q.messages.size()) q.messages.clear(), q.front_index = 0;
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
    std::uint64_t key = 0;
    void* buf = nullptr;
    std::size_t bytes = 0;
    bool waiting = false;
    std::string error;
  };
  // Messages sent and not yet received on one channel, in order.
  struct queue {
    std::vector<std::vector<std::byte>> messages;
    std::size_t front_index = 0;
    std::size_t size() const { return messages.size(); }
    void push_back(std::vector<std::byte> m) { messages.push_back(std::move(m)); }
  };

  static std::uint64_t channel(int comm, int from, int to) {
    return static_cast<std::uint64_t>(comm) << 62 | static_cast<std::uint64_t>(from) << 31 |
           static_cast<std::uint64_t>(to);
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
    for (std::size_t r = 0; r < p_; ++r)
      if (waits_[r].waiting) {
        const std::uint64_t key = waits_[r].key;
        add_problem(fmt::format("rank {} waits for {} B from rank {}{}, which never sends it", r, waits_[r].bytes,
                                (key >> 31) & 0x7FFFFFFF, carried_comm_names[key >> 62]));
      }
    for (const auto& [key, q] : queues_)
      if (q.size() > q.front_index)
        add_problem(fmt::format("never received: {} message{} from rank {} to rank {}{}", q.size() - q.front_index,
                                q.size() - q.front_index == 1 ? "" : "s", (key >> 31) & 0x7FFFFFFF,
                                key & 0x7FFFFFFF, carried_comm_names[key >> 62]));
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
  std::unordered_map<std::uint64_t, queue> queues_;
  std::vector<std::vector<std::byte>> spare_;  ///< payload buffers received, for reuse
  std::size_t problems_ = 0;
  carried result_;
};

}  // namespace

carried carry(const call_spec& spec, rank_data& data, const reduction* op, algorithm_fn run) {
  if (spec.p < 1) throw error(fmt::format("schedule: p = {}", spec.p));
  carrier c(spec, data, op, run);
  return c.run();
}

}  // namespace collectives::detail::schedule
