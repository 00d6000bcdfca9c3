# SPDX-License-Identifier: BSD-3-Clause
# collcalibrate (tools/collcalibrate.cpp over model/calibrate_*.cpp): two nodes' point-to-point
# costs, and SMPI's parameters fitted to them (scripts/mpirun/calibrate.sh). MPI and header-only
# libraries alone, so that the SMPI test run, which builds no benchmark, builds it for its fitting
# test (tests/CMakeLists.txt); the bench includes this file too, and collbench_core links
# collcalibrate_platforms for the one SimGrid platform reader (model/simgrid_file.cpp).
if(NOT TARGET collcalibrate)
  find_package(CLI11 CONFIG REQUIRED)
  find_package(nlohmann_json 3 CONFIG REQUIRED)
  add_library(collcalibrate_platforms STATIC
    ${CMAKE_CURRENT_LIST_DIR}/model/calibrate_fit.cpp ${CMAKE_CURRENT_LIST_DIR}/model/calibrate_measurement.cpp
    ${CMAKE_CURRENT_LIST_DIR}/model/calibrate_platform.cpp ${CMAKE_CURRENT_LIST_DIR}/model/calibrate_probe.cpp
    ${CMAKE_CURRENT_LIST_DIR}/model/simgrid_file.cpp)
  target_link_libraries(collcalibrate_platforms PUBLIC MPI::MPI_CXX fmt::fmt nlohmann_json::nlohmann_json)
  target_include_directories(collcalibrate_platforms PUBLIC ${CMAKE_CURRENT_LIST_DIR})
  target_compile_features(collcalibrate_platforms PUBLIC cxx_std_20)
  target_compile_options(collcalibrate_platforms PRIVATE -Wall -Wextra -Wpedantic)
  set_target_properties(collcalibrate_platforms PROPERTIES CXX_EXTENSIONS OFF)

  add_executable(collcalibrate ${CMAKE_CURRENT_LIST_DIR}/tools/collcalibrate.cpp)
  target_link_libraries(collcalibrate PRIVATE collcalibrate_platforms CLI11::CLI11)
  # -O1 in optimised builds: this page parses the command line; what it times is the probe's.
  target_compile_options(collcalibrate PRIVATE -Wall -Wextra -Wpedantic
                                               $<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:-O1>)
  set_target_properties(collcalibrate PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bench CXX_EXTENSIONS OFF)
endif()
