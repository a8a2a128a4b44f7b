/* fuzz-spec.c: fuzz target for the target-spec parser: any bytes as a spec, and its canonical form a fixed point */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iomap/target.h"
#include "violated.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A reason is printed as one line after "regbench: ": no control character may break or colour it. */
static int one_printable_line(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/* Each option of a canonical form given once more must be refused: one spec, one meaning. */
static void repeated_options_refused(const char *canonical)
{
	char twice[1024], why[512], out[512];

	for (const char *o = strchr(canonical, ','); o; o = strchr(o + 1, ',')) {
		snprintf(twice, sizeof(twice), "%s%.*s", canonical, (int)strcspn(o + 1, ",") + 1, o);
		if (!iomap_spec_canonical(twice, out, sizeof(out), why, sizeof(why)))
			violated("'%s' repeats an option of '%s' and is accepted as '%s'", twice, canonical, out);
	}
}

/*
 * The input up to its first NUL is the spec, in a buffer of exactly its
 * length so that the sanitizer sees any read past its end.  Properties: a
 * spec is either refused with a reason or has a canonical form; the
 * canonical form is a spec that means the same, so it canonicalizes to
 * itself; reasons are one printable line; an option given twice is refused.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len = strnlen((const char *)data, size);
	char *text = malloc(len + 1);
	char out[512], again[512], why[512];

	if (!text)
		abort();
	memcpy(text, data, len);
	text[len] = '\0';
	why[0] = '\0';
	if (iomap_spec_canonical(text, out, sizeof(out), why, sizeof(why))) {
		if (!why[0] || !one_printable_line(why))
			violated("refused with a reason that is not one printable line: '%s'", why);
	} else {
		if (!one_printable_line(out))
			violated("'%s' has a canonical form that is not one printable line: '%s'", text, out);
		if (iomap_spec_canonical(out, again, sizeof(again), why, sizeof(why)))
			violated("'%s' has the canonical form '%s', which is refused: %s", text, out, why);
		if (strcmp(out, again))
			violated("'%s' has the canonical form '%s', which canonicalizes to '%s'", text, out, again);
		repeated_options_refused(out);
	}
	free(text);
	return 0;
}
