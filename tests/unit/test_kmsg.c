// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel log lines: /dev/kmsg records (escapes, dictionaries, multi-line texts), dmesg and
 * syslog lines. IOMMU event records: test_iommu_events.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socbox/kmsg.h"
#include "testutil.h"

START_TEST(line_formats)
{
	struct sb_kmsg_line l;
	char rec[] = "3,1234,412331907,-;arm-smmu-v3 x: event 0x10 received:";
	char dm[] = "[  412.331907] DMAR: IOMMU enabled";
	char sl[] = "<6>[    0.000000] Linux version 6.18";
	char plain[] = "no timestamp at all";
	char cont[] = " SUBSYSTEM=pci";
	char bad[] = "12,notanumber;text";
	char empty[] = "";

	ck_assert(sb_kmsg_parse_line(rec, &l));
	ck_assert_int_eq(l.prio, 3);
	ck_assert(l.has_ts);
	ck_assert_uint_eq(l.ts_us, 412331907);
	ck_assert_str_eq(l.text, "arm-smmu-v3 x: event 0x10 received:");
	ck_assert(sb_kmsg_parse_line(dm, &l));
	ck_assert_uint_eq(l.ts_us, 412331907);
	ck_assert_str_eq(l.text, "DMAR: IOMMU enabled");
	ck_assert(sb_kmsg_parse_line(sl, &l));
	ck_assert_int_eq(l.prio, 6);
	ck_assert_uint_eq(l.ts_us, 0);
	ck_assert_str_eq(l.text, "Linux version 6.18");
	ck_assert(sb_kmsg_parse_line(plain, &l));
	ck_assert(!l.has_ts);
	ck_assert(!sb_kmsg_parse_line(cont, &l));
	ck_assert(!sb_kmsg_parse_line(empty, &l));
	ck_assert(sb_kmsg_parse_line(bad, &l)); /* not a record: kept as plain text */
	ck_assert_str_eq(l.text, "12,notanumber;text");
}
END_TEST

START_TEST(whole_log_with_garbage)
{
	char *text = strdup(
		"6,1,100,-;first\r\n SUBSYSTEM=pci\n\n\xff\xfe\xfd garbage\n[  1.5] second\n[ 2.x] truncated ts");
	struct sb_kmsg k;

	ck_assert_int_eq(sb_kmsg_parse(text, &k), 0);
	ck_assert_uint_eq(k.n, 4);
	ck_assert_str_eq(k.lines[0].text, "first");
	ck_assert_str_eq(k.lines[1].text, "\xff\xfe\xfd garbage");
	ck_assert_uint_eq(k.lines[2].ts_us, 1500000);
	ck_assert(!k.lines[3].has_ts);
	sb_kmsg_free(&k);
}
END_TEST

START_TEST(kmsg_records_are_unescaped)
{
	/* what /dev/kmsg gives for dev_err(dev, "\t0x%016llx\n", ...): the tab as \x09 */
	char rec[] = "3,812,9331907,-;arm-smmu-v3 9050000.smmuv3: \\x090x0000001000000010";
	char bs[] = "6,1,2,-;a\\x5cb \\x1b[31m \\x00 \\x4 \\xzz \\x";
	char dm[] = "[    1.0] dmesg keeps \\x09 as it is";
	struct sb_kmsg_line l;

	ck_assert(sb_kmsg_parse_line(rec, &l));
	ck_assert_str_eq(l.text, "arm-smmu-v3 9050000.smmuv3: \t0x0000001000000010");
	ck_assert(sb_kmsg_parse_line(bs, &l));
	ck_assert_str_eq(l.text, "a\\b \x1b[31m \\x00 \\x4 \\xzz \\x");
	ck_assert(sb_kmsg_parse_line(dm, &l));
	ck_assert_str_eq(l.text, "dmesg keeps \\x09 as it is");
}
END_TEST

