// SPDX-License-Identifier: BSD-3-Clause
// What every decision table colltune writes shares (table_json.hpp).

#include "tune/table_json.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <collectives/tuning.hpp>
#include <ctime>
#include <fstream>

namespace collbench::tune {

json ranges_json(const std::vector<std::size_t>& bytes, const std::vector<std::string>& values,
                 const std::vector<std::string>& whys, const char* field, const std::vector<json>& points) {
  json out = json::array();
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i == 0 || values[i] != values[i - 1] || whys[i] != whys[i - 1]) {
      const std::size_t from = i == 0 ? 0
                                      : static_cast<std::size_t>(std::sqrt(static_cast<double>(bytes[i - 1]) *
                                                                           static_cast<double>(bytes[i]))) +
                                            1;
      if (!out.empty()) out.back()["max_bytes"] = from - 1;
      out.push_back({{"min_bytes", from},
                     {"max_bytes", nullptr},
                     {field, values[i]},
                     {"why", whys[i]},
                     {"points", json::array()}});
    }
    out.back()["points"].push_back(points[i]);
  }
  return out;
}

std::string now_utc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

const char* const size_key =
    "bytes as collbench counts them: the vector (broadcast, reduce, allreduce, scan, exscan), the whole "
    "p-block array (scatter, gather, allgather, reduce_scatter, alltoall), the whole result or vector "
    "(allgatherv, reduce_scatterv), 0 (barrier)";

void write_checked(const std::string& path, const json& table, const std::string& summary) {
  std::ofstream(path) << table.dump(1) << '\n';
  fmt::print(stderr, "{}", summary);
  collectives::load_tuning(path);
  collectives::clear_tuning();
}

}  // namespace collbench::tune
