# aarch64-linux-gnu.cmake: cross-building for arm64 with Debian's aarch64-linux-gnu toolchain and the
# multiarch arm64 libraries (dpkg --add-architecture arm64; scripts/setup installs both), as
# `scripts/build --arch arm64` does. Tests run under qemu-user.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Debian's cross compilers search the multiarch folders (/usr/include/aarch64-linux-gnu,
# /usr/lib/aarch64-linux-gnu) by themselves; CMake's find_* calls look there through the library
# architecture, and pkg-config must read the arm64 .pc files only, never the build machine's.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
# ctest runs each test program under qemu-user; -L gives it the arm64 dynamic loader and libc.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L /usr/aarch64-linux-gnu)
