# The firmware (target/, boards/, examples/, tests/firmware/) is its own CMake project with the
# arm-none-eabi toolchain file, built as an external project so one configure builds host and target.
# ELF files land in ${CMAKE_BINARY_DIR}/examples/<board>/ and ${CMAKE_BINARY_DIR}/tests/firmware/.
include(ExternalProject)
find_program(ARM_GCC arm-none-eabi-gcc REQUIRED)
ExternalProject_Add(firmware
  SOURCE_DIR ${CMAKE_SOURCE_DIR}/cmake/firmware
  BINARY_DIR ${CMAKE_BINARY_DIR}/fw
  CMAKE_ARGS
    -DCMAKE_TOOLCHAIN_FILE=${CMAKE_SOURCE_DIR}/cmake/arm-none-eabi.cmake
    -DBENCH_ROOT=${CMAKE_SOURCE_DIR}
    -DBENCH_OUT=${CMAKE_BINARY_DIR}
    -DCMAKE_BUILD_TYPE=Release
    -DBENCH_WERROR=${BENCH_WERROR}
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON # scripts/lint.sh runs clang-tidy over target/ with it
  BUILD_ALWAYS ON
  INSTALL_COMMAND ""
  USES_TERMINAL_BUILD ON)
