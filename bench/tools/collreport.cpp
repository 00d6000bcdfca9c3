// SPDX-License-Identifier: BSD-3-Clause
// collreport: turns collbench's JSON files (one per process count) into the comparison report:
//   report.md      per collective and process count: median time per algorithm and size, the
//                  best algorithm per size and its speedup over vendor, model against measurement,
//                  and the plots;
//   results.csv    every row of every run (collbench's CSV);
//   results.json   {"runs": [each run as collbench wrote it]} (--reprice: with model_us recomputed);
//   plots/*.dat, plots/plots.gp   data and a gnuplot script drawing, per collective and process
//                  count, latency and busbw against size (log-log), vendor highlighted.
//   automatic's summary: per collective and np, how close automatic comes to the library's fastest.
// Usage: collreport --out DIR [--tuning TABLE] [--reprice] run1.json [run2.json ...]; then
// `gnuplot plots.gp` in DIR/plots.

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <collectives/algorithm.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <span>
#include <sstream>
#include <tuple>

#include "cli11.hpp"
#include "measure/metrics.hpp"
#include "measure/options.hpp"
#include "report/output.hpp"
#include "model/price.hpp"

namespace collbench {
namespace {

namespace fs = std::filesystem;

bool is_library(const std::string& label) { return !label.starts_with("vendor"); }

// µs with about three significant digits.
std::string us(double v) {
  if (v < 10) return fmt::format("{:.2f}", v);
  if (v < 100) return fmt::format("{:.1f}", v);
  return fmt::format("{:.0f}", v);
}

// One collective at one process count on one shared-memory path: the rows by algorithm and size.
struct table {
  std::string collective;
  const run_info* info = nullptr;
  bool several_paths = false;       ///< the report holds runs on more than one shared-memory path
  std::vector<std::string> labels;  ///< row order of the run: vendor first
  std::vector<std::size_t> sizes;
  std::map<std::string, std::map<std::size_t, const row*>> cell;