START_TEST(multi_line_records_and_dictionaries)
{
	char *text = strdup(
		"3,5,100,-;first\\x0asecond\\x0a\n"
		" SUBSYSTEM=platform\n"
		" DEVICE=+platform:9050000.smmuv3\n"
		"4,6,200,c;third\n");
	struct sb_kmsg k;

	ck_assert_int_eq(sb_kmsg_parse(text, &k), 0);
	ck_assert_uint_eq(k.n, 3);
	ck_assert_str_eq(k.lines[0].text, "first");
	ck_assert_str_eq(k.lines[1].text, "second");
	ck_assert_uint_eq(k.lines[1].ts_us, 100);
	ck_assert_int_eq(k.lines[1].prio, 3);
	ck_assert_str_eq(k.lines[2].text, "third");
	/* the DEVICE= line belongs to every line of its record and to no other */
	ck_assert_str_eq(k.lines[0].device, "+platform:9050000.smmuv3");
	ck_assert_str_eq(sb_kmsg_device_name(&k.lines[1]), "9050000.smmuv3");
	ck_assert_ptr_null(k.lines[2].device);
	ck_assert_ptr_null(sb_kmsg_device_name(&k.lines[2]));
	sb_kmsg_free(&k);

	/* devices named by number have no name here; a dictionary before any record is none */
	text = strdup(" DEVICE=+platform:stray\n"
		      "3,7,300,-;eth0: tx timeout\n SUBSYSTEM=net\n DEVICE=n2\n");
	ck_assert_int_eq(sb_kmsg_parse(text, &k), 0);
	ck_assert_uint_eq(k.n, 1);
	ck_assert_str_eq(k.lines[0].device, "n2");
	ck_assert_ptr_null(sb_kmsg_device_name(&k.lines[0]));
	sb_kmsg_free(&k);
}
END_TEST

/* /dev/kmsg records carry the kernel's sequence numbers: a jump between two records read is
 * that many records overwritten before they were read (the first record's number is where
 * the buffer starts, not a loss); a multi-line record counts once. */
START_TEST(sequence_gaps_are_lost_records)
{
	char *text = strdup(
		"6,40,100,-;a\\x0ab\n"
		"6,41,200,-;c\n"
		"6,45,300,-;d\n"
		"6,46,400,-;e\n"
		"6,50,500,-;f\n");
	struct sb_kmsg k;

	ck_assert_int_eq(sb_kmsg_parse(text, &k), 0);
	ck_assert_uint_eq(k.n, 6);
	ck_assert(k.lines[0].has_seq);
	ck_assert_uint_eq(k.lines[2].seq, 41);
	ck_assert_uint_eq(k.lost, 3 + 3);
	sb_kmsg_free(&k);

	text = strdup("<6>[  1.000000] no sequence numbers here\n<6>[  2.000000] nor here\n");
	ck_assert_int_eq(sb_kmsg_parse(text, &k), 0);
	ck_assert(!k.lines[0].has_seq);
	ck_assert_uint_eq(k.lost, 0);
	sb_kmsg_free(&k);
}
END_TEST

