/* violated.h: how a fuzz target reports a broken property: one line naming it, then abort, so that the fuzzer keeps the input */
#ifndef FUZZ_VIOLATED_H
#define FUZZ_VIOLATED_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void __attribute__((noreturn, format(printf, 1, 2))) violated(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "%s: ", program_invocation_short_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

#endif
