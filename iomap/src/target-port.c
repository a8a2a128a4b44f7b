/* target-port.c: x86 port I/O through ioperm on exactly the named range, exact-width in/out/ins/outs; elsewhere the one line saying there are no I/O instructions */
#include <errno.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "backends.h"
#include "iomap/io.h"

/*
 * ioperm(2) covers every one of the 65536 ports on current kernels, so iopl,
 * which opens all of them at once, is never needed for a range and is never
 * used.  The system call is made directly: glibc declares ioperm in
 * <sys/io.h> beside its own inb/outb, which io.h defines too.
 */
#ifdef IOMAP_HAVE_PORT_IO
static int ioperm_call(unsigned long from, unsigned long num, int on)
{
	return (int)syscall(SYS_ioperm, from, num, on);
}
#else
/*
 * Only x86 has I/O instructions.  On arm64 a device's I/O space is memory
 * the kernel maps at PCI_IOBASE, out of user space's reach but through the
 * device's PCI I/O BAR, which pci: (the sysfs resource file) and vfio: (the
 * region) read and write with the kernel making the access.
 */
#define NO_PORT_IO ENOTSUP
static int ioperm_call(unsigned long from, unsigned long num, int on)
{
	(void)from, (void)num, (void)on;
	errno = NO_PORT_IO;
	return -1;
}
#endif

const char *iomap_lockdown(void)
{
	static char mode[32];
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/security/lockdown", "r");
	char *open_br, *close_br;

	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	open_br = strchr(buf, '[');
	close_br = open_br ? strchr(open_br, ']') : NULL;
	if (!close_br || (size_t)(close_br - open_br - 1) >= sizeof(mode))
		return NULL;
	memcpy(mode, open_br + 1, close_br - open_br - 1);
	mode[close_br - open_br - 1] = '\0';
	return strcmp(mode, "none") ? mode : NULL;
}

/* CAP_SYS_RAWIO in the effective set: what ioperm asks of the caller. */
static bool has_rawio(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &h, d))
		return false;
	return d[CAP_TO_INDEX(CAP_SYS_RAWIO)].effective & CAP_TO_MASK(CAP_SYS_RAWIO);
}

/* Why ioperm failed with errno e, as one line. */
static void explain(int e, char *why, size_t whylen)
{
	const char *mode = iomap_lockdown();

#ifdef NO_PORT_IO
	if (e == NO_PORT_IO) {
		snprintf(why, whylen, "this architecture has no I/O instructions (only x86 has in/out; on arm64 a "
			 "device's ports are its PCI I/O BAR: use pci:SLOT/BAR or vfio:SLOT/BAR)");
		return;
	}
#endif
	if (e == ENOSYS)
		snprintf(why, whylen, "this kernel has no ioperm/iopl (built without CONFIG_X86_IOPL_IOPERM; "
			 "/dev/port would be byte-wise only and is not substituted)");
	else if (e == EPERM && geteuid() != 0 && !has_rawio())
		snprintf(why, whylen, "port I/O needs root (CAP_SYS_RAWIO)");
	else if (e == EPERM && mode)
		snprintf(why, whylen, "kernel lockdown (%s) forbids port I/O", mode);
	else
		snprintf(why, whylen, "ioperm refused: %s (needs CAP_SYS_RAWIO)", strerror(e));
}

int iomap_port_request(unsigned int base, unsigned int n, char *why, size_t whylen)
{
	if (ioperm_call(base, n, 1)) {
		int e = errno;

		explain(e, why, whylen);
		errno = e;
		return -1;
	}
	return 0;
}

void iomap_port_release(unsigned int base, unsigned int n)
{
	ioperm_call(base, n, 0);
}

/*
 * Without granting or dropping anything (which could take away a permission
 * the process holds): a kernel with ioperm refuses a zero-length range with
 * EINVAL before it checks permissions, one without has no such call
 * (ENOSYS); then ioperm needs CAP_SYS_RAWIO and no lockdown.
 */
int iomap_port_usable(char *why, size_t whylen)
{
	if (ioperm_call(0x80, 0, 0) && errno != EINVAL) {
		int e = errno;

		explain(e, why, whylen);
		errno = e;
		return -1;
	}
	if (!has_rawio() || iomap_lockdown()) {
		explain(EPERM, why, whylen);
		errno = EPERM;
		return -1;
	}
	return 0;
}

static int port_probe(char *why, size_t whylen)
{
	return iomap_port_usable(why, whylen);
}

/* port:BASE[+LEN][,widths=W] */
struct port_config {
	unsigned int base, len;
	unsigned int widths;	/* allowed access widths, IOMAP_WIDTH_*; 0: 8, 16 and 32 */
};

