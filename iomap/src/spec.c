/* spec.c: the target spec: its kind, handed to the kind's own parser, and the grammar pieces the parsers share */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends.h"

int iomap_fail(char *why, size_t whylen, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	errno = err;
	return -1;
}

/*
 * strtoull alone would also take leading blanks and a sign, so the first
 * character must be a digit; base 0 is decimal or 0x hex, never octal
 * (ram:010 is ten bytes).
 */
int iomap_parse_number(const char *s, int base, int units, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned int shift = 0;

	if (!(base == 16 ? isxdigit : isdigit)((unsigned char)*s))
		return -1;
	if (base == 0)
		base = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || end == s)
		return -1;
	if (units && *end) {
		switch (*end++) {
		case 'k': case 'K': shift = 10; break;
		case 'm': case 'M': shift = 20; break;
		case 'g': case 'G': shift = 30; break;
		case 't': case 'T': shift = 40; break;
		default: return -1;
		}
	}
	if (*end || (shift && v > (~0ULL >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

int iomap_parse_widths(const char *s, unsigned int *out)
{
	unsigned int set = 0;

	do {
		uint64_t bits;
		char one[8];
		size_t n = strcspn(s, "+");

		if (n == 0 || n >= sizeof(one))
			return -1;
		memcpy(one, s, n);
		one[n] = '\0';
		if (iomap_parse_number(one, 10, 0, &bits) || (bits != 8 && bits != 16 && bits != 32 && bits != 64))
			return -1;
		set |= (unsigned int)bits / 8;
		s += n;
	} while (*s++ == '+');
	*out = set;
	return 0;
}

void iomap_format_widths(unsigned int widths, char *out, size_t outlen)
{
	size_t n = strlen(out);
	const char *sep = ",widths=";

	for (unsigned int b = 1; b <= 8 && n < outlen; b *= 2) {
		if (!(widths & b))
			continue;
		n += (size_t)snprintf(out + n, outlen - n, "%s%u", sep, b * 8);
		sep = "+";
	}
}

int iomap_next_option(const char **rest, char *opt, size_t optlen)
{
	size_t n;

	if (!*rest)
		return 0;
	n = strcspn(*rest, ",");
	snprintf(opt, optlen, "%.*s", (int)n, *rest);
	*rest = (*rest)[n] ? *rest + n + 1 : NULL;
	return 1;
}

/*
 * An option given twice: the parsers would keep the last and drop the
 * other, so it is refused, as regbench refuses a flag given twice.  Options
 * are the ','-separated parts of args; what precedes '=' names one (len=4
 * and len=0x1000 are both len).  0, or -1 with the reason.
 */
static int option_twice(const char *args, char *why, size_t whylen)
{
	for (const char *a = *args ? args + 1 : NULL; a; a = a[strcspn(a, ",")] ? a + strcspn(a, ",") + 1 : NULL) {
		int alen = (int)strcspn(a, ","), key = (int)strcspn(a, ",=");

		for (const char *b = a + alen; *b; b += 1 + strcspn(b + 1, ",")) {
			int blen = (int)strcspn(b + 1, ",");

			if ((int)strcspn(b + 1, ",=") != key || strncmp(a, b + 1, (size_t)key))
				continue;
			if (alen == blen && !strncmp(a, b + 1, (size_t)alen))
				return iomap_fail(why, whylen, EINVAL, "option '%.*s' given twice (give it once)", alen, a);
			return iomap_fail(why, whylen, EINVAL, "option '%.*s' given twice: '%.*s' and '%.*s' (give it once)",
					  key, a, alen, a, blen, b + 1);
		}
	}
	return 0;
}

/* The kinds' names as a list for people: "ram, trap, pci, port". */
static void kind_names(char *out, size_t len)
{
	size_t n = 0;

	out[0] = '\0';
	for (size_t i = 0; i < iomap_target_kind_count() && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%s", i ? ", " : "", iomap_target_kind_name(i));
}

int iomap_spec_parse(const char *text, const struct iomap_target_kind **kind, void **config, char *why,
		     size_t whylen)
{
	char name[32], reason[200], kinds[100];
	size_t kindlen = strcspn(text, ":,");
	void *cfg;

	*config = NULL;
	if (strlen(text) >= sizeof(((struct iomap_target *)0)->spec))
		return iomap_fail(why, whylen, EINVAL, "target spec too long (at most %zu characters)",
				  sizeof(((struct iomap_target *)0)->spec) - 1);
	/* every reason quotes the spec: an escape or a line break in it would garble that one line */
	for (const char *c = text; *c; c++)
		if (iscntrl((unsigned char)*c))
			return iomap_fail(why, whylen, EINVAL,
					  "target spec with a control character (give it on one line)");
	snprintf(name, sizeof(name), "%.*s", (int)kindlen, text);
	*kind = kindlen < sizeof(name) ? iomap_find_kind(name) : NULL;
	if (!*kind) {
		kind_names(kinds, sizeof(kinds));
		return iomap_fail(why, whylen, EINVAL, "target '%s': unknown target kind '%s' (the kinds: %s)", text, name,
				  kinds);
	}
	cfg = calloc(1, (*kind)->config_size ? (*kind)->config_size : 1);
	if (!cfg)
		return iomap_fail(why, whylen, ENOMEM, "target '%s': out of memory", text);
	if ((*kind)->parse(cfg, text + kindlen, reason, sizeof(reason)) ||
	    option_twice(text + kindlen, reason, sizeof(reason))) {
		int e = errno;

		free(cfg);
		return iomap_fail(why, whylen, e, "target '%s': %s", text, reason);
	}
	*config = cfg;
	return 0;
}

int iomap_spec_canonical(const char *text, char *out, size_t outlen, char *why, size_t whylen)
{
	const struct iomap_target_kind *kind;
	void *config;

	if (iomap_spec_parse(text, &kind, &config, why, whylen))
		return -1;
	kind->format(config, out, outlen);
	free(config);
	return 0;
}
