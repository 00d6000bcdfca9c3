// SPDX-License-Identifier: BSD-3-Clause
#include "support/checks.hpp"

#include <algorithm>
#include <cstdlib>
#include <ranges>
#include <string_view>

namespace testing {
namespace {

// Created once, after MPI_Init (first use), and freed before MPI_Finalize by the fixture.
struct comm_set {
  MPI_Comm halves = MPI_COMM_NULL, reversed = MPI_COMM_NULL;
  std::vector<test_comm> comms;

  comm_set() {
    const int rank = rank_of(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
    MPI_Comm_split(MPI_COMM_WORLD, rank < p / 2 ? 0 : 1, rank, &halves);
    MPI_Comm_split(MPI_COMM_WORLD, 0, p - 1 - rank, &reversed);
    comms = {{"world", MPI_COMM_WORLD, true},
             {"halves", halves, false},
             {"reversed", reversed, false},
             {"self", MPI_COMM_SELF, false}};
    // At scale: world without the large counts, and the halves (p/2 and p − p/2 ranks).
    if (scale_matrix()) comms = {{"world", MPI_COMM_WORLD, false}, {"halves", halves, false}};
  }
  ~comm_set() {
    MPI_Comm_free(&halves);
    MPI_Comm_free(&reversed);
  }
};

comm_set* the_comms = nullptr;

struct free_comms_before_finalize {
  ~free_comms_before_finalize() {
    delete the_comms;
    the_comms = nullptr;
  }
};

}  // namespace

BOOST_TEST_GLOBAL_FIXTURE(free_comms_before_finalize);

bool synchronous_sends() {
  const char* v = std::getenv("COLLECTIVES_SYNCHRONOUS_SENDS");
  return v != nullptr && std::string_view(v) != "" && std::string_view(v) != "0";
}

bool scale_matrix() {
  static const bool scale = [] {
    const char* v = std::getenv("COLLECTIVES_TEST_MATRIX");
    return v != nullptr && std::string_view(v) == "scale";
  }();
  return scale;
}

void pace_at_scale(MPI_Comm comm) {
  if (scale_matrix()) MPI_Barrier(comm);
}

const std::vector<test_comm>& test_comms() {
  if (the_comms == nullptr) the_comms = new comm_set();
  return the_comms->comms;
}

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

int size_of(MPI_Comm comm) {
  int p = 0;
  MPI_Comm_size(comm, &p);
  return p;
}

namespace {
template <class T>
std::vector<T> unique(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}
}  // namespace

std::vector<std::size_t> test_counts(int p, bool large) {
  const auto n = static_cast<std::size_t>(p);
  if (scale_matrix()) return unique(std::vector<std::size_t>{0, 1, n - 1, n + 1});
  std::vector<std::size_t> counts{0, 1, n - 1, n, n + 1, 7 * n + 3};
  if (large) counts.push_back(100'000);
  return unique(counts);
}

std::vector<int> test_roots(int p) { return unique(std::vector<int>{0, p / 2, p - 1}); }

std::vector<collectives::algorithm> algorithms_with_automatic(collectives::collective c) {
  std::vector<collectives::algorithm> algs{collectives::algorithm::automatic};
  for (collectives::algorithm a : collectives::algorithms_for(c)) algs.push_back(a);
  const char* only = std::getenv("COLLECTIVES_TEST_ALGORITHMS");
  if (only == nullptr) return algs;
  std::vector<collectives::algorithm> selected;
  for (collectives::algorithm a : algs)
    for (const auto name : std::views::split(std::string_view(only), ','))
      if (std::string_view(name.begin(), name.end()) == collectives::to_string(a)) selected.push_back(a);
  return selected;
}

std::string case_name(const test_comm& tc, collectives::algorithm alg, const char* type, std::size_t count,
                      int root) {
  return fmt::format("[comm {} (p={}), {}, {}, count {}{}]", tc.name, size_of(tc.comm),
                     collectives::to_string(alg), type, count,
                     root >= 0 ? fmt::format(", root {}", root) : "");
}

}  // namespace testing
