# The core's tests (engineer "core"): the virtual Cortex-M4F driven through the bus as a debugger
# drives it, with the firmware of tests/firmware/core.
if(BENCH_FIRMWARE)
  add_executable(core_test core_test.c)
  target_link_libraries(core_test PRIVATE sim PkgConfig::CMOCKA)
  target_compile_definitions(core_test PRIVATE CORE_FW_BUILD_DIR="${CMAKE_BINARY_DIR}")
  add_dependencies(core_test firmware)
  add_test(NAME sim.core COMMAND core_test)
  set_tests_properties(sim.core PROPERTIES LABELS "unit" TIMEOUT 60)
endif()
# The board seam (struct core_soc: interrupt lines, priority bits, chip timers) and the SCS register table.
if(BENCH_FIRMWARE)
  add_executable(core_board_test core_board_test.c)
  target_link_libraries(core_board_test PRIVATE sim PkgConfig::CMOCKA)
  target_compile_definitions(core_board_test PRIVATE CORE_FW_BUILD_DIR="${CMAKE_BINARY_DIR}")
  add_dependencies(core_board_test firmware)
  add_test(NAME sim.core_board COMMAND core_board_test)
  set_tests_properties(sim.core_board PROPERTIES LABELS "unit" TIMEOUT 60)
endif()
