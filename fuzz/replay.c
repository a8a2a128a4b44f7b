/* replay.c: a main for fuzz targets built without libFuzzer: runs each input of the files and folders given once */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t replayed;

static void replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data = NULL, *exact;
	size_t size = 0, cap = 0, n;

	if (!f) {
		perror(path);
		exit(2);
	}
	do {
		if (size == cap) {
			cap = cap ? 2 * cap : 4096;
			data = realloc(data, cap);
			if (!data)
				abort();
		}
		n = fread(data + size, 1, cap - size, f);
		size += n;
	} while (n);
	fclose(f);
	/* the input as libFuzzer hands it over: exactly its bytes, nothing after them a sanitizer lets be read */
	exact = malloc(size ? size : 1);
	if (!exact)
		abort();
	memcpy(exact, data, size);
	free(data);
	LLVMFuzzerTestOneInput(exact, size);
	free(exact);
	replayed++;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct dirent **names;
		struct stat st;
		int n;

		if (stat(argv[i], &st)) {
			perror(argv[i]);
			return 2;
		}
		if (!S_ISDIR(st.st_mode)) {
			replay_file(argv[i]);
			continue;
		}
		n = scandir(argv[i], &names, NULL, by_name);
		if (n < 0) {
			perror(argv[i]);
			return 2;
		}
		for (int j = 0; j < n; j++) {
			char path[4096];

			if (names[j]->d_name[0] != '.') {
				snprintf(path, sizeof(path), "%s/%s", argv[i], names[j]->d_name);
				replay_file(path);
			}
			free(names[j]);
		}
		free(names);
	}
	printf("%s: %zu inputs replayed, none failed\n", argv[0], replayed);
	return replayed ? 0 : 1;
}
