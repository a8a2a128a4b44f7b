/* target-test.c: the spec grammar of widths=, the write window and the allowed widths, without hardware */
#include <stdio.h>
#include <string.h>

#include "iomap/target.h"

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	failures += !ok;
}

/* The widths= part of a spec's canonical form ("" for none), or "refused". */
static const char *widths_of(const char *text)
{
	static char out[160];
	char why[200];
	const char *w;

	if (iomap_spec_canonical(text, out, sizeof(out), why, sizeof(why)))
		return "refused";
	w = strstr(out, "widths=");
	return w ? w : "";
}

int main(void)
{
	struct iomap_target t;
	char why[200], out[160];

	check(!strcmp(widths_of("pci:00:04.0/0"), ""), "no widths= means every width");
	check(!strcmp(widths_of("pci:00:04.0/0,widths=32"), "widths=32"), "widths=32");
	check(!strcmp(widths_of("pci:1234:11e8/0,off=4,widths=8+16+64"), "widths=8+16+64"),
	      "widths=8+16+64 beside other options");
	check(!strcmp(widths_of("port:0xc000+4,widths=16+32"), "widths=16+32"), "port widths=16+32");
	check(!strcmp(widths_of("pci:00:04.0/0,widths="), "refused") &&
	      !strcmp(widths_of("pci:00:04.0/0,widths=32+"), "refused") &&
	      !strcmp(widths_of("pci:00:04.0/0,widths=24"), "refused"), "empty, dangling and odd widths are refused");
	check(iomap_spec_canonical("port:0xc000+4,widths=64", out, sizeof(out), why, sizeof(why)) == -1 &&
	      !strcmp(why, "target 'port:0xc000+4,widths=64': bad option 'widths=64' "
			   "(port takes widths= of 8, 16 and 32, e.g. port:0xc000+4,widths=32)"),
	      "port refuses 64-bit: x86 has no such port instruction");

	/* A hardware window 0x100+0x40 of a BAR, writes allowed only at BAR offsets 0x104..0x107. */
	memset(&t, 0, sizeof(t));
	t.hardware = true;
	t.off = 0x100;
	t.len = 0x40;
	t.permit.write_off = 0x104;
	t.permit.write_len = 4;
	check(!iomap_target_may_write(&t, 0, 4), "hardware: BAR offset 0x100 lies outside the write window");
	check(iomap_target_may_write(&t, 4, 4), "hardware: BAR offset 0x104, 4 bytes, lies inside it");
	check(!iomap_target_may_write(&t, 4, 8), "hardware: 8 bytes from 0x104 reach past it");
	check(iomap_target_may_write(&t, 6, 2), "hardware: 2 bytes at 0x106 lie inside it");
	t.permit.write_len = 0;
	check(!iomap_target_may_write(&t, 4, 4), "hardware without --allow-write is read-only");
	t.writable = true;
	check(!iomap_target_may_write(&t, 4, 4), "hardware ignores `writable`: only the window counts");

	check(iomap_target_allows_width(&t, 8) && iomap_target_allows_width(&t, 1), "widths 0 allows every width");
	t.widths = IOMAP_WIDTH_32;
	check(iomap_target_allows_width(&t, 4) && !iomap_target_allows_width(&t, 8) &&
	      !iomap_target_allows_width(&t, 1), "widths=32 allows 32-bit only");

	/* ram is not hardware: --allow-write does not narrow it, it stays writable everywhere. */
	struct iomap_permit p = { .write_off = 0, .write_len = 4 };
	check(iomap_target_open_permit(&t, "ram:4k", &p, why, sizeof(why)) == 0 && !t.hardware &&
	      iomap_target_may_write(&t, 0x800, 8) && !iomap_target_may_write(&t, 4092, 8),
	      "ram: writable anywhere inside its window, whatever --allow-write says");
	iomap_target_close(&t);

	printf("target-test: %s\n", failures ? "FAILED" : "all passed");
	return failures != 0;
}
