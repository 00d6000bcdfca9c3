// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The verdict rule per cell of a decision table: at one collective, process count and size, which
// algorithm automatic runs ("collectives") and whether the drop-in's `fastest` sends the call to
// vendor or to the library ("fastest"), each with the reason a point of the table shows.

#include <collectives/algorithm.hpp>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "tune/agreement.hpp"

namespace collbench::tune {

// The algorithms automatic may choose: the library's flat ones.
bool tabled(const std::string& label);

// gatherv, scatterv and alltoallv: automatic cannot choose by size (tuning.hpp), so no entry.
bool by_size(collectives::collective c);

// The barrier stays the built-in rule's choice, in both sections: every call timed as applications
// see calls (back to back, and as IMB times) starts from a barrier, and the order in which the
// ranks leave it decides who waits in the call after it. A table that changed the barrier would
// change what its own measurements of every other collective mean, and what IMB then measures
// (docs/tuning.md, "The barrier"). Its rows are still measured and shown.
extern const char* const why_barrier;
extern const char* const why_barrier_library;
// The ranges' reasons.
extern const char* const why_measured;
extern const char* const why_rule;
extern const char* const why_vendor_lesser;
extern const char* const why_library_lesser;

struct point {
  std::size_t bytes = 0;
  std::string chosen, by, runner_up, rule;
  bool by_rule = false;  // the built-in rule's choice, kept because nothing was ahead of it
  double chosen_us = 0, runner_up_us = 0, spread = 0;
  std::string contender;  // the algorithm set against the rule's choice: the chosen one, or the closest
  agreement against_rule;
};

// One size of "collectives": b is the built-in rule's choice (automatic_choice with no table); an
// algorithm that is ahead of it replaces it (the one whose worst ratio is least, or the previous
// size's choice if its worst ratio is within 3% of that: fewer, wider ranges). Elsewhere the rule's
// choice stays: the built-in rule decides. `algs`: each algorithm's least median over the
// synchronized runs; `obs`: every run of every timing at this size; `keep_rule`: the barrier.
point choose(std::size_t bytes, const std::map<std::string, sample>& algs, const observations& obs,
             const std::string& rule, const std::string& previous, bool keep_rule);

// The point as the table shows it: what the table showed before (the chosen algorithm's least
// median over the synchronized runs with their spread, the runner-up and the margin) and "by".
json point_json(const point& p);

// The least medians of both sides in each timing, and the first timing (imb, back-to-back,
// synchronized) that measured both: the times a point shows.
struct shown {
  std::string timing;
  sample library, vendor;
};
std::optional<shown> times_to_show(const observations& obs, const side& library, const side& vendor);

// The "fastest" verdict from g, vendor ÷ library: the side ahead of the other in every run and
// timing by more than the noise. Where neither is, `fastest` must still send the call one way, and a
// verdict kept from one run would not survive the next: it takes the side that loses less where it
// is wrong, the one whose worst timing is better (vendor where the largest of the timings' median
// ratios vendor ÷ library is below the largest library ÷ vendor; on a tie the library, as
// automatic). Such a size may go either way in another tuning run, but only between two sides that
// each timing puts close, or one timing puts each ahead.
std::pair<bool, const char*> vendor_or_library(const agreement& g);

// One size of the "fastest" section: vendor ÷ library decided by vendor_or_library.
struct verdict {
  bool vendor = false;
  std::string why;
  json point;
};

// vendor against the library's side (`library`: the rows that ran `chosen`) at one size.
verdict versus_vendor(std::size_t bytes, const std::string& chosen, const observations& obs,
                      const side& library);

}  // namespace collbench::tune
