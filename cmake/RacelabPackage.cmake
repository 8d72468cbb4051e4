# The Debian package, made by CPack from the same install as
# `cmake --install` (cmake/RacelabInstall.cmake): the racelab command, the
# core's libraries and headers, the CMake package, the subjects' sources the
# demo shows, the docs and the manual page. Built from the tsan preset:
#   cpack --config build/tsan/CPackConfig.cmake -B build/tsan/package
# gives build/tsan/package/racelab_<version>_amd64.deb, installed with
#   apt install ./racelab_<version>_amd64.deb
# on Debian 12 (apt installs what it declares it needs). ci/package.sh builds,
# installs, uses and removes it. docs/implementer-guide.md, "Installing".
# Included from the top-level CMakeLists.txt after RacelabInstall.cmake.

# What the demo shows: the catalog's subjects, as the source folder has them.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/subjects/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/racelab/subjects
        FILES_MATCHING PATTERN "*.cc" PATTERN "*.h")
install(FILES ${PROJECT_SOURCE_DIR}/README.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/
        DESTINATION ${CMAKE_INSTALL_DOCDIR}
        FILES_MATCHING PATTERN "*.md")

# The manual page, compressed as Debian's policy has it.
find_program(RACELAB_GZIP gzip REQUIRED)
set(racelab_man ${CMAKE_BINARY_DIR}/racelab-package/racelab.1.gz)
add_custom_command(
  OUTPUT ${racelab_man}
  COMMAND ${RACELAB_GZIP} -9n -c ${PROJECT_SOURCE_DIR}/docs/racelab.1 > ${racelab_man}
  DEPENDS ${PROJECT_SOURCE_DIR}/docs/racelab.1
  COMMENT "racelab.1.gz")
add_custom_target(racelab_man ALL DEPENDS ${racelab_man})
install(FILES ${racelab_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME racelab)
set(CPACK_PACKAGE_VENDOR racelab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "race-detection test harness and fuzzing suite for concurrent C++ code")
set(CPACK_PACKAGE_DESCRIPTION
    "racelab runs concurrent C++ code under ThreadSanitizer and drives it through controlled, deterministic and replayable interleavings: whole programs, each test of a GoogleTest or Catch2 binary, and stores plugged in through its kit. A clean dfs search of every interleaving that matters is reported as verified. This package holds the racelab command, its ThreadSanitizer-built libraries and headers, and the CMake package (find_package(racelab)).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "racelab maintainers <maintainers@racelab.invalid>")
# The shared libraries the racelab command loads (Abseil, pugixml, the C++
# runtime), read from the binaries by dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# What a user's build against the package needs: the clang the libraries
# were built with and its sanitizer runtimes, llvm-symbolizer (file:line in
# findings), and the packages racelabConfig.cmake finds.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "clang-14, libclang-rt-14-dev, llvm-14, cmake (>= 3.25), libabsl-dev, libboost-context-dev, nlohmann-json3-dev, libpugixml-dev")
# The test frameworks of racelab/gtest.h, racelab/catch2.h and
# racelab_add_store_tests(); gdb for the stacks of a hung program's threads.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgtest-dev, libgmock-dev, catch2, ninja-build, gdb")
# Faster than xz on 120 MB of debug information, and every dpkg reads it.
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
include(CPack)
