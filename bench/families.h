// families.h: registration: every kernel of the table that the options select, on this target, to run or to skip with the reason
#ifndef REGBENCH_FAMILIES_H
#define REGBENCH_FAMILIES_H

#include <string>
#include <vector>

#include "family.h"
#include "iomap/target.h"
#include "options.h"

struct rb_session;

// The /N values a family with a parameter runs: --sizes or --counts, else the family's own sweep.
std::vector<size_t> rb_sweep(const rb_family &f, const rb_options &o);

// Why --sizes cannot run on target t (a size beyond its copy window, or no copy window at all),
// as the one line regbench prints, or "".
std::string rb_check_sweeps(const iomap_target &t, const rb_options &o);

// Registers every family x op x width x strategy of the kernel table that the options select, each
// with its record in the session's registry; those that cannot run on this target or CPU are
// registered as skipped, with the reason.
void rb_register_families(rb_session &s);

#endif
