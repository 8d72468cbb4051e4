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
