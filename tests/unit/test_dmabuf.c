// SPDX-License-Identifier: GPL-2.0-or-later
/* dmabufcp's parsers and arithmetic: fdinfo, maps, bufinfo, buffer specs, chunk planning,
 * O_DIRECT alignment, the temporary-file-then-rename output and the inventory on a tree. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "socbox/dmabuf_copy.h"
#include "socbox/dmabuf.h"
#include "socbox/probe.h"
#include "socbox/dmabufinfo.h"
#include "socbox/netdev.h"
#include "testutil.h"

static const char fdinfo_heap[] =
	"pos:\t0\nflags:\t02000002\nmnt_id:\t15\nino:\t1042\nsize:\t33554432\ncount:\t1\n"
	"exp_name:\tsystem\nname:\tcamera-rx\n";

START_TEST(fdinfo_of_a_heap_buffer)
{
	struct sb_dmabuf_fdinfo fi;

	ck_assert_int_eq(sb_dmabuf_parse_fdinfo(fdinfo_heap, &fi), 0);
	ck_assert(fi.is_dmabuf);
	ck_assert_uint_eq(fi.ino, 1042);
	ck_assert_uint_eq(fi.size, 33554432);
	ck_assert_uint_eq(fi.count, 1);
	ck_assert_uint_eq(fi.flags, 02000002);
	ck_assert_str_eq(fi.exp_name, "system");
	ck_assert_str_eq(fi.name, "camera-rx");
}
END_TEST

START_TEST(fdinfo_of_other_files_and_garbage)
{
	struct sb_dmabuf_fdinfo fi;
	char huge[70000];

	sb_dmabuf_parse_fdinfo("pos:\t0\nflags:\t0100002\nmnt_id:\t25\nino:\t3\n", &fi);
	ck_assert(!fi.is_dmabuf);
	sb_dmabuf_parse_fdinfo("", &fi);
	ck_assert(!fi.is_dmabuf);
	/* truncated in the middle of the dma-buf lines: what is there still counts */
	sb_dmabuf_parse_fdinfo("pos:\t0\nino:\t77\nsize:\t4096\ncount:\t2\nexp_name:\tudm", &fi);
	ck_assert(fi.is_dmabuf);
	ck_assert_str_eq(fi.exp_name, "udm");
	ck_assert_uint_eq(fi.size, 4096);
	/* values that are no numbers stay 0; non-UTF-8 names are kept as bytes */
	sb_dmabuf_parse_fdinfo("ino:\tabc\nsize:\t-1\nexp_name:\t\xff\xfe\nname:\n", &fi);
	ck_assert(fi.is_dmabuf);
	ck_assert_uint_eq(fi.ino, 0);
	ck_assert_uint_eq(fi.size, 0);
	ck_assert_str_eq(fi.exp_name, "\xff\xfe");
	ck_assert_str_eq(fi.name, "");
	/* a huge line without a colon and an overlong name are cut, not overflowed */
	memset(huge, 'x', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = '\0';
	sb_dmabuf_parse_fdinfo(huge, &fi);
	ck_assert(!fi.is_dmabuf);
	memcpy(huge, "exp_name:\t", 10);
	sb_dmabuf_parse_fdinfo(huge, &fi);
	ck_assert(fi.is_dmabuf);
	ck_assert_uint_lt(strlen(fi.exp_name), sizeof(fi.exp_name));
}
END_TEST

START_TEST(maps_lines)
{
	struct sb_dmabuf_map m;

	ck_assert_int_eq(
		sb_dmabuf_parse_maps_line(
			"7f3c2a000000-7f3c2c000000 rw-s 00000000 00:0f 1042                       /dmabuf:camera-rx",
			&m),
		1);
	ck_assert_uint_eq(m.start, 0x7f3c2a000000ull);
	ck_assert_uint_eq(m.end - m.start, 32u << 20);
	ck_assert_uint_eq(m.ino, 1042);
	ck_assert_str_eq(m.name, "camera-rx");
	ck_assert_int_eq(sb_dmabuf_parse_maps_line("ffff8000-ffff9000 rw-s 00000000 00:0f 77 /dmabuf:\n",
						   &m),
			 1);
	ck_assert_str_eq(m.name, "");
	ck_assert_int_eq(sb_dmabuf_parse_maps_line(
				 "ffff8000-ffff9000 rw-s 00000000 00:0e 78 anon_inode:dmabuf", &m),
			 1);
	ck_assert_uint_eq(m.ino, 78);
	ck_assert_int_eq(sb_dmabuf_parse_maps_line(
				 "55d0c4a00000-55d0c4a21000 r--p 00000000 fe:01 1311 /usr/bin/weston",
				 &m),
			 0);
	ck_assert_int_eq(sb_dmabuf_parse_maps_line("7ffd1000-7ffd2000 rw-p 00000000 00:00 0 [stack]",
						   &m),
			 0);
	ck_assert_int_eq(sb_dmabuf_parse_maps_line(
				 "ffff8000-ffff9000 rw-s 00000000 00:0e 78 anon_inode:dmabuf_other",
				 &m),
			 0);
	ck_assert_int_eq(sb_dmabuf_parse_maps_line("garbage /dmabuf:x", &m), -EINVAL);
	ck_assert_int_eq(sb_dmabuf_parse_maps_line("", &m), -EINVAL);
	ck_assert_int_eq(sb_dmabuf_parse_maps_line("9000-8000 rw-s 0 00:0f 1 /dmabuf:x", &m),
			 -EINVAL);
	ck_assert_int_eq(sb_dmabuf_parse_maps_line("7f3c2a000000-7f3c2c000000 rw-s 00000000 00:0f",
						   &m),
			 -EINVAL);
}
END_TEST

