/* kernel-names.h: the accessors asm-check-arm64.sh compares, instruction for instruction, with the kernel's own (kernel-accessors.c) */
#ifndef IOMAP_TESTS_KERNEL_NAMES_H
#define IOMAP_TESTS_KERNEL_NAMES_H

/*
 * Each name is a function of both objects: asm-accessors.c wraps ours,
 * kernel-accessors.c the kernel's (Linux v6.1 as Debian builds it for
 * arm64, compiled from its headers at test time), each out of line with the
 * same signature, so that the two bodies must be the same instructions.
 * R(name, type): a read; W(name, type): a write; S(reads, writes, count
 * type): a _rep pair.  The pointers are plain void *: the kernel's own
 * signatures differ in const and volatile, which changes no instruction.
 */
#define KERNEL_WIDTH_NAMES(R, W, S, bits, k, type)				\
	R(read##k, type) W(write##k, type)					\
	R(read##k##_relaxed, type) W(write##k##_relaxed, type)		\
	R(__raw_read##k, type) W(__raw_write##k, type)			\
	R(ioread##bits, type) W(iowrite##bits, type)				\
	S(reads##k, writes##k, unsigned int)					\
	S(ioread##bits##_rep, iowrite##bits##_rep, unsigned long)
#define KERNEL_NAMES(R, W, S)							\
	KERNEL_WIDTH_NAMES(R, W, S, 8, b, uint8_t)				\
	KERNEL_WIDTH_NAMES(R, W, S, 16, w, uint16_t)				\
	KERNEL_WIDTH_NAMES(R, W, S, 32, l, uint32_t)				\
	KERNEL_WIDTH_NAMES(R, W, S, 64, q, uint64_t)				\
	R(ioread16be, uint16_t) W(iowrite16be, uint16_t)			\
	R(ioread32be, uint32_t) W(iowrite32be, uint32_t)			\
	R(ioread64be, uint64_t) W(iowrite64be, uint64_t)			\
	R(lo_hi_readq, uint64_t) W(lo_hi_writeq, uint64_t)			\
	R(lo_hi_readq_relaxed, uint64_t) W(lo_hi_writeq_relaxed, uint64_t)	\
	R(hi_lo_readq, uint64_t) W(hi_lo_writeq, uint64_t)			\
	R(hi_lo_readq_relaxed, uint64_t) W(hi_lo_writeq_relaxed, uint64_t)	\
	R(ioread64_lo_hi, uint64_t) W(iowrite64_lo_hi, uint64_t)		\
	R(ioread64_hi_lo, uint64_t) W(iowrite64_hi_lo, uint64_t)		\
	R(ioread64be_lo_hi, uint64_t) W(iowrite64be_lo_hi, uint64_t)		\
	R(ioread64be_hi_lo, uint64_t) W(iowrite64be_hi_lo, uint64_t)

/* kn_<name>: one out-of-line function per name, calling it. */
#define KERNEL_NAME_READ(name, type)						\
	type kn_##name(void *addr);						\
	__attribute__((noinline)) type kn_##name(void *addr) { return name(addr); }
#define KERNEL_NAME_WRITE(name, type)						\
	void kn_##name(type v, void *addr);					\
	__attribute__((noinline)) void kn_##name(type v, void *addr) { name(v, addr); }
#define KERNEL_NAME_REP(reads, writes, count_type)				\
	void kn_##reads(void *addr, void *buf, count_type count);		\
	void kn_##writes(void *addr, const void *buf, count_type count);	\
	__attribute__((noinline)) void kn_##reads(void *addr, void *buf, count_type count) \
	{ reads(addr, buf, count); }						\
	__attribute__((noinline)) void kn_##writes(void *addr, const void *buf, count_type count) \
	{ writes(addr, buf, count); }

#endif
