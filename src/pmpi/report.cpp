#include "pmpi/report.hpp"

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

// One counter row per (function, slot): slots [0, reason_slot0) are algorithms by enum value,
// the rest forward reasons.
constexpr std::size_t reason_slot0 = 48;
constexpr std::size_t slots = reason_slot0 + forward_reason_names.size();
constexpr std::size_t rows = functions.size() * slots;

struct counters {
  std::array<std::atomic<std::uint64_t>, rows> calls{};
  std::array<std::atomic<std::uint64_t>, rows> bytes{};
  std::array<std::atomic<std::uint64_t>, rows> nanoseconds{};
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

std::string how(std::size_t slot) {
  if (slot < reason_slot0) return fmt::format("served: {}", to_string(static_cast<algorithm>(slot)));
  return fmt::format("forwarded: {}", forward_reason_names[slot - reason_slot0]);
}

std::vector<std::uint64_t> snapshot(const std::array<std::atomic<std::uint64_t>, rows>& a) {
  std::vector<std::uint64_t> v(rows);
  for (std::size_t i = 0; i < rows; ++i) v[i] = a[i].load();
  return v;
}

}  // namespace

void record(mpi_function f, const outcome& o, std::chrono::steady_clock::duration inside) {
  static_assert(static_cast<std::size_t>(algorithm::pairwise) < reason_slot0);
  const std::size_t row = row_of(f, o);
  counters& c = totals();
  c.calls[row].fetch_add(1, std::memory_order_relaxed);
  c.bytes[row].fetch_add(o.bytes, std::memory_order_relaxed);
  c.nanoseconds[row].fetch_add(
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
  std::vector<std::uint64_t> max_calls(rows), sum_bytes(rows), sum_ns(rows), max_ns(rows);
  const int n = static_cast<int>(rows);
  PMPI_Reduce(calls.data(), max_calls.data(), n, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
  PMPI_Reduce(bytes.data(), sum_bytes.data(), n, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  PMPI_Reduce(ns.data(), sum_ns.data(), n, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  PMPI_Reduce(ns.data(), max_ns.data(), n, MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank != 0) return;

  const char* tuning = std::getenv("COLLECTIVES_TUNING");
  std::string text = fmt::format(
      "collectives_mpi report: {} ranks, COLLECTIVES_ALGORITHMS={}{}\n", size,
      s.algorithms_text.empty() ? "(unset: automatic)" : s.algorithms_text,
      tuning != nullptr && *tuning != '\0' ? fmt::format(", COLLECTIVES_TUNING={}", tuning) : std::string());
  text += fmt::format("{:<26} {:<32} {:>10} {:>16} {:>14} {:>14}\n", "function", "how", "calls", "bytes",
                      "mean time (s)", "max time (s)");
  bool any = false;
  for (const function_info& f : functions)
    for (std::size_t slot = 0; slot < slots; ++slot) {
      const std::size_t row = static_cast<std::size_t>(f.id) * slots + slot;
      if (max_calls[row] == 0) continue;
      any = true;
      text += fmt::format("{:<26} {:<32} {:>10} {:>16} {:>14.6f} {:>14.6f}\n", f.name, how(slot),
                          max_calls[row], sum_bytes[row], static_cast<double>(sum_ns[row]) * 1e-9 / size,
                          static_cast<double>(max_ns[row]) * 1e-9);
    }
  if (!any) text += "(no collective calls)\n";
  text +=
      "calls: the most any rank made; bytes: each rank's data summed over ranks; time: inside the "
      "function, per rank\n";

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
