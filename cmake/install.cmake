# cmake --install: headers, the library and a CMake package, so that another project can
# find_package(collectives CONFIG) and link collectives::collectives, or collectives::mpi (the
# drop-in libcollectives_mpi.so, to be linked before the MPI library).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS collectives collectives_mpi EXPORT collectivesTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/collectives DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT collectivesTargets NAMESPACE collectives:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/collectives)

configure_package_config_file(cmake/collectivesConfig.cmake.in
  ${PROJECT_BINARY_DIR}/collectivesConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/collectives)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/collectivesConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/collectivesConfig.cmake ${PROJECT_BINARY_DIR}/collectivesConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/collectives)