START_TEST(raw_log_of_a_sysroot)
{
	char *dir = tu_tree_new();
	struct sb_root *r;
	const char *source;
	char *buf;
	size_t len;
	struct sb_err e;
	static const char rec[] = "3,7,10,-;x: \\x09y\n SUBSYSTEM=pci\n";

	sb_err_clear(&e);
	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	tu_write(dir, "dev/kmsg", rec, -1);
	ck_assert_int_eq(sb_kmsg_read_raw(r, &buf, &len, &source, &e), 0);
	ck_assert_uint_eq(len, strlen(rec));
	ck_assert_str_eq(buf, rec); /* byte for byte: what socbox snapshot keeps */
	ck_assert_str_eq(source, "sysroot");
	free(buf);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

START_TEST(sysroot_log)
{
	char *dir = tu_tree_new();
	struct sb_root *r;
	struct sb_kmsg k;
	struct sb_err e;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	ck_assert_int_eq(sb_kmsg_read(r, &k, &e), -ENOENT);
	ck_assert_str_eq(e.object, "/dev/kmsg");
	tu_write(dir, "dev/kmsg", "[    0.1] a\n[    0.2] b\n", -1);
	ck_assert_int_eq(sb_kmsg_read(r, &k, &e), 0);
	ck_assert_uint_eq(k.n, 2);
	ck_assert_str_eq(k.source, "sysroot");
	sb_kmsg_free(&k);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

struct collected {
	struct sb_kmsg_line l[4096];
	char text[4096][80], dev[4096][48];
	size_t len[4096], n, stop_at;
};

static int collect(void *arg, const struct sb_kmsg_line *l)
{
	struct collected *c = arg;

	ck_assert_uint_lt(c->n, 4096);
	c->l[c->n] = *l;
	snprintf(c->text[c->n], sizeof(c->text[0]), "%.79s", l->text);
	snprintf(c->dev[c->n], sizeof(c->dev[0]), "%s", l->device ? l->device : "-");
	c->len[c->n] = strlen(l->text);
	c->n++;
	return c->n == c->stop_at ? 7 : 0;
}

/* sb_kmsg_each() hands over the lines sb_kmsg_parse() makes of the whole text, though the
 * file is read in 64 KiB blocks: records and their DEVICE= lines across block boundaries,
 * multi-line records, CRLF, sequence gaps. */
START_TEST(streamed_as_parsed)
{
	char *dir = tu_tree_new(), *text = malloc(1 << 20), *copy;
	static struct collected c;
	struct sb_kmsg_info info;
	struct sb_root *r;
	struct sb_kmsg k;
	struct sb_err e;
	size_t len = 0;

	for (int i = 0; i < 3000; i++)
		len += (size_t)sprintf(text + len,
				       i % 3 == 0   ? "3,%d,%d,-;dev%d: first\\x0asecond %d\n"
						      " SUBSYSTEM=platform\n DEVICE=+platform:d%d\n"
				       : i % 3 == 1 ? "6,%d,%d,-;plain line %d of %d\r\n"
						    : "4,%d,%d,c;warning %d%d\n",
				       i + i / 100, i * 10, i, i, i);
	text[len] = '\0';
	copy = strdup(text);
	sb_err_clear(&e);
	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	tu_write(dir, "dev/kmsg", text, (ssize_t)len);
	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(sb_kmsg_each(r, collect, &c, &info, &e), 0);
	ck_assert_int_eq(sb_kmsg_parse(copy, &k), 0);
	ck_assert_uint_eq(c.n, k.n);
	ck_assert_uint_eq(info.lines, k.n);
	ck_assert_uint_eq(info.lost, k.lost);
	ck_assert_uint_eq(info.lost, 29);
	ck_assert_str_eq(info.source, "sysroot");
	ck_assert_uint_eq(info.last_ts_us, 29990);
	for (size_t i = 0; i < k.n; i++) {
		ck_assert_str_eq(c.text[i], k.lines[i].text);
		ck_assert_str_eq(c.dev[i], k.lines[i].device ? k.lines[i].device : "-");
		ck_assert_int_eq(c.l[i].prio, k.lines[i].prio);
		ck_assert_uint_eq(c.l[i].ts_us, k.lines[i].ts_us);
		ck_assert_uint_eq(c.l[i].seq, k.lines[i].seq);
	}
	sb_kmsg_free(&k); /* frees copy */

	/* what fn returns stops the reading and is returned */
	memset(&c, 0, sizeof(c));
	c.stop_at = 5;
	ck_assert_int_eq(sb_kmsg_each(r, collect, &c, NULL, &e), 7);
	ck_assert_uint_eq(c.n, 5);

	/* a line longer than SB_KMSG_LINE_MAX is cut there and the next one read; a NUL byte
	 * ends the log, as it ends sb_kmsg_parse()'s */
	memset(text, 'x', 200000);
	len = 200000;
	len += (size_t)sprintf(text + len, "\n3,1,5,-;after the long one\n");
	memcpy(text + len, "3,2,6,-;after\0 NUL\n", 19);
	tu_write(dir, "dev/kmsg", text, (ssize_t)len + 19);
	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(sb_kmsg_each(r, collect, &c, NULL, &e), 0);
	ck_assert_uint_eq(c.n, 3);
	ck_assert_uint_eq(c.len[0], SB_KMSG_LINE_MAX);
	ck_assert_str_eq(c.text[1], "after the long one");
	ck_assert_str_eq(c.text[2], "after");

	/* an empty log is no line; no log is -ENOENT naming it */
	tu_write(dir, "dev/kmsg", "", 0);
	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(sb_kmsg_each(r, collect, &c, &info, &e), 0);
	ck_assert_uint_eq(c.n, 0);
	snprintf(text, 4096, "%s/dev/kmsg", dir);
	ck_assert_int_eq(unlink(text), 0);
	ck_assert_int_eq(sb_kmsg_each(r, collect, &c, &info, &e), -ENOENT);
	ck_assert_str_eq(e.object, "/dev/kmsg");
	ck_assert_uint_eq(c.n, 0);
	sb_root_close(r);
	tu_tree_free(dir);
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kmsg");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, line_formats);
	tcase_add_test(tc, whole_log_with_garbage);
	tcase_add_test(tc, kmsg_records_are_unescaped);
	tcase_add_test(tc, multi_line_records_and_dictionaries);
	tcase_add_test(tc, sequence_gaps_are_lost_records);
	tcase_add_test(tc, raw_log_of_a_sysroot);
	tcase_add_test(tc, sysroot_log);
	tcase_add_test(tc, streamed_as_parsed);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