static const char bufinfo_real[] =
	"\nDma-buf Objects:\n"
	"size    \tflags   \tmode    \tcount   \texp_name\tino     \tname\n"
	"33554432\t00000002\t000a001f\t00000003\tsystem\t00001042\tcamera-rx\n"
	"\tAttached Devices:\n"
	"\t30200000.dss\n"
	"\t30210000.csi\n"
	"Total 2 devices attached\n\n"
	"08294400\t00000002\t000a001f\t00000002\tlinux,cma\t00001043\t<none>\n"
	"\twrite fence:drm_sched gfx_0.0.0 seq 12 signalled\n"
	"\tAttached Devices:\n"
	"Total 0 devices attached\n\n"
	"\nTotal 2 objects, 41848832 bytes\n";

START_TEST(bufinfo_real_format)
{
	struct sb_bufinfo bi;
	size_t skipped;

	ck_assert_int_eq(sb_bufinfo_parse(bufinfo_real, &bi, &skipped), 0);
	ck_assert_uint_eq(skipped, 0);
	ck_assert_uint_eq(bi.n, 2);
	ck_assert_uint_eq(bi.v[0].size, 33554432);
	ck_assert_uint_eq(bi.v[0].count, 3);
	ck_assert_uint_eq(bi.v[0].ino, 1042);
	ck_assert_str_eq(bi.v[0].exp_name, "system");
	ck_assert_str_eq(bi.v[0].name, "camera-rx");
	ck_assert_uint_eq(bi.v[0].nattached, 2);
	ck_assert_str_eq(bi.v[0].attached[1], "30210000.csi");
	ck_assert_str_eq(bi.v[1].exp_name, "linux,cma");
	ck_assert_str_eq(bi.v[1].name, "");
	ck_assert_uint_eq(bi.v[1].nattached, 0);
	ck_assert_uint_eq(bi.total_objects, 2);
	ck_assert_uint_eq(bi.total_bytes, 41848832);
	sb_bufinfo_free(&bi);
}
END_TEST

/* As Linux 7.2 wrote it in the QEMU test bed, two buffers held by 'dmabufcp --hold'. */
static const char bufinfo_linux72[] =
	"\nDma-buf Objects:\n"
	"size    \tflags   \tmode    \tcount   \texp_name\tino     \tname\n"
	"01052672\t00000002\t02080007\t00000002\tudmabuf\t00000002\tsocbox-udma\n"
	"\tAttached Devices:\n"
	"Total 0 devices attached\n\n"
	"01052672\t00000002\t02080007\t00000002\tsystem\t00000001\tsocbox-held\n"
	"\tAttached Devices:\n"
	"Total 0 devices attached\n\n"
	"\nTotal 2 objects, 2105344 bytes\n";

START_TEST(bufinfo_as_linux_72_writes_it)
{
	struct sb_bufinfo bi;
	size_t skipped;

	ck_assert_int_eq(sb_bufinfo_parse(bufinfo_linux72, &bi, &skipped), 0);
	ck_assert_uint_eq(bi.n, 2);
	ck_assert_uint_eq(skipped, 0);
	ck_assert_str_eq(bi.v[0].exp_name, "udmabuf");
	ck_assert_str_eq(bi.v[0].name, "socbox-udma");
	ck_assert_uint_eq(bi.v[1].ino, 1);
	ck_assert_uint_eq(bi.v[1].size, 1052672);
	ck_assert_uint_eq(bi.v[1].count, 2);
	ck_assert_uint_eq(bi.total_bytes, 2105344);
	sb_bufinfo_free(&bi);
}
END_TEST

