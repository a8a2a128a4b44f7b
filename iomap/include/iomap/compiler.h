/* compiler.h: address-space annotations for sparse and the few compiler attributes libiomap needs */
#ifndef IOMAP_COMPILER_H
#define IOMAP_COMPILER_H

/*
 * libiomap's headers need x86-64 Linux and GCC or Clang in GNU C11 or later
 * (statement expressions, inline asm, `, ##__VA_ARGS__`; -std=gnu11 and the
 * compilers' defaults) or C++17 for io.h and target.h.
 */
#if !defined(__GNUC__)
# error "libiomap's headers need GCC or Clang (GNU C extensions: statement expressions, inline asm)"
#endif

/*
 * Under sparse (__CHECKER__) a pointer to device memory lives in its own
 * address space and may not be dereferenced: mixing it with a normal pointer
 * draws "different address spaces", a direct dereference draws "dereference of
 * noderef expression".  For the compiler both annotations vanish.  A cast that
 * crosses address spaces on purpose (an accessor's own instruction, a target
 * handing out its mapping) carries __force.
 */
#ifdef __CHECKER__
# define __iomem __attribute__((noderef, address_space(__iomem)))
# define __force __attribute__((force))
#else
# define __iomem
# define __force
#endif

#ifndef __always_inline
# define __always_inline inline __attribute__((__always_inline__))
#endif

#endif
