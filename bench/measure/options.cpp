// SPDX-License-Identifier: BSD-3-Clause
#include "measure/options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>

#include "cli11.hpp"
#include "measure/metrics.hpp"

namespace collbench {
namespace {

using collectives::collective;

// MPI takes int counts, and the vendor baseline must run every size.
constexpr std::size_t largest_size = std::size_t{1} << 30;

// The collectives for which `keep` holds, comma-separated, from the library's own list.
template <class Keep>
std::string collective_names(Keep keep) {
  std::string names;
  for (collective c : collectives::all_collectives())
    if (keep(c)) names += fmt::format("{}{}", names.empty() ? "" : ", ", to_string(c));
  return names;
}
std::string collective_names() {
  return collective_names([](collective) { return true; });
}

template <class Range, class Name>
std::string join_names(const Range& range, Name name) {
  std::string out;
  for (const auto& x : range) out += fmt::format("{}{}", out.empty() ? "" : ", ", name(x));
  return out;
}

// automatic, then every algorithm some collective has in this build, in enum order.
std::vector<collectives::algorithm> library_algorithms() {
  std::vector<collectives::algorithm> out{collectives::algorithm::automatic};
  for (collective c : collectives::all_collectives())
    for (collectives::algorithm a : collectives::algorithms_for(c))
      if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  std::sort(out.begin(), out.end());
  return out;
}

struct usage_error {
  std::string message;
};

// What the command line gives as text, read into `options` once parsed (finish()).
struct texts {
  std::vector<std::string> collective_args;
  long long step = 0;
  std::string min_text = "8", max_text = "16M", type_text = "float", op_text = "sum", format_text = "table";
  std::string timing_text = "synchronized", draw_time = "real";
};

// Validation beyond CLI11's: throws usage_error.
void finish(options& o, const texts& t) {
  const std::vector<std::string>& collective_args = t.collective_args;
  const std::string &min_text = t.min_text, &max_text = t.max_text, &type_text = t.type_text,
                    &op_text = t.op_text;
  const long long step = t.step;
  if (collective_args.empty() || (collective_args.size() == 1 && collective_args[0] == "all")) {
    const auto all = collectives::all_collectives();
    o.collectives.assign(all.begin(), all.end());
  } else {
    for (const std::string& name : collective_args) {
      const auto c = collectives::parse_collective(name);
      if (!c)
        throw usage_error{fmt::format("unknown collective '{}'; known: all, {}", name, collective_names())};
      // A repeat would measure the collective again and write its rows (and plots) twice.
      if (std::find(o.collectives.begin(), o.collectives.end(), *c) == o.collectives.end())
        o.collectives.push_back(*c);
    }
  }
  if (o.algorithms.empty()) o.algorithms = {"all"};
  for (const std::string& a : o.algorithms) {
    const bool group = a == "all" || a == "library" || a == "pmpi" || a.starts_with("vendor:");
    if (!group && !collectives::parse_selection(a)) {
      throw usage_error{
          fmt::format("unknown algorithm '{}'; known: all, library, pmpi, vendor:all, vendor:<name>, "
                      "<radix-k name>:<k ≥ 2>, {}",
                      a, join_names(library_algorithms(), [](auto x) { return to_string(x); }))};
    }
  }

  const auto min = parse_size(min_text), max = parse_size(max_text);
  if (!min) throw usage_error{fmt::format("--min-bytes: '{}' is not a size (e.g. 8, 4K, 16M)", min_text)};
  if (!max) throw usage_error{fmt::format("--max-bytes: '{}' is not a size (e.g. 8, 4K, 16M)", max_text)};
  o.min_bytes = *min;
  o.max_bytes = *max;
  if (o.max_bytes > largest_size)
    throw usage_error{fmt::format("--max-bytes: at most {} (MPI's int counts), given {}",
                                  format_size(largest_size), max_text)};
  // Read as signed, so that a negative step is reported as given rather than wrapped around.
  if (step < 2 || !std::has_single_bit(static_cast<unsigned long long>(step)))
    throw usage_error{fmt::format("--step: a power of two ≥ 2, given {}", step)};
  o.step = static_cast<std::size_t>(step);
  if (o.sizes().empty())
    throw usage_error{fmt::format(
        "size range empty: no power of two between --min-bytes {} and --max-bytes {}", min_text, max_text)};

  const auto type = parse_element_kind(type_text);
  if (!type)
    throw usage_error{
        fmt::format("unknown type '{}'; known: {}", type_text,
                    join_names(all_element_kinds(), [](element_kind t) { return to_string(t); }))};
  o.type = *type;
  const auto op = parse_op_kind(op_text);
  if (!op)
    throw usage_error{fmt::format("unknown op '{}'; known: {}", op_text,
                                  join_names(all_op_kinds(), [](op_kind x) { return to_string(x); }))};
  o.op = *op;
  if (!op_applies(o.op, o.type))
    throw usage_error{fmt::format("op '{}' needs an integer type, given '{}'", op_text, type_text)};
  if (o.root < 0) throw usage_error{fmt::format("--root: a rank ≥ 0, given {}", o.root)};
  if (!(o.skew >= 0) || o.skew > 1e6)
    throw usage_error{fmt::format("--skew: a number from 0 to 10⁶, given {}", o.skew)};
  if (o.iterations < 0) throw usage_error{"--iterations: ≥ 1, or 0 for the automatic choice"};
  if (o.iterations > most_iterations)
    throw usage_error{fmt::format("--iterations: at most {} (every sample is kept in memory), given {}",
                                  most_iterations, o.iterations)};
  if (o.warmup < -1) throw usage_error{"--warmup: ≥ 0 rounds, or -1 for the automatic choice"};
  if (o.min_iterations < 1) throw usage_error{"--min-iterations: ≥ 1"};
  if (o.seconds_per_size < 0) throw usage_error{"--time-per-size: ≥ 0 seconds"};
  if (o.batch < 0 || o.batch > 1'000'000)
    throw usage_error{
        fmt::format("--batch: calls per batch from 1 to 1000000, or 0 for automatic; given {}", o.batch)};
  if (o.batch > 0 && o.timing == timing_mode::synchronized)
    throw usage_error{
        "--batch: only with --timing back-to-back or imb (synchronized mode times every call apart)"};
}

}  // namespace

std::string_view to_string(timing_mode m) {
  switch (m) {
    case timing_mode::back_to_back:
      return "back-to-back";
    case timing_mode::imb:
      return "imb";
    case timing_mode::synchronized:
      break;
  }
  return "synchronized";
}

int automatic_batch(std::size_t bytes) {
  constexpr std::size_t volume = std::size_t{32} << 20;
  const std::size_t calls = bytes == 0 ? 100 : volume / bytes;
  return static_cast<int>(std::clamp<std::size_t>(calls, 2, 100));
}

std::vector<std::size_t> options::sizes() const {
  std::vector<std::size_t> out;
  if (min_bytes == 0 || min_bytes > max_bytes) return out;
  for (std::size_t s = std::bit_ceil(min_bytes); s <= max_bytes && s != 0; s *= step) {
    out.push_back(s);
    if (s > max_bytes / step) break;
  }
  return out;
}

std::optional<std::size_t> parse_size(std::string_view text) {
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end == text.data()) return std::nullopt;
  std::string unit(end, text.data() + text.size());
  for (char& ch : unit) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  int shift = 0;
  if (unit.empty() || unit == "B")
    shift = 0;
  else if (unit == "K" || unit == "KB" || unit == "KIB")
    shift = 10;
  else if (unit == "M" || unit == "MB" || unit == "MIB")
    shift = 20;
  else if (unit == "G" || unit == "GB" || unit == "GIB")
    shift = 30;
  else
    return std::nullopt;
  if (value > (std::size_t{1} << 40) >> shift) return std::nullopt;
  return value << shift;
}

