// SPDX-License-Identifier: BSD-3-Clause
// The replay of p recorded schedules (check.hpp): an event loop over the ranks, each run until it
// blocks, woken by the step that unblocks it; every step is visited once. The same loop prices a
// call (price.hpp): a clock policy sees every send, match and local step.

#include "schedule/check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "schedule/price.hpp"

namespace collectives::detail::schedule {
namespace {

constexpr std::size_t listed_waits = 12;  // a deadlock lists this many waiting ranks, then a count

// A message posted and not yet received.
struct posted {
  std::uint64_t bytes;
  int sender;
  std::uint32_t step;  ///< the sender's step
  int next;            ///< the next message on the same channel, or in the free list
  bool eager;          ///< completed at once; otherwise the sender waits for this receive
  posting posted_at;   ///< when the sender posted the message (pricing)
};

constexpr std::size_t no_key = ~std::size_t{0};

struct rank_state {
  std::uint32_t pc = 0;
  bool queued = false;
  bool done = false;
  bool rendezvous = false;       ///< its send at pc waits for the receive
  std::size_t waiting = no_key;  ///< the channel of the receive it waits at
};

// Per (communicator, distance, sender) a queue of posted messages, dense: head and tail indices
// into `pool`, −1 when empty. Keyed by the distance from sender to receiver first, so that the
// steps of a shift (ring, pairwise, Bruck, dissemination: every rank sends k ranks on) touch
// neighbouring entries. Kept per thread and reset where touched, so that a replay at 1024 ranks
// does not clear p² entries; received messages go back to a free list.
struct channels {
  struct queue {
    int head = -1, tail = -1;  ///< tail −2: empty, and already in `touched`
  };
  std::vector<queue> queues;
  std::vector<std::size_t> touched;
  std::vector<posted> pool;
  int free = -1;
  std::size_t outstanding = 0;

  void reset(std::size_t keys) {
    for (std::size_t k : touched) queues[k] = {};
    touched.clear();
    pool.clear();
    free = -1;
    outstanding = 0;
    if (queues.size() < keys) queues.resize(keys);
  }
  void push(std::size_t key, const posted& m) {
    int i = free;
    if (i >= 0) {
      free = pool[static_cast<std::size_t>(i)].next;
      pool[static_cast<std::size_t>(i)] = m;
    } else {
      i = static_cast<int>(pool.size());
      pool.push_back(m);
    }
    pool[static_cast<std::size_t>(i)].next = -1;
    queue& q = queues[key];
    if (q.head < 0) {
      if (q.tail == -1) touched.push_back(key);
      q.head = i;
    } else {
      pool[static_cast<std::size_t>(q.tail)].next = i;
    }
    q.tail = i;
    ++outstanding;
  }
  const posted* front(std::size_t key) const {
    const int i = queues[key].head;
    return i < 0 ? nullptr : &pool[static_cast<std::size_t>(i)];
  }
  void pop(std::size_t key) {
    queue& q = queues[key];
    const int i = q.head;
    posted& m = pool[static_cast<std::size_t>(i)];
    q.head = m.next;
    if (q.head < 0) q.tail = -2;
    m.next = free;
    free = i;
    --outstanding;
  }
};

std::string where(std::span<const rank_schedule> ranks, int r, std::size_t pc) {
  return fmt::format("rank {}, step {} of {}", r, pc, ranks[static_cast<std::size_t>(r)].size());
}

// The checker's clock: no time at all.
struct no_clock {
  void start(std::size_t) {}
  posting send(int, const step&, bool) { return {}; }
  void match(int, const step&, int, bool, posting) {}
  void local(int, const step&) {}
};

}  // namespace

std::string describe(const model& m) {
  if (m.kind == model::buffering::none) return "no buffering (every send waits for its receive)";
  if (m.host_of.empty()) return fmt::format("eager up to E = {} B", m.eager_bytes);
  return fmt::format("eager up to E = {} B on a host, {} B across hosts", m.eager_bytes, m.eager_across);
}

model model::eager_as(const call_spec& spec) {
  model m = eager(spec.eager_bytes);
  if (spec.eager_bytes_across) {
    m.eager_across = *spec.eager_bytes_across;
    for (int r = 0; r < spec.p; ++r) m.host_of.push_back(schedule::host_of(spec, r));
  }
  return m;
}

namespace {

// The communicators a schedule uses, or a problem: a step that addresses no rank.
std::optional<std::string> bad_peer(std::span<const rank_schedule> ranks, int& comms) {
  const int p = static_cast<int>(ranks.size());
  comms = 1;
  for (const rank_schedule& s : ranks)
    for (const step& x : s) {
      comms = std::max(comms, x.comm + 1);
      if ((x.kind == op::send || x.kind == op::recv) && (x.peer < 0 || x.peer >= p))
        return fmt::format("a step addresses rank {} of {}: {}", x.peer, p, describe(x));
    }
  return std::nullopt;
}

// The ranks ready to run, first in first out (a rank is queued at most once: p slots). The
// outcome does not depend on the order; FIFO gives the prefetch of a woken rank's next step time
// to arrive (the schedules of a large call do not fit in the caches).
struct run_queue {
  std::span<const rank_schedule> ranks;
  std::vector<rank_state>& state;
  std::vector<int> runnable = std::vector<int>(ranks.size());
  std::size_t first = 0, queued = 0;

