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
# One name per line. CMake's lists would split a name at a ';' and join
# names across an unmatched '[' or ']', so both brackets stand as control
# characters (no listed name holds one) while the lines become a list, and
# each name is given back its own before it is used. A name listed twice is
# one test.
string(ASCII 1 _racelab_open)
string(ASCII 2 _racelab_close)
string(REPLACE "[" "${_racelab_open}" _racelab_listing "${_racelab_listing}")
string(REPLACE "]" "${_racelab_close}" _racelab_listing "${_racelab_listing}")
string(REPLACE ";" "\\;" _racelab_listing "${_racelab_listing}")
string(REPLACE "\n" ";" _racelab_names "${_racelab_listing}")
set(_racelab_added "")
foreach(_racelab_name IN LISTS _racelab_names)
  string(REPLACE "${_racelab_open}" "[" _racelab_name "${_racelab_name}")
  string(REPLACE "${_racelab_close}" "]" _racelab_name "${_racelab_name}")
  if(_racelab_name STREQUAL "")
    continue()
  endif()
  set(_racelab_test "${RACELAB_TEST_PREFIX}${_racelab_name}")
  string(SHA1 _racelab_key "${_racelab_test}")
  # (list(FIND), not IN_LIST: CTest runs this script under old policies.)
  list(FIND _racelab_added "${_racelab_key}" _racelab_seen)
  if(NOT _racelab_seen EQUAL -1)
    continue()
  endif()
  list(APPEND _racelab_added "${_racelab_key}")
  add_test("${_racelab_test}" "${RACELAB_COMMAND}" explore --tests
           --test "${_racelab_name}" ${RACELAB_EXPLORE_ARGS}
           -- "${RACELAB_TEST_EXECUTABLE}" ${RACELAB_EXTRA_ARGS})
  if(RACELAB_TEST_PROPERTIES)
    set_tests_properties("${_racelab_test}" PROPERTIES ${RACELAB_TEST_PROPERTIES})
  endif()
endforeach()
