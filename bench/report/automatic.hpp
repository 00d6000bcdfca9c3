// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// collreport's section on automatic: how close it comes to the library's fastest algorithm,
// and, with a decision table, how fast the machine ran against when it was tuned.

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <tuple>

#include "report/tables.hpp"

namespace collbench::report {

// The decision table's time of the algorithm it chose, per (collective, np, bytes): the tuning
// runs' median (colltune's `median_us` of every point, tune/verdict.cpp).
using tuned_times = std::map<std::tuple<std::string, int, std::size_t>, double>;

tuned_times read_tuned_times(const nlohmann::json& table);

// automatic against the library's fastest flat algorithm (automatic never chooses vendor or
// hierarchical; on one host hierarchical's rows repeat ring's or binomial's), size by size: how
// often it is within 5%, its worst ratio and where, and the geometric mean of its ratios; per
// collective and np, then over every collective per np. With a decision table, also how fast the
// machine ran here against when it was tuned: a table is right for the speed it measured, and a
// VM that switches between speeds can tune in one and compare in the other.
void write_automatic(std::ostream& md, const std::map<std::string, std::vector<table>>& by_collective,
                     const tuned_times& tuned);

}  // namespace collbench::report
