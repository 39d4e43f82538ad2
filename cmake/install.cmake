# Installing bench (docs/install.md): `cmake --install build [--prefix P]` puts bench and bench-sim
# in P/bin, and under P/share/probebench the boards, the target runtime (target/), the manual
# (docs/, README.md), the example firmware, the CMake package (cmake/probebenchConfig.cmake); the
# pkg-config file goes to P/share/pkgconfig. bench finds all of it from its own location, and in
# the build tree from ${CMAKE_BINARY_DIR}/share/probebench, whose entries link into the source tree.
# `cpack -G DEB` (in the build folder) makes a Debian 12 package of the same files under /usr.

# The build tree's data folder, as installed bench sees it: links into the source tree.
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/share/probebench/cmake)
foreach(entry boards target docs)
  if(NOT EXISTS ${CMAKE_BINARY_DIR}/share/probebench/${entry})
    file(CREATE_LINK ${CMAKE_SOURCE_DIR}/${entry} ${CMAKE_BINARY_DIR}/share/probebench/${entry} SYMBOLIC)
  endif()
endforeach()
configure_file(${CMAKE_SOURCE_DIR}/cmake/package/probebenchConfig.cmake
  ${CMAKE_BINARY_DIR}/share/probebench/cmake/probebenchConfig.cmake COPYONLY)
include(CMakePackageConfigHelpers)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/share/probebench/cmake/probebenchConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
# The pkg-config file: the build tree's points at the build tree; the installed one at its prefix
# (written at install time, so `--prefix` and CPack's staging both get it right).
set(PC_PREFIX ${CMAKE_BINARY_DIR})
configure_file(${CMAKE_SOURCE_DIR}/cmake/package/probebench.pc.in ${CMAKE_BINARY_DIR}/share/pkgconfig/probebench.pc @ONLY)

install(TARGETS bench bench-sim RUNTIME DESTINATION bin)
install(DIRECTORY boards/ DESTINATION share/probebench/boards)
install(DIRECTORY target/ DESTINATION share/probebench/target)
install(DIRECTORY docs/ DESTINATION share/probebench/docs)
install(FILES README.md DESTINATION share/probebench)
install(FILES ${CMAKE_BINARY_DIR}/share/probebench/cmake/probebenchConfig.cmake
              ${CMAKE_BINARY_DIR}/share/probebench/cmake/probebenchConfigVersion.cmake
        DESTINATION share/probebench/cmake)
install(FILES examples/fut.c examples/fut_main.c DESTINATION share/probebench/examples)
# The C++ example with its Makefile, the link recipe docs/integrate.md points to (not its
# CMakeLists.txt: that one is for this project's firmware build).
install(FILES examples/cxx/Makefile examples/cxx/cxx_main.cpp examples/cxx/cxx_fut.cpp examples/cxx/cxx_fut.hpp
        DESTINATION share/probebench/examples/cxx)
if(BENCH_FIRMWARE)
  install(DIRECTORY ${CMAKE_BINARY_DIR}/examples/sim-stm32f4/ DESTINATION share/probebench/examples/sim-stm32f4
          FILES_MATCHING PATTERN "*.elf")
endif()
install(CODE "
  set(PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(PROJECT_VERSION \"${PROJECT_VERSION}\")
  configure_file(\"${CMAKE_SOURCE_DIR}/cmake/package/probebench.pc.in\"
                 \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/share/pkgconfig/probebench.pc\" @ONLY)
  message(STATUS \"Installing: \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/share/pkgconfig/probebench.pc\")")

# cpack -G DEB: Depends are Debian 12 (bookworm) package names: OpenOCD, which bench starts, and the
# shared libraries bench and bench-sim link (tests/install/install_test.sh checks each NEEDED library
# against this list with dpkg -S).
set(CPACK_PACKAGE_NAME probebench)
set(CPACK_PACKAGE_VENDOR probebench)
set(CPACK_PACKAGE_CONTACT "probebench maintainers <probebench@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "measure how many cycles code takes on a microcontroller, through a debug probe")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "openocd, libc6 (>= 2.34), libunicorn2, libcapstone4, libcjson1, libelf1, libusb-1.0-0")
if(LIBDW_FOUND) # bench run --profile's source lines (host/profile/profile_lines.c)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libdw1")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gcc-arm-none-eabi, libnewlib-arm-none-eabi")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "qemu-system-arm")
include(CPack)
