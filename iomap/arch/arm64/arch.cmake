# arch.cmake (arm64): what libiomap's arm64 code needs: nothing beyond the C library so far. The
# accessors are inline assembly in include/iomap/asm/; Zydis decodes x86 only and is not used here.
