// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// What colltune's tests share (tune_test.cpp, tune_agreement_test.cpp): rows and runs written by
// hand, a scratch directory, colltune run on them, the "fastest" section read back.

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <collectives/tuning.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "report/output.hpp"

using collectives::algorithm;
using collectives::collective;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

collbench::row make_row(const std::string& alg, std::size_t bytes, double us) {
  collbench::row r;
  r.collective = "allreduce";
  r.algorithm = alg;
  r.ranks = 2;
  r.bytes = bytes;
  r.count = bytes / 4;
  r.type = "float";
  r.median_us = r.min_us = r.max_us = us;
  r.iterations = 5;
  r.wrong = 0;
  return r;
}

// A run's header at p = 2, float sum, timed as `timing` says.
collbench::run_info test_info(const std::string& timing) {
  collbench::run_info info;
  info.version = "test";
  info.mpi_library = "test MPI";
  info.host = "test";
  info.date = "2026-11-26";
  info.ranks = 2;
  info.cores = 2;
  info.type = "float";
  info.op = "sum";
  info.timing = timing;
  return info;
}

struct scratch {
  fs::path dir = fs::temp_directory_path() / fmt::format("colltune-test-{}", getpid());
  scratch() { fs::create_directories(dir); }
  ~scratch() { fs::remove_all(dir); }
};

json colltune(const std::vector<std::string>& runs, const fs::path& out) {
  std::string command = fmt::format("{} --out {}", COLLTUNE_EXE, out.string());
  for (const std::string& r : runs) command += " " + r;
  const int status = std::system(command.c_str());
  BOOST_REQUIRE_MESSAGE(status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0, command << " failed");
  json table;
  std::ifstream(out) >> table;
  return table;
}

// The "fastest" section of allreduce at p = 2, by size: each point's verdict and the point.
std::map<std::size_t, std::pair<std::string, json>> fastest_points(const json& table) {
  std::map<std::size_t, std::pair<std::string, json>> seen;
  for (const json& r : table.at("fastest").at("allreduce").at("2"))
    for (const json& p : r.at("points"))
      seen[p.at("bytes").get<std::size_t>()] = {r.at("fastest").get<std::string>(), p};
  return seen;
}

// A run at p = 2 of `collective` with the given rows (label, bytes, µs), timed `mode`.
std::string write_rows(const fs::path& dir, const std::string& name, const std::string& mode,
                       const std::vector<std::tuple<std::string, std::size_t, double>>& rows,
                       const std::string& collective = "allreduce") {
  collbench::run_info info = test_info("by hand, " + mode);
  info.timing_mode = mode;
  std::vector<collbench::row> out;
  for (const auto& [label, bytes, us] : rows) {
    out.push_back(make_row(label, bytes, us));
    out.back().collective = collective;
    out.back().timing = mode;
  }
  const fs::path path = dir / (name + ".json");
  std::ofstream file(path);
  collbench::write_json(file, info, out);
  return path.string();
}

}  // namespace
