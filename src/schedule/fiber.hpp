// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Fibers: the p ranks of one call run on one thread, each on a stack of its own, switched by
// Boost.Context (the data-carrying replay, carry.hpp). A fiber runs until it yields (a receive
// whose message has not come) or returns; the thread that resumed it goes on from there.
// Cooperative: nothing runs while another fiber is between two switches, so the library's
// per-thread state (the scratch cache, the active recording) is shared safely as long as each
// switch swaps what must follow the fiber (carry.cpp does). Stacks are kept for the next call of
// the same thread.
//
// A switch is Boost's fcontext: it saves the callee-saved registers, the floating-point control
// words and the stack pointer, a few instructions, no system call. Each stack has a guard page
// below it. Under AddressSanitizer every switch is announced to it here (Debian's Boost.Context
// does not announce them itself).

#include <cstddef>
#include <memory>
#include <vector>

namespace collectives::detail::schedule {

class fibers {
 public:
  using body = void (*)(void* context, std::size_t index);

  fibers();
  ~fibers();
  fibers(const fibers&) = delete;
  fibers& operator=(const fibers&) = delete;

  /// Prepares `count` fibers, fiber i to run body(context, i) when first resumed. Every fiber of
  /// an earlier start must have returned.
  void start(std::size_t count, body fn, void* context);
  /// Runs fiber i until it yields or returns; false once it has returned.
  bool resume(std::size_t i);
  /// From inside a fiber: back to the caller of resume().
  void yield();
  /// The fiber running now (inside a fiber only).
  std::size_t current() const { return current_; }

  /// This thread's fibers.
  static fibers& of_this_thread();

  struct state;  ///< one fiber's stack and saved context (fiber.cpp)

 private:
  std::vector<std::unique_ptr<state>> all_;
  std::size_t count_ = 0, current_ = 0;
  body fn_ = nullptr;
  void* context_ = nullptr;
  struct scheduler;  ///< the resuming side's saved context
  std::unique_ptr<scheduler> scheduler_;

  friend void fiber_main(state* s);
};

}  // namespace collectives::detail::schedule