START_TEST(bufinfo_broken)
{
	struct sb_bufinfo bi;
	size_t skipped;

	ck_assert_int_eq(sb_bufinfo_parse("", &bi, &skipped), -EINVAL);
	ck_assert_int_eq(sb_bufinfo_parse("no such header\n1\t2\n", &bi, &skipped), -EINVAL);
	/* header only (no buffers), and the older kernels' empty name field */
	ck_assert_int_eq(
		sb_bufinfo_parse("\nDma-buf Objects:\nsize\tflags\n\nTotal 0 objects, 0 bytes\n",
				 &bi, &skipped),
		0);
	ck_assert_uint_eq(bi.n, 0);
	sb_bufinfo_free(&bi);
	ck_assert_int_eq(
		sb_bufinfo_parse("Dma-buf Objects:\n00004096\t00000002\t000a001f\t00000001\tudmabuf\t00000009\t\n"
				 "00004096\tzz\n"
				 "xxxxxxxx\t00000002\t000a001f\t00000001\tudmabuf\t00000010\tname\n"
				 "00008192\t00000002\t000a001f\t00000001\tudmabuf\t000000",
				 &bi, &skipped),
		0);
	ck_assert_uint_eq(bi.n, 2);
	ck_assert_uint_eq(skipped, 2);
	ck_assert_str_eq(bi.v[0].name, "");
	ck_assert_uint_eq(bi.v[1].ino, 0);
	sb_bufinfo_free(&bi);
}
END_TEST

START_TEST(buffer_specs)
{
	struct sb_dmabuf_spec s;

	ck_assert_int_eq(sb_dmabuf_spec_parse("heap:system", &s), 0);
	ck_assert_int_eq(s.kind, SB_DMABUF_HEAP);
	ck_assert_str_eq(s.heap, "system");
	ck_assert_int_eq(sb_dmabuf_spec_parse("heap:linux,cma", &s), 0);
	ck_assert_int_eq(sb_dmabuf_spec_parse("udmabuf", &s), 0);
	ck_assert_int_eq(s.kind, SB_DMABUF_UDMABUF);
	ck_assert_int_eq(sb_dmabuf_spec_parse("1234:7", &s), 0);
	ck_assert_int_eq(s.kind, SB_DMABUF_PIDFD);
	ck_assert_int_eq(s.pid, 1234);
	ck_assert_int_eq(s.fd, 7);
	/* file names */
	ck_assert_int_eq(sb_dmabuf_spec_parse("heap:", &s), -EINVAL);
	ck_assert_int_eq(sb_dmabuf_spec_parse("heap:../../etc", &s), -EINVAL);
	ck_assert_int_eq(sb_dmabuf_spec_parse("file.bin", &s), -EINVAL);
	ck_assert_int_eq(sb_dmabuf_spec_parse("12:", &s), -EINVAL);
	ck_assert_int_eq(sb_dmabuf_spec_parse("12:3x", &s), -EINVAL);
	ck_assert_int_eq(sb_dmabuf_spec_parse("0:3", &s), -EINVAL);
	ck_assert_int_eq(sb_dmabuf_spec_parse("99999999999:3", &s), -EINVAL);
	ck_assert_int_eq(sb_dmabuf_spec_parse("./12:3", &s), -EINVAL);
	ck_assert_int_eq(sb_dmabuf_spec_parse("udmabuf2", &s), -EINVAL);
}
END_TEST

START_TEST(method_names)
{
	enum sb_copy_method m;

	for (int i = 0; i < SB_COPY_NMETHODS; i++) {
		ck_assert_int_eq(sb_copy_method_parse(sb_copy_method_name((enum sb_copy_method)i),
						      &m),
				 0);
		ck_assert_int_eq(m, i);
	}
	ck_assert_int_eq(sb_copy_method_parse("Read", &m), -EINVAL);
	ck_assert_int_eq(sb_copy_method_parse("", &m), -EINVAL);
}
END_TEST

START_TEST(chunk_plan_seed_shape)
{
	struct sb_chunk *c;
	long n = sb_copy_plan(1ull << 30, 32u << 20, 0, 4096, &c);

	ck_assert_int_eq(n, 32);
	for (long i = 0; i < n; i++) {
		ck_assert_uint_eq(c[i].file_offset, (uint64_t)i << 25);
		ck_assert_uint_eq(c[i].len, 32u << 20);
		ck_assert_uint_eq(c[i].buf_size, 32u << 20);
	}
	free(c);
}
END_TEST

/* What a 32-bit board must get right: offsets and lengths past 4 GiB, and a mapping that
 * cannot be made refused instead of made with a wrapped length. */
