// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <stdexcept>
#include <string>

#include "collectives/export.hpp"

namespace collectives {

/// Thrown for bad arguments (before any message is sent) and for MPI failures (carrying
/// MPI_Error_string's text). The message names the collective, the argument and the rank.
class COLLECTIVES_EXPORT error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace collectives