std::string format_size(std::size_t bytes) {
  constexpr const char* units[] = {"B", "KiB", "MiB", "GiB"};
  int u = 0;
  while (u < 3 && bytes >= 1024 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++u;
  }
  return fmt::format("{} {}", bytes, units[u]);
}

namespace {

// What is measured: collectives, algorithms, sizes, the data and the root.
void add_selection(CLI::App& app, options& o, texts& t) {
  app.add_option("-c,--collective", t.collective_args,
                 fmt::format("Collectives to measure (comma-separated or repeated): all (default), {}",
                             collective_names()))
      ->delimiter(',');
  app.add_option(
         "-a,--algorithm", o.algorithms,
         "Algorithms (comma-separated or repeated): all (default: the library's and the vendor's internal "
         "ones), library (the library's only), an algorithm name (ring, binomial, ...), a radix-k one at a "
         "radix of its own (knomial:8, recursive_multiplying:16, k_dissemination:3), vendor:<name> "
         "(one of the MPI library's internal algorithms, e.g. vendor:ring), vendor:all, automatic (the "
         "library's choice) or pmpi (PMPI_<Collective>: the MPI library's own even through the drop-in). "
         "The vendor row, MPI_<Collective> as an application calls it, is always measured: it is the "
         "baseline")
      ->delimiter(',');
  app.add_option("-b,--min-bytes", t.min_text, "Smallest message in bytes (K, M, G suffixes: binary)")
      ->capture_default_str();
  app.add_option("-e,--max-bytes", t.max_text, "Largest message in bytes")->capture_default_str();
  app.add_option("--step", t.step, "Factor between successive sizes (a power of two)")->capture_default_str();
  app.add_option("-t,--type", t.type_text,
                 fmt::format("Element type: {}",
                             join_names(all_element_kinds(), [](element_kind t) { return to_string(t); })))
      ->capture_default_str();
  app.add_option("-o,--op", t.op_text,
                 fmt::format("Reduction op ({}): {}", collective_names(reduces),
                             join_names(all_op_kinds(), [](op_kind x) { return to_string(x); })))
      ->capture_default_str();
  app.add_option("-r,--root", o.root, fmt::format("Root rank of {}", collective_names(has_root)))
      ->capture_default_str();
  app.add_option(
         "--skew", o.skew,
         "Imbalance of the v-variants' blocks (gatherv, scatterv, allgatherv, alltoallv, reduce_scatterv): "
         "rank r's block ∝ 1 + F·r/(p−1); 0 = equal blocks")
      ->type_name("F")
      ->capture_default_str();
}

// How the calls are timed and checked.
void add_timing(CLI::App& app, options& o, texts& t) {
  app.add_option("-n,--iterations", o.iterations,
                 fmt::format("Timed iterations per size and algorithm, at most {}; 0: automatic (1000 up "
                             "to 8 KiB per rank, 100 above), both bounded by --time-per-size",
                             most_iterations))
      ->capture_default_str();
  app.add_option(
         "-w,--warmup", o.warmup,
         "Warm-up rounds per size (every algorithm once per round); -1: automatic (100 up to 8 KiB per rank, "
         "10 above, stopped after a quarter of --time-per-size)")
      ->capture_default_str();
  app.add_option("--min-iterations", o.min_iterations,
                 "Timed iterations kept even when --time-per-size runs out")
      ->capture_default_str();
  app.add_option("--time-per-size", o.seconds_per_size,
                 "Seconds the timed iterations of one size (all algorithms together) may take; 0: no bound")
      ->capture_default_str();
  app.add_option(
         "--timing", t.timing_text,
         "How calls are timed: synchronized (each call after a barrier, started at an instant common to all "
         "ranks: each algorithm's own time, to compare algorithms), back-to-back (a barrier, then a batch "
         "of calls one after the other, as applications issue them: a rooted collective's root may run "
         "ahead and calls overlap; time per call = each rank's time for the batch ÷ its calls, maximum over "
         "ranks) or imb (as the Intel MPI Benchmarks IMB-MPI1 time a collective, and OSU's: two barriers, "
         "then a batch of calls, each timed on its own by every rank and followed by a barrier; time per "
         "call = each rank's mean over the batch, averaged over the ranks: IMB's t_avg)")
      ->check(CLI::IsMember({"synchronized", "back-to-back", "imb"}))
      ->capture_default_str();
  app.add_option(
         "--batch", o.batch,
         "Back-to-back and imb: calls per batch (one timed iteration); 0: automatic (as many calls as "
         "move 32 MiB, from 2 to 100)")
      ->capture_default_str();
  app.add_flag("--check,!--no-check", o.check,
               "Compare every algorithm's result with vendor's and count wrong elements (default: on)");
}

// What is written, and the runs that measure nothing (--list, --draw).
void add_output(CLI::App& app, options& o, texts& t) {
  app.add_option("-f,--format", t.format_text,
                 "Output format: table, csv or json (default: from --output's extension, else table)")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  app.add_option("--output", o.output, "Write the results to FILE instead of stdout")->type_name("FILE");
  app.add_flag(
      "--model", o.model,
      "Measure α, β, β_u (two ping-pongs: forwarding what was just received, and sending an untouched "
      "buffer), γ (reduction kernel) and memcpy bandwidth, and print each algorithm's predicted time beside "
      "the measured one");
  app.add_flag("-q,--quiet", o.quiet, "No progress on stderr");
  app.add_flag("--list", o.list,
               "List each collective's algorithms (as the drop-in's COLLECTIVES_ALGORITHMS=help does) and "
               "the MPI library's internal ones available here (vendor:<name>), then exit");
  app.add_flag("--skip-left-out", o.skip_left_out,
               "A vendor:<name> named in -a that the MPI library cannot run at this process count (SimGrid's "
               "algorithms that crash or fail there; --list says which) is left out with its reason, on "
               "stderr and in the output, instead of stopping the run");
  app.add_option("--draw", o.draw,
                 "Instead of measuring: run each collective:algorithm given (comma-separated, or all: every "
                 "library algorithm of every collective) once at a small size (4 elements per block) with "
                 "tracing on, and draw it as DIR/<collective>_<algorithm>_p<P>.png (gnuplot), P being the "
                 "number of ranks collbench was launched on (mpirun -n P)")
      ->delimiter(',')
      ->type_name("C:A");
  app.add_option("--draw-dir", o.draw_dir, "Where --draw writes its pictures")
      ->type_name("DIR")
      ->capture_default_str();
  app.add_option("--draw-time", t.draw_time,
                 "The time axis of --draw: real (measured µs) or logical (one unit per send or receive)")
      ->check(CLI::IsMember({"real", "logical"}))
      ->capture_default_str();
}

}  // namespace

