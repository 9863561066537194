// SPDX-License-Identifier: GPL-2.0-or-later
/* sb_kmsg_said (lib/kernel/kmsg_said.c): the records the kernel logged about a device
 * while an operation ran, as a bind-rx refused with a bare errno and a remote processor
 * that would not start quote them. Records are
 * written to this machine's /dev/kmsg (a write there is logged as any record is), under a
 * device name of this process's own so that no other writer's records can match. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "socbox/kmsg_said.h"
#include "socbox/macro.h"
#include "testutil.h"

static char dev[32];

static bool said_names(const char *text, const char *a, const char *b)
{
	const char *names[] = { a, b };

	return sb_kmsg_said_names(text, names, ARRAY_SIZE(names));
}

static unsigned take(struct sb_kmsg_said *s, const char *name, char *buf, size_t len)
{
	const char *names[] = { name };

	return sb_kmsg_said_take(s, names, ARRAY_SIZE(names), buf, len);
}

/* One record at level: "PREFIX NAME: TEXT" ("PREFIX" empty: "NAME: TEXT"). It ends with a
 * newline: the kernel shows a record to readers once it is finalized, and a record without
 * one stays open until the next is written. */
static void logged(int level, const char *prefix, const char *name, const char *text)
{
	char rec[256];
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	ck_assert_msg(fd >= 0, "open /dev/kmsg for writing (the host tier runs as root)");
	snprintf(rec, sizeof(rec), "<%d>%s%s%s: %s\n", level, prefix, prefix[0] ? " " : "", name,
		 text);
	ck_assert_int_eq(write(fd, rec, strlen(rec)), (ssize_t)strlen(rec));
	close(fd);
}

START_TEST(a_device_is_named_as_dev_printk_names_it)
{
	ck_assert(said_names("virtio_net virtio0 eth0: tx timeout", "eth0", NULL));
	ck_assert(said_names("bnxt_en 0000:01:00.0: no memory", "eth0", "0000:01:00.0"));
	ck_assert(said_names("eth0 queue 3 stalled", "eth0", NULL));
	ck_assert(!said_names("virtio_net virtio0 eth00: tx timeout", "eth0", NULL));
	ck_assert(!said_names("veth0: link up", "eth0", NULL));
	ck_assert(!said_names("anything", NULL, NULL));
}
END_TEST

START_TEST(records_about_the_device_are_quoted_and_others_left)
{
	struct sb_kmsg_said s;
	char buf[512], other[48];

	snprintf(dev, sizeof(dev), "said%d", (int)getpid());
	logged(3, "before the mark", dev, "refused");
	sb_kmsg_said_mark(&s);
	ck_assert_msg(s.open, "the live log can be read (root)");
	logged(3, "socbox-test", dev, "page pool allocation failed");
	logged(6, "socbox-test", dev, "informational, not a reason");
	snprintf(other, sizeof(other), "other%s", dev);
	logged(3, "socbox-test", other, "another device");
	unsigned got = take(&s, dev, buf, sizeof(buf));
	ck_assert_msg(got == 1, "%u records: %s", got, buf);
	ck_assert_msg(strstr(buf, "page pool allocation failed") &&
			      !strstr(buf, "before the mark") && !strstr(buf, "informational") &&
			      !strstr(buf, "another device"),
		      "quoted: %s", buf);
	ck_assert_int_eq(buf[0], '"');
	ck_assert(!s.open);
	/* taken once: a second take has nothing */
	ck_assert_uint_eq(take(&s, dev, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
}
END_TEST

START_TEST(more_than_the_most_are_counted_and_a_cut_quote_says_so)
{
	struct sb_kmsg_said s;
	char buf[64];

	snprintf(dev, sizeof(dev), "said%d", (int)getpid());
	sb_kmsg_said_mark(&s);
	for (int i = 0; i < SB_KMSG_SAID_MOST + 2; i++)
		logged(4, "socbox-test", dev, "a warning that goes on and on and on");
	ck_assert_uint_eq(take(&s, dev, buf, sizeof(buf)), SB_KMSG_SAID_MOST + 2);
	ck_assert_uint_eq(strlen(buf), sizeof(buf) - 1);
	ck_assert_str_eq(buf + sizeof(buf) - 4, "...");
}
END_TEST

START_TEST(a_dropped_mark_reads_nothing)
{
	struct sb_kmsg_said s;
	char buf[64];

	sb_kmsg_said_mark(&s);
	sb_kmsg_said_drop(&s);
	ck_assert(!s.open);
	ck_assert_uint_eq(take(&s, "eth0", buf, sizeof(buf)), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kmsg_said");
	TCase *tc = tcase_create("said");

	tcase_add_test(tc, a_device_is_named_as_dev_printk_names_it);
	tcase_add_test(tc, records_about_the_device_are_quoted_and_others_left);
	tcase_add_test(tc, more_than_the_most_are_counted_and_a_cut_quote_says_so);
	tcase_add_test(tc, a_dropped_mark_reads_nothing);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
