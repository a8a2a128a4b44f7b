/* backends.h: the target backends' ops instances, for the table in target.c */
#ifndef IOMAP_BACKENDS_H
#define IOMAP_BACKENDS_H

#include "iomap/target.h"

extern const struct iomap_target_ops iomap_target_ram;
extern const struct iomap_target_ops iomap_target_trap;
extern const struct iomap_target_ops iomap_target_pci;
extern const struct iomap_target_ops iomap_target_port;

/*
 * Port I/O permission (target-port.c), shared by the port target and the
 * I/O BARs of pci.c: 0, or -1 with errno and a one-line reason in why.
 * iomap_port_usable() says whether this process can get any at all.
 */
int iomap_port_request(unsigned int base, unsigned int n, char *why, size_t whylen);
void iomap_port_release(unsigned int base, unsigned int n);
int iomap_port_usable(char *why, size_t whylen);

/* The kernel's lockdown mode when one is in force ("integrity", "confidentiality"), else NULL. */
const char *iomap_lockdown(void);

#endif
