# Runs `racelab bench --quick` (cmake -P script; RACELAB = the binary) and
# checks that it exits 0 and that its very last line matches
# "controlled/stress ratio: [0-9.]+".
if(NOT RACELAB)
  message(FATAL_ERROR "bench_smoke: pass -DRACELAB=<path to racelab>")
endif()
execute_process(COMMAND ${RACELAB} bench --quick
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench_smoke: racelab bench --quick exited ${rc}\n${out}\n${err}")
endif()
string(REGEX REPLACE "\n+$" "" trimmed "${out}")
string(REGEX MATCH "[^\n]*$" last "${trimmed}")
if(NOT last MATCHES "^controlled/stress ratio: [0-9.]+$")
  message(FATAL_ERROR "bench_smoke: the last line is '${last}', not "
                      "'controlled/stress ratio: <number>'\n${out}")
endif()
message(STATUS "bench_smoke: ${last}")