START_TEST(sizes_over_4gib)
{
	struct sb_chunk *c;
	struct sb_dmabuf b;
	struct sb_err e;
	long n = sb_copy_plan((10ull << 30) + 5, 1ull << 30, 0, 4096, &c);

	ck_assert_int_eq(n, 11);
	ck_assert_uint_eq(c[9].file_offset, 9ull << 30);
	ck_assert_uint_eq(c[9].len, 1ull << 30);
	ck_assert_uint_eq(c[10].file_offset, 10ull << 30);
	ck_assert_uint_eq(c[10].len, 5);
	free(c);
	n = sb_copy_plan(6ull << 30, 0, 0, 4096, &c);
	ck_assert_int_eq(n, 1);
	ck_assert_uint_eq(c[0].buf_size, 6ull << 30);
	free(c);

	sb_dmabuf_init(&b);
	snprintf(b.exporter, sizeof(b.exporter), "test");
	b.size = 6ull << 30;
	sb_err_clear(&e);
	ck_assert_int_eq(sb_dmabuf_map(&b, &e), sizeof(size_t) == 4 ? -EFBIG : -EBADF);
	ck_assert_ptr_null(b.map);
}
END_TEST

START_TEST(chunk_plan_edges)
{
	struct sb_chunk *c;
	long n;

	/* empty file: one buffer of one page, no data */
	n = sb_copy_plan(0, 0, 0, 4096, &c);
	ck_assert_int_eq(n, 1);
	ck_assert_uint_eq(c[0].len, 0);
	ck_assert_uint_eq(c[0].buf_size, 4096);
	free(c);
	/* 1 byte and 4097 bytes in one buffer */
	n = sb_copy_plan(4097, 0, 0, 4096, &c);
	ck_assert_int_eq(n, 1);
	ck_assert_uint_eq(c[0].buf_size, 8192);
	free(c);
	/* 64 MiB + 1 under udmabuf's 64 MiB limit: two buffers, the second one page */
	n = sb_copy_plan((64u << 20) + 1, 0, 64u << 20, 4096, &c);
	ck_assert_int_eq(n, 2);
	ck_assert_uint_eq(c[0].len, 64u << 20);
	ck_assert_uint_eq(c[1].file_offset, 64u << 20);
	ck_assert_uint_eq(c[1].len, 1);
	ck_assert_uint_eq(c[1].buf_size, 4096);
	free(c);
	/* a chunk larger than the limit is cut to the limit */
	n = sb_copy_plan(200u << 20, 100u << 20, 64u << 20, 4096, &c);
	ck_assert_int_eq(n, 4);
	ck_assert_uint_eq(c[3].len, 8u << 20);
	free(c);
	/* chunks not a page multiple are rounded down so every buffer starts page-aligned */
	n = sb_copy_plan(10000, 5000, 0, 4096, &c);
	ck_assert_int_eq(n, 3);
	ck_assert_uint_eq(c[1].file_offset, 4096);
	ck_assert_uint_eq(c[2].len, 10000 - 8192);
	free(c);
	/* a tiny chunk becomes one page */
	n = sb_copy_plan(8193, 1, 0, 4096, &c);
	ck_assert_int_eq(n, 3);
	free(c);
	ck_assert_int_eq(sb_copy_plan(100, 0, 100, 4096, &c), -EINVAL);
	ck_assert_int_eq(sb_copy_plan(100, 0, 0, 0, &c), -EINVAL);
	/* more than a million buffers is refused, not attempted */
	ck_assert_int_eq(sb_copy_plan(1ull << 40, 4096, 0, 4096, &c), -E2BIG);
}
END_TEST

START_TEST(dio_split_tail)
{
	struct sb_dio_split s;

	s = sb_copy_dio_split(0, 4097, 4096);
	ck_assert_uint_eq(s.direct_len, 4096);
	ck_assert_uint_eq(s.tail_len, 1);
	s = sb_copy_dio_split(0, 4095, 512);
	ck_assert_uint_eq(s.direct_len, 3584);
	ck_assert_uint_eq(s.tail_len, 511);
	s = sb_copy_dio_split(8192, 4096, 4096);
	ck_assert_uint_eq(s.direct_len, 4096);
	ck_assert_uint_eq(s.tail_len, 0);
	s = sb_copy_dio_split(0, 0, 4096);
	ck_assert_uint_eq(s.direct_len, 0);
	ck_assert_uint_eq(s.tail_len, 0);
	/* unaligned start or no O_DIRECT: all of it goes buffered */
	s = sb_copy_dio_split(100, 8192, 4096);
	ck_assert_uint_eq(s.direct_len, 0);
	ck_assert_uint_eq(s.tail_len, 8192);
	s = sb_copy_dio_split(0, 8192, 0);
	ck_assert_uint_eq(s.tail_len, 8192);
	s = sb_copy_dio_split(0, (64ull << 20) + 1, 4096);
	ck_assert_uint_eq(s.direct_len, 64ull << 20);
	ck_assert_uint_eq(s.tail_len, 1);
}
END_TEST

