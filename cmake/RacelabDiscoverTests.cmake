# racelab_discover_tests(): one CTest test per test of a test binary, each
# explored alone under racelab's controlled scheduler, modelled on
# gtest_discover_tests.
#
#   racelab_discover_tests(<target>
#                          [STRATEGY pct|random|dfs|plain-dfs] [BUDGET n]
#                          [PREEMPTIONS n] [SEED n] [FRAMEWORK gtest|catch2|listing]
#                          [TEST_PREFIX prefix] [EXTRA_ARGS args...]
#                          [PROPERTIES name value...] [DISCOVERY_TIMEOUT seconds]
#                          [RACELAB_COMMAND path])
#
# <target> is an executable linked with racelab::runtime whose tests
# GoogleTest, Catch2 (v2) or racelab's listing convention lists (see
# `racelab explore --help`). When CTest starts, the binary's tests are listed
# (`racelab explore --tests --list`, EXTRA_ARGS narrowing them as they would
# the binary: --gtest_filter=..., a Catch2 test spec), and each becomes the
# test <TEST_PREFIX><name>, which runs
#   racelab explore --tests --test <name> [--strategy ...] -- <binary> EXTRA_ARGS
# It fails when racelab finds something: its output, and so the test's row
# in `ctest --output-junit`, holds the shrunk trace and the replay command.
# A binary that cannot be listed becomes one failing test,
# <TEST_PREFIX>racelab_listing, whose output says why.
# RACELAB_COMMAND defaults to RACELAB_EXECUTABLE (set by racelab's package).
set(_racelab_add_tests_script "${CMAKE_CURRENT_LIST_DIR}/RacelabAddTests.cmake")

function(racelab_discover_tests target)
  cmake_parse_arguments(ARG ""
    "STRATEGY;BUDGET;PREEMPTIONS;SEED;FRAMEWORK;TEST_PREFIX;DISCOVERY_TIMEOUT;RACELAB_COMMAND"
    "EXTRA_ARGS;PROPERTIES" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "racelab_discover_tests: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "racelab_discover_tests: '${target}' is not a target")
  endif()
  if(NOT ARG_RACELAB_COMMAND)
    if(NOT RACELAB_EXECUTABLE)
      message(FATAL_ERROR "racelab_discover_tests: no racelab command "
                          "(find_package(racelab) sets RACELAB_EXECUTABLE; or pass RACELAB_COMMAND)")
    endif()
    set(ARG_RACELAB_COMMAND "${RACELAB_EXECUTABLE}")
  endif()
  if(NOT DEFINED ARG_TEST_PREFIX)
    set(ARG_TEST_PREFIX "${target}.")
  endif()
  if(NOT ARG_DISCOVERY_TIMEOUT)
    set(ARG_DISCOVERY_TIMEOUT 60)
  endif()
  set(explore_args "")
  foreach(option STRATEGY BUDGET PREEMPTIONS SEED FRAMEWORK)
    if(DEFINED ARG_${option})
      string(TOLOWER "${option}" flag)
      list(APPEND explore_args "--${flag}" "${ARG_${option}}")
    endif()
  endforeach()
  set(list_args "")
  if(DEFINED ARG_FRAMEWORK)
    set(list_args "--framework" "${ARG_FRAMEWORK}")
  endif()
  # The script CTest includes: the values, then the listing and the tests.
  # One file per target and prefix (a target may be registered twice, with
  # different prefixes and arguments).
  string(MAKE_C_IDENTIFIER "${target}_${ARG_TEST_PREFIX}" id)
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${id}racelab_tests.cmake")
  file(GENERATE OUTPUT "${include_file}" CONTENT
"set(RACELAB_COMMAND [==[${ARG_RACELAB_COMMAND}]==])
set(RACELAB_TEST_EXECUTABLE [==[$<TARGET_FILE:${target}>]==])
set(RACELAB_TEST_PREFIX [==[${ARG_TEST_PREFIX}]==])
set(RACELAB_LIST_ARGS [==[${list_args}]==])
set(RACELAB_EXPLORE_ARGS [==[${explore_args}]==])
set(RACELAB_EXTRA_ARGS [==[${ARG_EXTRA_ARGS}]==])
set(RACELAB_TEST_PROPERTIES [==[${ARG_PROPERTIES}]==])
set(RACELAB_DISCOVERY_TIMEOUT ${ARG_DISCOVERY_TIMEOUT})
include([==[${_racelab_add_tests_script}]==])
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
