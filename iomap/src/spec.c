/* spec.c: what every backend shares below the table of kinds: the one-line reason, and the spec grammar's pieces */
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