static int count_entries(const char *dir)
{
	char cmd[512];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	p = popen(cmd, "r");
	if (p && fscanf(p, "%d", &n) != 1)
		n = -1;
	if (p)
		pclose(p);
	return n;
}

/* fsync() is interposed (libsocbox is a static archive) to record what commit syncs and
 * whether the destination existed at that moment; the real syscall still runs. */
static struct {
	const char *dest;
	int n;
	bool is_dir[4], dest_existed[4];
} fsyncs;

int fsync(int fd)
{
	struct stat st;

	if (fsyncs.dest && fsyncs.n < 4 && !fstat(fd, &st)) {
		fsyncs.is_dir[fsyncs.n] = S_ISDIR(st.st_mode);
		fsyncs.dest_existed[fsyncs.n] = access(fsyncs.dest, F_OK) == 0;
		fsyncs.n++;
	}
	return (int)syscall(SYS_fsync, fd);
}

START_TEST(tmpfile_commit_syncs_file_then_directory)
{
	char *dir = tu_tree_new(), dest[512];
	struct sb_tmpfile t;
	struct sb_err e;

	snprintf(dest, sizeof(dest), "%s/new.bin", dir);
	ck_assert_int_eq(sb_tmpfile_open(&t, dest, &e), 0);
	ck_assert_int_eq(write(t.fd, "data", 4), 4);
	fsyncs.dest = dest;
	fsyncs.n = 0;
	ck_assert_int_eq(sb_tmpfile_commit(&t, &e), 0);
	fsyncs.dest = NULL;
	ck_assert_int_eq(fsyncs.n, 2);
	/* the data is synced before the rename makes it visible as DST ... */
	ck_assert(!fsyncs.is_dir[0]);
	ck_assert(!fsyncs.dest_existed[0]);
	/* ... and the directory after it, so the rename itself is durable */
	ck_assert(fsyncs.is_dir[1]);
	ck_assert(fsyncs.dest_existed[1]);
	tu_tree_free(dir);
}
END_TEST

/* devmemstat bind's udmabuf goes through sb_dmabuf_alloc_udmabuf; the size check stays its
 * own, before any device is opened. */
START_TEST(netdev_udmabuf_size_checked_first)
{
	struct sb_err e;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_nd_udmabuf_alloc(0, &e), -EINVAL);
	ck_assert_str_eq(e.what, "allocate");
	sb_err_clear(&e);
	ck_assert_int_eq(sb_nd_udmabuf_alloc((uint64_t)sysconf(_SC_PAGESIZE) + 1, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.hint, "multiple of the page size"));
}
END_TEST

START_TEST(kind_limit_and_fd_limit)
{
	struct sb_dmabuf_spec heap, udma;
	struct rlimit rl, low;
	struct sb_root *r;
	struct sb_err e;
	char *dir = tu_tree_new();

	ck_assert_int_eq(sb_dmabuf_spec_parse("heap:system", &heap), 0);
	ck_assert_int_eq(sb_dmabuf_spec_parse("udmabuf", &udma), 0);
	tu_write(dir, "sys/module/udmabuf/parameters/size_limit_mb", "16\n", -1);
	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	ck_assert_uint_eq(sb_dmabuf_kind_limit(r, &udma), 16ull << 20);
	ck_assert_uint_eq(sb_dmabuf_kind_limit(r, &heap), 0);
	sb_root_close(r);
	/* unreadable parameter: udmabuf's default, 64 MiB */
	ck_assert_int_eq(sb_root_open(&r, tu_fixture("arm64-soc"), &e), 0);
	ck_assert_uint_eq(sb_dmabuf_kind_limit(r, &udma), 64ull << 20);
	sb_root_close(r);
	tu_tree_free(dir);
	/* the soft fd limit goes up to what is needed, never past the hard limit */
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
	low = rl;
	low.rlim_cur = 64;
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &low), 0);
	sb_dmabuf_raise_fd_limit(100);
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &low), 0);
	ck_assert_uint_eq(low.rlim_cur, rl.rlim_max < 100 ? rl.rlim_max : 100);
	sb_dmabuf_raise_fd_limit(50); /* never lowers */
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &low), 0);
	ck_assert_uint_eq(low.rlim_cur, rl.rlim_max < 100 ? rl.rlim_max : 100);
	setrlimit(RLIMIT_NOFILE, &rl);
}
END_TEST

