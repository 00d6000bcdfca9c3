// SPDX-License-Identifier: BSD-3-Clause
// Fibers (fiber.hpp): stacks from mmap with a guard page below each, and the switch.

#include "schedule/fiber.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <new>

#include "collectives/error.hpp"

// The hand-written switch on x86-64 unless COLLECTIVES_FIBER_UCONTEXT asks for the portable one.
#if defined(__x86_64__) && !defined(COLLECTIVES_FIBER_UCONTEXT)
#define COLLECTIVES_FIBER_ASM 1
#else
#define COLLECTIVES_FIBER_ASM 0
#include <ucontext.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define COLLECTIVES_FIBER_ASAN 1
#else
#define COLLECTIVES_FIBER_ASAN 0
#endif

#if COLLECTIVES_FIBER_ASM
// collectives_fiber_switch(save, to): pushes the callee-saved registers, the x87 control word and
// MXCSR, stores the stack pointer in *save, loads `to` and pops the same from there. A new fiber's
// stack is laid out as if it had switched away just before collectives_fiber_entry, which calls
// fiber_main(rbx) with an aligned stack and marks the end of the call chain for unwinders.
extern "C" void collectives_fiber_switch(void** save, void* to);
extern "C" void collectives_fiber_entry();
asm(R"(
  .text
  .globl collectives_fiber_switch
  .type collectives_fiber_switch, @function
collectives_fiber_switch:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $16, %rsp
  stmxcsr 8(%rsp)
  fnstcw (%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr 8(%rsp)
  fldcw (%rsp)
  addq $16, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .cfi_endproc
  .size collectives_fiber_switch, .-collectives_fiber_switch

  .globl collectives_fiber_entry
  .type collectives_fiber_entry, @function
collectives_fiber_entry:
  .cfi_startproc
  .cfi_undefined rip
  movq %rbx, %rdi
  callq *%r12
  ud2
  .cfi_endproc
  .size collectives_fiber_entry, .-collectives_fiber_entry
)");
#endif

namespace collectives::detail::schedule {

namespace {
// Room for the algorithms' frames, the recorder's and an exception's unwinding; only the pages a
// fiber touches are ever mapped in.
constexpr std::size_t stack_bytes = std::size_t{256} << 10;

std::size_t page_size() {
  static const std::size_t size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}
}  // namespace

struct fibers::scheduler {
#if COLLECTIVES_FIBER_ASM
  void* sp = nullptr;
#else
  ucontext_t context{};
#endif
  const void* stack_bottom = nullptr;  ///< AddressSanitizer's view of the resuming thread's stack
  std::size_t stack_size = 0;
};

struct fibers::state {
  fibers* owner = nullptr;
  std::size_t index = 0;
  bool done = true;
  std::byte* mapping = nullptr;  ///< guard page, then the stack
  std::byte* stack = nullptr;
#if COLLECTIVES_FIBER_ASM
  void* sp = nullptr;
#else
  ucontext_t context{};
#endif
  void* fake_stack = nullptr;  ///< AddressSanitizer's, while switched away

  state() {
    void* m = mmap(nullptr, stack_bytes + page_size(), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    mapping = static_cast<std::byte*>(m);
    mprotect(mapping, page_size(), PROT_NONE);  // an overflow faults instead of writing elsewhere
    stack = mapping + page_size();
  }
  ~state() { munmap(mapping, stack_bytes + page_size()); }
  state(const state&) = delete;
  state& operator=(const state&) = delete;
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

// The first frame of every fiber: runs its body, then leaves for good.
void fiber_main(fibers::state* s) {
  fibers& f = *s->owner;
  switched(nullptr, &f.scheduler_->stack_bottom, &f.scheduler_->stack_size);
  f.fn_(f.context_, s->index);  // the body catches what it throws (carry.cpp)
  s->done = true;
  announce_switch(nullptr, f.scheduler_->stack_bottom, f.scheduler_->stack_size);
#if COLLECTIVES_FIBER_ASM
  void* gone = nullptr;
  collectives_fiber_switch(&gone, f.scheduler_->sp);
#else
  setcontext(&f.scheduler_->context);
#endif
  std::abort();  // never resumed
}

namespace {
#if !COLLECTIVES_FIBER_ASM
void fiber_main_ucontext(unsigned hi, unsigned lo) {
  fiber_main(reinterpret_cast<fibers::state*>(static_cast<std::uintptr_t>(hi) << 32 | lo));
}
#endif
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
    ASAN_UNPOISON_MEMORY_REGION(s.stack, stack_bytes);
#endif
#if COLLECTIVES_FIBER_ASM
    // As collectives_fiber_switch leaves a stack: control words, r15 … rbp, the return address.
    auto* top = reinterpret_cast<std::uint64_t*>(s.stack + stack_bytes);
    std::uint64_t* sp = top - 9;  // 72 bytes: the entry's call then sees a 16-byte aligned stack
    sp[0] = 0x037F;               // x87 control word: the default
    sp[1] = 0x1F80;               // MXCSR: the default
    sp[2] = sp[3] = sp[4] = 0;    // r15, r14, r13
    sp[5] = reinterpret_cast<std::uint64_t>(&fiber_main);  // r12: what the entry calls
    sp[6] = reinterpret_cast<std::uint64_t>(&s);           // rbx: its argument
    sp[7] = 0;                                             // rbp
    sp[8] = reinterpret_cast<std::uint64_t>(&collectives_fiber_entry);
    s.sp = sp;
#else
    getcontext(&s.context);
    s.context.uc_stack.ss_sp = s.stack;
    s.context.uc_stack.ss_size = stack_bytes;
    s.context.uc_link = nullptr;
    const auto address = reinterpret_cast<std::uintptr_t>(&s);
    makecontext(&s.context, reinterpret_cast<void (*)()>(&fiber_main_ucontext), 2,
                static_cast<unsigned>(address >> 32), static_cast<unsigned>(address & 0xFFFFFFFFu));
#endif
  }
}

bool fibers::resume(std::size_t i) {
  state& s = *all_[i];
  if (s.done) return false;
  current_ = i;
  void* fake = nullptr;
  announce_switch(&fake, s.stack, stack_bytes);
#if COLLECTIVES_FIBER_ASM
  collectives_fiber_switch(&scheduler_->sp, s.sp);
#else
  swapcontext(&scheduler_->context, &s.context);
#endif
  switched(fake, nullptr, nullptr);
  return !s.done;
}

void fibers::yield() {
  state& s = *all_[current_];
  announce_switch(&s.fake_stack, scheduler_->stack_bottom, scheduler_->stack_size);
#if COLLECTIVES_FIBER_ASM
  collectives_fiber_switch(&s.sp, scheduler_->sp);
#else
  swapcontext(&s.context, &scheduler_->context);
#endif
  switched(s.fake_stack, &scheduler_->stack_bottom, &scheduler_->stack_size);
}

}  // namespace collectives::detail::schedule
