# arch.cmake (x86_64): what libiomap's x86-64 code needs. The trap target decodes faulting
# instructions with Zydis (Debian: libzydis-dev); the decoder is still src/trap-decode.c until it
# moves into this folder, where the glob of iomap/CMakeLists.txt takes it.
if(NOT TARGET Zydis::Zydis)
  find_package(zydis 4 REQUIRED)
endif()
if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/../../src/trap-decode.c)
  list(APPEND iomap_arch_sources ${CMAKE_CURRENT_LIST_DIR}/../../src/trap-decode.c)
endif()
set(iomap_arch_libs Zydis::Zydis)
set(iomap_arch_pc_libs -lZydis)
set(iomap_arch_dependencies "find_dependency(zydis 4)")
