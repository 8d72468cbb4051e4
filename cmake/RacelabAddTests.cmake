# Run by CTest (through the file racelab_discover_tests generates, which sets
# the RACELAB_* values first): lists the binary's tests with racelab and adds
# one CTest test per test. See RacelabDiscoverTests.cmake.
execute_process(
  COMMAND "${RACELAB_COMMAND}" explore --tests --list ${RACELAB_LIST_ARGS}
          -- "${RACELAB_TEST_EXECUTABLE}" ${RACELAB_EXTRA_ARGS}
  OUTPUT_VARIABLE _racelab_listing
  ERROR_VARIABLE _racelab_error
  RESULT_VARIABLE _racelab_status
  TIMEOUT ${RACELAB_DISCOVERY_TIMEOUT})
if(NOT _racelab_status EQUAL 0)
  # One failing test whose output is the listing's own error.
  add_test("${RACELAB_TEST_PREFIX}racelab_listing" "${RACELAB_COMMAND}" explore
           --tests --list ${RACELAB_LIST_ARGS} -- "${RACELAB_TEST_EXECUTABLE}"
           ${RACELAB_EXTRA_ARGS})
  return()
endif()
# One name per line; a ';' in a name must not split it.
string(REPLACE ";" "\\;" _racelab_listing "${_racelab_listing}")
string(REPLACE "\n" ";" _racelab_names "${_racelab_listing}")
foreach(_racelab_name IN LISTS _racelab_names)
  if(_racelab_name STREQUAL "")
    continue()
  endif()
  set(_racelab_test "${RACELAB_TEST_PREFIX}${_racelab_name}")
  add_test("${_racelab_test}" "${RACELAB_COMMAND}" explore --tests
           --test "${_racelab_name}" ${RACELAB_EXPLORE_ARGS}
           -- "${RACELAB_TEST_EXECUTABLE}" ${RACELAB_EXTRA_ARGS})
  if(RACELAB_TEST_PROPERTIES)
    set_tests_properties("${_racelab_test}" PROPERTIES ${RACELAB_TEST_PROPERTIES})
  endif()
endforeach()
