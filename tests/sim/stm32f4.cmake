# The virtual STM32F4's peripherals (engineer "firmware"): unit tests on a bare bus, compiling the
# units they test so they build whatever else in libsim is being rewritten.
add_executable(stm32f4_test ${CMAKE_CURRENT_SOURCE_DIR}/stm32f4_test.c ${CMAKE_SOURCE_DIR}/sim/bus/bus.c
  ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4.c ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4_flash.c
  ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4_map.c ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4_gpio.c
  ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4_tim.c ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4_misc.c
  ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4_art.c ${CMAKE_SOURCE_DIR}/sim/chip/stm32f4_rcc.c)
target_include_directories(stm32f4_test PRIVATE ${CMAKE_SOURCE_DIR}/sim)
target_link_libraries(stm32f4_test PRIVATE PkgConfig::CMOCKA)
add_test(NAME sim.stm32f4 COMMAND stm32f4_test)
set_tests_properties(sim.stm32f4 PROPERTIES LABELS "unit" TIMEOUT 30)
