# The STM32F407's peripheral map, modelled peripherals and the bit-band aliases (engineer "chip"): chip_test on a
# bare bus, compiling the units it tests; chip_core_test drives them from the core with tests/firmware/core/chip.S.
add_executable(chip_test ${CMAKE_CURRENT_SOURCE_DIR}/chip_test.c ${CMAKE_SOURCE_DIR}/sim/bus/bus.c
  ${CMAKE_SOURCE_DIR}/sim/bus/bitband.c ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4.c
  ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4_flash.c ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4_art.c
  ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4_map.c
  ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4_gpio.c ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4_tim.c
  ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4_misc.c ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4_rcc.c)
target_include_directories(chip_test PRIVATE ${CMAKE_SOURCE_DIR}/sim)
target_link_libraries(chip_test PRIVATE PkgConfig::CMOCKA)
add_test(NAME sim.chip COMMAND chip_test)
set_tests_properties(sim.chip PROPERTIES LABELS "unit" TIMEOUT 30)
if(BENCH_FIRMWARE)
  add_executable(chip_core_test chip_core_test.c)
  target_link_libraries(chip_core_test PRIVATE sim PkgConfig::CMOCKA)
  target_compile_definitions(chip_core_test PRIVATE CORE_FW_BUILD_DIR="${CMAKE_BINARY_DIR}")
  add_dependencies(chip_core_test firmware)
  add_test(NAME sim.chip_core COMMAND chip_core_test)
  set_tests_properties(sim.chip_core PROPERTIES LABELS "unit" TIMEOUT 60)
endif()
