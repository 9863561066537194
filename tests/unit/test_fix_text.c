// SPDX-License-Identifier: GPL-2.0-or-later
/* A cause's commands (lib/doctor/fix_text.c): listed only when every name in them is a
 * plain word and they are whole; the fix in words with each command in its place, or,
 * for the text view, "the command below" where a listed one goes; a name's own bytes
 * never make a command. */
#include <string.h>

#include "../../lib/doctor/doctor_probe.h"
#include "socbox/doctor.h"
#include "testutil.h"

static void fresh(struct sb_cause *c)
{
	memset(c, 0, sizeof(*c));
}

START_TEST(one_command)
{
	struct sb_cause c;
	const char *cmds[SB_FIX_COMMANDS];
	char t[1024];

	fresh(&c);
	cause_fix(&c, "install fw in /lib/firmware, then start it with " SB_FIX_RUN0);
	ck_assert_int_eq(sb_cause_run(&c, "rpmsgctl rproc start %s", "remoteproc0"), 0);
	ck_assert_uint_eq(sb_cause_commands(&c, cmds), 1);
	ck_assert_str_eq(cmds[0], "rpmsgctl rproc start remoteproc0");
	sb_cause_fix_text(&c, false, t, sizeof(t));
	ck_assert_str_eq(t, "install fw in /lib/firmware, then start it with rpmsgctl rproc start "
			    "remoteproc0");
	sb_cause_fix_text(&c, true, t, sizeof(t));
	ck_assert_str_eq(t, "install fw in /lib/firmware, then start it with the command below");
}
END_TEST

START_TEST(ordinals_and_numbers)
{
	struct sb_cause c;
	const char *cmds[SB_FIX_COMMANDS];
	char t[1024];

	fresh(&c);
	cause_fix(&c, SB_FIX_RUN0 ", then " SB_FIX_RUN1);
	sb_cause_run(&c, "dmabufcp ls -p %d", 1400);
	sb_cause_run(&c, "modprobe udmabuf size_limit_mb=%llu", 128ull);
	ck_assert_uint_eq(sb_cause_commands(&c, cmds), 2);
	ck_assert_str_eq(cmds[1], "modprobe udmabuf size_limit_mb=128");
	sb_cause_fix_text(&c, true, t, sizeof(t));
	ck_assert_str_eq(t, "the first command below, then the second command below");
}
END_TEST

START_TEST(hostile_names_are_not_commands)
{
	struct sb_cause c;
	const char *cmds[SB_FIX_COMMANDS];
	char t[1024];

	fresh(&c);
	cause_fix(&c, "read the records of %s with " SB_FIX_RUN0 " or " SB_FIX_RUN1,
		  "x'; reboot; '");
	sb_cause_run(&c, "dmesg | grep '%s'", "x'; reboot; '");
	sb_cause_run(&c, "dmesg | grep '%s'", "5000000.m4fss");
	/* only the plain one is listed; the other stays in the words, where it is text */
	ck_assert_uint_eq(sb_cause_commands(&c, cmds), 1);
	ck_assert_str_eq(cmds[0], "dmesg | grep '5000000.m4fss'");
	sb_cause_fix_text(&c, true, t, sizeof(t));
	ck_assert_str_eq(t, "read the records of x'; reboot; ' with dmesg | grep 'x'; reboot; '' "
			    "or the command below");
	/* a name that holds the mark itself makes no command and says what it is */
	fresh(&c);
	cause_fix(&c, "device %s", "a" SB_FIX_RUN0 "b" SB_FIX_RUN_MARK);
	sb_cause_fix_text(&c, true, t, sizeof(t));
	ck_assert_str_eq(t, "device a" SB_FIX_RUN0 "b" SB_FIX_RUN_MARK);
	ck_assert_uint_eq(sb_cause_commands(&c, cmds), 0);
	/* an empty name is no word either */
	fresh(&c);
	sb_cause_run(&c, "rpmsgctl rproc start %s", "");
	ck_assert_uint_eq(sb_cause_commands(&c, cmds), 0);
}
END_TEST

START_TEST(never_cut_never_stale)
{
	struct sb_cause c;
	const char *cmds[SB_FIX_COMMANDS];
	char longname[300], t[2048];

	fresh(&c);
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	cause_fix(&c, "see " SB_FIX_RUN0);
	sb_cause_run(&c, "dmesg | grep '%s'", longname);
	ck_assert_uint_eq(sb_cause_commands(&c, cmds), 0); /* cut: not listed */
	sb_cause_fix_text(&c, true, t, sizeof(t));
	ck_assert_int_eq(strncmp(t, "see dmesg | grep 'aaa", 21), 0);
	/* at most SB_FIX_COMMANDS */
	fresh(&c);
	for (int i = 0; i < SB_FIX_COMMANDS; i++)
		ck_assert_int_eq(sb_cause_run(&c, "smmustat events"), i);
	ck_assert_int_eq(sb_cause_run(&c, "smmustat events"), -1);
	/* a new fix drops the commands of the one it replaces */
	cause_fix(&c, "enable CONFIG_UDMABUF");
	ck_assert_uint_eq(sb_cause_commands(&c, cmds), 0);
	sb_cause_fix_text(&c, true, t, sizeof(t));
	ck_assert_str_eq(t, "enable CONFIG_UDMABUF");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fix_text");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, one_command);
	tcase_add_test(tc, ordinals_and_numbers);
	tcase_add_test(tc, hostile_names_are_not_commands);
	tcase_add_test(tc, never_cut_never_stale);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