parse_result parse_options(int argc, char** argv) {
  parse_result result;
  options& o = result.opts;
  CLI::App app{
      "collbench: each collective algorithm of the library against the MPI library's own (vendor), "
      "interleaved in one run. Launch with mpirun, e.g. scripts/mpirun/run -n 4 collbench -c allreduce",
      "collbench"};
  app.get_formatter()->column_width(34);

  texts t;
  t.step = static_cast<long long>(o.step);
  add_selection(app, o, t);
  add_timing(app, o, t);
  add_output(app, o, t);

  try {
    app.parse(argc, argv);
    // Without --format, the output file's extension chooses.
    if (app.count("--format") == 0 && (o.output.ends_with(".csv") || o.output.ends_with(".json")))
      t.format_text = o.output.ends_with(".csv") ? "csv" : "json";
    o.format = t.format_text == "csv"    ? output_format::csv
               : t.format_text == "json" ? output_format::json
                                         : output_format::table;
    o.timing = t.timing_text == "back-to-back" ? timing_mode::back_to_back
               : t.timing_text == "imb"        ? timing_mode::imb
                                               : timing_mode::synchronized;
    finish(o, t);
    o.draw_logical = t.draw_time == "logical";
  } catch (const CLI::CallForHelp&) {
    result.run = false;
    result.message = app.help();
    return result;
  } catch (const CLI::ParseError& e) {
    result.run = false;
    result.exit_code = 2;
    result.message = fmt::format("collbench: {}\nRun with --help for the options.\n", e.what());
    return result;
  } catch (const usage_error& e) {
    result.run = false;
    result.exit_code = 2;
    result.message = fmt::format("collbench: {}\n", e.message);
  }
  return result;
}

}  // namespace collbench
