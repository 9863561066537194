// SPDX-License-Identifier: GPL-2.0-or-later
/* bench/smmu's reference for `smmustat groups --sysroot DIR`: a plain C program that reads
 * exactly the files smmustat groups reads, in the same order, and prints the same table
 * (checked by bench/smmu, byte for byte), with nothing else: no output layer, no escaping,
 * no error reporting, no limits. It keeps the two rules every read of a sysroot must keep
 * (HACKING.md, "Limits"), because a tool that dropped them would read a hostile snapshot's
 * device nodes and follow its links out of the directory: every path is resolved inside the
 * root (openat2 RESOLVE_IN_ROOT), and a file is opened for reading only after an O_PATH
 * descriptor showed it is a regular file. Each file is read with one read() of its size.
 *
 *   smmu_groups_ref DIR
 *
 * What is read (as strace shows smmustat doing it):
 *   per group of sys/kernel/iommu_groups (natural order): type, name, reserved_regions,
 *     the devices directory, each device's driver and iommu links;
 *   per instance of sys/class/iommu: its link, its device link, the device's driver link,
 *     amd-iommu/cap and amd-iommu/features, the devices directory;
 *   for the stream IDs: each instance's path resolved link by link, the device's of_node
 *     link, and sys/firmware/acpi/tables/IORT. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int root;

/* path inside the root, as socbox resolves it */
static int at(int dir, const char *path, int flags)
{
	struct open_how how = {
		.flags = (unsigned long long)(flags | O_CLOEXEC),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};

	int fd, tries = 0;

	do /* a rename anywhere may race with a ".." of the walk: retry, as socbox does */
		fd = (int)syscall(SYS_openat2, dir, path, &how, sizeof(how));
	while (fd < 0 && errno == EAGAIN && ++tries < 64);
	return fd;
}

struct dev {
	char name[96], driver[64], iommu[80];
};

struct group {
	unsigned id;
	char type[16];
	struct dev *devs;
	size_t ndevs;
};

static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = at(root, path, O_PATH);
	struct stat st;
	ssize_t n;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size >= len) {
		close(fd);
		return -1;
	}
	close(fd);
	fd = at(root, path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, (size_t)st.st_size);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return n;
}

/* The last component of the target of link name in directory dfd. */
static void link_name_at(int dfd, const char *name, char *out, size_t len)
{
	char target[4096];
	ssize_t n = readlinkat(dfd, name, target, sizeof(target) - 1);
	const char *base;

	out[0] = '\0';
	if (n <= 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) < len)
		memcpy(out, base, strlen(base) + 1);
}

/* The link's parent resolved inside the root, then the link read there. */
static void link_name(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/');
	char parent[512];
	int dfd;

	out[0] = '\0';
	snprintf(parent, sizeof(parent), "%.*s", slash ? (int)(slash - path) : 1,
		 slash ? path : ".");
	dfd = at(root, parent, O_PATH | O_DIRECTORY);
	if (dfd < 0)
		return;
	link_name_at(dfd, slash ? slash + 1 : path, out, len);
	close(dfd);
}

/* Directory entries without . and .., in natural order ("2" before "10"). */
static int natural(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	while (*x && *y) {
		if (isdigit((unsigned char)*x) && isdigit((unsigned char)*y)) {
			unsigned long long u = strtoull(x, (char **)&x, 10),
					   v = strtoull(y, (char **)&y, 10);

			if (u != v)
				return u < v ? -1 : 1;
			continue;
		}
		if (*x != *y)
			return (unsigned char)*x - (unsigned char)*y;
		x++;
		y++;
	}
	return (unsigned char)*x - (unsigned char)*y;
}

static char **list(const char *path, size_t *n)
{
	int fd = at(root, path, O_RDONLY | O_DIRECTORY);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *e;
	char **names = NULL;
	size_t cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			names = realloc(names, cap * sizeof(*names));
		}
		names[(*n)++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, *n, sizeof(*names), natural);
	return names;
}