START_TEST(tmpfile_commit_and_abort)
{
	char *dir = tu_tree_new(), dest[512], buf[16] = "";
	struct sb_tmpfile t;
	struct sb_err e;
	struct stat st;
	int fd;

	snprintf(dest, sizeof(dest), "%s/out.bin", dir);
	tu_write(dir, "out.bin", "old", -1);
	/* abort: the destination keeps its old content, the temporary is gone */
	ck_assert_int_eq(sb_tmpfile_open(&t, dest, &e), 0);
	ck_assert_ptr_nonnull(strstr(t.path, "/.out.bin.dmabufcp-"));
	ck_assert_int_eq(write(t.fd, "new", 3), 3);
	ck_assert_int_eq(count_entries(dir), 2);
	sb_tmpfile_abort(&t);
	ck_assert_int_eq(count_entries(dir), 1);
	fd = open(dest, O_RDONLY);
	ck_assert_int_eq(read(fd, buf, sizeof(buf)), 3);
	close(fd);
	ck_assert_str_eq(buf, "old");
	/* commit: renamed over the destination, readable mode, nothing else left */
	ck_assert_int_eq(sb_tmpfile_open(&t, dest, &e), 0);
	ck_assert_int_eq(write(t.fd, "new!", 4), 4);
	ck_assert_int_eq(sb_tmpfile_commit(&t, &e), 0);
	ck_assert_int_eq(count_entries(dir), 1);
	ck_assert_int_eq(stat(dest, &st), 0);
	ck_assert_int_eq(st.st_size, 4);
	ck_assert_int_ne(st.st_mode & 0044, 0);
	/* abort after commit does nothing */
	sb_tmpfile_abort(&t);
	ck_assert_int_eq(stat(dest, &st), 0);
	/* a directory that does not exist */
	snprintf(dest, sizeof(dest), "%s/no/such/out", dir);
	ck_assert_int_eq(sb_tmpfile_open(&t, dest, &e), -ENOENT);
	ck_assert_str_eq(e.what, "create the temporary output beside it");
	tu_tree_free(dir);
}
END_TEST

START_TEST(hash_and_first_difference)
{
	char *dir = tu_tree_new(), path[512];
	char mem[10000];
	uint64_t h;
	int fd;

	for (size_t i = 0; i < sizeof(mem); i++)
		mem[i] = (char)(i * 7);
	tu_write(dir, "f", mem, sizeof(mem));
	snprintf(path, sizeof(path), "%s/f", dir);
	fd = open(path, O_RDONLY);
	ck_assert_int_eq(sb_copy_hash_fd(fd, 0, sizeof(mem), &h), 0);
	ck_assert_uint_eq(h, sb_copy_hash_mem(mem, sizeof(mem)));
	ck_assert_int_eq(sb_copy_first_diff(fd, 0, mem, sizeof(mem)), -1);
	mem[6789] ^= 1;
	ck_assert_uint_ne(h, sb_copy_hash_mem(mem, sizeof(mem)));
	ck_assert_int_eq(sb_copy_first_diff(fd, 0, mem, sizeof(mem)), 6789);
	ck_assert_int_eq(sb_copy_first_diff(fd, 1000, mem + 1000, 9000), 5789);
	/* the file is shorter than asked: ENODATA, and the difference is where it ends */
	ck_assert_int_eq(sb_copy_hash_fd(fd, 5000, 6000, &h), -ENODATA);
	mem[6789] ^= 1;
	ck_assert_int_eq(sb_copy_first_diff(fd, 5000, mem + 5000, 6000), 5000);
	close(fd);
	tu_tree_free(dir);
}
END_TEST

/* The one discovery doctor and 'dmabufcp heaps' share: heaps in sysfs order, then udmabuf;
 * on a sysroot the device nodes are not looked at. */
