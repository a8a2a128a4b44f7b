/* strategy.c: the table of strategies: what each can do, its accessors, and lookup by name at run time */
#include <cpuid.h>
#include <string.h>

#include "iomap/strategy.h"
#include "iomap/target.h"

#define STR(x) STR_(x)
#define STR_(x) #x

/*
 * The function pointers of a row, from the strategy's id: its single
 * accesses at every width, its _rep loops, its copies in all three
 * directions.  A row spells out whatever it has only in part.
 */
#define SINGLES(id)								\
	.read8 = iomap_read8_##id, .read16 = iomap_read16_##id,		\
	.read32 = iomap_read32_##id, .read64 = iomap_read64_##id,		\
	.write8 = iomap_write8_##id, .write16 = iomap_write16_##id,		\
	.write32 = iomap_write32_##id, .write64 = iomap_write64_##id
#define REPS(id)								\
	.read_rep = { iomap_read8_rep_##id, iomap_read16_rep_##id,		\
		      iomap_read32_rep_##id, iomap_read64_rep_##id },		\
	.write_rep = { iomap_write8_rep_##id, iomap_write16_rep_##id,		\
		       iomap_write32_rep_##id, iomap_write64_rep_##id }
#define COPIES(id)								\
	.copy_fromio = iomap_copy_fromio_##id, .copy_toio = iomap_copy_toio_##id, .set_io = iomap_set_io_##id

/* Where a single access needs its own kind of device (ports) or CPU, the skip reason says so. */
#define ORDERS_SINGLES "it orders single accesses; loops and copies with barriers are the barriered strategy"
#define SPLITS_64 "it splits 64-bit accesses for 32-bit-only devices: other widths, _rep and copies are " \
	"the other strategies'"
#define MOVES_RANGES "vector accesses move ranges of memory, not one register once or count times"

/*
 * Every strategy, in the order reports show them: what it can do and its
 * accessors.  A form it lacks is false or NULL here, and `lacks` is the
 * reason a benchmark that needs it is skipped.  Its single accesses, port
 * forms and _rep loops are built in io.h (IOMAP_STRATEGIES and the _rep
 * lines), its copies in copy.c; the tests hold this table to what they
 * issue.
 */
const struct iomap_strategy iomap_strategies[] = {
	{
		.name = "volatile", .id = "volatile",
		.help = "C volatile dereference of the exact-width type",
		.lacks = "C cannot dereference a port: volatile has no port form",
		.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8,
		.mmio_rep = true,
		.copy = true, .copy_widths = 1 | 2 | 4 | 8, .copy_element = 8,
		SINGLES(volatile), REPS(volatile), COPIES(volatile),
	}, {
		.name = "ordered", .id = "ordered",
		.help = "one inline-asm mov of the exact width with a compiler barrier: x86 readl/writel",
		.lacks = "its copies would be the relaxed strategy's loop: a compiler barrier between the movs of one copy "
			 "changes nothing the device sees",
		.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8,
		.port_single = true, .port_widths = 1 | 2 | 4,
		.mmio_rep = true, .port_rep = true,
		SINGLES(ordered), REPS(ordered),
	}, {
		.name = "relaxed", .id = "relaxed",
		.help = "one inline-asm mov of the exact width, no compiler barrier: x86 readl_relaxed, __raw_readl; "
			"_rep: readsX/writesX",
		.lacks = "",
		.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8,
		.port_single = true, .port_widths = 1 | 2 | 4,
		.mmio_rep = true, .port_rep = true,
		.copy = true, .copy_widths = 1 | 2 | 4 | 8, .copy_element = 8,
		SINGLES(relaxed), REPS(relaxed), COPIES(relaxed),
	}, {
		.name = "barriered", .id = "barriered",
		.help = "portable ordering: read then lfence, sfence then write",
		.lacks = "",
		.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8,
		.port_single = true, .port_widths = 1 | 2 | 4,
		.mmio_rep = true, .port_rep = true,
		.copy = true, .copy_widths = 1 | 2 | 4 | 8, .copy_element = 8,
		SINGLES(barriered), REPS(barriered), COPIES(barriered),
	}, {
		.name = "fenced", .id = "fenced",
		.help = "mfence before and after the access",
		.lacks = ORDERS_SINGLES,
		.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8,
		.port_single = true, .port_widths = 1 | 2 | 4,
		SINGLES(fenced),
	}, {
		.name = "locked", .id = "locked",
		.help = "a locked no-op (lock or $0,(%rsp)) before and after the access",
		.lacks = ORDERS_SINGLES,
		.single = true, .single_widths = IOMAP_WIDTHS_ALL, .single_issues64 = 8,
		.port_single = true, .port_widths = 1 | 2 | 4,
		SINGLES(locked),
	}, {
		.name = "lo-hi", .id = "lo_hi",
		.help = "a 64-bit access as two 32-bit ones, low half first: lo_hi_readq/writeq (two readl), "
			"ioread64_lo_hi on a port (two inl)",
		.lacks = SPLITS_64,
		.single = true, .single_widths = IOMAP_WIDTH_64, .single_issues64 = 4,
		.port_single = true, .port_widths = IOMAP_WIDTH_64,
		.read64 = iomap_read64_lo_hi, .write64 = iomap_write64_lo_hi,
	}, {
		.name = "hi-lo", .id = "hi_lo",
		.help = "a 64-bit access as two 32-bit ones, high half first: hi_lo_readq/writeq, "
			"ioread64_hi_lo on a port",
		.lacks = SPLITS_64,
		.single = true, .single_widths = IOMAP_WIDTH_64, .single_issues64 = 4,
		.port_single = true, .port_widths = IOMAP_WIDTH_64,
		.read64 = iomap_read64_hi_lo, .write64 = iomap_write64_hi_lo,
	}, {
		.name = "io-delay", .id = "io_delay",
		.help = "x86 inb_p/outb_p: the port access, then the I/O delay (outb %al,$0x80)",
		.lacks = "it is port I/O with x86's I/O delay, which writes port 0x80: it has no MMIO form, "
			 "and its string forms (insb_p) are insb",
		.single_issues64 = 8,
		.port_single = true, .port_widths = 1 | 2 | 4, .delay_port = 0x80,
	}, {
		.name = "string", .id = "string",
		.help = "rep movsb / rep stosb (byte elements); rep insX/outsX for port _rep",
		.lacks = "it moves ranges (a single access is one mov: the relaxed strategy); x86 has no string "
			 "instruction that repeats one memory address, so its _rep is rep insX/outsX on port targets",
		.port_rep = true,
		.copy = true, .copy_widths = 1, .copy_element = 1,
		COPIES(string),
	}, {
		.name = "string-wide", .id = "string_wide",
		.help = "byte head and tail, rep movsq / rep stosq between",
		.lacks = "it moves ranges of memory: a single access is one mov (the relaxed strategy), and x86 "
			 "has no string instruction that repeats one memory address",
		.copy = true, .copy_widths = 1 | 8, .copy_element = 8,
		COPIES(string_wide),
	}, {
		.name = "kernel", .id = "kernel",
		.help = "x86 Linux memcpy_toio/_fromio: movsb and movsw to align the device side, rep movsl, "
			"movsw/movsb tail; memset_io: the kernel's memset without FSRS (an unaligned movq head, "
			"movq body, movb tail)",
		.lacks = "it is x86 Linux's memcpy_toio, memcpy_fromio and memset_io: ranges only",
		.copy = true, .copy_widths = 1 | 2 | 4 | 8, .copy_element = 8,
		COPIES(kernel),
	}, {
		.name = "kernel-unrolled", .id = "kernel_unrolled",
		.help = "x86 Linux's copies in confidential-computing guests (CC_ATTR_GUEST_UNROLL_STRING_IO): "
			"one readb/writeb per byte",
		.lacks = "it is x86 Linux's memcpy_toio, memcpy_fromio and memset_io in a confidential guest: "
			 "ranges only",
		.copy = true, .copy_widths = 1, .copy_element = 1,
		COPIES(kernel_unrolled),
	}, {
		.name = "iowrite32-copy", .id = "iowrite32_copy",
		.help = "x86 Linux __iowrite32_copy: rep movsl of whole 32-bit words, to the device only",
		.lacks = "it copies whole 32-bit words to the device only (__iowrite32_copy)",
		.copy = true, .copy_widths = 4, .copy_element = 4, .copy_words = true,
		.copy_toio = iomap_copy_toio_iowrite32_copy,
	}, {
		.name = "iowrite64-copy", .id = "iowrite64_copy",
		.help = "Linux __iowrite64_copy on x86-64: a loop of __raw_writeq, whole 64-bit words, to the device only",
		.lacks = "it copies whole 64-bit words to the device only (__iowrite64_copy)",
		.copy = true, .copy_widths = 8, .copy_element = 8, .copy_words = true,
		.copy_toio = iomap_copy_toio_iowrite64_copy,
	}, {
		.name = "ioread32-copy", .id = "ioread32_copy",
		.help = "Linux __ioread32_copy: a loop of __raw_readl, whole 32-bit words, from the device only",
		.lacks = "it copies whole 32-bit words from the device only (__ioread32_copy)",
		.copy = true, .copy_widths = 4, .copy_element = 4, .copy_words = true,
		.copy_fromio = iomap_copy_fromio_ioread32_copy,
	}, {
		.name = "simd", .id = "simd",
		.help = "AVX2 32-byte aligned loads/stores, relaxed head and tail",
		.lacks = MOVES_RANGES,
		.copy = true, .copy_widths = 1 | 2 | 4 | 8 | 32, .copy_element = 32,
		.feature = IOMAP_FEATURE_avx2,
		COPIES(simd),
	}, {
		.name = "simd-512", .id = "simd_512",
		.help = "AVX-512 64-byte aligned loads/stores, relaxed head and tail",
		.lacks = MOVES_RANGES,
		.copy = true, .copy_widths = 1 | 2 | 4 | 8 | 64, .copy_element = 64,
		.feature = IOMAP_FEATURE_avx512f,
		COPIES(simd_512),
	}, {
		.name = "simd-nt", .id = "simd_nt",
		.help = "AVX2 non-temporal vmovntdqa/vmovntdq then sfence (meant for WC)",
		.lacks = MOVES_RANGES,
		.copy = true, .copy_widths = 1 | 2 | 4 | 8 | 32, .copy_element = 32,
		.feature = IOMAP_FEATURE_avx2,
		COPIES(simd_nt),
	},
};

const size_t iomap_nr_strategies = sizeof(iomap_strategies) / sizeof(iomap_strategies[0]);

const struct iomap_strategy *iomap_strategy_find(const char *name)
{
	for (size_t i = 0; i < iomap_nr_strategies; i++)
		if (!strcmp(iomap_strategies[i].name, name))
			return &iomap_strategies[i];
	return NULL;
}

const struct iomap_strategy *iomap_strategy_find_id(const char *id)
{
	for (size_t i = 0; i < iomap_nr_strategies; i++)
		if (!strcmp(iomap_strategies[i].id, id))
			return &iomap_strategies[i];
	return NULL;
}

const struct iomap_strategy *iomap_strategy_kernel_single(void)
{
	return iomap_strategy_find_id(STR(IOMAP_KERNEL_SINGLE));
}

const struct iomap_strategy *iomap_strategy_kernel_relaxed(void)
{
	return iomap_strategy_find_id(STR(IOMAP_KERNEL_RELAXED));
}

const struct iomap_strategy *iomap_strategy_kernel_copy(void)
{
	return iomap_strategy_find_id(STR(IOMAP_KERNEL_COPY));
}

/* XCR0: which register states the OS saves, so whether AVX and AVX-512 are usable at all. */
static uint64_t xcr0(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));
	return ((uint64_t)hi << 32) | lo;
}

const char *iomap_strategy_cpu_missing(const struct iomap_strategy *s)
{
	unsigned int a, b, c, d;
	bool avx_os, avx512_os;

	if (s->feature == IOMAP_FEATURE_none)
		return NULL;
	__cpuid(1, a, b, c, d);
	avx_os = (c & bit_OSXSAVE) && (xcr0() & 0x06) == 0x06;
	avx512_os = avx_os && (xcr0() & 0xe0) == 0xe0;
	__cpuid_count(7, 0, a, b, c, d);
	switch (s->feature) {
	case IOMAP_FEATURE_avx2:
		return avx_os && (b & bit_AVX2) ? NULL : "this CPU or OS has no AVX2";
	case IOMAP_FEATURE_avx512f:
		return avx512_os && (b & bit_AVX512F) ? NULL : "this CPU or OS has no AVX-512F";
	default:
		return "unknown CPU feature";
	}
}
