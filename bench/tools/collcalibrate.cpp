// SPDX-License-Identifier: BSD-3-Clause
// collcalibrate: measures what SimGrid's SMPI prices in a point-to-point message between two ranks,
// and fits SMPI's parameters to it, so that a simulated machine of N such nodes behaves like the two
// measured (scripts/mpirun/calibrate.sh runs both; docs/simulation.md). The work is in bench/model/
// (calibrate_probe, calibrate_fit, calibrate_platform); this page parses the command line.
//
//   collcalibrate measure [-b 0] [-e 16M] [--step 2] [--time-per-size 0.2] [-o FILE]   (2 ranks)
//   collcalibrate fit MEASUREMENT.json --topology T [--cores-per-node K] [--on-node FILE] [-o FILE]
//   collcalibrate compare A.xml B.xml --sizes MEASUREMENT.json [--within 0.05]
//   collcalibrate price PLATFORM [--prop ID] [--bytes N]
#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "cli11.hpp"
#include "model/calibrate_platform.hpp"
#include "model/calibrate_probe.hpp"

namespace {

using namespace collbench;

struct options {
  std::size_t min_bytes = 0, max_bytes = std::size_t{16} << 20, step = 2;
  double budget = 0.2;
  std::string out = "calibration.json";
  std::string measurement_path, transfer = "stream";
  fit_options fit;
  std::string first_platform, second_platform;
  double within = 0.05;
  std::optional<std::string> prop;
  std::size_t bytes = 0;
};

CLI::App* add_measure(CLI::App& app, options& o) {
  auto* cmd = app.add_subcommand("measure", "measure between ranks 0 and 1 (launch with 2 ranks)");
  cmd->add_option("-b,--min-bytes", o.min_bytes, "smallest size (K, M suffixes)")
      ->transform(CLI::AsSizeValue(false))
      ->capture_default_str();
  cmd->add_option("-e,--max-bytes", o.max_bytes, "largest size")
      ->transform(CLI::AsSizeValue(false))
      ->capture_default_str();
  cmd->add_option("--step", o.step, "size factor between sizes")
      ->capture_default_str()
      ->check(CLI::Range(2, 1024));
  cmd->add_option("--time-per-size", o.budget, "seconds per size and measurement")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("-o,--output", o.out, "the measurement (JSON)")->capture_default_str();
  return cmd;
}

CLI::App* add_fit(CLI::App& app, options& o) {
  auto* cmd = app.add_subcommand("fit", "fit SMPI's parameters and write a platform of N nodes");
  cmd->add_option("measurement", o.measurement_path, "collcalibrate measure's JSON (two nodes)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--topology", o.fit.spec,
                  "fat-tree:N | fat-tree:KxM | torus:AxBxC | dragonfly:G,GL;C,CL;R,RL;N")
      ->required();
  cmd->add_option("--cores-per-node", o.fit.cores, "ranks per node")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--on-node", o.fit.on_node,
                  "a measurement between two ranks of one node (the loopback link)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--tolerance", o.fit.tolerance, "largest relative error of a fitted piece")
      ->capture_default_str()
      ->check(CLI::Range(0.001, 1.0));
  cmd->add_option("-o,--output", o.fit.out, "the SimGrid platform")->capture_default_str();
  cmd->add_option(
         "--rendezvous-transfer", o.transfer,
         "what a rendezvous transfer costs: the stream's time per message (a busy link; then an eager "
         "one slower streamed than alone, the stream's too, and the other eager ones an exchange's) or "
         "the ping-pong's")
      ->capture_default_str()
      ->check(CLI::IsMember({"stream", "ping-pong"}));
  return cmd;
}

CLI::App* add_compare(CLI::App& app, options& o) {
  auto* cmd = app.add_subcommand("compare",
                                 "set two platforms' parameters side by side at a measurement's "
                                 "sizes (exit 1 if any differ by more than --within)");
  cmd->add_option("first", o.first_platform, "a platform (collcalibrate fit's form)")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("second", o.second_platform, "another")->required()->check(CLI::ExistingFile);
  cmd->add_option("--sizes", o.measurement_path, "a measurement whose sizes to compare at")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("--within", o.within, "largest relative difference allowed")->capture_default_str();
  return cmd;
}

CLI::App* add_price(CLI::App& app, options& o) {
  auto* cmd = app.add_subcommand("price",
                                 "what SMPI prices one message at on a platform: os, or, ois, the transfer, "
                                 "a message of MPI_Send and of MPI_Isend (seconds); or one of its props");
  cmd->add_option("platform", o.first_platform, "a SimGrid platform")->required()->check(CLI::ExistingFile);
  cmd->add_option("--prop", o.prop, "print this prop's value instead (an error if the platform has none)");
  cmd->add_option("--bytes", o.bytes, "the message's size")
      ->transform(CLI::AsSizeValue(false))
      ->capture_default_str();
  return cmd;
}

int measure(int argc, char** argv, const options& o, const std::string& command) {
  if (o.max_bytes < std::max<std::size_t>(o.min_bytes, 1))
    throw std::runtime_error(
        fmt::format("--max-bytes {} is below --min-bytes {} (or 0)", o.max_bytes, o.min_bytes));
  if (o.max_bytes > static_cast<std::size_t>(INT32_MAX))
    throw std::runtime_error("--max-bytes must fit an int");
  return measure_two_nodes(argc, argv, sweep_sizes(o.min_bytes, o.max_bytes, o.step), o.budget, o.out,
                           command);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"collcalibrate: measure two nodes' point-to-point costs, fit SimGrid SMPI's parameters"};
  app.require_subcommand(1);
  // An option given twice takes the last: calibrate.sh's options after -- override its --quick.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  options o;
  auto* measure_cmd = add_measure(app, o);
  auto* fit_cmd = add_fit(app, o);
  auto* compare_cmd = add_compare(app, o);
  auto* price_cmd = add_price(app, o);
  CLI11_PARSE(app, argc, argv);
  try {
    if (*measure_cmd) return measure(argc, argv, o, command);
    if (*compare_cmd)
      return compare_platforms(o.first_platform, o.second_platform, o.measurement_path, o.within);
    if (*price_cmd) return price_on_platform(o.first_platform, o.prop, o.bytes);
    if (*fit_cmd) {
      o.fit.command = command, o.fit.rendezvous_streamed = o.transfer == "stream";
      return write_platform(o.measurement_path, o.fit);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "collcalibrate: {}\n", e.what());
    return 2;
  }
  return 2;
}
