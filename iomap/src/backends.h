/* backends.h: the target backends' ops instances, for the table in target.c */
#ifndef IOMAP_BACKENDS_H
#define IOMAP_BACKENDS_H

#include "iomap/target.h"

extern const struct iomap_target_ops iomap_target_ram;
extern const struct iomap_target_ops iomap_target_trap;

#endif
