/* region.h: a device file's region (vfio-pci's BARs) as a window of cookies, reached with pread/pwrite of the exact width in every strategy that has port forms */
#ifndef IOMAP_REGION_H
#define IOMAP_REGION_H

#include <stddef.h>
#include <stdint.h>

#include "iomap/io.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * vfio-pci gives user space a device's I/O BARs only as ranges of its
 * device file (and memory BARs too, where they cannot be mmapped): each access is a pread or pwrite, a system call in which the kernel makes
 * the access (an in/out or a mov of the same width for aligned 1, 2 and 4
 * bytes; 8 may reach the device as two 4-byte accesses, as the kernel
 * decides).  iomap_region_map() reserves address space for such a range and
 * returns its start as a cookie, so that the window is used the way every
 * other target's is (base + offset) and the accessors below turn a cookie
 * back into the file's offset.  The reservation is inaccessible: an
 * instruction that touches it faults instead of reaching anything, as does
 * a write the region does not permit.
 *
 * Opening and closing are not thread-safe; accesses are.
 */

/*
 * Cookies for bytes [offset, offset+len) of the file fd (which stays the
 * caller's).  The cookie of offset lies at offset % 8 in an aligned
 * reservation, so that its alignment is the file offset's.  Writes are
 * allowed only to [write_off, write_off+write_len) counted from `offset`
 * (len 0: none).  NULL with errno and a one-line reason in why.
 */
void __iomem *iomap_region_map(int fd, uint64_t offset, size_t len, uint64_t write_off, uint64_t write_len,
			       char *why, size_t whylen);
void iomap_region_unmap(void __iomem *cookie);

/*
 * One access of `bytes` (1, 2, 4 or 8) at a cookie.  A read that fails (the
 * device is gone) or is not a region's returns all-ones of its width, as a
 * missing device would; a write outside the region's permitted bytes faults
 * at its cookie (SIGSEGV), as a store to a read-only mapping does, and one
 * that is not a region's does nothing.
 */
uint64_t iomap_region_read(const volatile void __iomem *addr, unsigned int bytes);
void iomap_region_write(uint64_t v, volatile void __iomem *addr, unsigned int bytes);

/*
 * iomap_preadN_<id>/iomap_pwriteN_<id>: each strategy's accesses through a
 * region, under its ordering, at the widths its line's region column gives.
 */
#define IOMAP_BUILD_REGION(bits, type, k, reg, wreg, id, access, order)	\
static __always_inline type iomap_pread##bits##_##id(const volatile void __iomem *addr) \
{ return IOMAP_ORDER_R_##order(type, (type)iomap_region_read(addr, bits / 8)); } \
static __always_inline void iomap_pwrite##bits##_##id(type v, volatile void __iomem *addr) \
{ IOMAP_ORDER_W_##order(iomap_region_write(v, addr, bits / 8)); }
IOMAP_EACH_REGION(IOMAP_BUILD_REGION)
#undef IOMAP_BUILD_REGION

#ifdef __cplusplus
}
#endif

#endif
