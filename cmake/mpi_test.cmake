# SPDX-License-Identifier: BSD-3-Clause
# collectives_add_mpi_test(<name> SOURCES <files> [RANKS <p>...] [TIMEOUT <s>] [LABELS <l>...]
#                          [LIBRARIES <libs>...] [NO_SYNCHRONOUS])
#
# Builds one Boost.Test executable and registers it with CTest once per process count, as
# <name>.<p>ranks, launched through scripts/mpirun/run (the same settings a person uses by
# hand). Each is registered a second time as <name>.<p>ranks.ssend with every library send made
# synchronous (MPI_Ssend), proving no schedule relies on MPI's eager buffering.
# Labels: the given ones, plus "mpi", "np<p>" and "ssend" or "standard" (and "smpi" in an SMPI
# build, whose process counts are 17, 64 and 100 simulated ranks).
# The process counts: powers of two and not, up to four times the cores of a small machine with
# Open MPI, whose idle ranks yield their core; up to 4 with MPICH, whose idle ranks spin, so that
# more ranks than cores crawl (scripts/test.sh runs a subset at 4 with MPICH).
if(COLLECTIVES_MPI STREQUAL "mpich")
  set(collectives_default_ranks 1 2 3 4)
elseif(COLLECTIVES_MPI STREQUAL "smpi")
  set(collectives_default_ranks 17 64 100)
else()
  set(collectives_default_ranks 1 2 3 4 5 7 8)
endif()
set(COLLECTIVES_TEST_RANKS ${collectives_default_ranks} CACHE STRING "Process counts every MPI test runs at")

function(collectives_add_mpi_test name)
  cmake_parse_arguments(arg "NO_SYNCHRONOUS" "TIMEOUT" "SOURCES;RANKS;LABELS;LIBRARIES" ${ARGN})
  if(NOT arg_RANKS)
    set(arg_RANKS ${COLLECTIVES_TEST_RANKS})
  endif()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 300)
  endif()
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE collectives_test_main collectives_test_support ${arg_LIBRARIES})
  target_precompile_headers(${name} REUSE_FROM collectives_test_support)

  set(modes standard)
  if(NOT arg_NO_SYNCHRONOUS)
    list(APPEND modes ssend)
  endif()
  foreach(p IN LISTS arg_RANKS)
    foreach(mode IN LISTS modes)
      # Simulated, synchronous sends at 17 and 64 ranks only (a power of two and not): at 100 they
      # would take a quarter of CI's simulation time for no schedule those two do not run.
      if(COLLECTIVES_MPI STREQUAL "smpi" AND mode STREQUAL "ssend" AND p GREATER 64)
        continue()
      endif()
      set(test ${name}.${p}ranks)
      set(env "")
      set(labels "")
      set(processors ${p})
      set(launch "")
      if(mode STREQUAL "ssend")
        set(test ${test}.ssend)
        set(env COLLECTIVES_SYNCHRONOUS_SENDS=1)
      endif()
      if(COLLECTIVES_MPI STREQUAL "smpi")
        # The scale matrix (tests/support/checks.hpp); the synchronous sends at the fewest ranks
        # with one system thread per rank, everything else with SimGrid's default contexts
        # (all ranks on one thread): the library's thread_local caches must be right under both,
        # and threads take several times as long to simulate the same calls.
        # One simulation is one process on one core, however many ranks it models.
        set(labels smpi)
        set(processors 1)
        # The vendor reference's alltoall: SMPI 3.32's MPICH selection hands MPI_Pack a null
        # buffer for empty blocks and aborts; its ring is exact, and simulates in a tenth of the
        # time of its linear one, whose p² messages in flight at once the network model shares out
        # at every event (alltoall_test at 100 ranks: 32 s against over 300).
        set(launch --cfg=smpi/alltoall:ring)
        list(APPEND env COLLECTIVES_TEST_MATRIX=scale)
        list(GET arg_RANKS 0 fewest)
        if(mode STREQUAL "ssend" AND p EQUAL fewest)
          list(APPEND env COLLECTIVES_SMPI_CONTEXTS=thread)
        endif()
      endif()
      add_test(NAME ${test}
               COMMAND ${PROJECT_SOURCE_DIR}/scripts/mpirun/run -n ${p} ${launch} $<TARGET_FILE:${name}>)
      set_tests_properties(${test} PROPERTIES
        TIMEOUT ${arg_TIMEOUT}
        LABELS "mpi;np${p};${mode};${labels};${arg_LABELS}"
        ENVIRONMENT "${env}"
        PROCESSORS ${processors})
    endforeach()
  endforeach()
endfunction()
