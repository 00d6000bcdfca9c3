// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The decision table behind collectives::load_tuning (include/collectives/tuning.hpp): parsed and
// checked once, at load, then only read. The lookup rules that use it live beside the built-in
// rule, in automatic.cpp. Its optional "fastest" section (vendor's times against the library's
// choice) serves the drop-in's `fastest` selection and collectives::fastest_choice only.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collectives/algorithm.hpp"

namespace collectives::detail {

/// Sizes in [min_bytes, max_bytes] (bytes as collbench counts them) run `alg`.
struct tuning_range {
  std::size_t min_bytes = 0;
  std::size_t max_bytes = 0;
  algorithm alg = algorithm::naive;
};

/// Sizes in [min_bytes, max_bytes] where the MPI library's own collective was measured clearly
/// faster than the library's choice (`vendor`), or not.
struct fastest_range {
  std::size_t min_bytes = 0;
  std::size_t max_bytes = 0;
  bool vendor = false;
};

struct tuning_table {
  /// Per collective, per measured process count: ranges sorted by size, not overlapping.
  std::map<collective, std::map<int, std::vector<tuning_range>>> ranges;
  /// The "fastest" section, likewise; empty in a table without vendor's times.
  std::map<collective, std::map<int, std::vector<fastest_range>>> fastest;

  /// The table's algorithm for `c` at size `bytes`, measured at `p` or, if p was not, at the nearest
  /// measured process count of the same kind (power of two or not; the smaller on a tie);
  /// std::nullopt where the table has none.
  std::optional<algorithm> lookup(collective c, int p, std::size_t bytes) const;

  /// Whether the "fastest" section says vendor for `c` at size `bytes`, found as lookup finds its
  /// ranges (p, else the nearest measured process count of the same kind); std::nullopt where the
  /// section has no range there.
  std::optional<bool> vendor_fastest(collective c, int p, std::size_t bytes) const;
};

/// Parses a table from `text`; `file` names it in errors. Throws collectives::error naming the
/// file, the entry and the problem.
tuning_table parse_tuning(std::string_view text, const std::string& file);

/// The library's own table, automatic's defaults between the table in force and the fallback rule:
/// src/dispatch/automatic-table.json, compiled in (installed as share/collectives/automatic-table.json
/// for people to read and copy), parsed at its first use.
const tuning_table& builtin_tuning();

/// The table in force, or nullptr for the built-in table and rule. The first call reads COLLECTIVES_TUNING
/// unless load_tuning or clear_tuning came first; a bad file there throws (and is tried again on
/// the next call). Takes no lock (one atomic load) unless the table changed since this thread's
/// previous call. The reference is this thread's own copy: it, and the table it points to, stay
/// valid until this thread's next call (copy the shared_ptr to keep the table longer).
const std::shared_ptr<const tuning_table>& active_tuning();

/// Changes whenever the table in force does: what a cached choice compares, read before the choice
/// it guards. Inline, one load: a call that repeats its shape reads it before anything else.
extern std::atomic<std::uint64_t> tuning_generation_counter;
inline std::uint64_t tuning_generation() { return tuning_generation_counter.load(std::memory_order_acquire); }

}  // namespace collectives::detail
