// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// What every decision table colltune writes shares (docs/tuning.md's schema): the ranges of a
// collective at one process count, the date, the size key, and the table written and loaded back.

#include <cstddef>
#include <string>
#include <vector>

#include "tune/agreement.hpp"

namespace collbench::tune {

// Consecutive sizes with one value of `field` and one reason form a range, which says why; a
// boundary lies at the geometric middle of the two measured sizes either side. The first range
// starts at 0, the last has no end.
json ranges_json(const std::vector<std::size_t>& bytes, const std::vector<std::string>& values,
                 const std::vector<std::string>& whys, const char* field, const std::vector<json>& points);

std::string now_utc();

// The provenance's "size_key": what a size counts.
extern const char* const size_key;

// Writes the table to `path`, prints `summary` on stderr, and loads the table back: what the
// library will load must load (the table checks itself).
void write_checked(const std::string& path, const json& table, const std::string& summary);

}  // namespace collbench::tune
