// SPDX-License-Identifier: BSD-3-Clause
#include "pmpi/report.hpp"

#include <collectives/eager.hpp>
#include <fmt/format.h>
#include <mpi.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace collectives::pmpi {
namespace {

// Each call also counts in one range of its bytes (this rank's, as `outcome::bytes`), mpiP-style:
// the report breaks every row down by them. Lower bound included; the last range is open.
struct size_range {
  std::uint64_t below;  ///< the range ends before this many bytes
  std::string_view label;
};
constexpr std::uint64_t kib = 1024;
constexpr size_range size_ranges[] = {{kib, "[0, 1 KiB)"},
                                      {64 * kib, "[1 KiB, 64 KiB)"},
                                      {kib * kib, "[64 KiB, 1 MiB)"},
                                      {UINT64_MAX, ">= 1 MiB"}};
constexpr std::size_t ranges = std::size(size_ranges);

// One counter row per (function, slot), slots [0, reason_slot0) being algorithms by enum value and
// the rest forward reasons; each row holds one counter per size range.
constexpr std::size_t reason_slot0 = 48;
constexpr std::size_t slots = reason_slot0 + forward_reason_names.size();
constexpr std::size_t rows = functions.size() * slots;
constexpr std::size_t cells = rows * ranges;

struct counters {
  std::array<std::atomic<std::uint64_t>, cells> calls{};
  std::array<std::atomic<std::uint64_t>, cells> bytes{};
  std::array<std::atomic<std::uint64_t>, cells> nanoseconds{};
};

counters& totals() {
  static counters c;
  return c;
}

std::size_t row_of(mpi_function f, const outcome& o) {
  const std::size_t slot =
      o.served ? static_cast<std::size_t>(o.alg) : reason_slot0 + static_cast<std::size_t>(o.reason);
  return static_cast<std::size_t>(f) * slots + slot;
}

std::size_t range_of(std::uint64_t bytes) {
  std::size_t r = 0;
  while (bytes >= size_ranges[r].below) ++r;
  return r;
}

std::string how(std::size_t slot) {
  if (slot < reason_slot0) return fmt::format("served: {}", to_string(static_cast<algorithm>(slot)));
  return fmt::format("forwarded: {}", forward_reason_names[slot - reason_slot0]);
}

// This rank's counters, per cell, followed by each row's sum over its ranges (the row's own
// figures: what one rank did, before the reductions across ranks).
std::vector<std::uint64_t> snapshot(const std::array<std::atomic<std::uint64_t>, cells>& a) {
  std::vector<std::uint64_t> v(cells + rows);
  for (std::size_t i = 0; i < cells; ++i) {
    v[i] = a[i].load();
    v[cells + i / ranges] += v[i];
  }
  return v;
}

// The eager size the library's exchanges use (collectives/eager.hpp).
std::string eager_line() {
  try {
    const eager_limits& e = eager_limits_in_force();
    return fmt::format("eager exchanges: E = {} B on this host, {} B to other hosts ({})\n", e.same_host,
                       e.other_host, e.source);
  } catch (const std::exception& bad) {
    return fmt::format("eager exchanges: {}\n", bad.what());
  }
}

}  // namespace

void record(mpi_function f, const outcome& o, std::chrono::steady_clock::duration inside) {
  static_assert(static_cast<std::size_t>(algorithm::scatter_recursive_doubling) < reason_slot0);
  const std::size_t cell = row_of(f, o) * ranges + range_of(o.bytes);
  counters& c = totals();
  c.calls[cell].fetch_add(1, std::memory_order_relaxed);
  c.bytes[cell].fetch_add(o.bytes, std::memory_order_relaxed);
  c.nanoseconds[cell].fetch_add(
      static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(inside).count()),
      std::memory_order_relaxed);
}

void print_report(const settings& s) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  const counters& c = totals();
  const std::vector<std::uint64_t> calls = snapshot(c.calls), bytes = snapshot(c.bytes),
                                   ns = snapshot(c.nanoseconds);
  const std::size_t n = calls.size();
  std::vector<std::uint64_t> max_calls(n), sum_bytes(n), sum_ns(n), max_ns(n);
  const int count = static_cast<int>(n);
  PMPI_Reduce(calls.data(), max_calls.data(), count, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
  PMPI_Reduce(bytes.data(), sum_bytes.data(), count, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  PMPI_Reduce(ns.data(), sum_ns.data(), count, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  PMPI_Reduce(ns.data(), max_ns.data(), count, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank != 0) return;

  const char* tuning = std::getenv("COLLECTIVES_TUNING");
  std::string text = fmt::format(
      "collectives_mpi report: {} ranks, COLLECTIVES_ALGORITHMS={}{}\n", size,
      s.algorithms_text.empty() ? "(unset: automatic)" : s.algorithms_text,
      tuning != nullptr && *tuning != '\0' ? fmt::format(", COLLECTIVES_TUNING={}", tuning) : std::string());
  text += eager_line();
  const auto line = [&](std::string_view function, std::string_view what, std::size_t i) {
    text += fmt::format("{:<26} {:<32} {:>10} {:>16} {:>16.1f} {:>16.1f}\n", function, what, max_calls[i],
                        sum_bytes[i], static_cast<double>(sum_ns[i]) * 1e-3 / size,
                        static_cast<double>(max_ns[i]) * 1e-3);
  };
  text += fmt::format("{:<26} {:<32} {:>10} {:>16} {:>16} {:>16}\n", "function", "how / bytes per call",
                      "calls", "bytes", "mean time (µs)", "max time (µs)");
  bool any = false;
  for (const function_info& f : functions)
    for (std::size_t slot = 0; slot < slots; ++slot) {
      const std::size_t row = static_cast<std::size_t>(f.id) * slots + slot;
      if (max_calls[cells + row] == 0) continue;
      any = true;
      line(f.name, how(slot), cells + row);
      for (std::size_t r = 0; r < ranges; ++r)
        if (max_calls[row * ranges + r] != 0)
          line("", fmt::format("  {}", size_ranges[r].label), row * ranges + r);
    }
  if (!any) text += "(no collective calls)\n";
  text +=
      "calls: the most any rank made; bytes: each rank's data summed over ranks; time: inside the "
      "function, per rank (mean over ranks, and the most any rank spent); indented rows: the calls by "
      "the bytes of each rank's data, [from, to)\n";

  if (*s.report_to == "-") {
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
    return;
  }
  if (std::FILE* out = std::fopen(s.report_to->c_str(), "w")) {
    std::fputs(text.c_str(), out);
    std::fclose(out);
  } else {
    std::fprintf(stderr, "collectives_mpi: cannot write the report to '%s'\n", s.report_to->c_str());
  }
}

}  // namespace collectives::pmpi
