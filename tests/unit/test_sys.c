// SPDX-License-Identifier: GPL-2.0-or-later
/* The root-aware path layer and the attribute readers. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "socbox/sys.h"
#include "testutil.h"

static char *dir;
static struct sb_root *root;

static void setup(void)
{
	dir = tu_tree_new();
	tu_write(dir, "sys/class/thing/a/value", "42\n", -1);
	tu_write(dir, "sys/class/thing/a/hex", "0x1f\n", -1);
	tu_write(dir, "sys/class/thing/a/barehex", "ff\n", -1);
	tu_write(dir, "sys/class/thing/a/neg", "-1\n", -1);
	tu_write(dir, "sys/class/thing/a/name", "rpmsg-raw \n", -1);
	tu_write(dir, "sys/class/thing/a/empty", "", 0);
	tu_write(dir, "sys/class/thing/a/garbage", "12abc\n", -1);
	tu_write(dir, "sys/class/thing/a/overflow", "99999999999999999999999\n", -1);
	tu_write(dir, "sys/class/thing/a/binary", "ab\0cd", 5);
	tu_write(dir, "sys/class/thing/a/latin1", "caf\xe9\n", -1);
	tu_write(dir, "sys/class/thing/a/yes", "Y\n", -1);
	tu_write(dir, "sys/class/thing/a/enabled", "enabled\n", -1);
	tu_write(dir, "sys/class/thing/a/truncated", "0x", -1);
	tu_write(dir, "proc/sys/kernel/osrelease", "6.12.34-arm64\n", -1);
	tu_write(dir, "sys/devices/platform/r5f/remoteproc/remoteproc0/state", "running\n", -1);
	tu_symlink(dir, "sys/class/remoteproc/remoteproc0",
		   "../../devices/platform/r5f/remoteproc/remoteproc0");
	tu_symlink(dir, "sys/class/thing/escape", "../../../../../../../../etc");
	tu_symlink(dir, "sys/class/thing/absolute", "/sys/class/thing/a");
	for (int i = 0; i < 12; i++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "sys/class/rpmsg/rpmsg%d/name", i);
		tu_write(dir, rel, "x\n", -1);
	}
	ck_assert_int_eq(sb_root_open(&root, dir, NULL), 0);
}

static void teardown(void)
{
	sb_root_close(root);
	tu_tree_free(dir);
}

START_TEST(reads_integers)
{
	uint64_t u;
	int64_t s;

	ck_assert_int_eq(sb_attr_u64(root, &u, "/sys/class/thing/a/value"), 0);
	ck_assert_uint_eq(u, 42);
	ck_assert_int_eq(sb_attr_u64(root, &u, "/sys/class/thing/a/hex"), 0);
	ck_assert_uint_eq(u, 0x1f);
	ck_assert_int_eq(sb_attr_hex(root, &u, "/sys/class/thing/a/barehex"), 0);
	ck_assert_uint_eq(u, 0xff);
	ck_assert_int_eq(sb_attr_s64(root, &s, "/sys/class/thing/a/neg"), 0);
	ck_assert_int_eq(s, -1);
}
END_TEST

START_TEST(tells_missing_from_malformed)
{
	uint64_t u = 7;

	ck_assert_int_eq(sb_attr_u64(root, &u, "/sys/class/thing/a/nope"), -ENOENT);
	ck_assert_int_eq(sb_attr_u64(root, &u, "/sys/class/thing/a/garbage"), -EINVAL);
	ck_assert_int_eq(sb_attr_u64(root, &u, "/sys/class/thing/a/empty"), -EINVAL);
	ck_assert_int_eq(sb_attr_u64(root, &u, "/sys/class/thing/a/truncated"), -EINVAL);
	ck_assert_int_eq(sb_attr_u64(root, &u, "/sys/class/thing/a/neg"), -EINVAL);
	ck_assert_int_eq(sb_attr_u64(root, &u, "/sys/class/thing/a/overflow"), -ERANGE);
	ck_assert_uint_eq(u, 7); /* untouched on error */
	ck_assert_str_eq(sb_attr_strerror(-ENOENT), "missing");
	ck_assert_str_eq(sb_attr_strerror(-EINVAL), "malformed");
	ck_assert_str_eq(sb_attr_strerror(-EACCES), "unreadable");
}
END_TEST

