// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// One algorithm of one collective, described once: the row of its family's table
// (src/algorithms/<collective>/<collective>.hpp) from which the registry (dispatch/registry.hpp), the
// names, algorithms_for(), the properties the checks and automatic read, the benchmark's textbook
// line and every list written for people (tests/lists.cpp prints and checks them) all follow.

#include <string_view>

#include "collectives/algorithm.hpp"
#include "kit/call.hpp"

namespace collectives::detail {

struct algorithm_descriptor {
  collective coll;
  algorithm alg;
  /// to_string(alg): the file's name, the function's suffix, the benchmark's row; the same in every
  /// collective's table (names.cpp checks it at compile time).
  std::string_view name;
  algorithm_fn run;
  /// Correct for non-commutative ops: every reduction in rank order (MPI's own collectives keep it,
  /// so vendor does). True for the collectives that do not reduce.
  bool keeps_rank_order = true;
  /// Cuts the vector into p (or p′) parts, some empty when there are fewer elements than ranks:
  /// automatic's table, measured at whole vectors, does not speak for such calls.
  bool cuts_vector = false;
  /// Steps within each host and across hosts (kit/hosts.hpp): never automatic's choice, and the
  /// schedule checks run it on several host layouts.
  bool node_aware = false;
  /// The radix-k algorithms: the radix a call runs at when it names none (kit/call.hpp's radix);
  /// 0 for the algorithms that take no radix.
  int default_radix = 0;
  /// The radix must be a power of two (the exchanges that pair ranks by XOR).
  bool radix_power_of_two = false;
  /// What it is, in a few words, where the name does not say it (docs/algorithms.md's table).
  std::string_view note = {};
  /// The textbook cost (a concurrent send-receive per exchange step) in α, β, γ, n bytes as
  /// docs/algorithms.md defines them; empty for vendor.
  std::string_view cost = {};
};

}  // namespace collectives::detail
