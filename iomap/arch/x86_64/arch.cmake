# arch.cmake (x86_64): what libiomap's x86-64 code needs. The trap target decodes faulting
# instructions with Zydis (Debian: libzydis-dev) in trap-decode.c, which the glob of
# iomap/CMakeLists.txt takes with the rest of this folder.
if(NOT TARGET Zydis::Zydis)
  find_package(zydis 4 REQUIRED)
endif()
set(iomap_arch_libs Zydis::Zydis)
set(iomap_arch_pc_libs -lZydis)
set(iomap_arch_dependencies "find_dependency(zydis 4)")
