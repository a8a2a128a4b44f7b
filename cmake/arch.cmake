# arch.cmake: the architecture regbench and libiomap are built for, as the folder names under arch/
# say it (x86_64, arm64: Linux's names), from the processor CMake builds for (the toolchain's when
# cross-compiling). Included by the top level and by libiomap configured alone.
include_guard(GLOBAL)
string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" regbench_processor)
if(regbench_processor MATCHES "^(x86_64|amd64)$")
  set(REGBENCH_ARCH x86_64)
elseif(regbench_processor MATCHES "^(aarch64|arm64)$")
  set(REGBENCH_ARCH arm64)
else()
  message(FATAL_ERROR "regbench: processor '${CMAKE_SYSTEM_PROCESSOR}' has no folder under iomap/arch/ "
    "(x86_64 and arm64 do; an architecture is a folder: see docs/ARCHITECTURE.md)")
endif()
message(STATUS "regbench: architecture ${REGBENCH_ARCH}")

# How a test script runs a program of this build: the program itself, or, when the build is for
# another architecture (CMAKE_CROSSCOMPILING_EMULATOR, set by the toolchain file), a generated
# script that runs it under the emulator with the same arguments. ctest adds the emulator by
# itself to a test whose command is a program target; a script needs this. Sets var in the caller.
function(regbench_runnable var target)
  if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
    set(${var} $<TARGET_FILE:${target}> PARENT_SCOPE)
    return()
  endif()
  list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " emulator)
  set(wrapper ${CMAKE_BINARY_DIR}/emulated/${target})
  file(GENERATE OUTPUT ${wrapper}
    CONTENT "#!/bin/sh\n# ${target}, built for ${REGBENCH_ARCH}, run under ${emulator}\nexec ${emulator} $<TARGET_FILE:${target}> \"$@\"\n"
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  set(${var} ${wrapper} PARENT_SCOPE)
endfunction()
