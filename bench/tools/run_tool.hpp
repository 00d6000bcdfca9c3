// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The mains' one error handler (colltune, collreport, collsimcheck): what a tool's run throws is
// printed as "<tool>: <what>" on stderr, and the tool exits with `status`.

#include <fmt/format.h>

#include <exception>

namespace collbench {

template <class F>
int run_tool(const char* tool, F&& run, int status = 1) {
  try {
    return run();
  } catch (const std::exception& e) {
    fmt::print(stderr, "{}: {}\n", tool, e.what());
    return status;
  }
}

}  // namespace collbench
