// SPDX-License-Identifier: BSD-3-Clause
// collsimcheck: simulated collbench runs against real ones (bench/report/simcheck.hpp), run by
// scripts/mpirun/simulation-check.sh.
//
// Usage: collsimcheck [--vendor-row vendor:ompi41] [--margin 0.05] [-o FILE]
//                     LAYOUT=REAL.json[+REAL2.json…],SIMULATED.json ...

#include "cli11.hpp"
#include "report/simcheck.hpp"
#include "tools/run_tool.hpp"

int main(int argc, char** argv) {
  CLI::App app{"collsimcheck: simulated collbench runs against real ones"};
  collbench::report::simcheck_options o;
  app.add_option("runs", o.pairs, "LAYOUT=REAL.json[+REAL2.json…],SIMULATED.json")->required();
  app.add_option("--vendor-row", o.vendor_row, "the simulated row standing for the real vendor row")
      ->capture_default_str();
  app.add_option("--margin", o.margin, "the simulated fastest agrees when within this of the real fastest")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("-o,--output", o.out, "the report (default: stdout)");
  CLI11_PARSE(app, argc, argv);
  return collbench::run_tool(
      "collsimcheck",
      [&] {
        collbench::report::write_simcheck(o);
        return 0;
      },
      2);
}
