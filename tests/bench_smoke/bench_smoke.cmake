# Runs `racelab bench --quick` (cmake -P script; RACELAB = the binary) and
# checks that it exits 0, that the throughput table has its CPU-time columns,
# that plain dfs and dfs agree in the dpor section, and that its very last line is the controlled/stress ratio as the gate runs
# the two modes, with its range over rounds.
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
set(number "[0-9][0-9.e+-]*")
if(NOT last MATCHES "^controlled/stress ratio, as racelab gate runs them: ${number} \\(${number}-${number}\\) controlled schedules for the CPU time of one stress run \\(.* rounds; in wall time ${number} \\(${number}-${number}\\)\\)$")
  message(FATAL_ERROR "bench_smoke: the last line is '${last}', not "
                      "'controlled/stress ratio, as racelab gate runs them: "
                      "<median> (<low>-<high>) ...'\n${out}")
endif()
if(NOT out MATCHES "controlled/s +us/sched +cpu us +stress/s +us/run +cpu us")
  message(FATAL_ERROR "bench_smoke: the throughput table has no CPU-time "
                      "columns\n${out}")
endif()
# The dpor section: plain dfs against dfs, every seed scenario, and no case
# where the two searches concluded differently.
if(NOT out MATCHES "dpor: geometric mean ratio ${number} over [0-9]+ cases; 0 verdict mismatches")
  message(FATAL_ERROR "bench_smoke: the dpor section is missing or reports "
                      "a verdict mismatch\n${out}")
endif()
message(STATUS "bench_smoke: ${last}")
