/* test-spec.c: the target spec parser on good and bad input (exact messages), and opening targets */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "iomap/target.h"

/* Every good spec parses, and its canonical form spells out everything it means. */
struct good {
	const char *text;
	const char *canonical;
};

static const struct good goods[] = {
	{ "ram", "ram:4194304" },
	{ "ram:64k", "ram:65536" },
	{ "ram:2m,huge", "ram:2097152,huge" },
	{ "ram,huge", "ram:4194304,huge" },
	{ "ram:huge", "ram:4194304,huge" },
	{ "ram:4096", "ram:4096" },
	{ "ram:0x1000", "ram:4096" },
	{ "ram:1", "ram:1" },
	{ "ram:010", "ram:10" },			/* decimal, never octal */
	{ "ram:1t", "ram:1099511627776" },		/* the largest, as the message says */
	{ "ram:1024G", "ram:1099511627776" },
	{ "trap", "trap:default" },
	{ "trap:default", "trap:default" },
	{ "trap:fifo-2_b", "trap:fifo-2_b" },
	/* slots as lspci -s takes them: a field left out or * matches anything */
	{ "pci:0000:00:04.0/0", "pci:s=0000:00:04.0/0" },
	{ "pci:00:04.0/2,wc", "pci:s=*:00:04.0/2,wc" },
	{ "pci:04.0/0", "pci:s=*:*:04.0/0" },
	{ "pci:a.1/3", "pci:s=*:*:0a.1/3" },		/* hex, as lspci prints */
	{ "pci:ffff:ff:1f.7/5", "pci:s=ffff:ff:1f.7/5" },
	{ "pci:*:01.0/0", "pci:s=*:*:01.0/0" },
	{ "pci:00:01/0", "pci:s=*:00:01.*/0" },		/* bus 0, device 1: never vendor 0, device 1 */
	{ "pci:04/0", "pci:s=*:*:04.*/0" },
	{ "pci:0000:00:04/0", "pci:s=0000:00:04.*/0" },
	{ "pci:s=00:04.0/0", "pci:s=*:00:04.0/0" },
	{ "pci:s=1:2.3/0", "pci:s=*:01:02.3/0" },
	{ "pci:s=*/0", "pci:s=*:*:*.*/0" },
	{ "pci:*/0", "pci:s=*:*:*.*/0" },		/* any device: said with *, never by leaving it empty */
	/* ids as lspci -d takes them: vendor, device, class and programming interface */
	{ "pci:1234:11e8/0", "pci:d=1234:11e8/0" },
	{ "pci:1af4:1110/2,wc", "pci:d=1af4:1110/2,wc" },
	{ "pci:1AF4:1110/2", "pci:d=1af4:1110/2" },
	{ "pci:1af4:/2", "pci:d=1af4:*/2" },		/* vendor alone */
	{ "pci::1110/2", "pci:d=*:1110/2" },		/* device alone */
	{ "pci:1af4:*/2", "pci:d=1af4:*/2" },
	{ "pci:0000:0001/0", "pci:d=0000:0001/0" },	/* four digits each: ids */
	{ "pci:d=00:01/0", "pci:d=0000:0001/0" },		/* d= says ids outright */
	{ "pci:d=::0200/0", "pci:d=*:*:0200/0" },		/* class: Ethernet controllers */
	{ "pci:d=::0cxx/0", "pci:d=*:*:0cxx/0" },		/* class 0c (serial bus), any subclass */
	{ "pci:d=8086::0601:01/0", "pci:d=8086:*:0601:01/0" },
	{ "pci:d=1af4:1110:*:00/2", "pci:d=1af4:1110:*:00/2" },
	{ "pci:1b36:0005:00ff/1", "pci:d=1b36:0005:00ff/1" },
	/* the window */
	{ "pci:00:04.0/0,off=0x100,len=4k", "pci:s=*:00:04.0/0,off=0x100,len=0x1000" },
	{ "pci:00:04.0/0,off=0", "pci:s=*:00:04.0/0,off=0x0" },
	{ "pci:00:04.0/0,off=010,len=010", "pci:s=*:00:04.0/0,off=0xa,len=0xa" },	/* decimal, never octal */
	{ "pci:00:04.0/0,widths=32+8", "pci:s=*:00:04.0/0,widths=8+32" },
	{ "pci:00:04.0/0,len=4,wc,widths=32", "pci:s=*:00:04.0/0,wc,len=0x4,widths=32" },
	/* vfio: the same selectors and window, pread instead of wc */
	{ "vfio:00:07.0/0", "vfio:s=*:00:07.0/0" },
	{ "vfio:0000:00:07.0/0,len=4,widths=32", "vfio:s=0000:00:07.0/0,len=0x4,widths=32" },
	{ "vfio:1b36:0005/1", "vfio:d=1b36:0005/1" },
	{ "vfio:d=1234:11e8/0,pread,off=0x4,len=4", "vfio:d=1234:11e8/0,pread,off=0x4,len=0x4" },
	{ "vfio:s=07.0/0,off=4,pread", "vfio:s=*:*:07.0/0,pread,off=0x4" },
	/* kernel: pci's selectors and window, measured by the module */
	{ "kernel:1234:11e8/0", "kernel:d=1234:11e8/0" },
	{ "kernel:00:04.0/0,len=4,widths=32", "kernel:s=*:00:04.0/0,len=0x4,widths=32" },
	{ "kernel:s=06.0/2,wc,off=4k", "kernel:s=*:*:06.0/2,wc,off=0x1000" },
	{ "port:0xc000+256", "port:0xc000+256" },
	{ "port:0x80", "port:0x0080+1" },
	{ "port:0200+010", "port:0x00c8+10" },		/* decimal, never octal */
	{ "port:0xffff+1", "port:0xffff+1" },
	{ "port:0+0x10000", "port:0x0000+65536" },
	{ "port:0xc000+4,widths=16+32", "port:0xc000+4,widths=16+32" },
};

