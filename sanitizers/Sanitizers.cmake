# Sanitizer flavours of the build, chosen by RACELAB_SANITIZER:
#   thread   -fsanitize=thread            (the tsan preset)
#   address  -fsanitize=address,undefined (the asan preset)
#   none     no sanitizer                 (release, debug)
# The flags go on every target of the project, so subjects, harness and tests
# are instrumented alike.
set(RACELAB_SANITIZER "none" CACHE STRING "thread, address or none")
set_property(CACHE RACELAB_SANITIZER PROPERTY STRINGS thread address none)

if(RACELAB_SANITIZER STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
  add_compile_definitions(RACELAB_TSAN=1)
elseif(RACELAB_SANITIZER STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
  add_compile_definitions(RACELAB_ASAN=1)
elseif(NOT RACELAB_SANITIZER STREQUAL "none")
  message(FATAL_ERROR "RACELAB_SANITIZER must be thread, address or none, not '${RACELAB_SANITIZER}'")
endif()

# Translation units a sanitizer must not instrument: the interposer and the
# baton, which run inside the primitives the sanitizers model.
# (-fno-sanitize=all leaves the fuzz presets' coverage ignorelist unused.)
set(RACELAB_UNINSTRUMENTED -fno-sanitize=all -Wno-unused-command-line-argument
    -DRACELAB_OWN_INLINE_COPIES=1)
# The harness's bookkeeping on every schedule: the scheduler, the controlled
# runner, the declared stores' engine, the models and the state invariants.
# Under TSan its plain memory accesses and memcpy/memset are not instrumented
# (atomics and function entries are, so every happens-before edge the harness
# makes stays visible): it touches nothing under test, and TSan checking it
# was most of a schedule's cost. A unit goes here only if it includes no
# store's code and never reads what a store wrote while a run goes on; a
# store's code called from it (through std::function, a virtual call) is
# compiled in the store's own units, instrumented.
set(RACELAB_HARNESS_PATH "")
if(RACELAB_SANITIZER STREQUAL "thread")
  # For COMPILE_OPTIONS of sources, which keeps repeated flags (a target's
  # options would merge the two -mllvm into one). Function entries stay
  # instrumented: without them in the controlled runner, TSan reported no
  # race of kit.replay_through_binary's racy store (cause not found yet).
  set(RACELAB_HARNESS_PATH
      -mllvm -tsan-instrument-memory-accesses=0
      -mllvm -tsan-instrument-memintrinsics=0
      -DRACELAB_OWN_INLINE_COPIES=1)
endif()
# Both kinds keep their copies of inline functions to themselves, so that the
# linker never gives a store the uninstrumented one (own_inline_copies.sh).
if(NOT RACELAB_SANITIZER STREQUAL "none")
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_CXX_COMPILER_LAUNCHER}
      ${CMAKE_CURRENT_LIST_DIR}/own_inline_copies.sh)
endif()

# The option files become the default options compiled into every binary
# (racelab_sanitizer_options.h), so a child process gets them without a
# wrapper script.
function(racelab_read_options file out_var)
  file(STRINGS ${file} lines)
  set(opts "")
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    if(line STREQUAL "" OR line MATCHES "^#")
      continue()
    endif()
    if(opts STREQUAL "")
      set(opts "${line}")
    else()
      set(opts "${opts}:${line}")
    endif()
  endforeach()
  set(${out_var} "${opts}" PARENT_SCOPE)
endfunction()
racelab_read_options(${CMAKE_CURRENT_LIST_DIR}/tsan.options RACELAB_TSAN_OPTIONS)
racelab_read_options(${CMAKE_CURRENT_LIST_DIR}/asan.options RACELAB_ASAN_OPTIONS)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${CMAKE_CURRENT_LIST_DIR}/tsan.options ${CMAKE_CURRENT_LIST_DIR}/asan.options)
configure_file(${CMAKE_CURRENT_LIST_DIR}/racelab_sanitizer_options.h.in
               ${CMAKE_BINARY_DIR}/generated/racelab_sanitizer_options.h @ONLY)
