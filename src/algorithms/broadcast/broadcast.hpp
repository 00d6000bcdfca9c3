// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// The broadcast algorithms: one function per file in this folder, listed in the table below that
// dispatch, algorithms_for() and keeps_rank_order() read.

#include "core/registry.hpp"

namespace collectives::detail {

void broadcast_vendor(const call& c);
void broadcast_naive(const call& c);
void broadcast_binomial(const call& c);
void broadcast_pipeline(const call& c);
void broadcast_scatter_allgather(const call& c);
void broadcast_hierarchical(const call& c);
void broadcast_pipelined_tree(const call& c);
void broadcast_scatter_recursive_doubling(const call& c);

// Vendor first: it is the baseline row of the benchmark. keeps_rank_order: correct for
// non-commutative ops (MPI applies every op in rank order, so vendor keeps it).
inline constexpr algorithm_entry broadcast_algorithms[] = {
    {collective::broadcast, algorithm::vendor, &broadcast_vendor, true},
    {collective::broadcast, algorithm::naive, &broadcast_naive, true},
    {collective::broadcast, algorithm::binomial, &broadcast_binomial, true},
    {collective::broadcast, algorithm::pipeline, &broadcast_pipeline, true},
    {collective::broadcast, algorithm::scatter_allgather, &broadcast_scatter_allgather, true},
    {collective::broadcast, algorithm::scatter_recursive_doubling, &broadcast_scatter_recursive_doubling, true},
    {collective::broadcast, algorithm::pipelined_tree, &broadcast_pipelined_tree, true},
    {collective::broadcast, algorithm::hierarchical, &broadcast_hierarchical, true},
};

}  // namespace collectives::detail