  const row* at(const std::string& label, std::size_t bytes) const {
    const auto a = cell.find(label);
    if (a == cell.end()) return nullptr;
    const auto b = a->second.find(bytes);
    return b == a->second.end() ? nullptr : b->second;
  }
  // The fastest row at `bytes` among the labels `keep` accepts; a wrong result is no result.
  const row* fastest(std::size_t bytes, bool (*keep)(const std::string&)) const {
    const row* best = nullptr;
    for (const std::string& l : labels) {
      const row* r = at(l, bytes);
      if (!r || !keep(l) || (r->wrong && *r->wrong > 0) || r->median_us <= 0) continue;
      if (!best || r->median_us < best->median_us) best = r;
    }
    return best;
  }
};

std::vector<table> tables_of(const run_results& run, bool several_paths) {
  std::vector<table> out;
  for (const row& r : run.rows) {
    if (out.empty() || out.back().collective != r.collective)
      out.push_back({r.collective, &run.info, several_paths, {}, {}, {}});
    table& t = out.back();
    if (!t.cell.contains(r.algorithm)) t.labels.push_back(r.algorithm);
    if (std::find(t.sizes.begin(), t.sizes.end(), r.bytes) == t.sizes.end()) t.sizes.push_back(r.bytes);
    t.cell[r.algorithm][r.bytes] = &r;
  }
  return out;
}

// "allreduce_np2", or "allreduce_np2_single" when the report compares shared-memory paths.
std::string stem(const table& t) {
  const std::string layout = t.info->hosts ? t.info->hosts->layout.tag() : std::string();
  return fmt::format("{}_np{}{}{}", t.collective, t.info->ranks, layout.empty() ? "" : "_" + layout,
                     t.several_paths ? "_" + t.info->shm_copy.path : std::string());
}

bool across_hosts(const run_info& info) { return info.hosts && info.hosts->layout.hosts > 1; }

// ", across 2 hosts × 2 ranks (block)" for a run across hosts.
std::string layout_note(const run_info& info) {
  return across_hosts(info) ? ", across " + info.hosts->layout.describe() : std::string();
}

std::string plot_name(const table& t, std::string_view what) {
  return fmt::format("{}_{}.png", stem(t), what);
}

// ", single copy (cma)" when the report compares shared-memory paths.
std::string path_note(const table& t) {
  return t.several_paths ? ", " + describe(t.info->shm_copy) : std::string();
}

// Vendor's time ÷ the row's, as a speedup, or "–".
std::string speedup(const row* vendor, const row* r) {
  return vendor && r && r->median_us > 0 ? fmt::format("{:.2f}×", vendor->median_us / r->median_us) : "–";
}

std::string describe_ranks(const run_info& info) {
  // SimGrid SMPI: every rank in one process, timed on the platform's model, not on these cores.
  if (info.mpi_library.find("SMPI") != std::string::npos)
    return fmt::format("{} simulated ranks (SimGrid SMPI: simulated time, whatever the cores)", info.ranks);
  return fmt::format("{} rank{} on {} cores{}", info.ranks, info.ranks == 1 ? "" : "s", info.cores,
                     info.oversubscribed
                         ? " — oversubscribed: ranks share cores, so times include waiting for a "
                           "core"
                         : "");
}

void write_times(std::ostream& md, const table& t) {
  fmt::print(md,
             "Median time per call (µs; the fastest in **bold**). *best* is the fastest row, *best library* "
             "the library's fastest algorithm and its speedup over vendor (vendor's time ÷ its time: "
             "above 1 is faster); both among the rows whose result matched vendor's.\n\n| bytes |");
  for (const std::string& l : t.labels) fmt::print(md, " {} |", l);
  fmt::print(md, " best | best library | speedup vs vendor |\n|---:|");
  for (std::size_t i = 0; i < t.labels.size(); ++i) fmt::print(md, "---:|");
  fmt::print(md, "---|---|---:|\n");
  for (std::size_t bytes : t.sizes) {
    const row* best = t.fastest(bytes, [](const std::string&) { return true; });
    const row* lib = t.fastest(bytes, &is_library);
    const row* vendor = t.at("vendor", bytes);
    fmt::print(md, "| {} |", format_size(bytes));
    for (const std::string& l : t.labels) {
      const row* r = t.at(l, bytes);
      if (!r)
        fmt::print(md, " – |");
      else if (r == best)
        fmt::print(md, " **{}** |", us(r->median_us));
      else
        fmt::print(md, " {} |", us(r->median_us));
    }
    fmt::print(md, " {} | {} | {} |\n", best ? best->algorithm : "–", lib ? lib->algorithm : "–",
               speedup(vendor, lib));
  }
  fmt::print(md, "\n");
}

// Measured against predicted at a few sizes spread over the range.
void write_model(std::ostream& md, const table& t) {
  if (!t.info->model || t.sizes.empty()) return;
  std::vector<std::size_t> picks;
  for (std::size_t target : {t.sizes.front(), std::size_t{4096}, std::size_t{256} << 10, t.sizes.back()}) {
    const auto near = std::min_element(t.sizes.begin(), t.sizes.end(), [&](std::size_t a, std::size_t b) {
      const auto dist = [&](std::size_t s) { return s > target ? s - target : target - s; };
      return dist(a) < dist(b);
    });
    if (std::find(picks.begin(), picks.end(), *near) == picks.end()) picks.push_back(*near);
  }
  std::sort(picks.begin(), picks.end());
  const collectives::collective c = *collectives::parse_collective(t.collective);
  std::vector<std::string> modelled;
  for (const std::string& l : t.labels)
    if (std::any_of(t.sizes.begin(), t.sizes.end(),
                    [&](std::size_t s) { return t.at(l, s) && t.at(l, s)->model_us; }))
      modelled.push_back(l);
  if (modelled.empty()) return;
  const std::size_t largest = t.sizes.back();
  fmt::print(md,
             "Model against measurement: measured ÷ predicted µs (ratio; predicted: the run's model column), and "
             "busbw as a fraction of memcpy bandwidth at {}.\n\n"
             "| algorithm | textbook cost |",
             format_size(largest));
  for (std::size_t s : picks) fmt::print(md, " {} |", format_size(s));
  fmt::print(md, " busbw/memcpy |\n|---|---|");
  for (std::size_t i = 0; i < picks.size(); ++i) fmt::print(md, "---:|");
  fmt::print(md, "---:|\n");
  for (const std::string& l : modelled) {
    fmt::print(md, "| {} | {} |", l, textbook_cost(c, l, t.info->ranks));
    for (std::size_t s : picks) {
      const row* r = t.at(l, s);
      if (r && r->model_us && *r->model_us > 0)
        fmt::print(md, " {} ÷ {} ({:.1f}) |", us(r->median_us), us(*r->model_us),
                   r->median_us / *r->model_us);
      else
        fmt::print(md, " – |");
    }
    const row* r = t.at(l, largest);
    fmt::print(md, " {} |\n", r && r->busbw_of_memcpy ? fmt::format("{:.3f}", *r->busbw_of_memcpy) : "–");
  }
  fmt::print(md, "\n");
}

// Distinct colours, none black (black is vendor's).
constexpr std::array<std::string_view, 15> palette{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                                   "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
                                                   "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5"};

// Data blocks (one per algorithm: bytes, median µs, busbw GB/s) and the gnuplot commands for
// this table's two plots. A value that cannot sit on a log scale (busbw is 0 for most collectives
// at p = 1: nothing crosses a link) is written NaN, which gnuplot skips; a line with no value left
// is left out, and a plot with no line is not drawn (gnuplot would stop the whole script). Returns
// the plots drawn ("latency", "busbw").
std::vector<std::string> write_plots(const fs::path& dir, std::ostream& gp, const table& t) {
  if (time_only(*collectives::parse_collective(t.collective))) return {};  // one size, 0 bytes
  const auto value = [](const row& r, int column) { return column == 2 ? r.median_us : r.busbw_GBps; };
  const auto plotted = [](double v) { return v > 0 ? fmt::format("{}", v) : std::string("NaN"); };
  const std::string data = stem(t) + ".dat";
  std::ofstream dat(dir / data);
  for (const std::string& l : t.labels) {
    fmt::print(dat, "# {}\n", l);
    for (std::size_t s : t.sizes)
      if (const row* r = t.at(l, s))
        fmt::print(dat, "{} {} {}\n", s, plotted(value(*r, 2)), plotted(value(*r, 3)));
    fmt::print(dat, "\n\n");
  }
  const std::string title =
      fmt::format("{}, {} rank{}{}{}{}", t.collective, t.info->ranks, t.info->ranks == 1 ? "" : "s",
                  layout_note(*t.info), path_note(t), t.info->oversubscribed ? " (oversubscribed)" : "");
  // Size ticks named in bytes, KiB and MiB, at most about eight of them.
  std::string ticks;
  const std::size_t every = (t.sizes.size() + 7) / 8;
  for (std::size_t i = 0; i < t.sizes.size(); i += every)
    ticks += fmt::format("{}'{}' {}", ticks.empty() ? "" : ", ", format_size(t.sizes[i]), t.sizes[i]);
  fmt::print(gp, "set xtics ({})\n", ticks);
  std::vector<std::string> drawn;
  for (const auto& [what, column, ylabel] : {std::tuple{"latency", 2, "median time per call (µs)"},
                                             std::tuple{"busbw", 3, "bus bandwidth (GB/s)"}}) {
    // vendor: thick black; the library's algorithms: solid; vendor internals: dashed, in the colour
    // of the library algorithm of the same name, so the library's ring pairs with vendor:ring.
    std::vector<std::string> names, lines;
    for (std::size_t i = 0; i < t.labels.size(); ++i) {
      const std::string& l = t.labels[i];
      const std::string name = l.starts_with("vendor:") ? l.substr(7) : l;
      std::size_t colour = std::find(names.begin(), names.end(), name) - names.begin();
      if (colour == names.size()) names.push_back(name);
      const bool any = std::any_of(t.sizes.begin(), t.sizes.end(), [&](std::size_t s) {
        const row* r = t.at(l, s);
        return r && value(*r, column) > 0;
      });
      if (!any) continue;
      const bool internal = l.starts_with("vendor:");
      const std::string style =
          l == "vendor"
              ? "lw 4 lc rgb 'black' pt 7 ps 0.8"
              : fmt::format("lw {} pt {} ps {} lc rgb '{}'", internal ? "1.3 dt 2" : "2.4", colour % 13 + 1,
                            internal ? 0.5 : 0.8, palette[colour % palette.size()]);
      lines.push_back(fmt::format("  '{}' index {} using 1:{} with linespoints {} title '{}'", data, i,
                                  column, style, l));
    }
    if (lines.empty()) continue;
    drawn.emplace_back(what);
    fmt::print(gp, "set output '{}'\nset title \"{}: {}\"\nset ylabel \"{}\"\nplot \\\n", plot_name(t, what),
               title, what, ylabel);
    for (std::size_t i = 0; i < lines.size(); ++i)
      fmt::print(gp, "{}{}\n", lines[i], i + 1 < lines.size() ? ", \\" : "");
  }
  return drawn;
}

// Time on two copies ÷ time on one, or "–".
std::string ratio(const row* one, const row* two) {
  return one && two && one->median_us > 0 ? fmt::format("{:.2f}", two->median_us / one->median_us) : "–";
}

std::string time_of(const row* r, bool named) {
  if (!r) return "–";
  return named ? fmt::format("{} {}", r->algorithm, us(r->median_us)) : us(r->median_us);
}

// Per collective and process count measured on both paths, size by size: vendor and the library's
// fastest algorithm on one copy and on two, and how each moves between them.
void write_paths(std::ostream& md, const std::map<std::string, std::vector<table>>& by_collective) {
  fmt::print(md,
             "## One copy against two\n\nThe same collectives measured on both shared-memory paths (two "
             "runs, one after the other: compare the ratios rather than the absolute times). Per size: "
             "vendor's median time (µs) on one copy and on two, and their ratio (two ÷ one: above 1, "
             "one copy is faster); the same for the library's fastest algorithm (named); and that "
             "algorithm's speedup over vendor on each path.\n\n");
  for (collectives::collective c : collectives::all_collectives()) {
    const auto it = by_collective.find(std::string(to_string(c)));
    if (it == by_collective.end()) continue;
    for (const table& one : it->second) {
      if (one.info->shm_copy.path != "single") continue;
      const auto two = std::find_if(it->second.begin(), it->second.end(), [&](const table& u) {
        return u.info->ranks == one.info->ranks && u.info->shm_copy.path == "double";
      });
      if (two == it->second.end()) continue;
      fmt::print(
          md,
          "### {}, np = {}: one copy ({}) against two\n\n| bytes | vendor, 1 copy | vendor, 2 copies "
          "| 2 ÷ 1 | best library, 1 copy | best library, 2 copies | 2 ÷ 1 | speedup vs vendor, 1 copy "
          "| speedup vs vendor, 2 copies |\n|---:|---:|---:|---:|---|---|---:|---:|---:|\n",
          one.collective, one.info->ranks, one.info->shm_copy.mechanism);
      for (std::size_t bytes : one.sizes) {
        const row *v1 = one.at("vendor", bytes), *v2 = two->at("vendor", bytes);
        const row *l1 = one.fastest(bytes, &is_library), *l2 = two->fastest(bytes, &is_library);
        fmt::print(md, "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", format_size(bytes),
                   time_of(v1, false), time_of(v2, false), ratio(v1, v2), time_of(l1, true),
                   time_of(l2, true), ratio(l1, l2), speedup(v1, l1), speedup(v2, l2));
      }
      fmt::print(md, "\n");
    }
  }
}

// Runs timed as applications see calls: back to back, or as IMB-MPI1 times them (--timing imb).
bool back_to_back(const run_info& info) { return info.timing_mode != "synchronized"; }

// Per collective and process count timed back to back (--timing back-to-back: batches of calls
// issued one after the other, as applications issue them), size by size: vendor against the
// library's fastest row of that run (automatic, in compare.sh's back-to-back runs), and the same
// pair in the synchronized run of the same np and path, so the report shows where the vendor's
// advantage comes only from running ahead and overlapping calls.
void write_back_to_back(std::ostream& md, const std::map<std::string, std::vector<table>>& timed_back_to_back,
                        const std::map<std::string, std::vector<table>>& synchronized) {
  fmt::print(md,
             "## Back to back: what applications see\n\nThe tables above time every call from an instant "
             "common to all ranks (synchronized), which is right for comparing algorithms. Applications, "
             "the Intel MPI Benchmarks and OSU issue calls back to back instead: a rooted collective's root "
             "may return before its messages are received and start the next call, and successive calls "
             "overlap. Here the same np timed that way (`--timing back-to-back`: a barrier, then a batch "
             "of calls one after the other; time per call = each rank's time for the batch ÷ its calls, "
             "the slowest rank's; median over batches). Per size: vendor's time (µs) and the library's "
             "fastest row of that run (named), its speedup over vendor (above 1: the library is faster), "
             "and the same two rows' speedup in the synchronized run. The drop-in's `fastest` follows the "
             "back-to-back comparison (tune.sh). A run timed as the Intel MPI Benchmarks time a collective "
             "(`--timing imb`: each call timed apart, a barrier after it; IMB's t_avg) is shown the same "
             "way, its tables headed *imb*.\n\n");
  struct tally {
    int sizes = 0, vendor_b2b = 0, vendor_sync = 0;
  };
  std::map<int, tally> per_np;
  for (collectives::collective c : collectives::all_collectives()) {
    const auto it = timed_back_to_back.find(std::string(to_string(c)));
    if (it == timed_back_to_back.end()) continue;
    const auto sync = synchronized.find(it->first);
    for (const table& b : it->second) {
      const table* s = nullptr;
      if (sync != synchronized.end())
        for (const table& u : sync->second)
          if (u.info->ranks == b.info->ranks && u.info->shm_copy.path == b.info->shm_copy.path &&
              across_hosts(*u.info) == across_hosts(*b.info))
            s = &u;
      fmt::print(md,
                 "### {}, np = {}{}{}: {}\n\n| bytes | vendor | library | speedup {} | "
                 "speedup synchronized |\n|---:|---:|---|---:|---:|\n",
                 b.collective, b.info->ranks, layout_note(*b.info), path_note(b),
                 b.info->timing_mode == "imb" ? "imb" : "back to back",
                 b.info->timing_mode == "imb" ? "imb" : "back to back");
      for (std::size_t bytes : b.sizes) {
        const row* vendor = b.at("vendor", bytes);
        const row* lib = b.fastest(bytes, &is_library);
        const row* sync_vendor = s ? s->at("vendor", bytes) : nullptr;
        const row* sync_lib = s && lib ? s->at(lib->algorithm, bytes) : nullptr;
        fmt::print(md, "| {} | {} | {} | {} | {} |\n", format_size(bytes), time_of(vendor, false),
                   time_of(lib, true), speedup(vendor, lib), speedup(sync_vendor, sync_lib));
        if (vendor && lib && sync_vendor && sync_lib) {
          tally& t = per_np[b.info->ranks];
          ++t.sizes;
          t.vendor_b2b += vendor->median_us < lib->median_us;
          t.vendor_sync += sync_vendor->median_us < sync_lib->median_us;
        }
      }
      fmt::print(md, "\n");
    }
  }
  if (per_np.empty()) return;
  fmt::print(md,
             "Over every collective: the sizes where vendor is faster than the library's row, in each "
             "timing.\n\n| np | sizes | vendor faster back to back | vendor faster synchronized |\n"
             "|---:|---:|---:|---:|\n");
  for (const auto& [np, t] : per_np)
    fmt::print(md, "| {} | {} | {} | {} |\n", np, t.sizes, t.vendor_b2b, t.vendor_sync);
  fmt::print(md, "\n");
}

// Per collective and process count measured on one host and across hosts: vendor's and the
// library's algorithms side by side, and one busbw plot with both layouts (solid: across hosts,
// dashed: one host).
void write_layouts(std::ostream& md, const fs::path& plots, std::ostream& gp,
                   const std::map<std::string, std::vector<table>>& by_collective) {
  bool heading = false;
  for (collectives::collective c : collectives::all_collectives()) {
    const auto it = by_collective.find(std::string(to_string(c)));
    if (it == by_collective.end() || time_only(c)) continue;
    for (const table& across : it->second) {
      if (!across_hosts(*across.info)) continue;
      const auto one = std::find_if(it->second.begin(), it->second.end(), [&](const table& u) {
        return u.info->ranks == across.info->ranks && !across_hosts(*u.info) &&
               u.info->shm_copy.path == across.info->shm_copy.path;
      });
      if (one == it->second.end()) continue;
      if (!heading)
        fmt::print(md,
                   "## Across hosts against one host\n\nThe same process count on one host (shared memory "
                   "only) and across hosts (two runs, one after the other). Per size: the median time (µs) "
                   "of vendor and of the library's fastest algorithm (named) in each layout, and its "
                   "speedup over vendor there.\n\n");
      heading = true;
      const std::string name =
          fmt::format("{}_np{}_layouts_busbw.png", across.collective, across.info->ranks);
      const std::string data = fmt::format("{}_np{}_layouts.dat", across.collective, across.info->ranks);
      std::ofstream dat(plots / data);
      std::vector<std::string> lines;
      int index = 0;
      for (const auto& [t, dashed] : {std::pair{&across, false}, std::pair{&*one, true}}) {
        std::vector<std::string> names;
        for (const std::string& l : t->labels) {
          if (l.starts_with("vendor:")) continue;
          fmt::print(dat, "# {}{}\n", l, layout_note(*t->info));
          for (std::size_t s : t->sizes)
            if (const row* r = t->at(l, s); r && r->busbw_GBps > 0)
              fmt::print(dat, "{} {}\n", s, r->busbw_GBps);
          fmt::print(dat, "\n\n");
          const std::size_t colour = names.size();
          names.push_back(l);
          const std::string style =
              l == "vendor" ? fmt::format("lw {} lc rgb 'black'{}", dashed ? 2 : 4, dashed ? " dt 2" : "")
                            : fmt::format("lw {} lc rgb '{}'{}", dashed ? 1.3 : 2.4,
                                          palette[colour % palette.size()], dashed ? " dt 2" : "");
          lines.push_back(fmt::format("  '{}' index {} using 1:2 with linespoints {} title '{}, {}'", data,
                                      index++, style, l, dashed ? "one host" : t->info->hosts->layout.tag()));
        }
      }
      std::string ticks;
      const std::size_t every = (across.sizes.size() + 7) / 8;
      for (std::size_t i = 0; i < across.sizes.size(); i += every)
        ticks += fmt::format("{}'{}' {}", ticks.empty() ? "" : ", ", format_size(across.sizes[i]),
                             across.sizes[i]);
      fmt::print(gp, "set xtics ({})\n", ticks);
      fmt::print(gp,
                 "set output '{}'\nset title \"{}, {} ranks: busbw across hosts (solid) and on one host "
                 "(dashed)\"\nset ylabel \"bus bandwidth (GB/s)\"\nplot \\\n",
                 name, across.collective, across.info->ranks);
      for (std::size_t i = 0; i < lines.size(); ++i)
        fmt::print(gp, "{}{}\n", lines[i], i + 1 < lines.size() ? ", \\" : "");
      fmt::print(md, "### {}, np = {}: {} against one host\n\n![{} busbw by layout](plots/{})\n\n",
                 across.collective, across.info->ranks, across.info->hosts->layout.describe(),
                 across.collective, name);
      fmt::print(
          md,
          "| bytes | vendor, one host | best library, one host | speedup | vendor, {0} | best library, "
          "{0} | speedup |\n|---:|---:|---|---:|---:|---|---:|\n",
          across.info->hosts->layout.tag());
      for (std::size_t bytes : across.sizes) {
        const row *v1 = one->at("vendor", bytes), *v2 = across.at("vendor", bytes);
        const row *l1 = one->fastest(bytes, &is_library), *l2 = across.fastest(bytes, &is_library);
        fmt::print(md, "| {} | {} | {} | {} | {} | {} | {} |\n", format_size(bytes), time_of(v1, false),
                   time_of(l1, true), speedup(v1, l1), time_of(v2, false), time_of(l2, true),
                   speedup(v2, l2));
      }
      fmt::print(md, "\n");
    }
  }
}

// SimGrid SMPI's reproductions of the MPI libraries' selection logic (collbench's vendor:ompi,
// vendor:mpich, vendor:mvapich2, vendor:impi rows of a simulated run).
constexpr std::array<std::string_view, 4> selectors = {"ompi", "mpich", "mvapich2", "impi"};

bool is_selector(const std::string& label) {
  return std::any_of(selectors.begin(), selectors.end(),
                     [&](std::string_view s) { return label == fmt::format("vendor:{}", s); });
}

// Simulated runs: per collective, np and size, the library's fastest algorithm against the fastest
// of the MPI libraries' selections, automatic beside it, and the transport model's time of that
// algorithm (the floor of its schedule on the platform's α and β: simulated computation is free,
// so the model has no γ). Then per collective and np from 64 KiB: at how many sizes the library is
// no slower than the best selection, and where it is, how far its best algorithm is from its model.
void write_selectors(std::ostream& md, const std::map<std::string, std::vector<table>>& by_collective) {
  bool any = false;
  for (const auto& [c, tables] : by_collective)
    for (const table& t : tables) any = any || std::any_of(t.labels.begin(), t.labels.end(), &is_selector);
  if (!any) return;
  fmt::print(md,
             "## Against the MPI libraries' selections (simulated)\n\n"
             "SimGrid's SMPI reproduces how Open MPI (`ompi`), MPICH (`mpich`), MVAPICH2 (`mvapich2`) and "
             "Intel MPI (`impi`) choose an algorithm per call. Per size: the library's fastest algorithm, "
             "automatic, each selection, the library ÷ the best selection, and the library's time ÷ its "
             "transport model (the floor of its schedule on the platform). Simulated time is exact: one "
             "call per row and size, no noise.\n\n");
  for (collectives::collective coll : collectives::all_collectives()) {
    const auto it = by_collective.find(std::string(to_string(coll)));
    if (it == by_collective.end()) continue;
    for (const table& t : it->second) {
      if (!std::any_of(t.labels.begin(), t.labels.end(), &is_selector)) continue;
      fmt::print(md, "### {}, np = {}\n\n| bytes | best library | automatic |", t.collective, t.info->ranks);
      for (std::string_view s : selectors) fmt::print(md, " {} |", s);
      fmt::print(md, " library ÷ best selection | library ÷ model |\n|---:|---|---:|");
      for (std::size_t i = 0; i < selectors.size(); ++i) fmt::print(md, "---:|");
      fmt::print(md, "---:|---:|\n");
      int large = 0, no_slower = 0, unmodelled = 0;
      double worst_model = 0;
      for (std::size_t bytes : t.sizes) {
        const row* lib = t.fastest(bytes, &is_library);
        const row* best = t.fastest(bytes, &is_selector);
        const row* automatic = t.at("automatic", bytes);
        fmt::print(md, "| {} | {} | {} |", format_size(bytes), time_of(lib, true), time_of(automatic, false));
        for (std::string_view s : selectors)
          fmt::print(md, " {} |", time_of(t.at(fmt::format("vendor:{}", s), bytes), false));
        const double vs_best = lib && best ? lib->median_us / best->median_us : 0;
        const double vs_model =
            lib && lib->model_us && *lib->model_us > 0 ? lib->median_us / *lib->model_us : 0;
        fmt::print(md, " {} | {} |\n", vs_best > 0 ? fmt::format("{:.2f}", vs_best) : "–",
                   vs_model > 0 ? fmt::format("{:.2f}", vs_model) : "–");
        if (bytes >= 64 * 1024 && vs_best > 0) {
          ++large;
          if (vs_best <= 1.0 + 1e-9)  // the same schedule in both: equal simulated times
            ++no_slower;
          else if (vs_model > 0)
            worst_model = std::max(worst_model, vs_model);
          else
            ++unmodelled;
        }
      }
      if (large > 0)
        fmt::print(
            md, "\nFrom 64 KiB: the library no slower than the best selection at {} of {} sizes{}.\n\n",
            no_slower, large,
            no_slower == large ? ""
            : worst_model > 0
                ? fmt::format("; where slower, its best algorithm is at most {:.2f}× its model{}", worst_model,
                              unmodelled > 0 ? fmt::format(" ({} sizes without a model)", unmodelled) : "")
                : "; where slower, its best algorithm has no model");
      else
        fmt::print(md, "\n");
    }
  }
}

// The rows asked for that a run could not measure at its process count, with the reason
// (collbench's left_out: SimGrid's algorithms that fail there).
void write_left_out(std::ostream& md, std::span<const run_results> runs,
                    std::span<const run_results> b2b_runs) {
  bool any = false;
  for (std::span<const run_results> group : {runs, b2b_runs})
    for (const run_results& r : group)
      for (const left_out_row& l : r.info.left_out) {
        if (!any) fmt::print(md, "Left out, as the MPI library cannot run them there:\n\n");
        any = true;
        fmt::print(md, "- np = {}, {} `{}`: {}.\n", r.info.ranks, l.collective, l.algorithm, l.reason);
      }
  if (any) fmt::print(md, "\n");
}

// The decision table's time of the algorithm it chose, per (collective, np, bytes): the tuning
// runs' median (tune.cpp's `median_us` of every point).
using tuned_times = std::map<std::tuple<std::string, int, std::size_t>, double>;

tuned_times read_tuned_times(const nlohmann::json& table) {
  tuned_times times;
  for (const auto& [collective, by_np] : table.at("collectives").items())
    for (const auto& [np, ranges] : by_np.items())
      for (const nlohmann::json& range : ranges)
        for (const nlohmann::json& point : range.at("points"))
          times[{collective, std::stoi(np), point.at("bytes").get<std::size_t>()}] =
              point.at("median_us").get<double>();
  return times;
}

// automatic against the library's fastest flat algorithm (automatic never chooses vendor or
// hierarchical; on one host hierarchical's rows repeat ring's or binomial's), size by size: how
// often it is within 5%, its worst ratio and where, and the geometric mean of its ratios; per
// collective and np, then over every collective per np. With a decision table, also how fast the
// machine ran here against when it was tuned: a table is right for the speed it measured, and a
// VM that switches between speeds can tune in one and compare in the other.
void write_automatic(std::ostream& md, const std::map<std::string, std::vector<table>>& by_collective,
                     const tuned_times& tuned) {
  const auto flat = [](const std::string& l) {
    return is_library(l) && l != "automatic" && l != "hierarchical";
  };
  struct tally {
    int within = 0, points = 0;
    double worst = 0, log_sum = 0;
    std::string where;
    void add(double ratio, const std::string& at) {
      ++points;
      within += ratio <= 1.05;
      log_sum += std::log(ratio);
      if (ratio > worst) worst = ratio, where = at;
    }
    std::string row() const {
      return fmt::format("{} of {} ({:.0f}%) | {:.2f}× {} | {:.3f} |", within, points,
                         100.0 * within / points, worst, where, std::exp(log_sum / points));
    }
  };
  std::map<std::string, tally> overall;  // by "np" (and path)
  struct drift {
    int points = 0, far = 0;
    double log_sum = 0;
  };
  std::map<std::string, drift> against_tuning;  // likewise
  std::vector<std::string> lines;
  for (collectives::collective c : collectives::all_collectives()) {
    const auto it = by_collective.find(std::string(to_string(c)));
    if (it == by_collective.end()) continue;
    for (const table& t : it->second) {
      tally mine;
      for (std::size_t bytes : t.sizes) {
        const row* a = t.at("automatic", bytes);
        const row* best = t.fastest(bytes, flat);
        if (!a || !best || a->median_us <= 0 || (a->wrong && *a->wrong > 0)) continue;
        const std::string at =
            fmt::format("at {} ({} {})", format_size(bytes), best->algorithm, us(best->median_us));
        const std::string np = fmt::format("{}{}", t.info->ranks, path_note(t));
        const double ratio = a->median_us / best->median_us;
        mine.add(ratio, at);
        overall[np].add(ratio, fmt::format("{} {}", t.collective, at));
        if (const auto when_tuned = tuned.find({t.collective, t.info->ranks, bytes});
            when_tuned != tuned.end() && when_tuned->second > 0) {
          const double speed = a->median_us / when_tuned->second;
          drift& d = against_tuning[np];
          ++d.points;
          d.far += speed < 0.8 || speed > 1.25;
          d.log_sum += std::log(speed);
        }
      }
      if (mine.points > 0)
        lines.push_back(
            fmt::format("| {} | {}{} | {}\n", t.collective, t.info->ranks, path_note(t), mine.row()));
    }
  }
  if (lines.empty()) return;  // no automatic rows
  fmt::print(
      md,
      "## automatic against the library's best\n\nPer size, automatic's median time ÷ that of the "
      "library's fastest algorithm in the same run (vendor, vendor internals and hierarchical left out: "
      "automatic never chooses them): at how many sizes it is within 5%, its worst ratio and where (the "
      "fastest algorithm and its µs there), and the geometric mean of the ratios. Rows measured in one "
      "run, so the ratios hold under load; the fastest of several rows is itself a little lucky, so a "
      "ratio slightly above 1 can be noise.\n\n| collective | np | within 5% | worst | geometric mean "
      "|\n|---|---:|---:|---|---:|\n");
  for (const std::string& l : lines) md << l;
  for (const auto& [np, all] : overall) fmt::print(md, "| **all** | {} | {}\n", np, all.row());
  fmt::print(md, "\n");
  if (against_tuning.empty()) return;
  fmt::print(
      md,
      "Against the tuning runs: automatic's time here ÷ the time the decision table recorded for the "
      "algorithm it chose, at the same size (geometric mean over the sizes both measured, and how many "
      "of them are outside 0.8–1.25×). Far from 1, the machine ran at another speed when tuned than "
      "now, and the table's choices were made for that speed.\n\n| np | here ÷ tuned | sizes outside "
      "0.8–1.25× |\n|---:|---:|---:|\n");
  for (const auto& [np, d] : against_tuning)
    fmt::print(md, "| {} | {:.2f}× | {} of {} |\n", np, std::exp(d.log_sum / d.points), d.far, d.points);
  fmt::print(md, "\n");
}

void write_reading_guide(std::ostream& md) {
  fmt::print(md, R"(## How to read the numbers

- **bytes** is the message as nccl-tests counts it: the vector for broadcast, reduce, allreduce,
  scan and exscan; the whole p-block array for scatter, gather, allgather, reduce_scatter and
  alltoall. barrier moves no data: one row per algorithm at 0 bytes, time only.
- **time** is the median over iterations of the slowest rank's time for one call, measured from an
  instant common to all ranks (after a barrier, rank 0 names an instant slightly ahead and every
  rank waits for it on its own clock) to the end of that rank's call ("synchronized" timing).
  Lower is better. Runs timed "back-to-back" (section *Back to back*) time a batch of calls issued
  one after the other instead, each rank from its exit of a barrier, and divide by the calls.
- **algbw** = bytes ÷ time. It depends on the collective, so it cannot be compared across them.
- **busbw** = algbw × a factor (allreduce 2(p−1)/p; allgather, reduce_scatter, alltoall, gather,
  scatter (p−1)/p; broadcast, reduce, scan, exscan 1; barrier 0): the bandwidth each rank's link
  sustains in an optimal algorithm. It can be compared across collectives and with the hardware's
  peak; an algorithm that moves more than the optimum shows a lower busbw.
- **vs_vendor** (CSV, JSON) = time ÷ vendor's time at the same size: below 1 is faster than the
  MPI library. The tables below show the inverse for the best library algorithm, as a speedup.
- **vendor** is the MPI library's own collective; **vendor:<name>** is one of its internal
  algorithms forced on a communicator, so a library ring can be set against the vendor's ring.
- **model**: each row's schedule as the library records it, priced message by message (bench/model/price.hpp)
  on the machine the run measured: each message at the ping-pong's one-way time at its size, copies
  and reductions at their measured speed, across hosts a message between hosts at the ping-pong
  between two; a vendor internal by the library schedule it runs, with concurrent exchanges. vendor,
  automatic and the internals that run none of the library's schedules have no model. A ratio near 1
  means the algorithm runs at the transport's floor; far above 1, time goes somewhere the model does
  not see: waiting for a core, synchronisation, a protocol switch.
- **Caveat for calls of a few µs**: every call starts at one instant on every rank, so a rooted
  collective (broadcast, scatter, gather, reduce; the library's and vendor's alike) cannot hide its
  latency by its root starting first, and the order of the rows is drawn anew every iteration, so
  none always follows the same one. What remains: ranks on another node than rank 0's know the
  instant only to within the ± above (half a ping-pong round trip); a waiting rank notices the
  instant within a clock read (tens of ns), or a turn on a core when oversubscribed; and the
  machine itself: on a shared VM the latency of one small message can differ twofold from one run
  to the next (plain MPI_Send/MPI_Recv alike), so compare rows within a run rather than across runs.

)");
}

int run(int argc, char** argv) {
  CLI::App app{"collreport: the Markdown report, merged CSV/JSON and gnuplot plots of collbench JSON runs",
               "collreport"};
  std::string out;
  std::vector<std::string> inputs;
  app.add_option("--out", out, "Directory to write report.md, results.csv, results.json and plots/ into")
      ->required();
  app.add_option("inputs", inputs, "collbench --format json files, one per process count")->required();
  bool reprice = false;
  app.add_flag("--reprice", reprice,
               "Recompute every row's model_us with this build's model, from the machine each run "
               "measured (its ping-pongs, exchanges, copies and reductions), instead of the figures collbench "
               "wrote: what a change of the model does to runs already made");
  std::string tuning;
  app.add_option("--tuning", tuning,
                 "The decision table automatic followed in the runs (tune.sh), named in the report");
  CLI11_PARSE(app, argc, argv);

  std::vector<run_results> runs;
  nlohmann::json merged = {{"runs", nlohmann::json::array()}};
  for (const std::string& path : inputs) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(fmt::format("cannot read {}", path));
    run_results run = read_json(in);
    if (reprice) {
      for (row& r : run.rows) {
        const auto c = collectives::parse_collective(r.collective);
        if (!c) throw std::runtime_error(fmt::format("{}: unknown collective '{}'", path, r.collective));
        r.model_us = model_us(*c, r.algorithm, run.info, r.bytes, r.count);
      }
      std::ostringstream repriced;
      write_json(repriced, run.info, run.rows);
      merged["runs"].push_back(nlohmann::json::parse(repriced.str()));
    } else {
      in.clear();
      in.seekg(0);
      merged["runs"].push_back(nlohmann::json::parse(in));
    }
    runs.push_back(std::move(run));
  }
  // Launches that split one run (compare.sh --simulate: one per collective, and its sizes over
  // several at a time) are one run: the same process count, library, timing, path and data. The
  // first file's description stands for all.
  const auto same_run = [](const run_info& a, const run_info& b) {
    return a.ranks == b.ranks && a.mpi_library == b.mpi_library && a.timing_mode == b.timing_mode &&
           a.shm_copy.path == b.shm_copy.path && a.type == b.type && a.op == b.op && a.root == b.root &&
           a.skew == b.skew;
  };
  for (auto it = runs.begin(); it != runs.end(); ++it) {
    bool merged_any = false;
    for (auto later = std::next(it); later != runs.end();)
      if (same_run(it->info, later->info)) {
        it->rows.insert(it->rows.end(), later->rows.begin(), later->rows.end());
        for (left_out_row& l : later->info.left_out)
          if (std::find(it->info.left_out.begin(), it->info.left_out.end(), l) == it->info.left_out.end())
            it->info.left_out.push_back(std::move(l));
        later = runs.erase(later);
        merged_any = true;
      } else {
        ++later;
      }
    if (!merged_any) continue;
    // Each collective's rows in size order, the collectives in the order they first came.
    std::vector<std::string> order;
    for (const row& r : it->rows)
      if (std::find(order.begin(), order.end(), r.collective) == order.end()) order.push_back(r.collective);
    const auto place = [&](const row& r) {
      return std::pair(std::find(order.begin(), order.end(), r.collective) - order.begin(), r.bytes);
    };
    std::stable_sort(it->rows.begin(), it->rows.end(),
                     [&](const row& a, const row& b) { return place(a) < place(b); });
  }
  // By process count, the single-copy run before the two-copy one.
  std::stable_sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
    return std::pair(a.info.ranks, b.info.shm_copy.path) < std::pair(b.info.ranks, a.info.shm_copy.path);
  });
  // Runs timed back to back get a section of their own; the rest of the report is the synchronized
  // runs' (or, if every run is back to back, theirs).
  std::vector<run_results> b2b_runs;
  if (std::any_of(runs.begin(), runs.end(), [](const auto& r) { return !back_to_back(r.info); })) {
    for (auto it = runs.begin(); it != runs.end();)
      if (back_to_back(it->info)) {
        b2b_runs.push_back(std::move(*it));
        it = runs.erase(it);
      } else {
        ++it;
      }
  }
  std::set<std::string> paths;
  for (const run_results& r : runs) paths.insert(r.info.shm_copy.path);
  const bool several_paths = paths.size() > 1;

  const fs::path dir(out), plots = dir / "plots";
  fs::create_directories(plots);
  {
    std::ofstream csv(dir / "results.csv");
    for (std::size_t i = 0; i < runs.size(); ++i) write_csv(csv, runs[i].rows, i == 0);
    for (const run_results& r : b2b_runs) write_csv(csv, r.rows, false);
    std::ofstream(dir / "results.json") << merged.dump(1) << '\n';
  }

  std::ofstream md(dir / "report.md"), gp(plots / "plots.gp");
  fmt::print(gp,
             "# Drawn by `gnuplot plots.gp` in this directory (collreport wrote it).\n"
             "set terminal pngcairo size 960,600 font 'DejaVu Sans,10'\nset logscale xy\n"
             "set termoption noenhanced\nset xlabel 'message size'\nset key outside right top\nset grid\n");

  const run_info& first = runs.front().info;
  fmt::print(md, "# Collective algorithms against the vendor's MPI\n\n");
  fmt::print(
      md, "collbench {} on `{}`, {}; {}. Element type `{}`, op `{}`, root {}, v-variants' skew {}.\n\n",
      first.version, first.host, first.date, first.mpi_library, first.type, first.op, first.root, first.skew);
  for (const std::vector<run_results>* group : {&runs, &b2b_runs})
    for (const run_results& r : *group)
      fmt::print(md, "- **np = {}**{}, shared memory: {}, timing {}: {}{}.\n", r.info.ranks,
                 layout_note(r.info), describe(r.info.shm_copy), r.info.timing_mode, describe_ranks(r.info),
                 r.info.start ? "; " + describe_start(*r.info.start) : "");
  fmt::print(md,
             "\nShared memory between the ranks of a node is copied once (the receiver reads the sender's "
             "memory: CMA, XPMEM or KNEM), as on a real node where the kernel allows it, or twice (through "
             "a shared segment: `none`). With one copy a blocking send waits while its receiver copies, so "
             "the ordered exchanges of the library's algorithms keep half the ranks copying at a time, "
             "while a vendor send-receive can keep both partners busy: the path changes who wins. {}.\n",
             first.shm_copy.path == "unknown"
                 ? "Here the path is not known: " + first.shm_copy.source
                 : "Read from the MPI library's own parameter: " + first.shm_copy.source);
  fmt::print(md, "\nMethod: {}.\n\n", first.timing);
  if (!b2b_runs.empty())
    fmt::print(md, "Method of the back-to-back runs (their own section, *Back to back*): {}.\n\n",
               b2b_runs.front().info.timing);
  fmt::print(md, "Vendor internals: {}.\n\n", first.vendor_internals);
  write_left_out(md, runs, b2b_runs);
  if (reprice)
    fmt::print(md,
               "The model's figures were recomputed by this collreport (`--reprice`), from the machine each "
               "run measured, with the model it was built with; collbench's own are in the input "
               "files.\n\n");
  tuned_times tuned;
  if (!tuning.empty()) {
    std::ifstream in(tuning);
    if (!in) throw std::runtime_error(fmt::format("cannot read {}", tuning));
    const nlohmann::json table = nlohmann::json::parse(in);
    tuned = read_tuned_times(table);
    const nlohmann::json& p = table.at("provenance");
    const auto field = [&](const char* k) {
      if (!p.contains(k)) return std::string("–");
      return p.at(k).is_string() ? p.at(k).get<std::string>() : p.at(k).dump();
    };
    fmt::print(md, "automatic followed the decision table `{}` (measured on {}, {}, {}, by `{}`).\n\n",
               tuning, field("host"), field("date"), field("mpi_library"), field("command"));
  } else {
    fmt::print(md, "automatic followed its built-in rule (no decision table).\n\n");
  }

  // Correctness first: a fast wrong result is no result.
  long long wrong_rows = 0;
  bool checked = false;
  for (const run_results& r : runs)
    for (const row& x : r.rows) {
      checked = checked || x.wrong.has_value();
      if (x.wrong && *x.wrong > 0) ++wrong_rows;
    }
  if (!checked)
    fmt::print(md, "**Results were not checked** (`--no-check`).\n\n");
  else if (wrong_rows == 0)
    fmt::print(md, "Every result matched vendor's, element by element.\n\n");
  else {
    fmt::print(md,
               "**{} rows differ from vendor's result:**\n\n| collective | np | algorithm | bytes | wrong |\n"
               "|---|---:|---|---:|---:|\n",
               wrong_rows);
    for (const run_results& r : runs)
      for (const row& x : r.rows)
        if (x.wrong && *x.wrong > 0)
          fmt::print(md, "| {} | {} | {} | {} | {} |\n", x.collective, x.ranks, x.algorithm, x.bytes,
                     *x.wrong);
    fmt::print(md, "\n");
  }

  if (std::any_of(runs.begin(), runs.end(), [](const auto& r) { return r.info.model.has_value(); })) {
    fmt::print(
        md,
        "Machine model (measured in each run; α, β from a fit of the ping-pong that forwards what it "
        "received, β_u of the one that sends an untouched buffer, γ from the library's reduction kernel, "
        "memcpy on one core; the model prices a message by the ping-pongs' time at its size, at the "
        "speed they have where they touch as many bytes as the call):\n\n| np | α "
        "(µs) | 1/β (GB/s) | 1/β_u (GB/s) | 1/γ (GB/s) | memcpy (GB/s) |\n|---:|---:|---:|---:|---:|---:|\n");
    for (const run_results& r : runs)
      if (const auto& m = r.info.model)
        fmt::print(md, "| {} | {:.2f} | {:.2f} | {:.2f} | {:.2f} | {:.2f} |\n", r.info.ranks, m->alpha * 1e6,
                   m->beta > 0 ? 1e-9 / m->beta : 0.0, m->beta_clean > 0 ? 1e-9 / m->beta_clean : 0.0,
                   m->gamma > 0 ? 1e-9 / m->gamma : 0.0, m->memcpy_bandwidth / 1e9);
    fmt::print(md, "\n");
  }
  if (std::any_of(runs.begin(), runs.end(),
                  [](const auto& r) { return across_hosts(r.info) && r.info.model; })) {
    fmt::print(md,
               "Links across hosts (ping-pongs between rank 0 and the next rank on its host, and the first "
               "rank of another host; α the one-way time of 1 byte, β the slope between 1 MiB and 4 MiB):"
               "\n\n| np | layout | α_s (µs) | 1/β_s (GB/s) | α_n (µs) | 1/β_n (GB/s) |\n"
               "|---:|---|---:|---:|---:|---:|\n");
    for (const run_results& r : runs)
      if (across_hosts(r.info) && r.info.model) {
        const host_links& h = *r.info.hosts;
        fmt::print(md, "| {} | {} | {:.2f} | {:.3f} | {:.2f} | {:.3f} |\n", r.info.ranks, h.layout.describe(),
                   h.alpha_intra * 1e6, h.beta_intra > 0 ? 1e-9 / h.beta_intra : 0.0, h.alpha_inter * 1e6,
                   h.beta_inter > 0 ? 1e-9 / h.beta_inter : 0.0);
      }
    fmt::print(md, "\n");
  }
  write_reading_guide(md);

  // Summary: per collective and np, the best library algorithm at the smallest and largest size.
  std::map<std::string, std::vector<table>> by_collective;
  for (const run_results& r : runs)
    for (table& t : tables_of(r, several_paths)) by_collective[t.collective].push_back(std::move(t));
  fmt::print(
      md,
      "## Summary\n\nThe library's fastest algorithm at the smallest and the largest size, with its "
      "speedup over vendor (above 1: faster).\n\n| collective | np | smallest | best library | speedup "
      "| largest | best library | speedup |\n|---|---:|---:|---|---:|---:|---|---:|\n");
  for (collectives::collective c : collectives::all_collectives()) {
    const auto it = by_collective.find(std::string(to_string(c)));
    if (it == by_collective.end()) continue;
    for (const table& t : it->second) {
      fmt::print(md, "| [{}](#{}) | {}{}{} |", t.collective, t.collective, t.info->ranks,
                 layout_note(*t.info), path_note(t));
      for (std::size_t bytes : {t.sizes.front(), t.sizes.back()}) {
        const row* lib = t.fastest(bytes, &is_library);
        const row* vendor = t.at("vendor", bytes);
        fmt::print(md, " {} | {} | {} |", format_size(bytes), lib ? lib->algorithm : "–",
                   speedup(vendor, lib));
      }
      fmt::print(md, "\n");
    }
  }
  fmt::print(md, "\n");
  write_automatic(md, by_collective, tuned);
  write_selectors(md, by_collective);
  if (!b2b_runs.empty()) {
    std::map<std::string, std::vector<table>> b2b_by_collective;
    for (const run_results& r : b2b_runs)
      for (table& t : tables_of(r, several_paths)) b2b_by_collective[t.collective].push_back(std::move(t));
    write_back_to_back(md, b2b_by_collective, by_collective);
  }
  if (paths.contains("single") && paths.contains("double")) write_paths(md, by_collective);
  write_layouts(md, plots, gp, by_collective);

  for (collectives::collective c : collectives::all_collectives()) {
    const auto it = by_collective.find(std::string(to_string(c)));
    if (it == by_collective.end()) continue;
    fmt::print(md, "## {}\n\n", it->first);
    for (const table& t : it->second) {
      fmt::print(md, "### {}, np = {}{}{}\n\n{}.\n\n", t.collective, t.info->ranks, layout_note(*t.info),
                 path_note(t), describe_ranks(*t.info));
      const std::vector<std::string> drawn = write_plots(plots, gp, t);
      for (const std::string what : {"latency", "busbw"}) {
        if (std::find(drawn.begin(), drawn.end(), what) != drawn.end())
          fmt::print(md, "![{} {}, np = {}{}](plots/{}) ", t.collective, what, t.info->ranks, path_note(t),
                     plot_name(t, what));
        else if (time_only(*collectives::parse_collective(t.collective)))
          fmt::print(md, "(no {} plot: {} moves no data, so it has one row per algorithm, time only) ", what,
                     t.collective);
        else
          fmt::print(md, "(no {} plot: no value above 0{}) ", what,
                     t.info->ranks == 1 ? ", as nothing crosses a link with one rank" : "");
      }
      fmt::print(md, "\n\n");
      write_times(md, t);
      write_model(md, t);
    }
  }
  return 0;
}

}  // namespace
}  // namespace collbench

int main(int argc, char** argv) {
  try {
    return collbench::run(argc, argv);
  } catch (const std::exception& e) {
    fmt::print(stderr, "collreport: {}\n", e.what());
    return 1;
  }
}