static int port_parse(void *config, const char *args, char *why, size_t whylen)
{
	struct port_config *c = config;
	const char *rest = args[0] == ':' ? args + 1 : NULL;
	char range[128], opt[128], *plus;
	uint64_t base, len = 1;

	if (!iomap_next_option(&rest, range, sizeof(range)) || !range[0])
		return iomap_fail(why, whylen, EINVAL, "no port given (port:BASE[+LEN], e.g. port:0xc000+256)");
	while (iomap_next_option(&rest, opt, sizeof(opt)))
		if (strncmp(opt, "widths=", 7) || iomap_parse_widths(opt + 7, &c->widths) ||
		    (c->widths & IOMAP_WIDTH_64))
			return iomap_fail(why, whylen, EINVAL, "bad option '%s' (port takes widths= of 8, 16 and 32, "
					  "e.g. port:0xc000+4,widths=32)", opt);
	plus = strchr(range, '+');
	if (plus)
		*plus++ = '\0';
	if (iomap_parse_number(range, 0, 0, &base) || base > 0xffff)
		return iomap_fail(why, whylen, EINVAL,
				  "bad port base '%s' (0 to 0xffff, hex with 0x, e.g. port:0xc000+256)", range);
	if (plus && (iomap_parse_number(plus, 0, 0, &len) || len == 0 || len > 0x10000 - base))
		return iomap_fail(why, whylen, EINVAL,
				  "bad port count '%s' (1 or more, and BASE+LEN at most 0x10000)", plus);
	c->base = (unsigned int)base;
	c->len = (unsigned int)len;
	return 0;
}

static void port_format(const void *config, char *out, size_t outlen)
{
	const struct port_config *c = config;

	snprintf(out, outlen, "port:0x%04x+%u", c->base, c->len);
	iomap_format_widths(c->widths, out, outlen);
}

/*
 * Who owns ports [base, base+n) according to /proc/ioports: the first
 * overlapping entry that is a claim by a driver or the kernel ("rtc0",
 * "serial", "PCI conf1"), into owner; 0 when none is.  Entries that only
 * describe address space, a PCI bus window or a PCI device's BAR (named by its
 * slot), are not claims: for a BAR the pci target checks the device's driver.
 */
static int claimed(unsigned int base, unsigned int n, char *owner, size_t len)
{
	FILE *f = fopen("/proc/ioports", "r");
	char line[160];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned int lo, hi;
		int at = 0;
		char *name;

		if (sscanf(line, " %x-%x : %n", &lo, &hi, &at) < 2 || !at)
			continue;
		name = line + at;
		name[strcspn(name, "\n")] = '\0';
		if (hi < base || lo >= base + n || !strncmp(name, "PCI Bus", 7) ||
		    strspn(name, "0123456789abcdef:.") == strlen(name))
			continue;
		snprintf(owner, len, "%.60s (0x%04x-0x%04x)", name, lo, hi);
		found = 1;
	}
	fclose(f);
	return found;
}

static int port_open(struct iomap_target *t, const void *config, char *why, size_t whylen)
{
	const struct port_config *c = config;
	unsigned int base = c->base, n = c->len;
	char owner[100];

	if (!t->permit.force && claimed(base, n, owner, sizeof(owner)))
		return iomap_fail(why, whylen, EBUSY, "ports 0x%04x-0x%04x overlap %s, claimed in /proc/ioports "
				  "(a driver owns them: choose other ports)", base, base + n - 1, owner);
	if (iomap_port_request(base, n, why, whylen))
		return -1;
	t->base = ioport_map(base, n);
	t->len = n;
	t->space = IOMAP_SPACE_PIO;
	t->mapping = IOMAP_MAP_PORT;
	t->hardware = true;
	t->widths = c->widths ? c->widths : IOMAP_WIDTH_8 | IOMAP_WIDTH_16 | IOMAP_WIDTH_32;
	snprintf(t->what, sizeof(t->what), "ports 0x%04x-0x%04x through ioperm, exact-width in/out",
		 base, base + n - 1);
	return 0;
}

static void port_close(struct iomap_target *t)
{
	const struct port_config *c = t->config;

	iomap_port_release(c->base, c->len);
}

const struct iomap_target_kind iomap_target_port = {
	.name = "port",
	.grammar = "port:BASE[+LEN][,widths=W]",
	.help = "port I/O through ioperm on exactly BASE..BASE+LEN-1, exact width (in/out, rep ins/outs)",
	.config_size = sizeof(struct port_config),
	.parse = port_parse,
	.format = port_format,
	.probe = port_probe,
	.open = port_open,
	.close = port_close,
};
