// SPDX-License-Identifier: BSD-3-Clause
// collreport's report, section by section (report.hpp).

#include "report/report.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <collectives/algorithm.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <span>
#include <stdexcept>

#include "measure/metrics.hpp"
#include "measure/options.hpp"
#include "report/automatic.hpp"
#include "report/plots.hpp"
#include "report/run_file.hpp"
#include "report/sections.hpp"
#include "report/tables.hpp"

namespace collbench::report {
namespace {

void write_results(const fs::path& dir, const report_runs& rr) {
  const std::vector<run_results>& runs = rr.runs;
  std::ofstream csv(dir / "results.csv");
  for (std::size_t i = 0; i < runs.size(); ++i) write_csv(csv, runs[i].rows, i == 0);
  for (const run_results& r : rr.b2b_runs) write_csv(csv, r.rows, false);
  std::ofstream(dir / "results.json") << rr.merged.dump(1) << '\n';
}

// The title, the runs, the shared-memory paths, the method, the rows left out.
void write_preamble(std::ostream& md, const report_runs& rr, bool reprice) {
  const std::vector<run_results>& runs = rr.runs;
  const std::vector<run_results>& b2b_runs = rr.b2b_runs;
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
}

// The decision table automatic followed, named; its times by point.
tuned_times write_tuning(std::ostream& md, const std::string& tuning) {
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
  return tuned;
}

void write_correctness(std::ostream& md, std::span<const run_results> runs) {
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
}

// The machine model each run measured, and the links across hosts.
void write_machine(std::ostream& md, std::span<const run_results> runs) {
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
}

tables_by_collective by_collective_of(std::span<const run_results> runs, bool several_paths) {
  tables_by_collective by_collective;
  for (const run_results& r : runs)
    for (table& t : tables_of(r, several_paths)) by_collective[t.collective].push_back(std::move(t));
  return by_collective;
}

// Summary: per collective and np, the best library algorithm at the smallest and largest size.
void write_summary(std::ostream& md, const tables_by_collective& by_collective) {
  fmt::print(
      md,
      "## Summary\n\nThe library's fastest algorithm at the smallest and the largest size, with its "
      "speedup over vendor (above 1: faster).\n\n| collective | np | smallest | best library | speedup "
      "| largest | best library | speedup |\n|---|---:|---:|---|---:|---:|---|---:|\n");
  for (const auto it : in_collective_order(by_collective)) {
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
}

// Per collective and np: the plots, the times and the model.
void write_per_collective(std::ostream& md, const fs::path& plots, std::ostream& gp,
                          const tables_by_collective& by_collective) {
  for (const auto it : in_collective_order(by_collective)) {
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
}

}  // namespace

void write_report(const report_options& o) {
  const report_runs rr = read_runs(o.inputs, o.reprice);
  const std::vector<run_results>& runs = rr.runs;
  std::set<std::string> paths;
  for (const run_results& r : runs) paths.insert(r.info.shm_copy.path);
  const bool several_paths = paths.size() > 1;

  const fs::path dir(o.out), plots = dir / "plots";
  fs::create_directories(plots);
  write_results(dir, rr);

  std::ofstream md(dir / "report.md"), gp(plots / "plots.gp");
  fmt::print(gp,
             "# Drawn by `gnuplot plots.gp` in this directory (collreport wrote it).\n"
             "set terminal pngcairo size 960,600 font 'DejaVu Sans,10'\nset logscale xy\n"
             "set termoption noenhanced\nset xlabel 'message size'\nset key outside right top\nset grid\n");

  write_preamble(md, rr, o.reprice);
  const tuned_times tuned = write_tuning(md, o.tuning);
  write_correctness(md, runs);
  write_machine(md, runs);
  write_reading_guide(md);

  const tables_by_collective by_collective = by_collective_of(runs, several_paths);
  write_summary(md, by_collective);
  write_automatic(md, by_collective, tuned);
  write_selectors(md, by_collective);
  if (!rr.b2b_runs.empty())
    write_back_to_back(md, by_collective_of(rr.b2b_runs, several_paths), by_collective);
  if (paths.contains("single") && paths.contains("double")) write_paths(md, by_collective);
  write_layouts(md, plots, gp, by_collective);
  write_per_collective(md, plots, gp, by_collective);
}

void write_target_table(const report_options& o) {
  const report_runs rr = read_runs(o.inputs, o.reprice);
  std::set<std::string> paths;
  for (const run_results& r : rr.runs) paths.insert(r.info.shm_copy.path);
  const tables_by_collective by_collective = by_collective_of(rr.runs, paths.size() > 1);
  if (o.out.empty()) {
    write_targets(std::cout, by_collective);
    return;
  }
  std::ofstream md(o.out);
  if (!md) throw std::runtime_error(fmt::format("cannot write {}", o.out));
  write_targets(md, by_collective);
}

}  // namespace collbench::report
