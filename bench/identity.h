// identity.h: what tells this machine and its build apart in a result: a hashed machine id, the firmware, the microcode, the architecture
#ifndef REGBENCH_IDENTITY_H
#define REGBENCH_IDENTITY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RB_MACHINE_ID_LEN 32	/* hex digits: the first 128 bits of the hash */

struct rb_identity {
	char machine_id[RB_MACHINE_ID_LEN + 1];	/* "" when nothing identifies the machine */
	char firmware[256];			/* "vendor version (date)", "" without DMI */
	char microcode[32];			/* "0x..." from /proc/cpuinfo, "" where it does not say */
};

/* Reads the machine's identity; what cannot be read is left empty. */
void rb_identity_read(struct rb_identity *id);

/* The architecture regbench was built for, as uname -m names it: x86_64 or aarch64. */
const char *rb_arch_name(void);

/* The value of the first line of /proc/cpuinfo that starts with field, or "" (unknown). */
void rb_cpuinfo_field(const char *field, char *out, size_t len);

/* SHA-256 of len bytes (FIPS 180-4). */
void rb_sha256(const void *data, size_t len, uint8_t out[32]);

/*
 * The machine id from the texts that identify the machine (/etc/machine-id,
 * the DMI product UUID; NULL or "" for one not readable), hashed with a
 * purpose of regbench's own so that the result never carries them nor a
 * value another program derives from them (systemd asks the same of
 * machine-id users); out is "" when both are missing.
 */
void rb_machine_id(const char *machine_id, const char *product_uuid, char out[RB_MACHINE_ID_LEN + 1]);

#ifdef __cplusplus
}
#endif

#endif
