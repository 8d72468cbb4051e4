# Where the sanitizer runtime goes on the link line of a program that links
# racelab's interposer (racelab_sync).
#
# racelab's interposed calls (send, read, poll, ...: harness/core/src/sync/
# interpose*.cc) are weak definitions, like the sanitizers' own interceptors,
# so that a program's own global of such a name (a variable `send`) wins and
# the program links, as it does under plain ThreadSanitizer. Of two weak
# definitions GNU ld keeps the first, and the clang driver puts the runtime
# (--whole-archive libclang_rt.tsan-x86_64.a ...) before every input of the
# link: its interceptors would win over racelab's. So racelab_sync's users
# link with -fno-sanitize-link-runtime and get the very runtime the driver
# would have added (its archives, their dynamic lists, their system
# libraries) as link items after racelab's libraries.
#
# racelab_sanitizer_runtime_link(<flags> <out_var>): what the driver adds to
# a link for the sanitizer flags <flags> (a list) and leaves out with
# -fno-sanitize-link-runtime: the words of the first link command it prints
# (-###) that the second lacks, in their order, as one link item
# -Wl,--push-state,...,--pop-state (a -Wl flag, which CMake keeps where it is
# and never merges with another; the state its --no-as-needed sets ends with
# it). Empty where the two commands do not differ.
function(racelab_sanitizer_runtime_link flags out_var)
  set(probe ${CMAKE_BINARY_DIR}/CMakeFiles/racelab_runtime_probe.o)
  file(WRITE ${probe} "")
  foreach(variant full reduced)
    set(extra "")
    if(variant STREQUAL "reduced")
      set(extra -fno-sanitize-link-runtime)
    endif()
    execute_process(
      COMMAND ${CMAKE_CXX_COMPILER} ${flags} ${extra} "-###" ${probe} -o ${probe}.out
      ERROR_VARIABLE driver_output OUTPUT_QUIET RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      set(${out_var} "" PARENT_SCOPE)
      return()
    endif()
    # The link command is the driver's last line.
    string(REGEX MATCH "[^\n]+\n*$" link_line "${driver_output}")
    separate_arguments(${variant} UNIX_COMMAND "${link_line}")
  endforeach()
  # The reduced command is the full one without the runtime's words.
  set(runtime "")
  list(LENGTH reduced reduced_size)
  set(next 0)
  foreach(word IN LISTS full)
    set(expected "")
    if(next LESS reduced_size)
      list(GET reduced ${next} expected)
    endif()
    if(word STREQUAL expected)
      math(EXPR next "${next} + 1")
    else()
      list(APPEND runtime ${word})
    endif()
  endforeach()
  set(item "")
  if(runtime)
    list(JOIN runtime "," joined)
    set(item "-Wl,--push-state,${joined},--pop-state")
  endif()
  set(${out_var} "${item}" PARENT_SCOPE)
endfunction()