  void enqueue(int r) {
    rank_state& s = state[static_cast<std::size_t>(r)];
    s.queued = true;
    const std::size_t at = first + queued++;
    runnable[at < ranks.size() ? at : at - ranks.size()] = r;
    __builtin_prefetch(ranks[static_cast<std::size_t>(r)].data() + s.pc);
  }
  void wake(int r) {
    const rank_state& s = state[static_cast<std::size_t>(r)];
    if (!s.queued && !s.done) enqueue(r);
  }
  int next() {
    const int r = runnable[first];
    first = first + 1 < ranks.size() ? first + 1 : 0;
    --queued;
    state[static_cast<std::size_t>(r)].queued = false;
    return r;
  }
};

// The chain of waits from the first waiting rank: it ends in a cycle or at a finished rank.
std::string wait_chain(std::span<const rank_schedule> ranks, const std::vector<rank_state>& state,
                       verdict& out) {
  const auto target = [&](int r) {  // whom a waiting rank waits for: the peer of its send or receive
    return ranks[static_cast<std::size_t>(r)][state[static_cast<std::size_t>(r)].pc].peer;
  };
  std::vector<int> seen_at(ranks.size(), -1), path;
  int r = out.waiting.front();
  while (!state[static_cast<std::size_t>(r)].done && seen_at[static_cast<std::size_t>(r)] < 0) {
    seen_at[static_cast<std::size_t>(r)] = static_cast<int>(path.size());
    path.push_back(r);
    r = target(r);
  }
  if (state[static_cast<std::size_t>(r)].done)
    return fmt::format("\n  rank {} waits for rank {}, which has finished without the message", path.back(),
                       r);
  out.cycle.assign(path.begin() + seen_at[static_cast<std::size_t>(r)], path.end());
  out.cycle.push_back(r);
  std::string chain;
  for (std::size_t i = 0; i < out.cycle.size(); ++i) {
    const int c = out.cycle[i];
    chain += i == 0 ? fmt::format("{}", c) : fmt::format(" → {}", c);
    if (i + 1 < out.cycle.size()) chain += fmt::format(" (step {})", state[static_cast<std::size_t>(c)].pc);
  }
  return fmt::format("\n  cycle: {}", chain);
}

// The ranks that did not finish, what each waits for, and the chain of waits.
void explain_deadlock(std::span<const rank_schedule> ranks, const model& m,
                      const std::vector<rank_state>& state, verdict& out) {
  out.ok = false;
  std::string text = fmt::format("deadlock under {}: {} of {} ranks wait forever", describe(m),
                                 out.waiting.size(), ranks.size());
  for (std::size_t i = 0; i < out.waiting.size() && i < listed_waits; ++i) {
    const int r = out.waiting[i];
    const rank_state& s = state[static_cast<std::size_t>(r)];
    const step& x = ranks[static_cast<std::size_t>(r)][s.pc];
    const bool finished = state[static_cast<std::size_t>(x.peer)].done;
    text +=
        fmt::format("\n  {}: {}{} — waits for rank {}{}", where(ranks, r, s.pc), describe(x),
                    x.kind == op::send ? ", not eager" : "", x.peer, finished ? ", which has finished" : "");
  }
  if (out.waiting.size() > listed_waits)
    text += fmt::format("\n  … and {} more", out.waiting.size() - listed_waits);
  text += wait_chain(ranks, state, out);
  out.problem = std::move(text);
}

// Every rank finished: a message nobody received is left behind (an eager send).
void find_unreceived(std::span<const rank_schedule> ranks, const channels& queues, verdict& out) {
  if (queues.outstanding == 0) return;
  for (std::size_t k : queues.touched)
    if (const posted* msg = queues.front(k)) {
      out.ok = false;
      out.problem = fmt::format("never received: {}: {}", where(ranks, msg->sender, msg->step),
                                describe(ranks[static_cast<std::size_t>(msg->sender)][msg->step]));
      return;
    }
}

template <class Clock>
verdict replay_with(std::span<const rank_schedule> ranks, const model& m, Clock& clock) {
  const int p = static_cast<int>(ranks.size());
  const std::size_t P = ranks.size();
  verdict out;
  int comms = 1;
  if (auto problem = bad_peer(ranks, comms)) {
    out.ok = false;
    out.problem = std::move(*problem);
    return out;
  }
  thread_local channels queues;
  queues.reset(static_cast<std::size_t>(comms) * P * P);
  clock.start(P);
  const auto key = [&](const step& x, int from, int to) {
    const auto distance = static_cast<std::size_t>(to >= from ? to - from : to - from + p);
    return (static_cast<std::size_t>(x.comm) * P + distance) * P + static_cast<std::size_t>(from);
  };
  std::vector<rank_state> state(P);
  run_queue run{ranks, state};
  for (int r = 0; r < p; ++r) run.enqueue(r);

  while (run.queued > 0) {
    const int r = run.next();
    rank_state& s = state[static_cast<std::size_t>(r)];
    const rank_schedule& steps = ranks[static_cast<std::size_t>(r)];
    while (!s.rendezvous && s.pc < steps.size()) {
      const step& x = steps[s.pc];
      if (x.kind == op::send) {
        const std::size_t k = key(x, r, x.peer);
        // E = 0 for a pair: no buffering, not even of an empty message (the transport's E = 0).
        const std::size_t e = m.kind == model::buffering::eager ? m.eager_between(r, x.peer) : 0;
        const bool eager = e != 0 && x.bytes <= e;
        queues.push(k, {x.bytes, r, s.pc, -1, eager, clock.send(r, x, eager)});
        if (state[static_cast<std::size_t>(x.peer)].waiting == k) run.wake(x.peer);
        if (!eager) {
          s.rendezvous = true;  // until the receive takes it
          break;
        }
      } else if (x.kind == op::recv) {
        const std::size_t k = key(x, x.peer, r);
        const posted* msg = queues.front(k);
        if (msg == nullptr) {
          s.waiting = k;  // woken by the send
          break;
        }
        s.waiting = no_key;
        if (msg->bytes != x.bytes) {
          out.ok = false;
          out.problem = fmt::format(
              "size mismatch: {} expects {} B from rank {}, whose message is {} B ({}: {})",
              where(ranks, r, s.pc), x.bytes, x.peer, msg->bytes, where(ranks, msg->sender, msg->step),
              describe(ranks[static_cast<std::size_t>(msg->sender)][msg->step]));
          return out;
        }
        clock.match(r, ranks[static_cast<std::size_t>(msg->sender)][msg->step], msg->sender, msg->eager,
                    msg->posted_at);
        if (!msg->eager) {
          rank_state& sender = state[static_cast<std::size_t>(msg->sender)];
          sender.rendezvous = false;
          ++sender.pc;
          run.wake(msg->sender);
        }
        queues.pop(k);
        ++out.messages;
      } else {
        clock.local(r, x);
      }
      ++s.pc;
    }
    if (s.pc >= steps.size()) s.done = true;
  }

  for (int r = 0; r < p; ++r)
    if (!state[static_cast<std::size_t>(r)].done) out.waiting.push_back(r);
  if (!out.waiting.empty())
    explain_deadlock(ranks, m, state, out);
  else
    find_unreceived(ranks, queues, out);
  return out;
}

}  // namespace

verdict replay_timed(std::span<const rank_schedule> ranks, const model& m, rank_clocks& clock) {
  return replay_with(ranks, m, clock);
}

verdict replay(std::span<const rank_schedule> ranks, const model& m) {
  no_clock clock;
  return replay_with(ranks, m, clock);
}

verdict check(const call_spec& spec, const model& m) {
  // Kept per thread: a matrix of calls reuses the schedules' memory.
  thread_local std::vector<rank_schedule> all;
  record_options options;
  options.locals = false;
  try {
    record_call_into(spec, options, false, all);
  } catch (const std::exception& e) {
    verdict out;
    out.ok = false;
    out.problem = fmt::format("recording threw: {}", e.what());
    return out;
  }
  return replay(std::span(all).first(static_cast<std::size_t>(spec.p)), m);
}

}  // namespace collectives::detail::schedule
