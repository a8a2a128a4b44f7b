/* consumer.c: an outside program on an installed libiomap: writes a register of a ram target, reads it back */
#include <stdio.h>

#include <iomap/io.h>
#include <iomap/target.h>

int main(void)
{
	struct iomap_target t;
	char why[256];
	unsigned int generic, direct;

	if (iomap_target_open(&t, "ram", why, sizeof(why)) != 0) {
		fprintf(stderr, "consumer: target 'ram': %s\n", why);
		return 1;
	}
	iowrite32(0x12345678, t.base + 8);
	generic = ioread32(t.base + 8);
	direct = readl(t.base + 8);
	iomap_target_close(&t);
	if (generic != 0x12345678 || direct != 0x12345678) {
		fprintf(stderr, "consumer: wrote 0x12345678, ioread32 read 0x%08x, readl 0x%08x\n", generic, direct);
		return 1;
	}
	return 0;
}
