// test-identity.c: the machine id is a SHA-256 that never shows what it hashes, stable, empty when nothing identifies the machine
#include <stdio.h>
#include <string.h>

#include "identity.h"

static int failed;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	failed |= !ok;
}

static int sha256_is(const char *text, size_t len, const char *want)
{
	uint8_t h[32];
	char hex[65];

	rb_sha256(text, len, h);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", h[i]);
	return !strcmp(hex, want);
}

int main(void)
{
	static char million[1000000];
	const char *machine = "4c4c4544004a3410803bb4c04f4b4d32", *uuid = "4C4C4544-004A-3410-803B-B4C04F4B4D32";
	char a[RB_MACHINE_ID_LEN + 1], b[RB_MACHINE_ID_LEN + 1], c[RB_MACHINE_ID_LEN + 1];
	struct rb_identity id;

	/* FIPS 180-4's examples, and a message whose padding takes a second block */
	check(sha256_is("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), "SHA-256 of abc");
	check(sha256_is("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"), "SHA-256 of nothing");
	check(sha256_is("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
			"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"), "SHA-256 of 56 bytes (two blocks)");
	memset(million, 'a', sizeof(million));
	check(sha256_is(million, sizeof(million), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
	      "SHA-256 of a million a");

	rb_machine_id(machine, uuid, a);
	rb_machine_id(machine, uuid, b);
	check(strlen(a) == RB_MACHINE_ID_LEN && strspn(a, "0123456789abcdef") == RB_MACHINE_ID_LEN, "32 hex digits");
	check(!strcmp(a, b), "the same machine, the same id");
	check(!strstr(a, "4c4c4544") && !strstr(a, "b4c04f4b4d32"), "neither text shows in it");
	rb_machine_id(machine, "", b);
	rb_machine_id("", machine, c);
	check(strcmp(a, b) && strcmp(b, c) && strlen(b) == RB_MACHINE_ID_LEN, "each text and its place count");
	rb_machine_id("", NULL, c);
	check(c[0] == '\0', "nothing readable: empty");

	rb_identity_read(&id);
	check(strlen(id.machine_id) == 0 || strlen(id.machine_id) == RB_MACHINE_ID_LEN, "this machine's id: empty or 32 digits");
	check(id.microcode[0] == '\0' || !strncmp(id.microcode, "0x", 2), "this machine's microcode: empty or 0x...");
	check(!strcmp(rb_arch_name(), "x86_64") || !strcmp(rb_arch_name(), "aarch64"), "the architecture");
	return failed;
}