static void test_good(const struct good *g)
{
	char why[256] = "", out[160];

	memset(out, 0x5a, sizeof(out));
	check_context("'%s'", g->text);
	if (!CHECK_EQ(iomap_spec_canonical(g->text, out, sizeof(out), why, sizeof(why)), 0)) {
		fprintf(stderr, "    why: %s\n", why);
		return;
	}
	CHECK_STREQ(out, g->canonical);
	/* the canonical form is a spec of its own, and means the same */
	check_context("'%s' again", out);
	if (CHECK_EQ(iomap_spec_canonical(g->canonical, out, sizeof(out), why, sizeof(why)), 0))
		CHECK_STREQ(out, g->canonical);
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
	{ "ram:2m,huge,huge", "target 'ram:2m,huge,huge': option 'huge' given twice (give it once)" },
	{ "ram:64k,fast", "target 'ram:64k,fast': unknown option 'fast' (ram takes a size and huge: ram:2m,huge)" },
	{ "ram,64k", "target 'ram,64k': unknown option '64k' (ram takes a size and huge: ram:2m,huge)" },
	{ "ram:huge,2m", "target 'ram:huge,2m': unknown option '2m' (ram takes a size and huge: ram:2m,huge)" },
	{ "ram:", "target 'ram:': bad size '' (a size from 1 byte to 1t, e.g. ram:64k or ram:2m)" },
	{ "ram:64k,", "target 'ram:64k,': unknown option '' (ram takes a size and huge: ram:2m,huge)" },
	{ "rom:64k", "target 'rom:64k': unknown target kind 'rom' (the kinds: ram, trap, pci, port, vfio, kernel)" },
	{ "", "target '': unknown target kind '' (the kinds: ram, trap, pci, port, vfio, kernel)" },
	{ "RAM", "target 'RAM': unknown target kind 'RAM' (the kinds: ram, trap, pci, port, vfio, kernel)" },
	{ "ram:64k\n", "target spec with a control character (give it on one line)" },
	{ "\033[31mram", "target spec with a control character (give it on one line)" },	/* a terminal escape */
	{ "trap,scratch", "target 'trap,scratch': unknown option 'scratch' (trap takes a model: trap:MODEL)" },
	{ "trap:", "target 'trap:': bad model name '' (letters, digits, - and _, e.g. trap:default)" },	/* as ram: is */
	{ "trap:Fifo!", "target 'trap:Fifo!': bad model name 'Fifo!' (letters, digits, - and _, e.g. trap:default)" },
	{ "kernel", "target 'kernel': no device (kernel:SLOT/BAR or kernel:VENDOR:DEVICE/BAR as lspci -s and -d take "
	  "them, e.g. kernel:00:04.0/0)" },
	{ "kernel:1234:11e8/0,pread", "target 'kernel:1234:11e8/0,pread': unknown option 'pread' (kernel takes wc, off=N, "
	  "len=N and widths=W)" },
	{ "kernel:1234:11e8/7", "target 'kernel:1234:11e8/7': bad BAR '7' (a BAR index 0 to 5)" },
	{ "pci", "target 'pci': no device (pci:SLOT/BAR or pci:VENDOR:DEVICE/BAR as lspci -s and -d take them, "
	  "e.g. pci:00:04.0/0)" },
	{ "pci:00:04.0", "target 'pci:00:04.0': no BAR given (add /N, e.g. pci:00:04.0/0)" },
	{ "pci:00:04.0,wc", "target 'pci:00:04.0,wc': no BAR given (add /N, e.g. pci:00:04.0/0)" },
	{ "pci:00:04.0/6", "target 'pci:00:04.0/6': bad BAR '6' (a BAR index 0 to 5)" },
	{ "pci:00:04.0/", "target 'pci:00:04.0/': bad BAR '' (a BAR index 0 to 5)" },
	{ "pci:00:20.0/0",
	  "target 'pci:00:20.0/0': bad slot '00:20.0': invalid slot number (lspci -s takes [[domain:]bus:]dev.fn in hex with * for any field, e.g. s=00:04.0; ids are d=VENDOR:DEVICE)" },
	{ "pci:00:04.8/0",
	  "target 'pci:00:04.8/0': bad slot '00:04.8': invalid function number (lspci -s takes [[domain:]bus:]dev.fn in hex with * for any field, e.g. s=00:04.0; ids are d=VENDOR:DEVICE)" },
	{ "pci:100:04.0/0",
	  "target 'pci:100:04.0/0': bad slot '100:04.0': invalid bus number (lspci -s takes [[domain:]bus:]dev.fn in hex with * for any field, e.g. s=00:04.0; ids are d=VENDOR:DEVICE)" },
	{ "pci:1:2:3:04.0/0",
	  "target 'pci:1:2:3:04.0/0': bad slot '1:2:3:04.0': too many fields (lspci -s takes [[domain:]bus:]dev.fn in hex with * for any field, e.g. s=00:04.0; ids are d=VENDOR:DEVICE)" },
	{ "pci:12345:11e8/0",
	  "target 'pci:12345:11e8/0': bad slot '12345:11e8': invalid bus number (lspci -s takes [[domain:]bus:]dev.fn in hex with * for any field, e.g. s=00:04.0; ids are d=VENDOR:DEVICE)" },
	{ "pci:1234:zz/0",
	  "target 'pci:1234:zz/0': bad slot '1234:zz': invalid bus number (lspci -s takes [[domain:]bus:]dev.fn in hex with * for any field, e.g. s=00:04.0; ids are d=VENDOR:DEVICE)" },
	{ "pci:1234/0",
	  "target 'pci:1234/0': bad slot '1234': invalid slot number (lspci -s takes [[domain:]bus:]dev.fn in hex with * for any field, e.g. s=00:04.0; ids are d=VENDOR:DEVICE)" },
	{ "pci:s=1234:11e8/0",
	  "target 'pci:s=1234:11e8/0': bad slot '1234:11e8': invalid bus number (lspci -s takes [[domain:]bus:]dev.fn in hex with * for any field, e.g. s=00:04.0; ids are d=VENDOR:DEVICE)" },
	{ "pci:s=00:04.0.1/0",
	  "target 'pci:s=00:04.0.1/0': bad slot '00:04.0.1': invalid slot/function number (lspci -s takes [[domain:]bus:]dev.fn in hex with * for any field, e.g. s=00:04.0; ids are d=VENDOR:DEVICE)" },
	{ "pci:s=g0:04.0/0",
	  "target 'pci:s=g0:04.0/0': bad slot 'g0:04.0': invalid bus number (lspci -s takes [[domain:]bus:]dev.fn in hex with * for any field, e.g. s=00:04.0; ids are d=VENDOR:DEVICE)" },
	{ "pci:d=1234/0",
	  "target 'pci:d=1234/0': bad ids '1234': at least two fields must be given (lspci -d takes [vendor]:[device][:class[:prog_if]] in hex, e.g. d=1234:11e8 or d=1af4:)" },
	{ "pci:d=12345:11e8/0",
	  "target 'pci:d=12345:11e8/0': bad ids '12345:11e8': invalid vendor ID (lspci -d takes [vendor]:[device][:class[:prog_if]] in hex, e.g. d=1234:11e8 or d=1af4:)" },
	{ "pci:d=1234:zz/0",
	  "target 'pci:d=1234:zz/0': bad ids '1234:zz': invalid device ID (lspci -d takes [vendor]:[device][:class[:prog_if]] in hex, e.g. d=1234:11e8 or d=1af4:)" },
	{ "pci:d=::2x0000/0",
	  "target 'pci:d=::2x0000/0': bad ids '::2x0000': invalid class code (lspci -d takes [vendor]:[device][:class[:prog_if]] in hex, e.g. d=1234:11e8 or d=1af4:)" },
	{ "pci:d=:::100/0",
	  "target 'pci:d=:::100/0': bad ids ':::100': invalid programming interface code (lspci -d takes [vendor]:[device][:class[:prog_if]] in hex, e.g. d=1234:11e8 or d=1af4:)" },
	{ "pci:d=1:2:3:4:5/0",
	  "target 'pci:d=1:2:3:4:5/0': bad ids '1:2:3:4:5': too many fields (lspci -d takes [vendor]:[device][:class[:prog_if]] in hex, e.g. d=1234:11e8 or d=1af4:)" },
	/* every selector field empty, as from unset variables: never the first device there is */
	{ "pci:/0", "target 'pci:/0': empty selector '' would take any device (give a slot or ids as lspci -s and -d "
	  "take them, e.g. 00:04.0 or 1234:11e8; * for any)" },
	{ "pci:s=/0", "target 'pci:s=/0': empty selector 's=' would take any device (give a slot or ids as lspci -s "
	  "and -d take them, e.g. 00:04.0 or 1234:11e8; * for any)" },
	{ "pci:d=/0,len=4", "target 'pci:d=/0,len=4': empty selector 'd=' would take any device (give a slot or ids as "
	  "lspci -s and -d take them, e.g. 00:04.0 or 1234:11e8; * for any)" },
	{ "pci::/0", "target 'pci::/0': empty selector ':' would take any device (give a slot or ids as lspci -s and "
	  "-d take them, e.g. 00:04.0 or 1234:11e8; * for any)" },
	{ "pci:d=:::/0", "target 'pci:d=:::/0': empty selector 'd=:::' would take any device (give a slot or ids as "
	  "lspci -s and -d take them, e.g. 00:04.0 or 1234:11e8; * for any)" },
	{ "pci::.:/2,wc", "target 'pci::.:/2,wc': empty selector ':.:' would take any device (give a slot or ids as "
	  "lspci -s and -d take them, e.g. 00:04.0 or 1234:11e8; * for any)" },
	/* an option given twice: which one counts would be a guess */
	{ "pci:00:04.0/0,len=4,len=0x1000", "target 'pci:00:04.0/0,len=4,len=0x1000': option 'len' given twice: "
	  "'len=4' and 'len=0x1000' (give it once)" },
	{ "pci:00:04.0/0,off=4,len=4,off=8", "target 'pci:00:04.0/0,off=4,len=4,off=8': option 'off' given twice: "
	  "'off=4' and 'off=8' (give it once)" },
	{ "pci:00:04.0/0,widths=32,widths=32", "target 'pci:00:04.0/0,widths=32,widths=32': option 'widths=32' "
	  "given twice (give it once)" },
	{ "pci:00:06.0/2,wc,len=4k,wc", "target 'pci:00:06.0/2,wc,len=4k,wc': option 'wc' given twice (give it once)" },
	{ "pci:00:04.0/0,fast", "target 'pci:00:04.0/0,fast': unknown option 'fast' (pci takes wc, off=N, len=N and widths=W)" },
	{ "pci:00:04.0/0,pread", "target 'pci:00:04.0/0,pread': unknown option 'pread' (pci takes wc, off=N, len=N and widths=W)" },
	{ "pci:00:04.0/0,off=x", "target 'pci:00:04.0/0,off=x': bad offset 'x' (off=N, e.g. off=0x100)" },
	{ "pci:00:04.0/0,off= -1", "target 'pci:00:04.0/0,off= -1': bad offset ' -1' (off=N, e.g. off=0x100)" },
	{ "pci:00:04.0/0,len=0", "target 'pci:00:04.0/0,len=0': bad length '0' (len=N, N > 0, e.g. len=4k)" },
	{ "vfio", "target 'vfio': no device (vfio:SLOT/BAR or vfio:VENDOR:DEVICE/BAR as lspci -s and -d take them, "
	  "e.g. vfio:00:04.0/0)" },
	{ "vfio:00:07.0", "target 'vfio:00:07.0': no BAR given (add /N, e.g. vfio:00:07.0/0)" },
	{ "vfio:00:07.0/0,wc", "target 'vfio:00:07.0/0,wc': unknown option 'wc' (vfio takes pread, off=N, len=N and "
	  "widths=W; vfio-pci maps BARs uncached only)" },
	{ "vfio:00:07.0/0,len=0", "target 'vfio:00:07.0/0,len=0': bad length '0' (len=N, N > 0, e.g. len=4k)" },
	{ "vfio:/0", "target 'vfio:/0': empty selector '' would take any device (give a slot or ids as lspci -s and "
	  "-d take them, e.g. 00:04.0 or 1234:11e8; * for any)" },
	{ "vfio:00:07.0/0,pread,len=4,pread", "target 'vfio:00:07.0/0,pread,len=4,pread': option 'pread' given twice "
	  "(give it once)" },
	{ "vfio:00:07.0/0,len=4,widths=32,len=8", "target 'vfio:00:07.0/0,len=4,widths=32,len=8': option 'len' given "
	  "twice: 'len=4' and 'len=8' (give it once)" },
	{ "vfio:d=1234/0",
	  "target 'vfio:d=1234/0': bad ids '1234': at least two fields must be given (lspci -d takes [vendor]:[device][:class[:prog_if]] in hex, e.g. d=1234:11e8 or d=1af4:)" },
	{ "port", "target 'port': no port given (port:BASE[+LEN], e.g. port:0xc000+256)" },
	{ "port:0x10000",
	  "target 'port:0x10000': bad port base '0x10000' (0 to 0xffff, hex with 0x, e.g. port:0xc000+256)" },
	{ "port:c000", "target 'port:c000': bad port base 'c000' (0 to 0xffff, hex with 0x, e.g. port:0xc000+256)" },
	{ "port:0xffff+2", "target 'port:0xffff+2': bad port count '2' (1 or more, and BASE+LEN at most 0x10000)" },
	{ "port:0xc000+4,widths=8,widths=16", "target 'port:0xc000+4,widths=8,widths=16': option 'widths' given "
	  "twice: 'widths=8' and 'widths=16' (give it once)" },
	{ "port:0x80+0", "target 'port:0x80+0': bad port count '0' (1 or more, and BASE+LEN at most 0x10000)" },
	/* a count so large that BASE+LEN wraps to a small number */
	{ "port:1+0xffffffffffffffff", "target 'port:1+0xffffffffffffffff': bad port count '0xffffffffffffffff' "
	  "(1 or more, and BASE+LEN at most 0x10000)" },
};