static void free_list(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static void read_group(struct group *g)
{
	char path[512], buf[4096];
	char **names;
	size_t n;

	snprintf(path, sizeof(path), "sys/kernel/iommu_groups/%u/type", g->id);
	if (read_small(path, g->type, sizeof(g->type)) < 0)
		snprintf(g->type, sizeof(g->type), "unknown");
	snprintf(path, sizeof(path), "sys/kernel/iommu_groups/%u/name", g->id);
	read_small(path, buf, sizeof(buf));
	snprintf(path, sizeof(path), "sys/kernel/iommu_groups/%u/reserved_regions", g->id);
	read_small(path, buf, sizeof(buf));
	snprintf(path, sizeof(path), "sys/kernel/iommu_groups/%u/devices", g->id);
	names = list(path, &n);
	g->devs = calloc(n ? n : 1, sizeof(*g->devs));
	for (size_t i = 0; i < n; i++) {
		struct dev *d = &g->devs[i];

		int dfd;

		snprintf(d->name, sizeof(d->name), "%s", names[i]);
		/* one resolution of the device directory for both links */
		snprintf(path, sizeof(path), "sys/kernel/iommu_groups/%u/devices/%s", g->id,
			 names[i]);
		dfd = at(root, path, O_PATH | O_DIRECTORY);
		if (dfd < 0)
			continue;
		link_name_at(dfd, "driver", d->driver, sizeof(d->driver));
		link_name_at(dfd, "iommu", d->iommu, sizeof(d->iommu));
		close(dfd);
	}
	g->ndevs = n;
	free_list(names, n);
}

/* The instances and what the stream-ID lookup reads of them (none of it is printed). */
static void read_instances(void)
{
	static const char *const parts[] = { "sys", "sys/class", "sys/class/iommu" };
	char path[512], buf[4096], name[96];
	char **names, **devs;
	size_t n, nd;

	names = list("sys/class/iommu", &n);
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "sys/class/iommu/%s", names[i]);
		link_name(path, name, sizeof(name));
		snprintf(path, sizeof(path), "sys/class/iommu/%s/device", names[i]);
		link_name(path, name, sizeof(name));
		snprintf(path, sizeof(path), "sys/class/iommu/%s/device/driver", names[i]);
		link_name(path, name, sizeof(name));
		snprintf(path, sizeof(path), "sys/class/iommu/%s/amd-iommu/cap", names[i]);
		read_small(path, buf, sizeof(buf));
		snprintf(path, sizeof(path), "sys/class/iommu/%s/amd-iommu/features", names[i]);
		read_small(path, buf, sizeof(buf));
		snprintf(path, sizeof(path), "sys/class/iommu/%s/devices", names[i]);
		devs = list(path, &nd);
		free_list(devs, nd);
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++)
			link_name(parts[k], name, sizeof(name));
		snprintf(path, sizeof(path), "sys/class/iommu/%s", names[i]);
		link_name(path, name, sizeof(name));
		snprintf(path, sizeof(path), "sys/class/iommu/%s/device", names[i]);
		link_name(path, name, sizeof(name));
		snprintf(path, sizeof(path), "sys/class/iommu/%s/device/of_node", names[i]);
		link_name(path, name, sizeof(name));
	}
	free_list(names, n);
	read_small("sys/firmware/acpi/tables/IORT", buf, sizeof(buf));
}

static size_t max(size_t a, size_t b)
{
	return a > b ? a : b;
}

int main(int argc, char **argv)
{
	enum { GROUP, TYPE, IOMMU, NDEVS, DEVICES, DRIVERS, NCOLS };
	static const char *const head[NCOLS] = {
		"GROUP", "TYPE", "IOMMU", "NDEVS", "DEVICES", "DRIVERS"
	};
	size_t w[NCOLS], ng;
	struct group *g;
	char **names, *devs, *drvs;
	char idbuf[16], nbuf[16];

	if (argc != 2) {
		fprintf(stderr, "usage: smmu_groups_ref DIR\n");
		return 2;
	}
	root = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0) {
		perror(argv[1]);
		return 1;
	}
	names = list("sys/kernel/iommu_groups", &ng);
	g = calloc(ng ? ng : 1, sizeof(*g));
	for (size_t i = 0; i < ng; i++) {
		g[i].id = (unsigned)strtoul(names[i], NULL, 10);
		read_group(&g[i]);
	}
	free_list(names, ng);
	read_instances();

	for (int c = 0; c < NCOLS; c++)
		w[c] = strlen(head[c]);
	devs = malloc(ng * 128 + 1);
	drvs = malloc(ng * 128 + 1);
	for (size_t i = 0; i < ng; i++) {
		size_t dl = 0, rl = 0;

		for (size_t d = 0; d < g[i].ndevs; d++) {
			dl += strlen(g[i].devs[d].name) + (d ? 1 : 0);
			rl += strlen(g[i].devs[d].driver[0] ? g[i].devs[d].driver : "-") +
			      (d ? 1 : 0);
		}
		w[GROUP] = max(w[GROUP], (size_t)snprintf(idbuf, sizeof(idbuf), "%u", g[i].id));
		w[TYPE] = max(w[TYPE], strlen(g[i].type));
		w[IOMMU] = max(w[IOMMU],
			       g[i].ndevs && g[i].devs[0].iommu[0] ? strlen(g[i].devs[0].iommu) : 1);
		w[NDEVS] = max(w[NDEVS], (size_t)snprintf(nbuf, sizeof(nbuf), "%zu", g[i].ndevs));
		w[DEVICES] = max(w[DEVICES], dl);
		w[DRIVERS] = max(w[DRIVERS], rl);
	}
	printf("%*s %-*s %-*s %*s %-*s %s\n", (int)w[GROUP], head[GROUP], (int)w[TYPE], head[TYPE],
	       (int)w[IOMMU], head[IOMMU], (int)w[NDEVS], head[NDEVS], (int)w[DEVICES],
	       head[DEVICES], head[DRIVERS]);
	for (size_t i = 0; i < ng; i++) {
		size_t o = 0, p = 0;

		devs[0] = drvs[0] = '\0';
		for (size_t d = 0; d < g[i].ndevs; d++) {
			o += (size_t)sprintf(devs + o, "%s%s", d ? "," : "", g[i].devs[d].name);
			p += (size_t)sprintf(drvs + p, "%s%s", d ? "," : "",
					     g[i].devs[d].driver[0] ? g[i].devs[d].driver : "-");
		}
		printf("%*u %-*s %-*s %*zu %-*s %s\n", (int)w[GROUP], g[i].id, (int)w[TYPE],
		       g[i].type, (int)w[IOMMU],
		       g[i].ndevs && g[i].devs[0].iommu[0] ? g[i].devs[0].iommu : "-",
		       (int)w[NDEVS], g[i].ndevs, (int)w[DEVICES], devs, drvs);
		free(g[i].devs);
	}
	free(devs);
	free(drvs);
	free(g);
	close(root);
	return 0;
}
