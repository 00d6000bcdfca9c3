// SPDX-License-Identifier: BSD-3-Clause
// collreport's plots (plots.hpp).

#include "report/plots.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <collectives/algorithm.hpp>
#include <fstream>

#include "measure/metrics.hpp"
#include "measure/options.hpp"

namespace collbench::report {

namespace {

// Distinct colours, none black (black is vendor's).
constexpr std::array<std::string_view, 15> palette{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                                   "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
                                                   "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5"};

}  // namespace

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

void write_layouts(std::ostream& md, const fs::path& plots, std::ostream& gp,
                   const std::map<std::string, std::vector<table>>& by_collective) {
  bool heading = false;
  for (const auto it : in_collective_order(by_collective)) {
    if (time_only(*collectives::parse_collective(it->first))) continue;
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

}  // namespace collbench::report
