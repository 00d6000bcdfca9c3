// SPDX-License-Identifier: BSD-3-Clause
// trace_merge: the per-rank trace files that COLLECTIVES_TRACE=<prefix> (or
// collectives::trace_to) writes, <prefix>.<rank>.json, merged into one Chrome trace-event file
// with every rank's clock aligned on rank 0's (see bench/report/trace_view.hpp for how). Open the result
// in https://ui.perfetto.dev or chrome://tracing.
//
// Usage: trace_merge [-o merged.json] <prefix | file.json ...>

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>

#include "cli11.hpp"
#include "report/trace_view.hpp"

int main(int argc, char** argv) {
  CLI::App app{"trace_merge: merges the per-rank trace files <prefix>.<rank>.json into one, clocks aligned"};
  std::vector<std::string> inputs;
  std::string output = "-";
  app.add_option("inputs", inputs, "A prefix (as given to COLLECTIVES_TRACE) or the files themselves")
      ->required();
  app.add_option("-o,--output", output, "The merged file; - for stdout")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  std::vector<std::string> files;
  for (const std::string& in : inputs) {
    if (in.ends_with(".json")) {
      files.push_back(in);
      continue;
    }
    // <prefix>.<rank>.json, in rank order.
    const std::filesystem::path prefix(in);
    const std::filesystem::path dir = prefix.has_parent_path() ? prefix.parent_path() : ".";
    const std::regex name(
        std::regex_replace(prefix.filename().string(), std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
        R"(\.(\d+)\.json)");
    std::vector<std::pair<int, std::string>> found;
    if (std::filesystem::is_directory(dir))
      for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        std::smatch m;
        const std::string file = entry.path().filename().string();
        if (std::regex_match(file, m, name)) found.push_back({std::stoi(m[1]), entry.path().string()});
      }
    if (found.empty()) {
      fmt::print(stderr, "trace_merge: no file {}.<rank>.json\n", in);
      return 1;
    }
    std::sort(found.begin(), found.end());
    for (const auto& [rank, file] : found) files.push_back(file);
  }
  std::vector<nlohmann::json> docs;
  for (const std::string& file : files) {
    std::ifstream is(file);
    try {
      docs.push_back(nlohmann::json::parse(is));
    } catch (const std::exception& e) {
      fmt::print(stderr, "trace_merge: {}: {}\n", file, e.what());
      return 1;
    }
  }
  std::vector<std::string> warnings;
  const nlohmann::json merged = collbench::merge_traces(docs, warnings);
  for (const std::string& w : warnings) fmt::print(stderr, "trace_merge: {}\n", w);
  if (output == "-") {
    std::cout << merged.dump() << '\n';
  } else {
    std::ofstream os(output);
    os << merged.dump() << '\n';
    if (!os) {
      fmt::print(stderr, "trace_merge: cannot write '{}'\n", output);
      return 1;
    }
    fmt::print(stderr, "trace_merge: {} ranks, {} events → {}\n", docs.size(), merged["traceEvents"].size(),
               output);
  }
  return 0;
}