static void test_bad(const char *text, const char *want)
{
	char why[256] = "", out[160];

	check_context("'%s'", text);
	errno = 0;
	CHECK_EQ(iomap_spec_canonical(text, out, sizeof(out), why, sizeof(why)), -1);
	CHECK_EQ(errno, EINVAL);
	CHECK_STREQ(why, want);
}

/* The text field holds 127 characters: 127 parse (and are kept whole), 128 are refused. */
static void test_length(void)
{
	char text[129], out[160];
	struct iomap_target t;
	char why[256] = "";

	memset(text, '0', sizeof(text));
	memcpy(text, "ram:", 4);
	memcpy(text + 123, "4096", 5);		/* 127 characters: ram:000...0004096 */
	check_context("a spec of 127 characters");
	if (CHECK_EQ(iomap_spec_canonical(text, out, sizeof(out), why, sizeof(why)), 0))
		CHECK_STREQ(out, "ram:4096");
	if (CHECK_EQ(iomap_target_open(&t, text, why, sizeof(why)), 0)) {
		CHECK_EQ(t.len, 4096);
		CHECK_STREQ(t.spec, text);
		iomap_target_close(&t);
	}
	memcpy(text + 124, "4096", 5);		/* 128 */
	test_bad(text, "target spec too long (at most 127 characters)");

	/* a short buffer gets the start of the message, terminated */
	check_context("a 16-byte why buffer");
	CHECK_EQ(iomap_spec_canonical("ram:12q", out, sizeof(out), why, 16), -1);
	CHECK_STREQ(why, "target 'ram:12q");
}