START_TEST(allocators_on_a_fixture)
{
	struct sb_dmabuf_allocators a;
	struct sb_root *r;
	struct sb_err e;
	char *dir = tu_tree_new();

	ck_assert_int_eq(sb_root_open(&r, tu_fixture("am62x-dmabuf"), &e), 0);
	ck_assert_int_eq(sb_dmabuf_allocators(r, true, &a), 0);
	ck_assert_uint_eq(a.nheaps, 2);
	ck_assert(a.udmabuf);
	ck_assert_uint_eq(a.n, 3);
	ck_assert_str_eq(a.v[0].node, "/dev/dma_heap/linux,cma");
	ck_assert(!a.v[0].is_udmabuf);
	ck_assert_str_eq(a.v[2].name, "udmabuf");
	ck_assert_str_eq(a.v[2].node, "/dev/udmabuf");
	ck_assert(a.v[2].is_udmabuf);
	for (size_t i = 0; i < a.n; i++)
		ck_assert(!a.v[i].node_checked);
	sb_dmabuf_allocators_free(&a);
	sb_root_close(r);
	/* a tree with neither */
	tu_write(dir, "sys/class/net/lo/ifindex", "1\n", -1);
	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	ck_assert_int_eq(sb_dmabuf_allocators(r, true, &a), 0);
	ck_assert_uint_eq(a.n, 0);
	ck_assert(!a.udmabuf);
	sb_dmabuf_allocators_free(&a);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

START_TEST(inventory_on_a_tree)
{
	char *dir = tu_tree_new();
	struct sb_dmabuf_inventory inv;
	struct sb_root *r;
	struct sb_err e;
	const struct sb_dmabuf_obj *cam = NULL, *only_mapped = NULL;

	tu_write(dir, "sys/kernel/debug/dma_buf/bufinfo", bufinfo_real, -1);
	tu_write(dir, "proc/812/comm", "weston\n", -1);
	tu_write(dir, "proc/812/fdinfo/0", "pos:\t0\nflags:\t02\nmnt_id:\t20\nino:\t5\n", -1);
	tu_write(dir, "proc/812/fdinfo/23", fdinfo_heap, -1);
	tu_write(dir, "proc/812/maps",
		 "aaaa0000-aaab0000 r-xp 00000000 b3:02 1311 /usr/bin/weston\n"
		 "ffff80000000-ffff82000000 rw-s 00000000 00:0f 1042 /dmabuf:camera-rx\n"
		 "ffff90000000-ffff90100000 rw-s 00000000 00:0f 2000 /dmabuf:\n",
		 -1);
	tu_write(dir, "proc/913/comm", "gst-launch-1.0\n", -1);
	tu_write(dir, "proc/913/fdinfo/9", fdinfo_heap, -1);
	tu_write(dir, "proc/913/maps", "garbage line\n", -1);
	tu_write(dir, "proc/self", "", -1);
	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	ck_assert_int_eq(sb_dmabuf_inventory(r, 0, &inv, &e), 0);
	ck_assert(inv.have_bufinfo);
	ck_assert_uint_eq(inv.n, 3);
	for (size_t i = 0; i < inv.n; i++) {
		if (inv.v[i].ino == 1042)
			cam = &inv.v[i];
		if (inv.v[i].ino == 2000)
			only_mapped = &inv.v[i];
	}
	ck_assert_ptr_nonnull(cam);
	ck_assert_uint_eq(cam->size, 33554432);
	ck_assert_uint_eq(cam->nholders, 3); /* weston fd and map, gst fd */
	ck_assert_uint_eq(cam->nattached, 2);
	ck_assert_ptr_nonnull(only_mapped);
	ck_assert_uint_eq(only_mapped->nholders, 1);
	ck_assert_uint_eq(only_mapped->holders[0].map_bytes, 1u << 20);
	ck_assert_str_eq(only_mapped->holders[0].comm, "weston");
	sb_dmabuf_inventory_free(&inv);
	/* --pid keeps only that process's buffers */
	ck_assert_int_eq(sb_dmabuf_inventory(r, 913, &inv, &e), 0);
	ck_assert_uint_eq(inv.n, 1);
	ck_assert_uint_eq(inv.v[0].ino, 1042);
	sb_dmabuf_inventory_free(&inv);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

START_TEST(udmabuf_limits_from_module_parameters)
{
	char *dir = tu_tree_new();
	struct sb_udmabuf_limits l;
	struct sb_root *r;
	struct sb_err e;

	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	ck_assert_int_eq(sb_udmabuf_limits(r, &l), -ENOENT);
	ck_assert(!l.known);
	tu_write(dir, "sys/module/udmabuf/parameters/size_limit_mb", "64\n", -1);
	tu_write(dir, "sys/module/udmabuf/parameters/list_limit", "1024\n", -1);
	ck_assert_int_eq(sb_udmabuf_limits(r, &l), 0);
	ck_assert_uint_eq(l.size_limit_bytes, 64u << 20);
	ck_assert_uint_eq(l.list_limit, 1024);
	tu_write(dir, "sys/module/udmabuf/parameters/size_limit_mb", "lots\n", -1);
	ck_assert_int_eq(sb_udmabuf_limits(r, &l), -ENOENT);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

/* What sb_copy_run refuses before it touches the buffer: a range past its end, a write into
 * a read-only one; that every method the kernel lacks is tried and named by auto is the vm
 * tier's. */
START_TEST(copy_run_checks_the_request_first)
{
	struct sb_dmabuf b = { .kind = SB_DMABUF_HEAP, .fd = -1, .memfd = -1, .size = 4096 };
	volatile sig_atomic_t stop = 0;
	struct sb_copy_req rq = {
		.dir = SB_COPY_TO_BUF,
		.fd = -1,
		.path = "in.bin",
		.file_off = 0,
		.b = &b,
		.buf_off = 4000,
		.len = 97,
		.stop = &stop
	};
	struct sb_copy_result res = { 0 };
	struct sb_err e = { 0 };

	snprintf(b.exporter, sizeof(b.exporter), "system");
	ck_assert_int_eq(sb_copy_run(SB_COPY_READ, &rq, &res, &e), -EINVAL);
	ck_assert_str_eq(e.object, "system");
	ck_assert_int_eq(res.path.ran, SB_COPY_READ);
	rq.buf_off = 0;
	rq.len = 4096;
	b.writable = false;
	sb_err_clear(&e);
	ck_assert_int_eq(sb_copy_run(SB_COPY_SENDFILE, &rq, &res, &e), -EBADF);
	ck_assert_int_eq(res.path.ran, SB_COPY_SENDFILE);
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_FAIL);
}
END_TEST

/* An O_DIRECT method that cannot be used here runs its buffered twin, and the result says
 * which ran instead of which and why; without a fallback allowed the method is unsupported
 * for that same reason. rw-file-direct, with a buffer offset off the page and a buffer fd
 * that is no dma-buf: the rw-file that runs then finds the kernel without its ioctl. */
START_TEST(direct_method_runs_its_buffered_twin)
{
	char *dir = tu_tree_new(), path[4096], why[sizeof(((struct sb_probe *)0)->why)];
	struct sb_dmabuf b = { .kind = SB_DMABUF_HEAP, .memfd = -1, .size = 8192, .writable = true };
	volatile sig_atomic_t stop = 0;
	struct sb_copy_result res = { 0 };
	struct sb_copy_req rq;
	struct sb_err e = { 0 };
	int fd;

	snprintf(b.exporter, sizeof(b.exporter), "system");
	b.fd = (int)syscall(SYS_memfd_create, "not-a-dma-buf", 0);
	ck_assert_int_ge(b.fd, 0);
	tu_write(dir, "in.bin", "0123456789", -1);
	snprintf(path, sizeof(path), "%s/in.bin", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	rq = (struct sb_copy_req){
		.dir = SB_COPY_TO_BUF,
		.fd = fd,
		.path = path,
		.b = &b,
		.buf_off = 1,
		.len = 10,
		.stop = &stop,
		.allow_fallback = true
	};

	ck_assert_int_eq(sb_copy_run(SB_COPY_RW_FILE_DIRECT, &rq, &res, &e), -EOPNOTSUPP);
	ck_assert_int_eq(res.path.ran, SB_COPY_RW_FILE);
	ck_assert_int_eq(res.path.instead_of, SB_COPY_RW_FILE_DIRECT);
	ck_assert_int_ne(res.path.why[0], '\0');
	ck_assert_str_eq(e.object, "method rw-file");
	/* ENOTTY on this machine; a fresh bookworm root under scripts/check-fresh saw ENOSYS:
	 * what is pinned is "the kernel lacks it", not which errno says so */
	ck_assert_msg(sb_kernel_lacks(e.errnum), "errno %d", e.errnum);
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_UNSUPPORTED);
	snprintf(why, sizeof(why), "%s", res.path.why);

	rq.allow_fallback = false;
	sb_err_clear(&e);
	ck_assert_int_eq(sb_copy_run(SB_COPY_RW_FILE_DIRECT, &rq, &res, &e), -EOPNOTSUPP);
	ck_assert_int_eq(res.path.ran, SB_COPY_RW_FILE_DIRECT);
	ck_assert(!sb_probe_is_fallback(&res.path));
	ck_assert_str_eq(e.object, "method rw-file-direct");
	ck_assert_str_eq(e.reason, why);
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_UNSUPPORTED);
	close(fd);
	close(b.fd);
	tu_tree_free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("dmabuf");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, fdinfo_of_a_heap_buffer);
	tcase_add_test(tc, fdinfo_of_other_files_and_garbage);
	tcase_add_test(tc, maps_lines);
	tcase_add_test(tc, bufinfo_real_format);
	tcase_add_test(tc, bufinfo_as_linux_72_writes_it);
	tcase_add_test(tc, bufinfo_broken);
	tcase_add_test(tc, buffer_specs);
	tcase_add_test(tc, method_names);
	tcase_add_test(tc, chunk_plan_seed_shape);
	tcase_add_test(tc, chunk_plan_edges);
	tcase_add_test(tc, sizes_over_4gib);
	tcase_add_test(tc, dio_split_tail);
	tcase_add_test(tc, tmpfile_commit_and_abort);
	tcase_add_test(tc, kind_limit_and_fd_limit);
	tcase_add_test(tc, allocators_on_a_fixture);
	tcase_add_test(tc, netdev_udmabuf_size_checked_first);
	tcase_add_test(tc, tmpfile_commit_syncs_file_then_directory);
	tcase_add_test(tc, hash_and_first_difference);
	tcase_add_test(tc, inventory_on_a_tree);
	tcase_add_test(tc, udmabuf_limits_from_module_parameters);
	tcase_add_test(tc, copy_run_checks_the_request_first);
	tcase_add_test(tc, direct_method_runs_its_buffered_twin);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
