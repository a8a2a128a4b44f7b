// identity.c: what tells this machine and its build apart in a result: a hashed machine id, the firmware, the microcode, the architecture
#include <stdio.h>
#include <string.h>

#include "identity.h"

#if defined(__x86_64__)
#define RB_ARCH "x86_64"
#elif defined(__aarch64__)
#define RB_ARCH "aarch64"
#else
#error "regbench is built for x86_64 and aarch64 only"
#endif

/* What regbench's machine id hashes besides the machine's texts, so that it is regbench's alone. */
#define RB_MACHINE_ID_PURPOSE "regbench machine id 1"

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
	return x >> n | x << (32 - n);
}

static void sha256_block(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64], v[8];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++)
		w[i] = w[i - 16] + (ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ w[i - 15] >> 3) + w[i - 7] +
		       (ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ w[i - 2] >> 10);
	memcpy(v, h, sizeof(v));
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) +
			      sha256_k[i] + w[i];
		uint32_t t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));

		memmove(v + 1, v, 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (int i = 0; i < 8; i++)
		h[i] += v[i];
}

void rb_sha256(const void *data, size_t len, uint8_t out[32])
{
	uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	const uint8_t *p = data;
	uint8_t tail[128] = {0};
	size_t rest = len % 64, n = rest < 56 ? 64 : 128;

	for (size_t i = 0; i + 64 <= len; i += 64)
		sha256_block(h, p + i);
	/* the last bytes, a 1 bit, zeros, and the length in bits, big-endian */
	memcpy(tail, p + len - rest, rest);
	tail[rest] = 0x80;
	for (int i = 0; i < 8; i++)
		tail[n - 1 - i] = (uint8_t)((uint64_t)len * 8 >> (8 * i));
	for (size_t i = 0; i < n; i += 64)
		sha256_block(h, tail + i);
	for (int i = 0; i < 32; i++)
		out[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
}

void rb_machine_id(const char *machine_id, const char *product_uuid, char out[RB_MACHINE_ID_LEN + 1])
{
	char text[512];
	uint8_t hash[32];

	out[0] = '\0';
	machine_id = machine_id ? machine_id : "";
	product_uuid = product_uuid ? product_uuid : "";
	if (!*machine_id && !*product_uuid)
		return;
	/* each text ends in a newline, so that no two pairs of texts make the same input */
	int n = snprintf(text, sizeof(text), "%s\n%s\n%s\n", RB_MACHINE_ID_PURPOSE, machine_id, product_uuid);
	rb_sha256(text, n < (int)sizeof(text) ? (size_t)n : sizeof(text) - 1, hash);
	for (int i = 0; i < RB_MACHINE_ID_LEN / 2; i++)
		snprintf(out + 2 * i, 3, "%02x", hash[i]);
}

/* The first line of a file without its newline and surrounding blanks into out; "" when unreadable. */
static void first_line(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	char *start = out;

	out[0] = '\0';
	if (!f)
		return;
	if (!fgets(out, (int)size, f))
		out[0] = '\0';
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
	while (*start == ' ' || *start == '\t')
		start++;
	memmove(out, start, strlen(start) + 1);
	for (size_t n = strlen(out); n && (out[n - 1] == ' ' || out[n - 1] == '\t'); n--)
		out[n - 1] = '\0';
}

void rb_cpuinfo_field(const char *field, char *out, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	size_t n = strlen(field);

	out[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, field, n) || !colon || strspn(line + n, " \t") != (size_t)(colon - line - n))
			continue;
		colon += strspn(colon + 1, " \t") + 1;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(out, len, "%s", colon);
		break;
	}
	if (f)
		fclose(f);
}

/* The microcode revision /proc/cpuinfo gives ("microcode\t: 0xa0011d1"), "" where it does not. */
static void microcode(char *out, size_t size)
{
	char value[32];

	rb_cpuinfo_field("microcode", value, sizeof(value));
	out[0] = '\0';
	if (!strncmp(value, "0x", 2) && value[2] && strspn(value + 2, "0123456789abcdef") == strlen(value + 2))
		snprintf(out, size, "%s", value);
}

void rb_identity_read(struct rb_identity *id)
{
	char machine[128], uuid[128], vendor[80], version[80], date[32];

	/* the product UUID is readable by root only; without it the machine-id alone identifies the machine */
	first_line("/etc/machine-id", machine, sizeof(machine));
	first_line("/sys/class/dmi/id/product_uuid", uuid, sizeof(uuid));
	rb_machine_id(machine, uuid, id->machine_id);
	first_line("/sys/class/dmi/id/bios_vendor", vendor, sizeof(vendor));
	first_line("/sys/class/dmi/id/bios_version", version, sizeof(version));
	first_line("/sys/class/dmi/id/bios_date", date, sizeof(date));
	snprintf(id->firmware, sizeof(id->firmware), "%s%s%s%s%s%s", vendor, *vendor && *version ? " " : "", version,
		 !*date ? "" : *vendor || *version ? " (" : "(", date, *date ? ")" : "");
	microcode(id->microcode, sizeof(id->microcode));
}

const char *rb_arch_name(void)
{
	return RB_ARCH;
}
