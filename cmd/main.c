// SPDX-License-Identifier: GPL-2.0-or-later
/* The multi-call dispatcher: the basename of argv[0] picks the applet ("rpmsgctl" through a
 * symlink), or "socbox APPLET ...". socbox's own commands: doctor (the default), snapshot,
 * --list, --install DIR, --version, --help. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "socbox/escape.h"
#include "socbox/cli.h"
#include "socbox/config.h"
#include "socbox/macro.h"
#include "socbox/suggest.h"
#include "builtins.h"

const struct sb_applet socbox_applets[] = {
#define SB_COMMAND(name, flags, summary)
#define SB_APPLET(name, summary) { #name, name##_main, summary, name##_cmds },
#include "applets.def"
#undef SB_APPLET
#undef SB_COMMAND
	{ NULL, NULL, NULL, NULL },
};

const struct sb_cmd socbox_cmds[] = {
#define SB_COMMAND(name, flags, summary) { #name, name##_run, NULL, summary, flags },
#define SB_APPLET(name, summary)
#include "applets.def"
#undef SB_APPLET
#undef SB_COMMAND
	{ NULL, NULL, NULL, NULL, 0 },
};

/* socbox's own command NAME, run as "socbox NAME" with argv[0] its name */
static int run_own(const char *name, int argc, const char **argv)
{
	for (const struct sb_cmd *k = socbox_cmds; k->name; k++)
		if (!strcmp(k->name, name))
			return sb_cli_run("socbox", NULL, k, argc, argv);
	return SB_EXIT_FAIL;
}

static const struct sb_applet *find_applet(const char *name)
{
	for (const struct sb_applet *a = socbox_applets; a->name; a++)
		if (!strcmp(a->name, name))
			return a;
	return NULL;
}

const char *applet_summary(const char *name)
{
	const struct sb_applet *a = find_applet(name);

	return a ? a->summary : "";
}

static void usage(FILE *fp)
{
	fprintf(fp, "Usage: socbox [APPLET|COMMAND] [ARGS...]\n"
		    "       APPLET [ARGS...]   (through a symlink named like the applet)\n\n"
		    "Bring-up toolbox for SoC data paths: rpmsg, dma-buf, IOMMU, devmem TCP.\n\n"
		    "Commands:\n");
	for (const struct sb_cmd *k = socbox_cmds; k->name; k++)
		fprintf(fp, "  %-12s %s\n", k->name, k->summary);
	fprintf(fp, "\nApplets:\n");
	for (const struct sb_applet *a = socbox_applets; a->name; a++)
		fprintf(fp, "  %-12s %s\n", a->name, a->summary);
	fprintf(fp, "\nRun 'socbox help COMMAND' or 'socbox COMMAND --help' for its options.\n"
		    "\nOptions:\n"
		    "  --list          print the applet names\n"
		    "  --install DIR   create a symlink in DIR for every applet\n"
		    "  -V, --version   print the version\n"
		    "  -h, --help      show this help\n\n");
	fputs(sb_exit_codes_help, fp);
}

/* Is path a symlink that points at a socbox binary (by name or by identity)? */
static int is_socbox_link(const char *path, const struct stat *self)
{
	char target[PATH_MAX];
	struct stat st;
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	const char *base;

	if (n < 0)
		return 0;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (!strcmp(base, "socbox"))
		return 1;
	return stat(path, &st) == 0 && st.st_dev == self->st_dev && st.st_ino == self->st_ino;
}

static int install_links(const char *dir)
{
	char self[PATH_MAX], selfdir[PATH_MAX], realdir[PATH_MAX], link[PATH_MAX + NAME_MAX + 2];
	const char *target;
	struct stat self_st;
	int rc = 0;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n < 0 || stat(self, (self[n] = '\0', &self_st))) {
		sb_eprintf("socbox: /proc/self/exe: cannot find own binary: %s (mount /proc)",
			   strerror(errno));
		return SB_EXIT_FAIL;
	}
	if (!realpath(dir, realdir)) {
		sb_eprintf("socbox: %s: install links: %s", dir, strerror(errno));
		return SB_EXIT_FAIL;
	}
	snprintf(selfdir, sizeof(selfdir), "%s", self);
	*strrchr(selfdir, '/') = '\0';
	/* Beside the binary a relative link survives DESTDIR staging and relocation. */
	target = strcmp(selfdir, realdir) == 0 ? strrchr(self, '/') + 1 : self;
	for (const struct sb_applet *a = socbox_applets; a->name; a++) {
		struct stat st;

		if ((size_t)snprintf(link, sizeof(link), "%s/%s", realdir, a->name) >=
		    sizeof(link)) {
			sb_eprintf("socbox: %s: install link: path too long", realdir);
			rc = SB_EXIT_FAIL;
			continue;
		}
		if (lstat(link, &st) == 0) {
			if (!S_ISLNK(st.st_mode) || !is_socbox_link(link, &self_st)) {
				sb_eprintf("socbox: %s: install link: file exists and is not a socbox link (remove it first)",
					   link);
				rc = SB_EXIT_FAIL;
				continue;
			}
			if (unlink(link)) {
				sb_eprintf("socbox: %s: replace link: %s", link, strerror(errno));
				rc = SB_EXIT_FAIL;
				continue;
			}
		}
		if (symlink(target, link)) {
			sb_eprintf("socbox: %s: install link: %s", link, strerror(errno));
			rc = errno == EACCES || errno == EPERM ? SB_EXIT_PERM : SB_EXIT_FAIL;
		}
	}
	return rc;
}

