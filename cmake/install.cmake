# SPDX-License-Identifier: BSD-3-Clause
# cmake --install: headers, the library and a CMake package, so that another project can
# find_package(collectives CONFIG) and link collectives::collectives, or collectives::mpi (the
# drop-in libcollectives_mpi.so, to be linked before the MPI library).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(collectives_installed_targets collectives)
if(TARGET collectives_mpi)
  list(APPEND collectives_installed_targets collectives_mpi)
endif()
install(TARGETS ${collectives_installed_targets} EXPORT collectivesTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/collectives DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES src/dispatch/automatic-table.json DESTINATION ${CMAKE_INSTALL_DATADIR}/collectives)
install(EXPORT collectivesTargets NAMESPACE collectives:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/collectives)

get_target_property(collectives_library_type collectives TYPE)
configure_package_config_file(cmake/collectivesConfig.cmake.in
  ${PROJECT_BINARY_DIR}/collectivesConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/collectives)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/collectivesConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/collectivesConfig.cmake ${PROJECT_BINARY_DIR}/collectivesConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/collectives)

# pkg-config: lib/pkgconfig/collectives.pc, for Makefiles and other build systems
# (`mpicxx -std=c++20 main.cpp $(pkg-config --cflags --libs collectives)`).
#
# MPI goes in Requires, under the MPI library's own pkg-config name: the public headers include
# <mpi.h> and every call takes an MPI_Comm, so the application itself compiles and links against
# MPI (it calls MPI_Init, names MPI_COMM_WORLD). With mpicxx the flags repeat the wrapper's, which
# is harmless; with any other compiler driver they are what makes the build work. It is the C++
# module (ompi-cxx, like CMake's MPI::MPI_CXX): Open MPI's <mpi.h> compiled as C++ declares its
# C++ bindings, whose vtables need libmpi_cxx at link time, although the library never calls them.
#
# fmt is an implementation detail. Shared build: Requires.private (libcollectives.so records its
# own dependency on libfmt.so). Static build: only the archive is installed, so every link needs
# fmt, and a plain `pkg-config --libs` must say so: fmt goes in Requires. The C++ standard library
# comes from the C++ compiler driver that any user of these C++ headers links with.
include(CheckCXXSymbolExists)
set(CMAKE_REQUIRED_LIBRARIES MPI::MPI_CXX)
set(CMAKE_REQUIRED_QUIET ON)
check_cxx_symbol_exists(OPEN_MPI mpi.h COLLECTIVES_MPI_IS_OPEN_MPI)
check_cxx_symbol_exists(MPICH mpi.h COLLECTIVES_MPI_IS_MPICH)
unset(CMAKE_REQUIRED_LIBRARIES)
unset(CMAKE_REQUIRED_QUIET)
if(COLLECTIVES_MPI_IS_OPEN_MPI)
  set(collectives_mpi_pc ompi-cxx)
elseif(COLLECTIVES_MPI_IS_MPICH)
  set(collectives_mpi_pc mpich)
else()
  set(collectives_mpi_pc "")
endif()
# Name only what the pkg-config of this machine resolves: a missing module makes every
# `pkg-config collectives` fail, while leaving it out still works with the MPI compiler wrapper.
find_package(PkgConfig QUIET)
if(collectives_mpi_pc AND PKG_CONFIG_FOUND)
  pkg_check_modules(COLLECTIVES_PC_MPI QUIET ${collectives_mpi_pc})
  if(NOT COLLECTIVES_PC_MPI_FOUND)
    set(collectives_mpi_pc "")
  endif()
endif()
if(NOT collectives_mpi_pc)
  message(STATUS "collectives.pc: no pkg-config module for this MPI; its users need the MPI compiler wrapper")
endif()

if(collectives_library_type STREQUAL "SHARED_LIBRARY")
  set(pc_kind shared)
  set(pc_requires ${collectives_mpi_pc})
  set(pc_requires_private fmt)
else()
  set(pc_kind static)
  string(STRIP "${collectives_mpi_pc} fmt" pc_requires)
  set(pc_requires_private "")
endif()

# prefix relative to the .pc file's directory, unless the install dirs were given as absolute paths.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(pc_prefix "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH pc_up "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
  string(REGEX REPLACE "/$" "" pc_up "${pc_up}")
  set(pc_prefix "\${pcfiledir}/${pc_up}")
endif()
foreach(dir IN ITEMS LIBDIR INCLUDEDIR)
  string(TOLOWER ${dir} name)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(pc_${name} "${CMAKE_INSTALL_${dir}}")
  else()
    set(pc_${name} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
configure_file(cmake/collectives.pc.in ${PROJECT_BINARY_DIR}/collectives.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/collectives.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The launcher with this project's settings (scripts/mpirun/run) as collectives-run, and the
# shared-memory probe it compiles on first use, which the installed copy finds in
# share/collectives. collbench, colltune, the tuner (collectives-tune), collcalibrate and the
# calibrator (collectives-calibrate) are installed by bench/CMakeLists.txt when the benchmark is built.
install(PROGRAMS scripts/mpirun/run DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME collectives-run)
install(FILES scripts/mpirun/cma_probe.c DESTINATION ${CMAKE_INSTALL_DATADIR}/collectives)
