# The profile-point runtime for firmware built with bench_firmware() (target/CMakeLists.txt):
#   include(${BENCH_ROOT}/target/pfp/pfp.cmake)
#   bench_firmware(NAME app BOARD ... SOURCES app.c ${BENCH_PFP_SOURCES} INCLUDES ${BENCH_PFP_INCLUDES})
# The public headers (pfp.h, pfp_port.h, papi_events.h, pfp_freertos.h) are in target/include, which
# bench_firmware already puts on the include path; the port is chosen by the compiler's target macros.
set(BENCH_PFP_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/pfp.c
  ${CMAKE_CURRENT_LIST_DIR}/pfp_calibrate.c
  ${CMAKE_CURRENT_LIST_DIR}/pfp_events.c)
set(BENCH_PFP_INCLUDES ${CMAKE_CURRENT_LIST_DIR})