START_TEST(reads_strings)
{
	char buf[64];

	ck_assert_int_eq(sb_attr_str(root, buf, sizeof(buf), "/sys/class/thing/a/name"), 9);
	ck_assert_str_eq(buf, "rpmsg-raw");
	ck_assert_int_eq(sb_attr_str(root, buf, sizeof(buf), "/sys/class/thing/a/empty"), 0);
	ck_assert_str_eq(buf, "");
	/* non-UTF-8 text is returned as is; the JSON writer makes it valid */
	ck_assert_int_eq(sb_attr_str(root, buf, sizeof(buf), "/sys/class/thing/a/latin1"), 4);
	ck_assert_int_eq((unsigned char)buf[3], 0xe9);
	ck_assert_int_eq(sb_attr_str(root, buf, sizeof(buf), "/sys/class/thing/a/binary"), -EINVAL);
	ck_assert_int_eq(sb_attr_str(root, buf, 4, "/sys/class/thing/a/name"), -EFBIG);
}
END_TEST

START_TEST(reads_booleans)
{
	bool b = false;

	ck_assert_int_eq(sb_attr_bool(root, &b, "/sys/class/thing/a/yes"), 0);
	ck_assert(b);
	ck_assert_int_eq(sb_attr_bool(root, &b, "/sys/class/thing/a/enabled"), 0);
	ck_assert(b);
	ck_assert_int_eq(sb_attr_bool(root, &b, "/sys/class/thing/a/name"), -EINVAL);
	/* every word the kernel's module parameters and sysfs files print, each to its value */
	static const char *const yes[] = { "1", "Y", "y", "yes", "true", "on", "enabled", "enable" };
	static const char *const no[] = {
		"0", "N", "n", "no", "false", "off", "disabled", "disable"
	};
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = false;
		ck_assert_int_eq(sb_parse_bool(yes[i], &b), 0);
		ck_assert_msg(b, "%s", yes[i]);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		b = true;
		ck_assert_int_eq(sb_parse_bool(no[i], &b), 0);
		ck_assert_msg(!b, "%s", no[i]);
	}
	ck_assert_int_eq(sb_parse_bool("", &b), -EINVAL);
	ck_assert_int_eq(sb_parse_bool("yess", &b), -EINVAL);
}
END_TEST

START_TEST(follows_relative_links_inside_root)
{
	char buf[64];

	ck_assert_int_eq(sb_attr_str(root, buf, sizeof(buf),
				     "/sys/class/remoteproc/remoteproc0/state"),
			 7);
	ck_assert_str_eq(buf, "running");
	ck_assert_int_eq(sb_link_name(root, buf, sizeof(buf), "/sys/class/remoteproc/remoteproc0"),
			 0);
	ck_assert_str_eq(buf, "remoteproc0");
	ck_assert_int_gt(sb_readlink(root, buf, sizeof(buf), "/sys/class/remoteproc/remoteproc0"),
			 0);
	ck_assert_str_eq(buf, "../../devices/platform/r5f/remoteproc/remoteproc0");
}
END_TEST

START_TEST(never_escapes_the_root)
{
	char buf[64];

	/* ".." beyond the root stays at the root: <root>/etc does not exist */
	ck_assert(!sb_exists(root, "/sys/class/thing/escape/passwd"));
	ck_assert(!sb_exists(root, "/../../../../etc/passwd"));
	ck_assert_int_eq(sb_attr_str(root, buf, sizeof(buf), "/sys/../../../etc/hostname"), -ENOENT);
	/* an absolute link resolves inside the root, not on the host */
	ck_assert_int_eq(sb_attr_str(root, buf, sizeof(buf), "/sys/class/thing/absolute/value"), 2);
	ck_assert_str_eq(buf, "42");
}
END_TEST

START_TEST(lists_in_natural_order)
{
	struct sb_dirlist l;

	ck_assert_int_eq(sb_dir_list(root, &l, "/sys/class/rpmsg"), 0);
	ck_assert_uint_eq(l.n, 12);
	ck_assert_str_eq(l.names[0], "rpmsg0");
	ck_assert_str_eq(l.names[2], "rpmsg2");
	ck_assert_str_eq(l.names[11], "rpmsg11");
	sb_dirlist_free(&l);
	ck_assert_int_eq(sb_dir_list(root, &l, "/sys/class/none"), -ENOENT);
	ck_assert_uint_eq(l.n, 0);
}
END_TEST

