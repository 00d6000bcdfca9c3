# collectives_add_mpi_test(<name> SOURCES <files> [RANKS <p>...] [TIMEOUT <s>] [LABELS <l>...]
#                          [LIBRARIES <libs>...] [NO_SYNCHRONOUS])
#
# Builds one Boost.Test executable and registers it with CTest once per process count, as
# <name>.<p>ranks, launched through scripts/mpirun/run (the same settings a person uses by
# hand). Each is registered a second time as <name>.<p>ranks.ssend with every library send made
# synchronous (MPI_Ssend), proving no schedule relies on MPI's eager buffering.
# Labels: the given ones, plus "mpi", "np<p>" and "ssend" or "standard".
# The process counts: powers of two and not, up to four times the cores of a small machine with
# Open MPI, whose idle ranks yield their core; up to 4 with MPICH, whose idle ranks spin, so that
# more ranks than cores crawl (scripts/test.sh runs a subset at 4 with MPICH).
if(COLLECTIVES_MPI STREQUAL "mpich")
  set(collectives_default_ranks 1 2 3 4)
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
  target_link_libraries(${name} PRIVATE collectives_test_support ${arg_LIBRARIES})

  set(modes standard)
  if(NOT arg_NO_SYNCHRONOUS)
    list(APPEND modes ssend)
  endif()
  foreach(p IN LISTS arg_RANKS)
    foreach(mode IN LISTS modes)
      set(test ${name}.${p}ranks)
      set(env "")
      if(mode STREQUAL "ssend")
        set(test ${test}.ssend)
        set(env COLLECTIVES_SYNCHRONOUS_SENDS=1)
      endif()
      add_test(NAME ${test}
               COMMAND ${PROJECT_SOURCE_DIR}/scripts/mpirun/run -n ${p} $<TARGET_FILE:${name}>)
      set_tests_properties(${test} PROPERTIES
        TIMEOUT ${arg_TIMEOUT}
        LABELS "mpi;np${p};${mode};${arg_LABELS}"
        ENVIRONMENT "${env}"
        PROCESSORS ${p})
    endforeach()
  endforeach()
endfunction()
