# What the libc++ build (RACELAB_LIBCXX) needs that Debian ships only built
# against libstdc++: GoogleTest, compiled here from /usr/src/googletest
# (libgtest-dev), and the out-of-line Abseil string functions the core calls,
# compiled from cmake/absl_libcxx.cc into racelab_absl_libcxx, which the core
# links ahead of Debian's Abseil.
set(RACELAB_GOOGLETEST_SOURCE /usr/src/googletest CACHE PATH "GoogleTest's source (libgtest-dev)")
if(NOT EXISTS ${RACELAB_GOOGLETEST_SOURCE}/CMakeLists.txt)
  message(FATAL_ERROR "RACELAB_LIBCXX needs GoogleTest's source at ${RACELAB_GOOGLETEST_SOURCE} "
                      "(Debian: libgtest-dev)")
endif()
set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
add_subdirectory(${RACELAB_GOOGLETEST_SOURCE} ${CMAKE_BINARY_DIR}/googletest EXCLUDE_FROM_ALL)
foreach(t gtest gtest_main)
  if(NOT TARGET GTest::${t})
    add_library(GTest::${t} ALIAS ${t})
  endif()
endforeach()

add_library(racelab_absl_libcxx STATIC ${CMAKE_CURRENT_LIST_DIR}/absl_libcxx.cc)
target_link_libraries(racelab_absl_libcxx PUBLIC absl::strings)
