#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Prints a decision table (docs/tuning.md) whose "fastest" section sends COLLECTIVE at NP processes
# to the MPI library at every size, and which chooses nothing else: with
# COLLECTIVES_ALGORITHMS=<collective>=fastest the drop-in then forwards each such call by the
# table's verdict, the path bench/dropin_overhead.sh and bench/dropin_instructions.sh measure.
# Usage: bench/fastest_vendor_table.sh COLLECTIVE NP > table.json
set -euo pipefail
usage="usage: bench/fastest_vendor_table.sh COLLECTIVE NP"
collective=${1:?$usage} np=${2:?$usage}
printf '{"format": "collectives-tuning/1", "provenance": {"host": "bench/fastest_vendor_table.sh"},
 "collectives": {},
 "fastest": {"%s": {"%s": [{"min_bytes": 0, "max_bytes": null, "fastest": "vendor"}]}}}\n' "$collective" "$np"