/* socbox's own words: its commands and applets, for the mistakes made with them */
static const char *const *first_words(void)
{
	static const char *words[ARRAY_SIZE(socbox_cmds) + ARRAY_SIZE(socbox_applets)];
	size_t n = 0;

	for (const struct sb_cmd *k = socbox_cmds; k->name; k++)
		words[n++] = k->name;
	for (const struct sb_applet *a = socbox_applets; a->name; a++)
		words[n++] = a->name;
	words[n] = NULL;
	return words;
}

static int unknown_word(const char *word)
{
	struct sb_suggest s;

	sb_suggest_init(&s, word, (size_t)-1);
	for (const char *const *w = first_words(); *w; w++)
		sb_suggest_add(&s, *w);
	if (sb_suggest_best(&s))
		sb_eprintf("socbox: unknown applet or command '%s'; did you mean '%s'? (see 'socbox --help')",
			   word, sb_suggest_best(&s));
	else
		sb_eprintf("socbox: unknown applet or command '%s' (see 'socbox --help')", word);
	return SB_EXIT_USAGE;
}

static int socbox_words(int argc, const char **argv);

/* socbox --list-commands: every descriptor, in the order of applets.def */
static void list_own(const char *name)
{
	for (const struct sb_cmd *k = socbox_cmds; k->name; k++)
		if (!strcmp(k->name, name))
			sb_cli_list_command("", k, !strcmp(name, "doctor"));
}

static void list_applet(int (*applet_main)(int, const char **), const char *name)
{
	fflush(stdout);
	applet_main(2, (const char *[]){ name, "--list-commands", NULL });
}

static void list_commands(void)
{
#define SB_COMMAND(name, flags, summary) list_own(#name);
#define SB_APPLET(name, summary) list_applet(name##_main, #name);
#include "applets.def"
#undef SB_APPLET
#undef SB_COMMAND
}

/* "socbox help [WORD...]": socbox's help, or that of "socbox WORD... --help" */
static int help_word(int argc, const char **argv)
{
	const char **v;
	int rc;

	if (argc == 2) {
		usage(stdout);
		return 0;
	}
	v = calloc((size_t)argc + 1, sizeof(*v));
	if (!v) {
		sb_eprintf("socbox: %s", sb_strerror(ENOMEM));
		return SB_EXIT_FAIL;
	}
	v[0] = argv[0];
	for (int i = 2; i < argc; i++)
		v[i - 1] = argv[i];
	v[argc - 1] = "--help";
	rc = socbox_words(argc, v);
	free(v);
	return rc;
}

/* "socbox --lst" is a mistyped option of socbox's own, not of doctor's (the default
 * command, which takes the other options): 0 when it is none of those */
static int own_option_meant(const char *arg)
{
	static const char *const own[] = { "list", "install", "version", "help", NULL };
	const char *meant = sb_suggest_among(arg + 2, own);

	if (!meant || !strcmp(arg + 2, meant))
		return 0;
	sb_eprintf("socbox: %s: unknown option; did you mean '--%s'? (see 'socbox --help')", arg,
		   meant);
	return SB_EXIT_USAGE;
}

static int socbox_words(int argc, const char **argv)
{
	const struct sb_applet *a;
	int rc;

	sb_cli_first_words("socbox", first_words());

	if (argc < 2)
		return run_own("doctor", 1, (const char *[]){ "doctor", NULL });
	if (!strcmp(argv[1], "--list")) {
		for (a = socbox_applets; a->name; a++)
			puts(a->name);
		return 0;
	}
	if (!strcmp(argv[1], "--list-commands")) { /* hidden: the descriptors, for the suites */
		list_commands();
		return 0;
	}
	if (!strcmp(argv[1], "--install")) {
		if (argc != 3) {
			sb_eprintf(
				"socbox: --install needs exactly one directory (see 'socbox --help')");
			return SB_EXIT_USAGE;
		}
		return install_links(argv[2]);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("socbox %s\n", SOCBOX_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "help"))
		return help_word(argc, argv);
	for (const struct sb_cmd *k = socbox_cmds; k->name; k++)
		if (!strcmp(argv[1], k->name))
			return sb_cli_run("socbox", NULL, k, argc - 1, argv + 1);
	a = find_applet(argv[1]);
	if (a)
		return a->main(argc - 1, argv + 1);
	if (!strncmp(argv[1], "--", 2) && argv[1][2])
		if ((rc = own_option_meant(argv[1])))
			return rc;
	if (argv[1][0] == '-')
		return run_own("doctor", argc, argv);
	return unknown_word(argv[1]);
}

static bool is_first_word(const char *word, const void *arg)
{
	(void)arg;
	for (const char *const *w = first_words(); *w; w++)
		if (!strcmp(*w, word))
			return true;
	return false;
}

/* "socbox --sysroot DIR events": the common options may come before the command */
static int socbox_main(int argc, const char **argv)
{
	int at = sb_cli_command_after_options(argc, argv, is_first_word, NULL), rc;
	const char **moved;

	if (!at)
		return socbox_words(argc, argv);
	moved = sb_cli_command_first(argc, argv, at);
	if (!moved) {
		sb_eprintf("socbox: %s", sb_strerror(ENOMEM));
		return SB_EXIT_FAIL;
	}
	rc = socbox_words(argc, moved);
	free(moved);
	return rc;
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/');
	const struct sb_applet *a;

	name = name ? name + 1 : argv[0];
	a = find_applet(name);
	if (a)
		return a->main(argc, (const char **)argv);
	return socbox_main(argc, (const char **)argv);
}
