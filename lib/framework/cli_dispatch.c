// SPDX-License-Identifier: GPL-2.0-or-later
/* Sub-command dispatch: "APPLET [COMMAND] [OPTIONS] [ARGS]", verbs matched exactly, the
 * applet's --help and --version, and the mistakes made with command words. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socbox/cli.h"
#include "cli_private.h"
#include "socbox/escape.h"
#include "socbox/suggest.h"

static void applet_help(const char *applet, const char *summary, const struct sb_cmd *cmds,
			const char *default_cmd)
{
	printf("Usage: %s [COMMAND] [OPTION...] [ARGS]\n%s\n\nCommands:\n", applet, summary);
	for (const struct sb_cmd *k = cmds; k->name; k++)
		printf("  %-12s %s%s\n", k->name, k->summary,
		       default_cmd && !strcmp(k->name, default_cmd) ? " (default)" : "");
	printf("\nRun '%s COMMAND --help' for the options of a command.\n%s", applet,
	       sb_exit_codes_help);
}

/* The command a mistyped word was meant to be, or NULL. A word that could be a file, a
 * buffer (heap:NAME, PID:FD) or a value is never taken for a typo. */
static const char *meant_command(const struct sb_cmd *cmds, const char *word)
{
	struct sb_suggest s;

	if (word[strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_")] ||
	    !access(word, F_OK))
		return NULL;
	sb_suggest_init(&s, word, (size_t)-1);
	for (const struct sb_cmd *k = cmds; k->name; k++)
		sb_suggest_add(&s, k->name);
	return sb_suggest_best(&s);
}

static int unknown_command(const char *applet, const char *word, const char *meant)
{
	if (meant)
		sb_eprintf("%s: unknown command '%s'; did you mean '%s'? (see '%s --help')", applet,
			   word, meant, applet);
	else
		sb_eprintf("%s: unknown command '%s' (see '%s --help')", applet, word, applet);
	return SB_EXIT_USAGE;
}

int sb_cli_run(const char *applet, const struct sb_cmd *cmds, const struct sb_cmd *cmd, int argc,
	       const char **argv)
{
	struct sb_ctx c;
	int rc;

	memset(&c, 0, sizeof(c));
	c.applet = applet;
	c.cmd = cmd->name;
	c.desc = cmd;
	c.streams = cmd->flags & SB_CMD_STREAMS;
	c.tests = cmd->flags & SB_CMD_TESTS;
	c.cmds = cmds;
	if (cmd->flags & SB_CMD_OWN_METRICS)
		c.out.metrics_ns = cmd->name;
	rc = sb_cli_exit(&c, cmd->run(&c, argc, argv));
	sb_ctx_done(&c);
	return rc;
}

void sb_cli_list_command(const char *prefix, const struct sb_cmd *k, bool is_default)
{
	static const struct {
		unsigned flag;
		const char *word;
	} words[] = {
		{ SB_CMD_VIEW, "view" },       { SB_CMD_LIVE, "live" },
		{ SB_CMD_ROOT, "root" },       { SB_CMD_TESTS, "checks" },
		{ SB_CMD_STREAMS, "streams" }, { SB_CMD_COLLECTOR, "collector" },
	};
	const char *sep = "";

	printf("%s%s%s\t", prefix, *prefix ? " " : "", k->name);
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (k->flags & words[i].flag) {
			printf("%s%s", sep, words[i].word);
			sep = ",";
		}
	if (is_default)
		printf("%sdefault", sep);
	else if (!*sep)
		putchar('-');
	if (!(k->flags & SB_CMD_COLLECTOR))
		printf("\t-\n");
	else if (k->flags & SB_CMD_APPLET_LABEL)
		printf("\t%.*s\n", (int)strcspn(prefix, " "), prefix);
	else
		printf("\t%s%s%s\n", prefix, *prefix ? " " : "", k->name);
}

void sb_cli_list_commands(const char *prefix, const struct sb_cmd *cmds, const char *default_cmd)
{
	for (const struct sb_cmd *k = cmds; k->name; k++) {
		if (k->flags & SB_CMD_GROUP) { /* its own dispatcher lists its commands */
			struct sb_ctx c = { .applet = prefix, .cmd = k->name, .desc = k };

			fflush(stdout);
			k->run(&c, 2, (const char *[]){ k->name, "--list-commands", NULL });
			continue;
		}
		sb_cli_list_command(prefix, k, default_cmd && !strcmp(k->name, default_cmd));
	}
}

static int dispatch(const char *applet, const char *summary, const struct sb_cmd *cmds,
		    const char *default_cmd, int argc, const char **argv)
{
	const struct sb_cmd *cmd = NULL, *def = NULL;

	for (const struct sb_cmd *k = cmds; k->name; k++)
		if (default_cmd && !strcmp(k->name, default_cmd))
			def = k;
	if (argc > 1 && argv[1][0] != '-') {
		for (const struct sb_cmd *k = cmds; k->name; k++)
			if (!strcmp(k->name, argv[1]))
				cmd = k;
		if (cmd) {
			argc--;
			argv++;
		} else if (!def || !def->args) {
			return unknown_command(applet, argv[1], meant_command(cmds, argv[1]));
		} else if (meant_command(cmds, argv[1])) {
			/* "dmabufcp heap": a typo, not the default command's argument */
			return unknown_command(applet, argv[1], meant_command(cmds, argv[1]));
		}
	} else if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		applet_help(applet, summary, cmds, default_cmd);
		return 0;
	} else if (argc == 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		sb_cli_version(applet);
		return 0;
	} else if (argc == 2 && !strcmp(argv[1], "--list-commands")) {
		sb_cli_list_commands(applet, cmds, default_cmd);
		return 0;
	}
	if (!cmd)
		cmd = def;
	if (!cmd) {
		sb_eprintf("%s: no command given (see '%s --help')", applet, applet);
		return SB_EXIT_USAGE;
	}
	return sb_cli_run(applet, cmds, cmd, argc, argv);
}

static bool is_command(const char *word, const void *arg)
{
	for (const struct sb_cmd *k = arg; k->name; k++)
		if (!strcmp(k->name, word))
			return true;
	return false;
}

int sb_cli_dispatch(const char *applet, const char *summary, const struct sb_cmd *cmds,
		    const char *default_cmd, int argc, const char **argv)
{
	int at = sb_cli_command_after_options(argc, argv, is_command, cmds), rc;
	const char **moved;

	if (!at)
		return dispatch(applet, summary, cmds, default_cmd, argc, argv);
	moved = sb_cli_command_first(argc, argv, at);
	if (!moved) {
		sb_eprintf("%s: %s", applet, sb_strerror(ENOMEM));
		return SB_EXIT_FAIL;
	}
	rc = dispatch(applet, summary, cmds, default_cmd, argc, moved);
	free(moved);
	return rc;
}
