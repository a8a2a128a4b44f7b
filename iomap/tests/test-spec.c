/* test-spec.c: the target spec parser on good and bad input (exact messages), and opening targets */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "iomap/target.h"

/* Every field of a parsed spec is checked; fields a case does not name must be zero. */
struct good {
	const char *text;
	const char *kind;
	struct iomap_spec want;		/* text and ops are checked separately */
};

#define K 1024ULL
static const struct good goods[] = {
	{ "ram", "ram", { .size = 64 * K } },
	{ "ram:64k", "ram", { .size = 64 * K } },
	{ "ram:2m,huge", "ram", { .size = 2 * K * K, .huge = true } },
	{ "ram,huge", "ram", { .size = 64 * K, .huge = true } },
	{ "ram:huge", "ram", { .size = 64 * K, .huge = true } },
	{ "ram:4096", "ram", { .size = 4096 } },
	{ "ram:0x1000", "ram", { .size = 4096 } },
	{ "ram:1", "ram", { .size = 1 } },
	{ "ram:010", "ram", { .size = 10 } },		/* decimal, never octal */
	{ "ram:1t", "ram", { .size = K * K * K * K } },	/* the largest, as the message says */
	{ "ram:1024G", "ram", { .size = K * K * K * K } },
	{ "trap", "trap", { .model = "default" } },
	{ "trap:default", "trap", { .model = "default" } },
	{ "trap:fifo-2_b", "trap", { .model = "fifo-2_b" } },
	{ "pci:0000:00:04.0/0", "pci", { .dev = 4 } },
	{ "pci:00:04.0/2,wc", "pci", { .dev = 4, .bar = 2, .wc = true } },
	{ "pci:04.0/0", "pci", { .dev = 4 } },
	{ "pci:a.1/3", "pci", { .dev = 0xa, .fn = 1, .bar = 3 } },	/* hex, as lspci prints */
	{ "pci:ffff:ff:1f.7/5", "pci", { .domain = 0xffff, .bus = 0xff, .dev = 0x1f, .fn = 7, .bar = 5 } },
	{ "pci:1234:11e8/0", "pci", { .by_id = true, .vendor = 0x1234, .device = 0x11e8 } },
	{ "pci:1af4:1110/2,wc", "pci", { .by_id = true, .vendor = 0x1af4, .device = 0x1110, .bar = 2, .wc = true } },
	{ "pci:00:04.0/0,off=0x100,len=4k", "pci",
	  { .dev = 4, .has_off = true, .off = 0x100, .has_len = true, .len = 4096 } },
	{ "pci:00:04.0/0,off=0", "pci", { .dev = 4, .has_off = true } },
	{ "port:0xc000+256", "port", { .port_base = 0xc000, .port_len = 256 } },
	{ "port:0x80", "port", { .port_base = 0x80, .port_len = 1 } },
	{ "port:0xffff+1", "port", { .port_base = 0xffff, .port_len = 1 } },
	{ "port:0+0x10000", "port", { .port_base = 0, .port_len = 0x10000 } },
};

#define SPEC_FIELDS(X) X(size) X(huge) X(by_id) X(domain) X(bus) X(dev) X(fn) X(vendor) X(device) \
	X(bar) X(wc) X(has_off) X(off) X(has_len) X(len) X(port_base) X(port_len)

static void test_good(const struct good *g)
{
	struct iomap_spec spec;
	char why[256] = "";

	memset(&spec, 0x5a, sizeof(spec));	/* the parser must clear what it does not set */
	check_context("'%s'", g->text);
	if (!CHECK_EQ(iomap_spec_parse(g->text, &spec, why, sizeof(why)), 0)) {
		fprintf(stderr, "    why: %s\n", why);
		return;
	}
	CHECK_STREQ(spec.text, g->text);
	CHECK(spec.ops != NULL);
	CHECK_STREQ(spec.ops ? spec.ops->name : NULL, g->kind);
	CHECK_STREQ(spec.model, g->want.model);
#define SAME(f) CHECK_EQ(spec.f, g->want.f);
	SPEC_FIELDS(SAME)
#undef SAME
}

