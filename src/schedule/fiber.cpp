// SPDX-License-Identifier: BSD-3-Clause
// Fibers (fiber.hpp): Boost.Context's fibers on stacks of our own, each kept from one call to the
// next, and AddressSanitizer told of every switch.

#include "schedule/fiber.hpp"

#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>
#include <memory>
#include <utility>

#include "collectives/error.hpp"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define COLLECTIVES_FIBER_ASAN 1
#else
#define COLLECTIVES_FIBER_ASAN 0
#endif

namespace collectives::detail::schedule {

namespace boost_context = boost::context;

namespace {
// Room for the algorithms' frames, the recorder's and an exception's unwinding; only the pages a
// fiber touches are ever mapped in.
constexpr std::size_t stack_bytes = std::size_t{256} << 10;

// Boost's StackAllocator handing a fiber the stack its state owns, and leaving it there when the
// fiber ends: one mmap per stack for the thread's life, not one per fiber.
struct borrowed_stack {
  boost_context::stack_context stack;
  boost_context::stack_context allocate() const { return stack; }
  void deallocate(boost_context::stack_context&) const noexcept {}
};
}  // namespace

struct fibers::scheduler {
  const void* stack_bottom = nullptr;  ///< AddressSanitizer's view of the resuming thread's stack
  std::size_t stack_size = 0;
};

struct fibers::state {
  fibers* owner = nullptr;
  std::size_t index = 0;
  bool done = true;
  boost_context::stack_context stack;  ///< guard page at the bottom (protected_fixedsize_stack), then ours
  boost_context::fiber self;           ///< the fiber, while switched away
  boost_context::fiber back;           ///< the resuming side, while the fiber runs
  void* fake_stack = nullptr;          ///< AddressSanitizer's, while switched away

  state() : stack(boost_context::protected_fixedsize_stack(stack_bytes).allocate()) {}
  ~state() {
    self = {};  // a fiber still waiting (an interrupted call) is unwound while its stack is there
    boost_context::protected_fixedsize_stack(stack_bytes).deallocate(stack);
  }
  state(const state&) = delete;
  state& operator=(const state&) = delete;

  std::byte* bottom() const { return static_cast<std::byte*>(stack.sp) - stack_bytes; }
};

namespace {

void announce_switch([[maybe_unused]] void** fake_stack, [[maybe_unused]] const void* bottom,
                     [[maybe_unused]] std::size_t size) {
#if COLLECTIVES_FIBER_ASAN
  __sanitizer_start_switch_fiber(fake_stack, bottom, size);
#endif
}

void switched([[maybe_unused]] void* fake_stack, [[maybe_unused]] const void** bottom,
              [[maybe_unused]] std::size_t* size) {
#if COLLECTIVES_FIBER_ASAN
  __sanitizer_finish_switch_fiber(fake_stack, bottom, size);
#endif
}

}  // namespace

// The first frame of every fiber, under Boost's: runs its body, then announces the last switch,
// which Boost makes when the entry returns.
void fiber_main(fibers::state* s) {
  fibers& f = *s->owner;
  switched(nullptr, &f.scheduler_->stack_bottom, &f.scheduler_->stack_size);
  f.fn_(f.context_, s->index);  // the body catches what it throws (carry.cpp)
  s->done = true;
  announce_switch(nullptr, f.scheduler_->stack_bottom, f.scheduler_->stack_size);
}

namespace {
struct entry {
  fibers::state* s;
  boost_context::fiber operator()(boost_context::fiber&& back) const {
    s->back = std::move(back);
    fiber_main(s);
    return std::move(s->back);
  }
};
}  // namespace

fibers::fibers() : scheduler_(std::make_unique<scheduler>()) {}
fibers::~fibers() = default;

fibers& fibers::of_this_thread() {
  thread_local fibers mine;
  return mine;
}

void fibers::start(std::size_t count, body fn, void* context) {
  for (std::size_t i = 0; i < count_; ++i)
    if (!all_[i]->done) throw error("schedule: fibers started again while one of them still runs");
  while (all_.size() < count) all_.push_back(std::make_unique<state>());
  count_ = count;
  fn_ = fn;
  context_ = context;
  for (std::size_t i = 0; i < count; ++i) {
    state& s = *all_[i];
    s.owner = this;
    s.index = i;
    s.done = false;
    s.fake_stack = nullptr;
#if COLLECTIVES_FIBER_ASAN
    // The frames of the stack's last fiber left their red zones behind.
    ASAN_UNPOISON_MEMORY_REGION(s.bottom(), stack_bytes);
#endif
    // Boost lays out the entry's frame on the stack, and switches there and back to start it.
    s.self = boost_context::fiber(std::allocator_arg, borrowed_stack{s.stack}, entry{&s});
  }
}

bool fibers::resume(std::size_t i) {
  state& s = *all_[i];
  if (s.done) return false;
  current_ = i;
  void* fake = nullptr;
  announce_switch(&fake, s.bottom(), stack_bytes);
  s.self = std::move(s.self).resume();  // empty once the fiber has returned
  switched(fake, nullptr, nullptr);
  return !s.done;
}

void fibers::yield() {
  state& s = *all_[current_];
  announce_switch(&s.fake_stack, scheduler_->stack_bottom, scheduler_->stack_size);
  s.back = std::move(s.back).resume();
  switched(s.fake_stack, &scheduler_->stack_bottom, &scheduler_->stack_size);
}

}  // namespace collectives::detail::schedule
