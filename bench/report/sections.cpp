// SPDX-License-Identifier: BSD-3-Clause
// The sections of collreport's report.md that are tables of numbers (sections.hpp).

#include "report/sections.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <collectives/algorithm.hpp>

#include "measure/metrics.hpp"
#include "measure/options.hpp"
#include "model/price.hpp"

namespace collbench::report {

namespace {

// SimGrid SMPI's reproductions of the MPI libraries' selection logic (collbench's vendor:ompi,
// vendor:mpich, vendor:mvapich2, vendor:impi rows of a simulated run).
constexpr std::array<std::string_view, 4> selectors = {"ompi", "mpich", "mvapich2", "impi"};

bool is_selector(const std::string& label) {
  return std::any_of(selectors.begin(), selectors.end(),
                     [&](std::string_view s) { return label == fmt::format("vendor:{}", s); });
}

// A selection: SMPI's four, or collbench's own reproduction of Open MPI 4.1's decision.
bool is_selection(const std::string& label) { return is_selector(label) || label == "vendor:ompi41"; }

// One of SMPI's single algorithms (its catalogue: vendor:lr, vendor:rdb, …).
bool is_smpi_algorithm(const std::string& label) {
  return label.starts_with("vendor:") && !is_selection(label);
}

// What the library's best is chosen among: its algorithms, not automatic (a column of its own) nor
// the MPI library's collective by its profiling name.
bool is_library_algorithm(const std::string& label) {
  return is_library(label) && label != "automatic" && label != "pmpi";
}

bool is_anchor(const std::string& label) { return is_selection(label) || is_smpi_algorithm(label); }

// The target table's rows at one size of one table.
struct targets {
  const row* library;
  const row* automatic;
  const row* selection;  // the fastest selection
  const row* smpi;       // the fastest of SMPI's single algorithms
  const row* anchor;     // the fastest of both
};

targets targets_at(const table& t, std::size_t bytes) {
  return {t.fastest(bytes, &is_library_algorithm), t.at("automatic", bytes), t.fastest(bytes, &is_selection),
          t.fastest(bytes, &is_smpi_algorithm), t.fastest(bytes, &is_anchor)};
}

// a's time ÷ b's, or 0 where either is missing.
double quotient(const row* a, const row* b) {
  return a && b && b->median_us > 0 ? a->median_us / b->median_us : 0;
}

std::string quotient_text(double q) { return q > 0 ? fmt::format("{:.2f}", q) : "–"; }

bool has_selections(const table& t) { return std::any_of(t.labels.begin(), t.labels.end(), &is_selector); }

}  // namespace

void write_targets(std::ostream& md, const tables_by_collective& by_collective) {
  fmt::print(
      md,
      "| collective | np | bytes | library's best | µs | automatic µs | best selection | µs | best SMPI "
      "algorithm | µs | library ÷ best selection | library ÷ best anchor |\n"
      "|---|---:|---:|---|---:|---:|---|---:|---|---:|---:|---:|\n");
  const auto name = [](const row* r) { return r ? r->algorithm : std::string("–"); };
  const auto time = [](const row* r) { return r ? us(r->median_us) : std::string("–"); };
  for (const auto it : in_collective_order(by_collective))
    for (const table& t : it->second) {
      if (!has_selections(t)) continue;
      for (std::size_t bytes : t.sizes) {
        const targets x = targets_at(t, bytes);
        fmt::print(md, "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", t.collective,
                   t.info->ranks, format_size(bytes), name(x.library), time(x.library), time(x.automatic),
                   name(x.selection), time(x.selection), name(x.smpi), time(x.smpi),
                   quotient_text(quotient(x.library, x.selection)),
                   quotient_text(quotient(x.library, x.anchor)));
      }
    }
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
  fmt::print(
      md,
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

void write_paths(std::ostream& md, const std::map<std::string, std::vector<table>>& by_collective) {
  fmt::print(md,
             "## One copy against two\n\nThe same collectives measured on both shared-memory paths (two "
             "runs, one after the other: compare the ratios rather than the absolute times). Per size: "
             "vendor's median time (µs) on one copy and on two, and their ratio (two ÷ one: above 1, "
             "one copy is faster); the same for the library's fastest algorithm (named); and that "
             "algorithm's speedup over vendor on each path.\n\n");
  for (const auto it : in_collective_order(by_collective)) {
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
  for (const auto it : in_collective_order(timed_back_to_back)) {
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

void write_selectors(std::ostream& md, const std::map<std::string, std::vector<table>>& by_collective) {
  bool any = false;
  for (const auto& [c, tables] : by_collective)
    for (const table& t : tables) any = any || has_selections(t);
  if (!any) return;
  fmt::print(md,
             "## Against the MPI libraries' selections (simulated)\n\n"
             "SimGrid's SMPI reproduces how Open MPI (`ompi`), MPICH (`mpich`), MVAPICH2 (`mvapich2`) and "
             "Intel MPI (`impi`) choose an algorithm per call, and has its own implementations of many "
             "algorithms (its catalogue: `vendor:lr`, `vendor:rdb`, …; every one of them with "
             "`compare.sh --simulate --catalogue`). The anchors are both: the best selection, and the "
             "best of SMPI's algorithms run, a stricter one. Simulated time is exact: one call per row and "
             "size, no noise.\n\n"
             "The target table: per collective, np and size, the library's fastest algorithm, automatic, the "
             "fastest selection, the fastest of SMPI's single algorithms, and the library's time ÷ the best "
             "selection's and ÷ the best anchor's (below 1: the library is faster). `collreport --targets` "
             "prints it alone.\n\n");
  write_targets(md, by_collective);
  fmt::print(md,
             "\nPer collective and np, each selection, and the library's time ÷ its transport model (the "
             "floor of its schedule on the platform).\n\n");
  for (const auto it : in_collective_order(by_collective)) {
    for (const table& t : it->second) {
      if (!has_selections(t)) continue;
      fmt::print(md, "### {}, np = {}\n\n| bytes | best library | automatic |", t.collective, t.info->ranks);
      for (std::string_view s : selectors) fmt::print(md, " {} |", s);
      fmt::print(md,
                 " best SMPI algorithm | library ÷ best selection | library ÷ best anchor | library ÷ model "
                 "|\n|---:|---|---:|");
      for (std::size_t i = 0; i < selectors.size(); ++i) fmt::print(md, "---:|");
      fmt::print(md, "---|---:|---:|---:|\n");
      int large = 0, no_slower = 0, unmodelled = 0, anchored = 0, no_slower_anchor = 0;
      double worst_model = 0;
      for (std::size_t bytes : t.sizes) {
        const targets x = targets_at(t, bytes);
        const row* lib = x.library;
        fmt::print(md, "| {} | {} | {} |", format_size(bytes), time_of(lib, true),
                   time_of(x.automatic, false));
        for (std::string_view s : selectors)
          fmt::print(md, " {} |", time_of(t.at(fmt::format("vendor:{}", s), bytes), false));
        const double vs_best = quotient(lib, x.selection), vs_anchor = quotient(lib, x.anchor);
        const double vs_model =
            lib && lib->model_us && *lib->model_us > 0 ? lib->median_us / *lib->model_us : 0;
        fmt::print(md, " {} | {} | {} | {} |\n", time_of(x.smpi, true), quotient_text(vs_best),
                   quotient_text(vs_anchor), quotient_text(vs_model));
        // The same schedule in both gives equal simulated times: no slower up to rounding.
        if (bytes >= 64 * 1024 && vs_anchor > 0) {
          ++anchored;
          if (vs_anchor <= 1.0 + 1e-9) ++no_slower_anchor;
        }
        if (bytes >= 64 * 1024 && vs_best > 0) {
          ++large;
          if (vs_best <= 1.0 + 1e-9)
            ++no_slower;
          else if (vs_model > 0)
            worst_model = std::max(worst_model, vs_model);
          else
            ++unmodelled;
        }
      }
      if (large > 0)
        fmt::print(
            md,
            "\nFrom 64 KiB: the library no slower than the best selection at {} of {} sizes{}; than the best "
            "anchor at {} of {}.\n\n",
            no_slower, large,
            no_slower == large ? ""
            : worst_model > 0
                ? fmt::format(" (where slower, its best algorithm is at most {:.2f}× its model{})",
                              worst_model,
                              unmodelled > 0 ? fmt::format("; {} sizes without a model", unmodelled) : "")
                : " (where slower, its best algorithm has no model)",
            no_slower_anchor, anchored);
      else
        fmt::print(md, "\n");
    }
  }
}

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

}  // namespace collbench::report
