/* arch.h: what libiomap's generic sources ask of the architecture's own files (iomap/arch/ARCH/) */
#ifndef IOMAP_SRC_ARCH_H
#define IOMAP_SRC_ARCH_H

#include "iomap/strategy.h"

/* NULL when this CPU and OS can execute instructions that need feature f, else why not. */
const char *iomap_arch_feature_missing(enum iomap_cpu_feature f);

#endif
