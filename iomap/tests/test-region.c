/* test-region.c: region cookies over a plain file: every width and strategy reads and writes the file's bytes, writes outside the window fault, stray instructions fault */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "iomap/region.h"

/*
 * A vfio region is a range of the device file; a temporary file stands in
 * for it here, so every access can be checked against the file's bytes.
 * The file: 64 bytes, byte i holds i + 1; the region is bytes [3, 3+40)
 * of it, writable in [8, 8+8) of the region.
 */
#define FILE_LEN 64
#define REGION_OFF 3
#define REGION_LEN 40
#define WRITE_OFF 8
#define WRITE_LEN 8

static sigjmp_buf jump;
static void *volatile fault_at;

static void on_segv(int signo, siginfo_t *si, void *uc)
{
	(void)signo;
	(void)uc;
	fault_at = si->si_addr;
	siglongjmp(jump, 1);
}

static uint8_t file_byte(int fd, off_t at)
{
	uint8_t b = 0;

	CHECK_EQ(pread(fd, &b, 1, at), 1);
	return b;
}

/* The little-endian value of n bytes of the file at `at`. */
static uint64_t file_value(int fd, off_t at, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)file_byte(fd, at + i) << (8 * i);
	return v;
}

static void test_reads(int fd, char __iomem *c)
{
	/* every width and every strategy with region forms, at every offset the width fits */
#define READS(bits, type, k, reg, wreg, id, access, order)				\
	for (unsigned int off = 0; off + bits / 8 <= REGION_LEN; off++) {		\
		check_context("iomap_pread%d_%s at %u", bits, #id, off);		\
		CHECK_EQ(iomap_pread##bits##_##id(c + off), file_value(fd, REGION_OFF + off, bits / 8)); \
	}
	IOMAP_EACH_REGION(READS)
#undef READS
	check_context("a read that leaves the region");
	CHECK_EQ(iomap_region_read(c + REGION_LEN - 2, 4), 0xffffffffu);
	CHECK_EQ(iomap_region_read(c - 1, 1), 0xffu);
}

static void test_writes(int fd, char __iomem *c)
{
	uint8_t before[FILE_LEN];

	check_context("writes inside the window");
	iomap_pwrite8_relaxed(0xa1, c + WRITE_OFF);
	iomap_pwrite16_barriered(0xb2c3, c + WRITE_OFF + 2);
	iomap_pwrite32_ordered(0xd4e5f607, c + WRITE_OFF + 4);
	CHECK_EQ(file_value(fd, REGION_OFF + WRITE_OFF, 1), 0xa1);
	CHECK_EQ(file_value(fd, REGION_OFF + WRITE_OFF + 1, 1), REGION_OFF + WRITE_OFF + 1 + 1);	/* untouched */
	CHECK_EQ(file_value(fd, REGION_OFF + WRITE_OFF + 2, 2), 0xb2c3);
	CHECK_EQ(file_value(fd, REGION_OFF + WRITE_OFF + 4, 4), 0xd4e5f607);
	iomap_pwrite64_fenced(0x0102030405060708ull, c + WRITE_OFF);
	CHECK_EQ(file_value(fd, REGION_OFF + WRITE_OFF, 8), 0x0102030405060708ull);
	CHECK_EQ(iomap_pread64_relaxed(c + WRITE_OFF), 0x0102030405060708ull);

	/* outside the window (also straddling its edges): a fault at the cookie, the file untouched */
	static const unsigned int outside[][2] = {
		{ 0, 1 }, { WRITE_OFF - 1, 1 }, { WRITE_OFF + WRITE_LEN, 1 }, { WRITE_OFF - 2, 4 },
		{ WRITE_OFF + 4, 8 }, { REGION_LEN - 1, 1 },
	};
	for (size_t i = 0; i < sizeof(outside) / sizeof(outside[0]); i++) {
		char __iomem *at = c + outside[i][0];

		check_context("a %u-byte write at %u, outside the window", outside[i][1], outside[i][0]);
		CHECK_EQ(pread(fd, before, sizeof(before), 0), sizeof(before));
		fault_at = NULL;
		if (!sigsetjmp(jump, 1))
			iomap_region_write(0x5a5a5a5a5a5a5a5aull, at, outside[i][1]);
		CHECK(fault_at == (void __force *)at);
		for (off_t j = 0; j < FILE_LEN; j++)
			CHECK_EQ(file_byte(fd, j), before[j]);
	}
}

int main(void)
{
	char path[] = "/tmp/test-region-XXXXXX", why[200] = "";
	struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO };
	uint8_t bytes[FILE_LEN];
	char __iomem *c;
	int fd = mkstemp(path);

	if (!CHECK(fd >= 0))
		return check_report("test-region");
	unlink(path);
	for (int i = 0; i < FILE_LEN; i++)
		bytes[i] = (uint8_t)(i + 1);
	CHECK_EQ(write(fd, bytes, sizeof(bytes)), sizeof(bytes));
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);

	check_context("map");
	c = iomap_region_map(fd, REGION_OFF, REGION_LEN, WRITE_OFF, WRITE_LEN, why, sizeof(why));
	if (!CHECK(c != NULL)) {
		fprintf(stderr, "    why: %s\n", why);
		return check_report("test-region");
	}
	/* the cookie's alignment is the file offset's, so alignment checks on the window hold for the device */
	CHECK_EQ((uintptr_t)(void __force *)c % 8, REGION_OFF % 8);

	test_reads(fd, c);
	test_writes(fd, c);

	check_context("an instruction on the window faults: nothing is there");
	fault_at = NULL;
	if (!sigsetjmp(jump, 1))
		(void)readl(c + 4);
	CHECK(fault_at == (void __force *)(c + 4));

	check_context("a write window beyond the region is refused");
	errno = 0;
	CHECK(iomap_region_map(fd, 0, 16, 8, 16, why, sizeof(why)) == NULL);
	CHECK_EQ(errno, EINVAL);

	check_context("unmapped: the cookies are no region's");
	iomap_region_unmap(c);
	CHECK_EQ(iomap_region_read(c, 4), 0xffffffffu);
	close(fd);
	return check_report("test-region");
}
