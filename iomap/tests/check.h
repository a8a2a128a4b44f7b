/* check.h: the tests' assertions: count every check, print each failure with file:line, values and context */
#ifndef IOMAP_TESTS_CHECK_H
#define IOMAP_TESTS_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/*
 * Tests loop over widths, strategies, offsets and sizes, so a bare
 * file:line does not say which case failed: check_context() names the case
 * being run and every failure prints it.  Failures are capped so that one
 * broken accessor does not bury the summary under a million lines.
 */
#define CHECK_MAX_PRINTED 50

static unsigned long check_passed, check_failed, check_skipped;
static char check_case[256];

static inline void check_context(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(check_case, sizeof(check_case), fmt, ap);
	va_end(ap);
}

static inline int check_fail_header(const char *file, int line)
{
	if (++check_failed > CHECK_MAX_PRINTED)
		return 0;
	fprintf(stderr, "%s:%d: FAIL%s%s%s: ", file, line, *check_case ? " [" : "", check_case,
		*check_case ? "]" : "");
	return 1;
}

static inline int check_true(int ok, const char *file, int line, const char *expr)
{
	if (ok) {
		check_passed++;
		return 1;
	}
	if (check_fail_header(file, line))
		fprintf(stderr, "%s\n", expr);
	return 0;
}

static inline int check_eq(unsigned long long got, unsigned long long want, const char *file, int line,
			   const char *got_expr, const char *want_expr)
{
	if (got == want) {
		check_passed++;
		return 1;
	}
	if (check_fail_header(file, line))
		fprintf(stderr, "%s == %s: got 0x%llx (%lld), want 0x%llx (%lld)\n", got_expr, want_expr,
			got, (long long)got, want, (long long)want);
	return 0;
}

static inline int check_streq(const char *got, const char *want, const char *file, int line,
			      const char *got_expr)
{
	if (got && want && !strcmp(got, want)) {
		check_passed++;
		return 1;
	}
	if (check_fail_header(file, line))
		fprintf(stderr, "%s:\n    got  '%s'\n    want '%s'\n", got_expr, got ? got : "(null)",
			want ? want : "(null)");
	return 0;
}

/* Each evaluates to 1 when the check passed, so a test can stop a case that already failed. */
#define CHECK(cond)		check_true(!!(cond), __FILE__, __LINE__, #cond)
#define CHECK_EQ(got, want)	check_eq((unsigned long long)(got), (unsigned long long)(want), \
					 __FILE__, __LINE__, #got, #want)
#define CHECK_STREQ(got, want)	check_streq((got), (want), __FILE__, __LINE__, #got)

/* A case that cannot run here: said once, counted, never a pass. */
static inline void check_skip(const char *fmt, ...)
{
	va_list ap;

	check_skipped++;
	printf("SKIP: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* The exit status of a test program: non-zero on any failure, or when nothing was checked at all. */
static inline int check_report(const char *name)
{
	if (check_failed) {
		if (check_failed > CHECK_MAX_PRINTED)
			fprintf(stderr, "(%lu more failures not printed)\n", check_failed - CHECK_MAX_PRINTED);
		fprintf(stderr, "%s: %lu of %lu checks FAILED\n", name, check_failed, check_failed + check_passed);
		return 1;
	}
	if (!check_passed) {
		fprintf(stderr, "%s: no checks ran\n", name);
		return 1;
	}
	printf("%s: %lu checks passed", name, check_passed);
	if (check_skipped)
		printf(", %lu cases skipped", check_skipped);
	printf("\n");
	return 0;
}

#endif
