// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The barrier algorithms: one function per file in this folder, listed in the table below that
// dispatch, algorithms_for() and keeps_rank_order() read. A barrier moves no data: every message
// is empty, and a rank may leave only once every rank has entered.

#include "core/registry.hpp"

namespace collectives::detail {

void barrier_vendor(const call& c);
void barrier_naive(const call& c);
void barrier_binomial(const call& c);
void barrier_dissemination(const call& c);
void barrier_recursive_doubling(const call& c);

// Vendor first: it is the baseline row of the benchmark. No reduction, so every algorithm
// "keeps rank order".
inline constexpr algorithm_entry barrier_algorithms[] = {
    {collective::barrier, algorithm::vendor, &barrier_vendor, true},
    {collective::barrier, algorithm::naive, &barrier_naive, true},
    {collective::barrier, algorithm::binomial, &barrier_binomial, true},
    {collective::barrier, algorithm::dissemination, &barrier_dissemination, true},
    {collective::barrier, algorithm::recursive_doubling, &barrier_recursive_doubling, true},
};

}  // namespace collectives::detail
