// SPDX-License-Identifier: BSD-3-Clause
// collreport: collbench's JSON files (one per process count) turned into the comparison report,
// report.md, results.csv, results.json and plots/ (bench/report/report.hpp).
// Usage: collreport --out DIR [--tuning TABLE] [--reprice] run1.json [run2.json ...]; then
// `gnuplot plots.gp` in DIR/plots.

#include "cli11.hpp"
#include "report/report.hpp"
#include "tools/run_tool.hpp"

int main(int argc, char** argv) {
  return collbench::run_tool("collreport", [&] {
    CLI::App app{"collreport: the Markdown report, merged CSV/JSON and gnuplot plots of collbench JSON runs",
                 "collreport"};
    collbench::report::report_options o;
    app.add_option("--out", o.out, "Directory to write report.md, results.csv, results.json and plots/ into")
        ->required();
    app.add_option("inputs", o.inputs, "collbench --format json files, one per process count")->required();
    app.add_flag(
        "--reprice", o.reprice,
        "Recompute every row's model_us with this build's model, from the machine each run "
        "measured (its ping-pongs, exchanges, copies and reductions), instead of the figures collbench "
        "wrote: what a change of the model does to runs already made");
    app.add_option("--tuning", o.tuning,
                   "The decision table automatic followed in the runs (tune.sh), named in the report");
    CLI11_PARSE(app, argc, argv);
    collbench::report::write_report(o);
    return 0;
  });
}
