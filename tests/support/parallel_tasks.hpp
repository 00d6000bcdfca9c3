// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The matrix tests without MPI (schedules, proof): body(i) for every task i < count, on this
// thread and at most one more, each taking the next task as it finishes one (the tests list the
// largest p first, so that the threads end together). Returns the threads used.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

template <class Body>
unsigned run_on_two_threads(std::size_t count, const Body& body) {
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < count;) body(i);
  };
  const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 2u);
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i) pool.emplace_back(worker);
  worker();
  for (std::thread& th : pool) th.join();
  return threads;
}