struct bad {
	const char *text;
	const char *why;
};

static const struct bad bads[] = {
	{ "ram:12q", "target 'ram:12q': bad size '12q' (a size from 1 byte to 1t, e.g. ram:64k or ram:2m)" },
	{ "ram:0", "target 'ram:0': bad size '0' (a size from 1 byte to 1t, e.g. ram:64k or ram:2m)" },
	{ "ram:1025g", "target 'ram:1025g': bad size '1025g' (a size from 1 byte to 1t, e.g. ram:64k or ram:2m)" },
	{ "ram:-1", "target 'ram:-1': bad size '-1' (a size from 1 byte to 1t, e.g. ram:64k or ram:2m)" },
	{ "ram: 4k", "target 'ram: 4k': bad size ' 4k' (a size from 1 byte to 1t, e.g. ram:64k or ram:2m)" },
	{ "ram:0x", "target 'ram:0x': bad size '0x' (a size from 1 byte to 1t, e.g. ram:64k or ram:2m)" },
	{ "ram:64kk", "target 'ram:64kk': bad size '64kk' (a size from 1 byte to 1t, e.g. ram:64k or ram:2m)" },
	{ "ram:99999999999999999999", "target 'ram:99999999999999999999': bad size '99999999999999999999' "
	  "(a size from 1 byte to 1t, e.g. ram:64k or ram:2m)" },
	{ "ram:64k,fast", "target 'ram:64k,fast': unknown option 'fast' (ram takes a size and huge: ram:2m,huge)" },
	{ "ram,64k", "target 'ram,64k': unknown option '64k' (ram takes a size and huge: ram:2m,huge)" },
	{ "ram:huge,2m", "target 'ram:huge,2m': unknown option '2m' (ram takes a size and huge: ram:2m,huge)" },
	{ "rom:64k", "target 'rom:64k': unknown target kind 'rom' (regbench --list-targets shows the kinds)" },
	{ "", "target '': unknown target kind '' (regbench --list-targets shows the kinds)" },
	{ "RAM", "target 'RAM': unknown target kind 'RAM' (regbench --list-targets shows the kinds)" },
	{ "trap:Fifo!", "target 'trap:Fifo!': bad model name 'Fifo!' (letters, digits, - and _, e.g. trap:default)" },
	{ "pci", "target 'pci': no device (pci:SLOT/BAR or pci:VENDOR:DEVICE/BAR, e.g. pci:00:04.0/0)" },
	{ "pci:00:04.0", "target 'pci:00:04.0': no BAR given (add /N, e.g. pci:00:04.0/0)" },
	{ "pci:00:04.0,wc", "target 'pci:00:04.0,wc': no BAR given (add /N, e.g. pci:00:04.0/0)" },
	{ "pci:00:04.0/6", "target 'pci:00:04.0/6': bad BAR '6' (a BAR index 0 to 5)" },
	{ "pci:00:04.0/", "target 'pci:00:04.0/': bad BAR '' (a BAR index 0 to 5)" },
	{ "pci:00:20.0/0",
	  "target 'pci:00:20.0/0': bad slot '00:20.0' ([[domain:]bus:]dev.fn in hex, as lspci -s takes it)" },
	{ "pci:00:04.8/0",
	  "target 'pci:00:04.8/0': bad slot '00:04.8' ([[domain:]bus:]dev.fn in hex, as lspci -s takes it)" },
	{ "pci:100:04.0/0",
	  "target 'pci:100:04.0/0': bad slot '100:04.0' ([[domain:]bus:]dev.fn in hex, as lspci -s takes it)" },
	{ "pci:1:2:3:04.0/0",
	  "target 'pci:1:2:3:04.0/0': bad slot '1:2:3:04.0' ([[domain:]bus:]dev.fn in hex, as lspci -s takes it)" },
	{ "pci:12345:11e8/0", "target 'pci:12345:11e8/0': bad device '12345:11e8' "
	  "(a slot like 00:04.0 or ids like 1234:11e8, as lspci prints them)" },
	{ "pci:1234:zz/0", "target 'pci:1234:zz/0': bad device '1234:zz' "
	  "(a slot like 00:04.0 or ids like 1234:11e8, as lspci prints them)" },
	{ "pci:1234/0", "target 'pci:1234/0': bad device '1234' "
	  "(a slot like 00:04.0 or ids like 1234:11e8, as lspci prints them)" },
	{ "pci:00:04.0/0,fast", "target 'pci:00:04.0/0,fast': unknown option 'fast' (pci takes wc, off=N, len=N and widths=W)" },
	{ "pci:00:04.0/0,off=x", "target 'pci:00:04.0/0,off=x': bad offset 'x' (off=N, e.g. off=0x100)" },
	{ "pci:00:04.0/0,off= -1", "target 'pci:00:04.0/0,off= -1': bad offset ' -1' (off=N, e.g. off=0x100)" },
	{ "pci:00:04.0/0,len=0", "target 'pci:00:04.0/0,len=0': bad length '0' (len=N, N > 0, e.g. len=4k)" },
	{ "port", "target 'port': no port given (port:BASE[+LEN], e.g. port:0xc000+256)" },
	{ "port:0x10000",
	  "target 'port:0x10000': bad port base '0x10000' (0 to 0xffff, hex with 0x, e.g. port:0xc000+256)" },
	{ "port:c000", "target 'port:c000': bad port base 'c000' (0 to 0xffff, hex with 0x, e.g. port:0xc000+256)" },
	{ "port:0xffff+2", "target 'port:0xffff+2': bad port count '2' (1 or more, and BASE+LEN at most 0x10000)" },
	{ "port:0x80+0", "target 'port:0x80+0': bad port count '0' (1 or more, and BASE+LEN at most 0x10000)" },
	/* a count so large that BASE+LEN wraps to a small number */
	{ "port:1+0xffffffffffffffff", "target 'port:1+0xffffffffffffffff': bad port count '0xffffffffffffffff' "
	  "(1 or more, and BASE+LEN at most 0x10000)" },
};