static void test_kinds(void)
{
	static const char *const names[] = { "ram", "trap", "pci", "port", "vfio", "kernel" };
	char why[256];

	check_context("target kinds");
	CHECK_EQ(iomap_target_kind_count(), sizeof(names) / sizeof(names[0]));
	for (size_t i = 0; i < iomap_target_kind_count() && i < sizeof(names) / sizeof(names[0]); i++) {
		const char *grammar = iomap_target_kind_grammar(i), *help = iomap_target_kind_help(i);

		CHECK_STREQ(iomap_target_kind_name(i), names[i]);
		CHECK(grammar && !strncmp(grammar, names[i], strlen(names[i])));
		CHECK(help && *help);
	}
	CHECK(iomap_target_kind_name(iomap_target_kind_count()) == NULL);
	CHECK_EQ(iomap_target_kind_probe(0, why, sizeof(why)), 0);
	CHECK_EQ(iomap_target_kind_probe(1, why, sizeof(why)), 0);
	CHECK_EQ(iomap_target_kind_probe(iomap_target_kind_count(), why, sizeof(why)), -1);
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
	CHECK_STREQ(t.spec, "ram:64k");
	CHECK_STREQ(iomap_target_kind_of(&t), "ram");
	CHECK_EQ(t.bar, -1);
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
		CHECK_EQ(t.len, 2u << 20);
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