/* more entries than one getdents64 buffer holds (8K): every one is listed, once */
START_TEST(lists_directories_larger_than_one_read)
{
	struct sb_dirlist l;
	char rel[96];

	for (int i = 0; i < 600; i++) {
		snprintf(rel, sizeof(rel), "sys/kernel/iommu_groups/%d/type", i);
		tu_write(dir, rel, "DMA\n", -1);
	}
	ck_assert_int_eq(sb_dir_list(root, &l, "/sys/kernel/iommu_groups"), 0);
	ck_assert_uint_eq(l.n, 600);
	for (size_t i = 0; i < l.n; i++) {
		snprintf(rel, sizeof(rel), "%zu", i);
		ck_assert_str_eq(l.names[i], rel);
	}
	sb_dirlist_free(&l);
	ck_assert_int_eq(sb_dir_list(root, &l, "/sys/class/thing/a/value"), -ENOTDIR);
}
END_TEST

START_TEST(link_names_of_an_open_directory)
{
	char buf[64];
	int dfd = sb_open(root, O_PATH | O_DIRECTORY, "/sys/class/remoteproc");

	ck_assert_int_ge(dfd, 0);
	ck_assert_int_eq(sb_link_name_at(dfd, "remoteproc0", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "remoteproc0");
	ck_assert_int_eq(sb_link_name_at(dfd, "driver", buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(sb_link_name_at(dfd, "remoteproc0", buf, 4), -ENAMETOOLONG);
	close(dfd);
}
END_TEST

START_TEST(reads_whole_files_with_a_limit)
{
	char *big = malloc(300000), *buf = NULL;

	memset(big, 'x', 300000);
	tu_write(dir, "proc/big", big, 300000);
	ck_assert_int_eq(sb_read_file(root, &buf, 1 << 20, "/proc/big"), 300000);
	ck_assert_int_eq(buf[299999], 'x');
	ck_assert_int_eq(buf[300000], '\0');
	free(buf);
	ck_assert_int_eq(sb_read_file(root, &buf, 299999, "/proc/big"), -EFBIG);
	ck_assert_ptr_null(buf);
	ck_assert_int_eq(sb_read_file(root, &buf, 300000, "/proc/big"), 300000);
	free(buf);
	free(big);
}
END_TEST

/* Before the type check, each of these reads blocked forever in open(). */
START_TEST(refuses_fifos_and_sockets_without_blocking)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char path[4096], buf[64], *text = NULL;
	struct sb_dirlist l;
	uint64_t v;
	int s;

	snprintf(path, sizeof(path), "%s/proc/fifo", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(sb_attr_str(root, buf, sizeof(buf), "/proc/fifo"), -SB_ENOTREG);
	ck_assert_int_eq(sb_attr_u64(root, &v, "/proc/fifo"), -SB_ENOTREG);
	ck_assert_int_eq(sb_read_file(root, &text, 4096, "/proc/fifo"), -SB_ENOTREG);
	ck_assert_ptr_null(text);
	ck_assert_int_eq(sb_dir_list(root, &l, "/proc/fifo"), -ENOTDIR);
	ck_assert_str_eq(sb_attr_strerror(-SB_ENOTREG), "not a regular file");
	ck_assert(sb_exists(root, "/proc/fifo"));

	s = socket(AF_UNIX, SOCK_STREAM, 0);
	ck_assert_int_ge(s, 0);
	ck_assert_int_lt(snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/proc/sock", dir),
			 (int)sizeof(sun.sun_path));
	ck_assert_int_eq(bind(s, (struct sockaddr *)&sun, sizeof(sun)), 0);
	ck_assert_int_eq(sb_attr_str(root, buf, sizeof(buf), "/proc/sock"), -SB_ENOTREG);
	close(s);

	/* a link to a FIFO is the FIFO */
	tu_symlink(dir, "sys/class/thing/fifo", "/proc/fifo");
	ck_assert_int_eq(sb_attr_str(root, buf, sizeof(buf), "/sys/class/thing/fifo"), -SB_ENOTREG);
	/* regular files and directories still open */
	ck_assert_int_eq(sb_attr_str(root, buf, sizeof(buf), "/sys/class/thing/a/name"), 9);
	ck_assert_int_eq(sb_dir_list(root, &l, "/sys/class/thing/a"), 0);
	sb_dirlist_free(&l);
}
END_TEST

/* A FIFO named on the command line (--load-netlink, a stress baseline) whose writer comes
 * after socbox opened it is read, not taken for empty: the writer here opens only once the
 * reader has (O_NONBLOCK: ENXIO until then). */
START_TEST(user_fifo_waits_for_its_writer)
{
	char path[4096], *text = NULL;
	pid_t pid;
	int status;

	snprintf(path, sizeof(path), "%s/capture", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		const struct timespec ms = { 0, 1000000 };
		int fd;

		for (int i = 0; i < 20000; i++) {
			fd = open(path, O_WRONLY | O_NONBLOCK);
			if (fd >= 0)
				_exit(write(fd, "late\n", 5) == 5 ? 0 : 1);
			nanosleep(&ms, NULL);
		}
		_exit(2);
	}
	ck_assert_int_eq(sb_read_user_file(path, &text, 4096), 5);
	ck_assert_str_eq(text, "late\n");
	free(text);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
END_TEST

START_TEST(knows_the_kernel_version)
{
	ck_assert_uint_eq(sb_kernel_version_code(root), 61234);
	ck_assert(!sb_root_is_live(root));
	ck_assert_int_eq(sb_attr_write(root, "1", "/sys/class/thing/a/value"), -EROFS);
}
END_TEST

/* Files that cannot change while a command runs are read once per root, failures too. */
START_TEST(reads_constant_files_once)
{
	const char *text, *again;
	char rel[32];

	ck_assert_int_eq(sb_read_file_once(root, &text, 4096, "/sys/class/thing/a/name"), 11);
	ck_assert_str_eq(text, "rpmsg-raw \n");
	tu_write(dir, "sys/class/thing/a/name", "changed\n", -1);
	ck_assert_int_eq(sb_read_file_once(root, &again, 4096, "/sys/class/thing/a/name"), 11);
	ck_assert_ptr_eq(again, text);
	ck_assert_int_eq(sb_read_file_once(root, &text, 4096, "/sys/class/thing/a/%s", "nope"),
			 -ENOENT);
	ck_assert_ptr_null(text);
	tu_write(dir, "sys/class/thing/a/nope", "late\n", -1);
	ck_assert_int_eq(sb_read_file_once(root, &text, 4096, "/sys/class/thing/a/nope"), -ENOENT);
	/* the kernel release: as sb_attr_str, trimmed and cut to the buffer */
	ck_assert_int_eq(sb_kernel_release(root, rel, sizeof(rel)), 13);
	ck_assert_str_eq(rel, "6.12.34-arm64");
	ck_assert_int_eq(sb_kernel_release(root, rel, 5), 4);
	ck_assert_str_eq(rel, "6.12");
}
END_TEST

START_TEST(refuses_a_missing_sysroot)
{
	struct sb_root *r = NULL;
	struct sb_err e;

	ck_assert_int_eq(sb_root_open(&r, "/nonexistent/socbox-root", &e), -ENOENT);
	ck_assert_ptr_null(r);
	ck_assert_str_eq(e.object, "/nonexistent/socbox-root");
}
END_TEST

START_TEST(parses_numbers_strictly)
{
	uint64_t u;
	int64_t s;

	ck_assert_int_eq(sb_parse_u64("0x", 0, &u), -EINVAL);
	ck_assert_int_eq(sb_parse_u64("", 0, &u), -EINVAL);
	ck_assert_int_eq(sb_parse_u64("010", 0, &u), 0);
	ck_assert_uint_eq(u, 10); /* decimal, never octal */
	ck_assert_int_eq(sb_parse_s64("-9223372036854775808", 0, &s), 0);
	ck_assert_int_eq(sb_parse_s64("9223372036854775808", 0, &s), -ERANGE);
	ck_assert_int_eq(sb_parse_u64("18446744073709551615", 0, &u), 0);
	ck_assert_uint_eq(u, UINT64_MAX);
}
END_TEST

/* Every reader refuses a path longer than PATH_MAX before it touches anything. */
START_TEST(refuses_paths_too_long)
{
	char *buf = (char *)"x", str[8] = "x", link[8];
	const char *text = "x";
	struct sb_dirlist dl = { .n = 3 };
	struct stat st;
	uint64_t u;
	bool b;

	ck_assert_int_eq(sb_open(root, O_RDONLY, "/%05000d", 1), -ENAMETOOLONG);
	ck_assert_int_eq(sb_stat(root, &st, "/%05000d", 1), -ENAMETOOLONG);
	ck_assert_int_eq(sb_read_file(root, &buf, 16, "/%05000d", 1), -ENAMETOOLONG);
	ck_assert_ptr_null(buf);
	ck_assert_int_eq(sb_read_file_once(root, &text, 16, "/%05000d", 1), -ENAMETOOLONG);
	ck_assert_ptr_null(text);
	ck_assert_int_eq(sb_readlink(root, link, sizeof(link), "/%05000d", 1), -ENAMETOOLONG);
	ck_assert_int_eq(sb_link_name(root, link, sizeof(link), "/%05000d", 1), -ENAMETOOLONG);
	ck_assert_int_eq(sb_attr_str(root, str, sizeof(str), "/%05000d", 1), -ENAMETOOLONG);
	ck_assert_str_eq(str, "");
	ck_assert_int_eq(sb_attr_u64(root, &u, "/%05000d", 1), -ENAMETOOLONG);
	ck_assert_int_eq(sb_attr_bool(root, &b, "/%05000d", 1), -ENAMETOOLONG);
	ck_assert_int_eq(sb_dir_list(root, &dl, "/%05000d", 1), -ENAMETOOLONG);
	ck_assert_uint_eq(dl.n, 0);
	ck_assert_int_eq(sb_attr_write(root, "1", "/%05000d", 1), -ENAMETOOLONG);
}
END_TEST

/* strtoull takes a sign after the prefix we strip: "0x-5" must not become 2^64-5. */
START_TEST(rejects_sign_after_prefix)
{
	uint64_t u = 7;
	int64_t s = 7;

	ck_assert_int_eq(sb_parse_u64("0x-5", 0, &u), -EINVAL);
	ck_assert_int_eq(sb_parse_u64("0x-5", 16, &u), -EINVAL);
	ck_assert_int_eq(sb_parse_u64("0x+5", 16, &u), -EINVAL);
	ck_assert_int_eq(sb_parse_u64("0x 5", 16, &u), -EINVAL);
	ck_assert_int_eq(sb_parse_u64("0x\t5", 0, &u), -EINVAL);
	ck_assert_uint_eq(u, 7);
	ck_assert_int_eq(sb_parse_s64("-0x-5", 0, &s), -EINVAL);
	ck_assert_int_eq(sb_parse_s64("0x-5", 16, &s), -EINVAL);
	ck_assert_int_eq(s, 7);
	ck_assert_int_eq(sb_parse_u64("0x1f", 0, &u), 0);
	ck_assert_uint_eq(u, 0x1f);
	ck_assert_int_eq(sb_parse_s64("-0x10", 0, &s), 0);
	ck_assert_int_eq(s, -16);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sys");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, reads_integers);
	tcase_add_test(tc, tells_missing_from_malformed);
	tcase_add_test(tc, reads_strings);
	tcase_add_test(tc, reads_booleans);
	tcase_add_test(tc, follows_relative_links_inside_root);
	tcase_add_test(tc, never_escapes_the_root);
	tcase_add_test(tc, lists_in_natural_order);
	tcase_add_test(tc, reads_whole_files_with_a_limit);
	tcase_add_test(tc, knows_the_kernel_version);
	tcase_add_test(tc, reads_constant_files_once);
	tcase_add_test(tc, refuses_a_missing_sysroot);
	tcase_add_test(tc, parses_numbers_strictly);
	tcase_add_test(tc, rejects_sign_after_prefix);
	tcase_add_test(tc, refuses_paths_too_long);
	tcase_add_test(tc, lists_directories_larger_than_one_read);
	tcase_add_test(tc, link_names_of_an_open_directory);
	tcase_add_test(tc, refuses_fifos_and_sockets_without_blocking);
	tcase_add_test(tc, user_fifo_waits_for_its_writer);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