static void test_bad(const char *text, const char *want)
{
	struct iomap_spec spec;
	char why[256] = "";

	check_context("'%s'", text);
	errno = 0;
	CHECK_EQ(iomap_spec_parse(text, &spec, why, sizeof(why)), -1);
	CHECK_EQ(errno, EINVAL);
	CHECK_STREQ(why, want);
}

/* The text field holds 127 characters: 127 parse (and are kept whole), 128 are refused. */
static void test_length(void)
{
	char text[129];
	struct iomap_spec spec;
	char why[256] = "";

	memset(text, '0', sizeof(text));
	memcpy(text, "ram:", 4);
	memcpy(text + 123, "4096", 5);		/* 127 characters: ram:000...0004096 */
	check_context("a spec of 127 characters");
	if (CHECK_EQ(iomap_spec_parse(text, &spec, why, sizeof(why)), 0)) {
		CHECK_EQ(spec.size, 4096);
		CHECK_STREQ(spec.text, text);
	}
	memcpy(text + 124, "4096", 5);		/* 128 */
	test_bad(text, "target spec too long (at most 127 characters)");

	/* a short buffer gets the start of the message, terminated */
	check_context("a 16-byte why buffer");
	CHECK_EQ(iomap_spec_parse("ram:12q", &spec, why, 16), -1);
	CHECK_STREQ(why, "target 'ram:12q");
}

