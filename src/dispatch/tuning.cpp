// SPDX-License-Identifier: BSD-3-Clause
// The decision table of collectives::load_tuning: parsing and checking (everything a lookup relies
// on is checked here, once), the table in force, and COLLECTIVES_TUNING. Both sections, the
// library's ranges ("collectives") and the optional vendor-or-library ranges ("fastest"), share
// one reader and one lookup. Only the ranges are read; "provenance" and each range's "points"
// (for "fastest": which timing decided it, synchronized or back-to-back, with both sides' times)
// are for people, and the README's "Tuning automatic" documents them with the rest of the schema.

#include "dispatch/tuning.hpp"

#include <fmt/format.h>

#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <mutex>
#include <nlohmann/json.hpp>

#include "collectives/error.hpp"
#include "collectives/tuning.hpp"
#include "dispatch/registry.hpp"

namespace collectives::detail {
namespace {

using json = nlohmann::json;

constexpr std::string_view table_format = "collectives-tuning/1";

[[noreturn]] void fail(const std::string& file, std::string_view entry, std::string_view problem) {
  throw error(fmt::format("collectives::load_tuning: {}: {}: {}", file, entry, problem));
}

std::size_t read_bytes(const json& range, const char* field, const std::string& file,
                       const std::string& entry) {
  const json& v = range.at(field);
  if (!v.is_number_unsigned())
    fail(file, entry, fmt::format("\"{}\" must be a whole number of bytes ≥ 0, given {}", field, v.dump()));
  return v.get<std::size_t>();
}

algorithm read_algorithm(collective c, const json& range, const std::string& file, const std::string& entry) {
  const json& v = range.at("algorithm");
  if (!v.is_string()) fail(file, entry, fmt::format("\"algorithm\" must be a name, given {}", v.dump()));
  const std::string name = v.get<std::string>();
  const std::optional<algorithm> a = parse_algorithm(name);
  if (!a) fail(file, entry, fmt::format("unknown algorithm '{}'", name));
  if (*a == algorithm::automatic || *a == algorithm::vendor || node_aware(c, *a))
    fail(file, entry, fmt::format("automatic never chooses '{}' (only the library's flat algorithms)", name));
  if (!supports(c, *a)) fail(file, entry, fmt::format("{} has no algorithm '{}'", to_string(c), name));
  return *a;
}

// A "fastest" range's verdict: "vendor" or "library".
bool read_verdict(const json& range, const std::string& file, const std::string& entry) {
  const json& v = range.at("fastest");
  if (v != "vendor" && v != "library")
    fail(file, entry, fmt::format("\"fastest\" must be \"vendor\" or \"library\", given {}", v.dump()));
  return v == "vendor";
}

// One (collective, p) list of size ranges: each {min_bytes, max_bytes, <field>, ...}, sorted, not
// overlapping; read_value reads <field> into the range.
template <class Range, class ReadValue>
std::vector<Range> read_ranges(const json& list, const char* field, const std::string& file,
                               const std::string& where, ReadValue read_value) {
  if (!list.is_array()) fail(file, where, "expected an array of size ranges");
  std::vector<Range> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string entry = fmt::format("{}[{}]", where, i);
    const json& r = list[i];
    if (!r.is_object())
      fail(file, entry, fmt::format("expected an object {{min_bytes, max_bytes, {}, ...}}", field));
    for (const char* f : {"min_bytes", "max_bytes", field})
      if (!r.contains(f)) fail(file, entry, fmt::format("missing \"{}\"", f));
    Range t;
    t.min_bytes = read_bytes(r, "min_bytes", file, entry);
    t.max_bytes = r.at("max_bytes").is_null() ? std::numeric_limits<std::size_t>::max()
                                              : read_bytes(r, "max_bytes", file, entry);
    read_value(r, entry, t);
    if (t.min_bytes > t.max_bytes)
      fail(file, entry, fmt::format("min_bytes {} is above max_bytes {}", t.min_bytes, t.max_bytes));
    if (!out.empty()) {
      const Range& prev = out.back();
      if (t.min_bytes < prev.min_bytes)
        fail(file, entry,
             fmt::format("unsorted: starts at {} bytes, before [{}] which starts at {}", t.min_bytes, i - 1,
                         prev.min_bytes));
      if (t.min_bytes <= prev.max_bytes)
        fail(file, entry,
             fmt::format("overlaps [{}]: starts at {} bytes, where [{}] runs up to {}", i - 1, t.min_bytes,
                         i - 1,
                         prev.max_bytes == std::numeric_limits<std::size_t>::max()
                             ? std::string("any size (max_bytes null)")
                             : fmt::format("{}", prev.max_bytes)));
    }
    out.push_back(t);
  }
  return out;
}

// A section ("collectives" or "fastest"): per collective, per process count, a list of ranges.
template <class Range, class ReadList>
std::map<collective, std::map<int, std::vector<Range>>> read_section(const json& section,
                                                                     std::string_view name,
                                                                     const std::string& file,
                                                                     ReadList read_list) {
  if (!section.is_object()) fail(file, fmt::format("\"{}\"", name), "expected an object keyed by collective");
  std::map<collective, std::map<int, std::vector<Range>>> out;
  for (const auto& [coll, by_p] : section.items()) {
    const std::string entry = fmt::format("{}.{}", name, coll);
    const std::optional<collective> c = parse_collective(coll);
    if (!c) fail(file, entry, fmt::format("unknown collective '{}'", coll));
    if (!by_p.is_object()) fail(file, entry, "expected an object keyed by process count");
    for (const auto& [key, list] : by_p.items()) {
      const std::string where = fmt::format("{}.\"{}\"", entry, key);
      int p = 0;
      const bool digits =
          !key.empty() && key.size() <= 9 && key.find_first_not_of("0123456789") == std::string::npos;
      if (digits) p = std::stoi(key);
      if (p < 1)
        fail(file, where, fmt::format("a process count must be a whole number ≥ 1, given \"{}\"", key));
      out[*c][p] = read_list(*c, list, where);
    }
  }
  return out;
}

// The ranges of `c` at p or the nearest measured process count of the same kind (power of two or
// not; the smaller on a tie), and among them the one holding `bytes`; nullptr where none.
template <class Range>
const Range* find_range(const std::map<collective, std::map<int, std::vector<Range>>>& section, collective c,
                        int p, std::size_t bytes) {
  const auto by_p = section.find(c);
  if (by_p == section.end()) return nullptr;
  const auto kind = [](int q) { return std::has_single_bit(static_cast<unsigned>(q)); };
  const std::vector<Range>* chosen = nullptr;
  int distance = 0;
  for (const auto& [q, list] : by_p->second) {  // ascending q: the smaller wins a tie
    if (kind(q) != kind(p)) continue;
    const int d = q > p ? q - p : p - q;
    if (!chosen || d < distance) chosen = &list, distance = d;
  }
  if (!chosen) return nullptr;
  for (const Range& r : *chosen)
    if (r.min_bytes <= bytes && bytes <= r.max_bytes) return &r;
  return nullptr;
}

// The table in force, published for readers that take no lock: every automatic call reads it, while
// it changes only at load_tuning, clear_tuning and COLLECTIVES_TUNING. A writer replaces `table`
// under `mutex` and then bumps the generation (tuning_generation_counter, below); each thread keeps
// its own copy of the pointer with the generation it copied it at, so a call reads one atomic and
// compares it with its own, and only the first call of a thread after a change takes the mutex,
// once, to copy the new pointer. A table replaced meanwhile lives on until every thread that
// copied it has made its next automatic choice (or ended).
struct state {
  std::mutex mutex;
  std::shared_ptr<const tuning_table> table;
  std::once_flag environment;  // COLLECTIVES_TUNING, read at most once
};
constinit state current;

struct snapshot {
  std::uint64_t generation = 0;
  std::shared_ptr<const tuning_table> table;
};
thread_local snapshot seen;

void install(std::shared_ptr<const tuning_table> t) {
  const std::lock_guard lock(current.mutex);
  current.table = std::move(t);
  tuning_generation_counter.fetch_add(1, std::memory_order_release);
}

// The document without what the lookup never reads: "provenance" and every range's "points" are
// skipped as they are parsed, from the stream. A tuned table is mostly points; read whole, into a
// string and a tree of every point, its large transient blocks left the allocator in another state
// than a run without a table, and the MPI library's large reductions, which allocate their scratch
// at every call, ran slower after it under `fastest` and `vendor` alike
// (docs/measurements/2026-11-29-imb-resolution.md). Parsed so, loading allocates nothing large.
template <class Input>
json parse_ranges(Input&& input, const std::string& file) {
  const json::parser_callback_t skip_detail = [](int, json::parse_event_t event, json& parsed) {
    return !(event == json::parse_event_t::key && (parsed == "points" || parsed == "provenance"));
  };
  try {
    return json::parse(std::forward<Input>(input), skip_detail);
  } catch (const json::exception& e) {
    fail(file, "the file", fmt::format("not valid JSON: {}", e.what()));
  }
}

tuning_table tuning_from(const json& doc, const std::string& file) {
  if (!doc.is_object()) fail(file, "the file", "expected a JSON object");
  if (!doc.contains("format"))
    fail(file, "the file", fmt::format("missing \"format\": \"{}\"", table_format));
  if (doc.at("format") != table_format)
    fail(file, "\"format\"", fmt::format("expected \"{}\", given {}", table_format, doc.at("format").dump()));
  if (!doc.contains("collectives")) fail(file, "the file", "missing \"collectives\"");
  tuning_table out;
  out.ranges = read_section<tuning_range>(
      doc.at("collectives"), "collectives", file,
      [&](collective c, const json& list, const std::string& where) {
        return read_ranges<tuning_range>(list, "algorithm", file, where,
                                         [&](const json& r, const std::string& entry, tuning_range& t) {
                                           t.alg = read_algorithm(c, r, file, entry);
                                         });
      });
  if (doc.contains("fastest"))  // optional: tables written before the tuner measured vendor lack it
    out.fastest = read_section<fastest_range>(
        doc.at("fastest"), "fastest", file, [&](collective, const json& list, const std::string& where) {
          return read_ranges<fastest_range>(list, "fastest", file, where,
                                            [&](const json& r, const std::string& entry, fastest_range& t) {
                                              t.vendor = read_verdict(r, file, entry);
                                            });
        });
  return out;
}

std::shared_ptr<const tuning_table> read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) fail(path, "the file", "cannot be read");
  return std::make_shared<const tuning_table>(tuning_from(parse_ranges(in, path), path));
}

}  // namespace

