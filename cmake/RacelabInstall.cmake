# Packaging: `cmake --install <build>` installs racelab's core (its headers,
# its libraries) and a CMake package (racelabConfig.cmake) whose components
# are the core's layers:
#   racelab::sync       the lock types and GoMap subjects lock with
#   racelab::sched      the controlled scheduler
#   racelab::core       oracles, engines and the store-implementer kit
#                       (spec.h, kit.h, gtest.h, catch2.h, fuzz_target.h,
#                       explore.h, ...; docs/architecture.md lists them)
# Each of them says C++20 (cxx_std_20) to the code that links it.
#   racelab::runtime    what a whole program links for `racelab explore --
#                       ./program` (wraps main)
#   racelab::sanitizer  the sanitizer flags racelab was built with
# and the `racelab` command itself (bin/racelab, RACELAB_EXECUTABLE),
# the function racelab_add_store_tests(), and racelab_discover_tests()
# (cmake/RacelabDiscoverTests.cmake). A user project needs only
#   find_package(racelab REQUIRED)            # or COMPONENTS core
#   racelab_add_store_tests(TARGET my_tests SOURCES my_tests.cc LIBRARIES my_store)
# racelab::kit_reports (the kit's listener that writes the gate's reports
# for RACELAB_REPORT_DIR) comes with the runner and the reports it needs, as
# libraries without headers; racelab_add_store_tests links it into test
# binaries. racelab::core itself links none of them (nor pugixml).
# Included from the top-level CMakeLists.txt after the harness targets exist.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(RACELAB_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/racelab)