static void test_kinds(void)
{
	static const char *const names[] = { "ram", "trap", "pci", "port" };
	char why[256];

	check_context("target kinds");
	CHECK_EQ(iomap_nr_target_kinds, sizeof(names) / sizeof(names[0]));
	for (size_t i = 0; i < iomap_nr_target_kinds && i < sizeof(names) / sizeof(names[0]); i++) {
		const struct iomap_target_ops *k = iomap_target_kinds[i];

		CHECK_STREQ(k->name, names[i]);
		CHECK(k->grammar && !strncmp(k->grammar, names[i], strlen(names[i])));
		CHECK(k->help && *k->help);
		/* every kind can say whether it is available, and open */
		CHECK(k->open != NULL && k->probe != NULL);
	}
	CHECK_EQ(iomap_target_probe(iomap_target_kinds[0], why, sizeof(why)), 0);
	CHECK_EQ(iomap_target_probe(iomap_target_kinds[1], why, sizeof(why)), 0);
	CHECK_STREQ(iomap_space_name(IOMAP_SPACE_MMIO), "mmio");
	CHECK_STREQ(iomap_space_name(IOMAP_SPACE_PIO), "pio");
	CHECK_STREQ(iomap_mapping_name(IOMAP_MAP_WB), "wb");
	CHECK_STREQ(iomap_mapping_name(IOMAP_MAP_WC), "wc");
}

static void test_open(void)
{
	struct iomap_target t;
	char why[256];

	/* pci and port open real hardware: their opening is tested in the QEMU guest, never here */
	check_context("open 'ram:12q'");
	CHECK_EQ(iomap_target_open(&t, "ram:12q", why, sizeof(why)), -1);
	CHECK_STREQ(why, bads[0].why);

	check_context("open 'ram:64k'");
	if (!CHECK_EQ(iomap_target_open(&t, "ram:64k", why, sizeof(why)), 0)) {
		fprintf(stderr, "    why: %s\n", why);
		return;
	}
	CHECK(t.base != NULL);
	CHECK_EQ(t.len, 65536);
	CHECK_EQ(t.mapping, IOMAP_MAP_WB);
	CHECK_EQ(t.space, IOMAP_SPACE_MMIO);
	CHECK(t.writable);
	CHECK(t.port == NULL && t.port_len == 0);	/* ram has no port window */
	CHECK_STREQ(t.spec.text, "ram:64k");
	CHECK(strstr(t.what, "65536 bytes") != NULL);
	{
		/* all of it is there and zeroed: write and read the first and last byte */
		volatile unsigned char *p = (volatile unsigned char __force *)t.base;

		CHECK(p[0] == 0 && p[65535] == 0);
		p[0] = p[65535] = 0xa5;
		CHECK(p[0] == 0xa5 && p[65535] == 0xa5);
	}
	iomap_target_close(&t);
	CHECK(t.base == NULL);

	/* an odd size is the length as given, not rounded to pages */
	check_context("open 'ram:100'");
	if (CHECK_EQ(iomap_target_open(&t, "ram:100", why, sizeof(why)), 0)) {
		CHECK_EQ(t.len, 100);
		iomap_target_close(&t);
	}

	/* huge pages may be unavailable here; either way the answer must be consistent */
	check_context("open 'ram:2m,huge'");
	if (!iomap_target_open(&t, "ram:2m,huge", why, sizeof(why))) {
		CHECK_EQ(t.len, 2 * K * K);
		CHECK(strstr(t.what, "huge") != NULL);
		iomap_target_close(&t);
	} else {
		CHECK(!strncmp(why, "target 'ram:2m,huge': no huge pages", 35));
		check_skip("ram:2m,huge: %s", why);
	}

	check_context("open the default target");
	if (CHECK_EQ(iomap_target_open(&t, IOMAP_DEFAULT_TARGET, why, sizeof(why)), 0))
		iomap_target_close(&t);
}

int main(void)
{
	for (size_t i = 0; i < sizeof(goods) / sizeof(goods[0]); i++)
		test_good(&goods[i]);
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++)
		test_bad(bads[i].text, bads[i].why);
	test_length();
	test_kinds();
	test_open();
	return check_report("test-spec");
}