tuning_table parse_tuning(std::string_view text, const std::string& file) {
  return tuning_from(parse_ranges(text, file), file);
}

std::optional<algorithm> tuning_table::lookup(collective c, int p, std::size_t bytes) const {
  if (const tuning_range* r = find_range(ranges, c, p, bytes)) return r->alg;
  return std::nullopt;
}

std::optional<bool> tuning_table::vendor_fastest(collective c, int p, std::size_t bytes) const {
  if (const fastest_range* r = find_range(fastest, c, p, bytes)) return r->vendor;
  return std::nullopt;
}

extern const std::string_view builtin_tuning_text;  // generated from automatic-table.json

const tuning_table& builtin_tuning() {
  static const tuning_table table = parse_tuning(builtin_tuning_text, "the built-in table (automatic-table.json)");
  return table;
}

// Bumped at every change of the table in force; a thread's copy starts at 0: its first call copies.
constinit std::atomic<std::uint64_t> tuning_generation_counter{1};

const std::shared_ptr<const tuning_table>& active_tuning() {
  if (seen.generation == tuning_generation()) [[likely]]
    return seen.table;
  std::call_once(current.environment, [] {
    const char* path = std::getenv("COLLECTIVES_TUNING");
    if (path != nullptr && *path != '\0') install(read_file(path));
  });
  const std::lock_guard lock(current.mutex);
  seen.table = current.table;
  seen.generation = tuning_generation_counter.load(std::memory_order_relaxed);  // the table's, under the lock
  return seen.table;
}

}  // namespace collectives::detail

namespace collectives {

void load_tuning(const std::string& path) {
  auto table = detail::read_file(path);  // throws before anything changes
  std::call_once(detail::current.environment, [] {});
  detail::install(std::move(table));
}

void clear_tuning() {
  std::call_once(detail::current.environment, [] {});
  detail::install(nullptr);
}

}  // namespace collectives
