#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# scripts/mpirun/run's shared-memory path: the probe (silent, cached, right where cross-memory
# attach is forbidden), the override COLLECTIVES_SHM_COPY=single|double, and the path Open MPI
# really takes, read from inside the MPI job by collbench through MPI_T (its JSON's shm_copy).
# Usage: shm_copy_test.sh <collbench> <deny_cma> <scratch-dir>
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
run=$root/scripts/mpirun/run
collbench=$1
deny=$2
scratch=$3/shm_copy
rm -rf "$scratch"
mkdir -p "$scratch"
# A cache of its own: the probe is compiled and run here, whatever the machine's cache holds.
export XDG_CACHE_HOME=$scratch/cache
unset COLLECTIVES_SHM_COPY COLLECTIVES_SHM_COPY_VERBOSE OMPI_MCA_btl_vader_single_copy_mechanism

fail() { echo "shm_copy_test: $*" >&2; exit 1; }

# The path in force as the MPI library reports it: "path mechanism" from collbench's JSON.
path_in_job() {
  local json=$scratch/job.json
  "$@" -n 2 "$collbench" -q -c allreduce -a ring -b 1M -e 1M -n 3 -w 1 --format json --output "$json"
  # Only collbench.shm_copy has these keys (nlohmann's dump: one per line).
  local path mechanism
  path=$(sed -n 's/^ *"path": "\([a-z]*\)".*/\1/p' "$json")
  mechanism=$(sed -n 's/^ *"mechanism": "\([a-z]*\)".*/\1/p' "$json")
  echo "$path $mechanism"
}

# 1. The probe answers, prints nothing unless asked, and caches its verdict.
best=$("$run" --which 2> "$scratch/stderr")
[[ $best == single || $best == double ]] || fail "run --which printed '$best'"
[[ ! -s $scratch/stderr ]] || fail "run printed on stderr without being asked: $(< "$scratch/stderr")"
verdicts=("$XDG_CACHE_HOME"/collectives/shm-copy-*)
((${#verdicts[@]} == 1)) && [[ -f ${verdicts[0]} ]] || fail "no single cached verdict: ${verdicts[*]}"
[[ $(head -n1 "${verdicts[0]}") == "$best" ]] || fail "the cached verdict is not '$best'"
# The cache is what a second launch reads: a changed verdict is followed (then put back).
other=single
[[ $best == single ]] && other=double
cp "${verdicts[0]}" "$scratch/verdict"
printf '%s\nedited by the test\n' "$other" > "${verdicts[0]}"
[[ $("$run" --which) == "$other" ]] || fail "a second launch did not read the cached verdict"
cp "$scratch/verdict" "${verdicts[0]}"
COLLECTIVES_SHM_COPY_VERBOSE=1 "$run" --which 2> "$scratch/stderr" > /dev/null
grep -q "^run: shared-memory copy: $best (.*cached in" "$scratch/stderr" ||
  fail "COLLECTIVES_SHM_COPY_VERBOSE=1 did not say where the choice came from: $(< "$scratch/stderr")"

# 2. Where cross-memory attach is forbidden (a seccomp filter, as in a container), the probe says
# two copies, and an MPI job launched there works on two copies.
[[ $("$deny" "$run" --which) == double ]] || fail "with process_vm_readv forbidden, run did not choose double"
[[ $(path_in_job "$deny" "$run") == "double none" ]] || fail "with process_vm_readv forbidden, the job did not run on two copies"

# 3. The override forces each path, as Open MPI reports it from inside the job; by default the job
# takes the probe's choice.
[[ $(COLLECTIVES_SHM_COPY=double path_in_job "$run") == "double none" ]] || fail "COLLECTIVES_SHM_COPY=double"
if [[ $best == single ]]; then
  [[ $(COLLECTIVES_SHM_COPY=single path_in_job "$run") == "single cma" ]] || fail "COLLECTIVES_SHM_COPY=single"
  [[ $(OMPI_MCA_btl_vader_single_copy_mechanism=none COLLECTIVES_SHM_COPY=single "$run" --which) == single ]] ||
    fail "COLLECTIVES_SHM_COPY=single did not win over an inherited OMPI_MCA_btl_vader_single_copy_mechanism=none"
else
  echo "shm_copy_test: cross-memory attach is forbidden on this machine: single copy not tried"
fi
[[ $(path_in_job "$run" | cut -d' ' -f1) == "$best" ]] || fail "by default the job does not run on '$best'"

# 4. A bad override stops before launching, with a message.
if COLLECTIVES_SHM_COPY=triple "$run" --which > /dev/null 2> "$scratch/stderr"; then fail "COLLECTIVES_SHM_COPY=triple accepted"; fi
grep -q "single or double" "$scratch/stderr" || fail "COLLECTIVES_SHM_COPY=triple: no message"
echo "shm_copy_test: ok (this machine: $best)"