# Headers from the source tree while building, from the prefix once installed.
# In the build tree racelab's own layers also see the core's shared/ headers;
# installed, only include/racelab/ exists: the public API and, under
# racelab/internal/, what its templates expand to
# (tests/kit/installed_headers.txt is the list).
foreach(target racelab_sync racelab_sched racelab_core racelab_runtime)
  target_include_directories(${target} INTERFACE "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
endforeach()
set_target_properties(racelab_sync PROPERTIES EXPORT_NAME sync)
set_target_properties(racelab_sched PROPERTIES EXPORT_NAME sched)
set_target_properties(racelab_core PROPERTIES EXPORT_NAME core)
set_target_properties(racelab_runtime PROPERTIES EXPORT_NAME runtime)
set_target_properties(racelab_runner PROPERTIES EXPORT_NAME runner)
set_target_properties(racelab_reports PROPERTIES EXPORT_NAME reports)
set_target_properties(racelab_kit_reports PROPERTIES EXPORT_NAME kit_reports)

# The sanitizer of this build as a usage requirement: code that links the
# installed racelab::core is instrumented the same way (mixing a TSan
# library with uninstrumented callers misses races and may not link). -g
# (line tables at least) gives the reports and the kit's messages file:line
# of the user's own frames without the user adding it.
add_library(racelab_sanitizer INTERFACE)
set_target_properties(racelab_sanitizer PROPERTIES EXPORT_NAME sanitizer)
target_compile_options(racelab_sanitizer INTERFACE -g)
if(RACELAB_SANITIZER STREQUAL "thread")
  target_compile_options(racelab_sanitizer INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(racelab_sanitizer INTERFACE -fsanitize=thread)
  target_compile_definitions(racelab_sanitizer INTERFACE RACELAB_TSAN=1)
elseif(RACELAB_SANITIZER STREQUAL "address")
  target_compile_options(racelab_sanitizer INTERFACE -fsanitize=address,undefined
                         -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  target_link_options(racelab_sanitizer INTERFACE -fsanitize=address,undefined)
  target_compile_definitions(racelab_sanitizer INTERFACE RACELAB_ASAN=1)
endif()
# Only installed consumers get it through racelab::core; racelab's own
# targets get the flags from sanitizers/Sanitizers.cmake.
target_link_libraries(racelab_core INTERFACE "$<INSTALL_INTERFACE:racelab::sanitizer>")

install(DIRECTORY ${PROJECT_SOURCE_DIR}/harness/core/include/racelab
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
target_link_libraries(racelab_runtime INTERFACE "$<INSTALL_INTERFACE:racelab::sanitizer>")
install(TARGETS racelab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS racelab_sync racelab_sched racelab_core racelab_runtime racelab_sanitizer
                racelab_runner racelab_reports racelab_kit_reports
        EXPORT racelabTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT racelabTargets NAMESPACE racelab:: DESTINATION ${RACELAB_INSTALL_CMAKEDIR})

file(WRITE ${CMAKE_BINARY_DIR}/racelab-package/racelabConfig.cmake.in [=[
# racelab's CMake package: components sync, sched, core and runtime (targets
# racelab::sync, racelab::sched, racelab::core, racelab::runtime, and
# RACELAB_EXECUTABLE, the racelab command; racelab::sanitizer comes with
# them), the function racelab_add_store_tests() and racelab_discover_tests().
@PACKAGE_INIT@
# The prefix, read before the dependencies' own package files set
# PACKAGE_PREFIX_DIR to theirs.
set(racelab_PREFIX_DIR "${PACKAGE_PREFIX_DIR}")
include(CMakeFindDependencyMacro)
find_dependency(Threads)
find_dependency(absl)
# racelab::sched switches fibers with Boost.Context's static archive.
set(racelab_saved_boost_static "${Boost_USE_STATIC_LIBS}")
set(Boost_USE_STATIC_LIBS ON)
find_dependency(boost_context 1.74)
set(Boost_USE_STATIC_LIBS "${racelab_saved_boost_static}")
unset(racelab_saved_boost_static)
# racelab::kit_reports: the runner's JSON and the reports' XML.
find_dependency(nlohmann_json)
find_dependency(pugixml)

# How this racelab was built; user tests must match.
set(RACELAB_SANITIZER "@RACELAB_SANITIZER@")
set(RACELAB_CXX_COMPILER "@CMAKE_CXX_COMPILER@")

include("${CMAKE_CURRENT_LIST_DIR}/racelabTargets.cmake")
# The racelab command of this install (explore, replay, gate, ...).
set(RACELAB_EXECUTABLE "${racelab_PREFIX_DIR}/@CMAKE_INSTALL_BINDIR@/racelab")
# racelab_discover_tests(): each test of a test binary as a CTest test,
# explored under racelab.
include("${CMAKE_CURRENT_LIST_DIR}/RacelabDiscoverTests.cmake")
# Every component is in the one export set; asking for one that does not
# exist fails in check_required_components() below.
foreach(component sync sched core runtime)
  set(racelab_${component}_FOUND TRUE)
endforeach()

if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(WARNING "racelab was built with ${RACELAB_CXX_COMPILER}; "
                  "use the same clang for code that links it")
endif()

# racelab_add_store_tests(TARGET <name> SOURCES <files>...
#                         [LIBRARIES <libs>...]
#                         [FRAMEWORK gtest|catch2|none]   (default gtest)
#                         [NO_SANITIZER_DEFAULTS])
# Builds a test executable with racelab's sanitizer flags, links racelab and
# the test framework's main, and registers its tests with CTest (gtest:
# gtest_discover_tests, catch2: catch_discover_tests, none: one test that
# runs the binary). racelab's sanitizer defaults come with the library
# (sanitizers/*.options), and a binary that includes racelab/gtest.h,
# racelab/catch2.h or racelab/kit_binary.h has the kit's compiled in
# (exitcode=0: every report is captured in process and judged by the tests
# themselves; suppress_equal_stacks=0, suppress_equal_addresses=0: every
# report is seen in every check), so it behaves the same run directly as
# under CTest. With NO_SANITIZER_DEFAULTS the tests run with TSan's own exit
# status instead (TSAN_OPTIONS=exitcode=66 in their environment).
function(racelab_add_store_tests)
  cmake_parse_arguments(ARG "NO_SANITIZER_DEFAULTS" "TARGET;FRAMEWORK" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT ARG_TARGET OR NOT ARG_SOURCES)
    message(FATAL_ERROR "racelab_add_store_tests: TARGET and SOURCES are required")
  endif()
  if(NOT ARG_FRAMEWORK)
    set(ARG_FRAMEWORK gtest)
  endif()
  add_executable(${ARG_TARGET} ${ARG_SOURCES})
  set(test_env "")
  if(RACELAB_SANITIZER STREQUAL "thread" AND ARG_NO_SANITIZER_DEFAULTS)
    set(test_env "TSAN_OPTIONS=exitcode=66")
  endif()
  target_compile_features(${ARG_TARGET} PRIVATE cxx_std_20)
  # The project's folder: the kit names the user's files relative to it and
  # counts them as the user's code wherever it is (racelab/kit_binary.h).
  target_compile_definitions(${ARG_TARGET} PRIVATE
                             RACELAB_PROJECT_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  # racelab::kit_reports: with RACELAB_REPORT_DIR=DIR set, the kit tests
  # write the gate's reports into DIR.
  target_link_libraries(${ARG_TARGET} PRIVATE ${ARG_LIBRARIES} racelab::core racelab::sanitizer
                        racelab::kit_reports)
  if(ARG_FRAMEWORK STREQUAL "gtest")
    find_package(GTest REQUIRED)
    include(GoogleTest)
    target_link_libraries(${ARG_TARGET} PRIVATE GTest::gtest GTest::gtest_main)
    gtest_discover_tests(${ARG_TARGET} DISCOVERY_TIMEOUT 60 PROPERTIES ENVIRONMENT "${test_env}")
  elseif(ARG_FRAMEWORK STREQUAL "catch2")
    find_package(Catch2 2 REQUIRED)
    include(Catch)
    target_link_libraries(${ARG_TARGET} PRIVATE Catch2::Catch2)
    catch_discover_tests(${ARG_TARGET} PROPERTIES ENVIRONMENT "${test_env}")
  elseif(ARG_FRAMEWORK STREQUAL "none")
    add_test(NAME ${ARG_TARGET} COMMAND ${ARG_TARGET})
    set_tests_properties(${ARG_TARGET} PROPERTIES ENVIRONMENT "${test_env}")
  else()
    message(FATAL_ERROR "racelab_add_store_tests: FRAMEWORK must be gtest, catch2 or none")
  endif()
endfunction()

check_required_components(racelab)
]=])

set(RACELAB_SHARE_DIR ${CMAKE_INSTALL_DATADIR}/racelab)
configure_package_config_file(
  ${CMAKE_BINARY_DIR}/racelab-package/racelabConfig.cmake.in
  ${CMAKE_BINARY_DIR}/racelab-package/racelabConfig.cmake
  INSTALL_DESTINATION ${RACELAB_INSTALL_CMAKEDIR}
  PATH_VARS RACELAB_SHARE_DIR)
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/racelab-package/racelabConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/racelab-package/racelabConfig.cmake
              ${CMAKE_BINARY_DIR}/racelab-package/racelabConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/RacelabDiscoverTests.cmake
              ${PROJECT_SOURCE_DIR}/cmake/RacelabAddTests.cmake
        DESTINATION ${RACELAB_INSTALL_CMAKEDIR})

