# SPDX-License-Identifier: BSD-3-Clause
# collcalibrate (tools/collcalibrate.cpp): two nodes' point-to-point costs, and SMPI's parameters fitted to them
# (scripts/mpirun/calibrate.sh). MPI and header-only libraries alone, so that the SMPI test run,
# which builds no benchmark, builds it for its fitting test (tests/CMakeLists.txt); the bench
# includes this file too.
if(NOT TARGET collcalibrate)
  find_package(CLI11 CONFIG REQUIRED)
  add_executable(collcalibrate ${CMAKE_CURRENT_LIST_DIR}/tools/collcalibrate.cpp)
  target_link_libraries(collcalibrate PRIVATE MPI::MPI_CXX fmt::fmt CLI11::CLI11 nlohmann_json::nlohmann_json)
  target_include_directories(collcalibrate PRIVATE ${CMAKE_CURRENT_LIST_DIR})
  target_compile_features(collcalibrate PRIVATE cxx_std_20)
  target_compile_options(collcalibrate PRIVATE -Wall -Wextra -Wpedantic)
  set_target_properties(collcalibrate PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bench CXX_EXTENSIONS OFF)
endif()
