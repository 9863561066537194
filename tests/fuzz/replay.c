// SPDX-License-Identifier: GPL-2.0-or-later
/* Runs inputs through a harness without libFuzzer: every file named, and every file of every
 * directory named (one level), as libFuzzer does with a corpus. A harness's seed and
 * regression inputs are checked this way in every build, with gcc and under ASan too. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t size = 0, cap = 0, n;

	if (!fp) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 1;
	}
	do {
		if (size == cap) {
			cap = cap ? cap * 2 : 4096;
			data = realloc(data, cap);
			if (!data)
				abort();
		}
		n = fread(data + size, 1, cap - size, fp);
		size += n;
	} while (n);
	fclose(fp);
	/* an exact-size copy, so a read past the end is seen by ASan as in libFuzzer */
	uint8_t *exact = malloc(size ? size : 1);
	if (!exact)
		abort();
	memcpy(exact, data, size);
	free(data);
	LLVMFuzzerTestOneInput(exact, size);
	free(exact);
	return 0;
}

int main(int argc, char **argv)
{
	size_t runs = 0;
	int bad = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;

		if (stat(argv[i], &st)) {
			fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
			bad = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad |= run_file(argv[i]);
			runs++;
			continue;
		}
		d = opendir(argv[i]);
		for (struct dirent *de; d && (de = readdir(d));) {
			char path[4096];

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
			bad |= run_file(path);
			runs++;
		}
		if (d)
			closedir(d);
	}
	printf("%zu inputs replayed\n", runs);
	return bad || !runs;
}
