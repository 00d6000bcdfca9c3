// SPDX-License-Identifier: BSD-3-Clause
// colltune: the decision table of algorithm::automatic from repeated collbench runs
// (bench/tune/measured_table.hpp) or, with --model, from schedules priced on SimGrid platforms
// (bench/tune/model_table.hpp). scripts/mpirun/tune.sh runs collbench and then this; the table's
// schema is in docs/tuning.md.
//
// Usage: colltune --out table.json [--options "collbench options"] [--command "how it was run"]
//                 run1.json run2.json ...   (synchronized, back-to-back and imb runs, in any order)
//        colltune --out table.json --model PLATFORM.xml [--np 16 32 …] [--min-bytes 8]
//                 [--max-bytes 16777216] [--step 2] [-c allreduce,…]   (no runs: priced schedules)

#include "cli11.hpp"
#include "tools/run_tool.hpp"
#include "tune/measured_table.hpp"
#include "tune/model_table.hpp"

int main(int argc, char** argv) {
  return collbench::run_tool("colltune", [&] {
    CLI::App app{"colltune: the decision table of algorithm::automatic from repeated collbench JSON runs",
                 "colltune"};
    collbench::tune::measured_options measured;
    app.add_option("--out", measured.out, "Where to write the table (JSON)")->required();
    app.add_option("--options", measured.options, "The collbench options of the runs, recorded in the table");
    app.add_option("--command", measured.command, "The command that made the runs, recorded in the table");
    collbench::tune::model_options model;
    app.add_option("--model", model.platforms,
                   "No runs: price every algorithm's schedule on these SimGrid platform files "
                   "(scripts/mpirun/platforms/; each process count on the smallest that fits it) and choose "
                   "the least priced")
        ->delimiter(',');
    app.add_option("--np", model.ranks, "--model: the process counts")->expected(1, -1);
    app.add_option("--min-bytes", model.min_bytes, "--model: the least size in bytes");
    app.add_option("--max-bytes", model.max_bytes, "--model: the largest size in bytes");
    app.add_option("--step", model.step, "--model: the factor between sizes")->check(CLI::Range(2, 1 << 20));
    app.add_option("-c,--collective", model.collectives, "--model: these collectives only")->delimiter(',');
    app.add_option("--threads", model.threads, "--model: threads pricing at once");
    app.add_option(
        "inputs", measured.inputs,
        "collbench --format json files: repeated runs, any process counts, any timings (at least one "
        "synchronized); none with --model");
    CLI11_PARSE(app, argc, argv);
    if (model.platforms.empty()) {
      collbench::tune::write_measured_table(measured);
      return 0;
    }
    if (model.ranks.empty()) model.ranks = {16, 32, 64, 128, 256, 512, 1024};
    model.out = measured.out;
    model.command = measured.command;
    collbench::tune::write_model_table(model);
    return 0;
  });
}
