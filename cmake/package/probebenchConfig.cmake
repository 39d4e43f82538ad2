# find_package(probebench): bench's marker runtime for a firmware's own CMake cross build
# (docs/integrate.md). It is an interface library: target/src/bench.c joins the firmware's sources
# and target/include its include path, so the firmware's own compiler and flags build it.
#
#   find_package(probebench REQUIRED)     # -Dprobebench_DIR=/usr/share/probebench/cmake if the
#   target_link_libraries(app PRIVATE probebench::runtime)   # toolchain file confines find_package
#
# Also sets probebench_DATA_DIR (share/probebench: boards/, target/, docs/) and probebench_BENCH
# (the bench program beside it, if installed there). Works from an install prefix and from a build
# tree (<build>/share/probebench/cmake).
get_filename_component(_probebench_data "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT EXISTS "${_probebench_data}/target/src/bench.c")
  set(probebench_FOUND FALSE)
  set(probebench_NOT_FOUND_MESSAGE "probebench: ${_probebench_data}/target/src/bench.c is missing: reinstall probebench")
  return()
endif()
if(NOT TARGET probebench::runtime)
  add_library(probebench::runtime INTERFACE IMPORTED)
  set_target_properties(probebench::runtime PROPERTIES
    INTERFACE_SOURCES "${_probebench_data}/target/src/bench.c"
    INTERFACE_INCLUDE_DIRECTORIES "${_probebench_data}/target/include")
endif()
set(probebench_DATA_DIR "${_probebench_data}")
foreach(_probebench_bin "${_probebench_data}/../../bin/bench" "${_probebench_data}/../../bench")
  if(EXISTS "${_probebench_bin}" AND NOT probebench_BENCH)
    get_filename_component(probebench_BENCH "${_probebench_bin}" ABSOLUTE)
  endif()
endforeach()
unset(_probebench_bin)
unset(_probebench_data)
