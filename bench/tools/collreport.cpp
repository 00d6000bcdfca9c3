// SPDX-License-Identifier: BSD-3-Clause
// collreport: collbench's JSON files (one per process count) turned into the comparison report,
// report.md, results.csv, results.json and plots/ (bench/report/report.hpp).
// Usage: collreport --out DIR [--tuning TABLE] [--reprice] run1.json|RESULTS_DIR [...]; then
// `gnuplot plots.gp` in DIR/plots.
//        collreport --targets [--out FILE] run1.json|RESULTS_DIR [...]   the simulated runs' target
// table alone (Markdown), on stdout or in FILE.

#include <stdexcept>

#include "cli11.hpp"
#include "report/report.hpp"
#include "tools/run_tool.hpp"

int main(int argc, char** argv) {
  return collbench::run_tool("collreport", [&] {
    CLI::App app{"collreport: the Markdown report, merged CSV/JSON and gnuplot plots of collbench JSON runs",
                 "collreport"};
    collbench::report::report_options o;
    app.add_option("--out", o.out,
                   "Directory to write report.md, results.csv, results.json and plots/ into (with --targets: "
                   "the file for the table; default stdout)");
    app.add_option(
           "inputs", o.inputs,
           "collbench --format json files, one per process count, or results directories (compare.sh's, "
           "collreport's: their results.json)")
        ->required();
    app.add_flag(
        "--targets", o.targets,
        "Write only the target table of simulated runs (compare.sh --simulate), in Markdown: per "
        "collective, np and size the library's best algorithm, automatic, the best selection and the "
        "best of SMPI's single algorithms, the library ÷ the best selection and ÷ the best of both");
    app.add_flag(
        "--reprice", o.reprice,
        "Recompute every row's model_us with this build's model, from the machine each run "
        "measured (its ping-pongs, exchanges, copies and reductions), instead of the figures collbench "
        "wrote: what a change of the model does to runs already made");
    app.add_option("--tuning", o.tuning,
                   "The decision table automatic followed in the runs (tune.sh), named in the report");
    CLI11_PARSE(app, argc, argv);
    if (o.targets) {
      collbench::report::write_target_table(o);
      return 0;
    }
    if (o.out.empty()) throw std::runtime_error("--out DIR is required (but with --targets)");
    collbench::report::write_report(o);
    return 0;
  });
}
