// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// colltune --model: the decision table from priced schedules instead of runs (bench/model/price.hpp).
// At every process count and size, every algorithm automatic may choose is recorded and priced on
// the platform, and the least priced is chosen. No vendor section: the MPI library's collectives
// have no schedule here.

#include <cstddef>
#include <string>
#include <vector>

namespace collbench::tune {

struct model_options {
  std::vector<std::string> platforms;
  std::string out, command;
  std::vector<int> ranks;
  std::size_t min_bytes = 8, max_bytes = std::size_t{16} << 20, step = 2;
  std::vector<std::string> collectives;
  unsigned threads = 2;
};

// Writes the table to o.out and loads it back.
void write_model_table(const model_options& o);

}  // namespace collbench::tune
