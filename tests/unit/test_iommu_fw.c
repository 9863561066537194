// SPDX-License-Identifier: GPL-2.0-or-later
/* Stream IDs from the firmware: device tree properties (iommus, iommu-map, iommu-map-mask),
 * the ACPI IORT (tests/fixtures/arm64-server-smmuv3's table, built by
 * tests/fixtures/tools/mkiort from the spec layout, and broken copies of it), and the walk
 * over a sysroot that ties them to devices and instances. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/iommu_dt.h"
#include "socbox/iommu_events.h"
#include "socbox/iommu_iort.h"
#include "socbox/iommu_sid.h"
#include "testutil.h"

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

START_TEST(dt_iommu_map)
{
	/* QEMU virt's PCIe host: <0x0 &smmu 0x0 0x10000>, and a second range with an offset */
	uint8_t buf[32];
	struct sb_dt_map *m;
	uint32_t ph, sid, v;
	size_t n;

	put_be32(buf, 0x0);
	put_be32(buf + 4, 0x8001);
	put_be32(buf + 8, 0x0);
	put_be32(buf + 12, 0x100);
	put_be32(buf + 16, 0x100);
	put_be32(buf + 20, 0x8002);
	put_be32(buf + 24, 0x4000);
	put_be32(buf + 28, 0x100);
	ck_assert_int_eq(sb_dt_parse_map(buf, 32, &m, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(sb_dt_map_id(m, n, 0xffffffff, 0x10, &ph, &sid), 0);
	ck_assert_uint_eq(ph, 0x8001);
	ck_assert_uint_eq(sid, 0x10);
	ck_assert_int_eq(sb_dt_map_id(m, n, 0xffffffff, 0x101, &ph, &sid), 0);
	ck_assert_uint_eq(ph, 0x8002);
	ck_assert_uint_eq(sid, 0x4001);
	ck_assert_int_eq(sb_dt_map_id(m, n, 0xffffffff, 0x200, &ph, &sid), -ENOENT);
	/* iommu-map-mask 0xff: bus bits dropped, as for a host bridge that ignores them */
	ck_assert_int_eq(sb_dt_map_id(m, n, 0xff, 0x310, &ph, &sid), 0);
	ck_assert_uint_eq(sid, 0x10);
	/* an entry base with bits outside the mask: the kernel refuses the map */
	ck_assert_int_eq(sb_dt_map_id(m + 1, 1, 0xff, 0x10, &ph, &sid), -EINVAL);
	free(m);
	ck_assert_int_eq(sb_dt_parse_map(buf, 31, &m, &n), -EINVAL);
	ck_assert_int_eq(sb_dt_parse_map(buf, 0, &m, &n), -EINVAL);
	ck_assert_int_eq(sb_dt_cell(buf + 4, 4, &v), 0);
	ck_assert_uint_eq(v, 0x8001);
	ck_assert_int_eq(sb_dt_cell(buf, 3, &v), -EINVAL);
}
END_TEST

static int cells_by_phandle(void *ctx, uint32_t ph)
{
	(void)ctx;
	return ph == 0x2a ? 1 : ph == 0x2b ? 2 : -1;
}

START_TEST(dt_iommus)
{
	uint8_t buf[40];
	struct sb_dt_iommus out[4];

	/* <&smmu3 0x6>, <&smmu3 0x7>, <&arm-smmu 0x400 0x7f> */
	put_be32(buf, 0x2a);
	put_be32(buf + 4, 0x6);
	put_be32(buf + 8, 0x2a);
	put_be32(buf + 12, 0x7);
	put_be32(buf + 16, 0x2b);
	put_be32(buf + 20, 0x400);
	put_be32(buf + 24, 0x7f);
	ck_assert_uint_eq(sb_dt_parse_iommus(buf, 28, cells_by_phandle, NULL, out, 4), 3);
	ck_assert_uint_eq(out[1].sid, 0x7);
	ck_assert_uint_eq(out[2].phandle, 0x2b);
	ck_assert_uint_eq(out[2].sid, 0x400);
	ck_assert_uint_eq(sb_dt_parse_iommus(buf, 28, cells_by_phandle, NULL, out, 1), 1);
	/* an unknown phandle: the rest cannot be split */
	put_be32(buf + 8, 0x99);
	ck_assert_uint_eq(sb_dt_parse_iommus(buf, 28, cells_by_phandle, NULL, out, 4), 1);
	/* cut in the middle of a specifier, not a multiple of 4 */
	put_be32(buf + 8, 0x2b);
	ck_assert_uint_eq(sb_dt_parse_iommus(buf, 16, cells_by_phandle, NULL, out, 4), 1);
	ck_assert_uint_eq(sb_dt_parse_iommus(buf, 6, cells_by_phandle, NULL, out, 4), 0);
}
END_TEST

static uint8_t *load_iort(size_t *len)
{
	const char *path = tu_fixture("arm64-server-smmuv3/sys/firmware/acpi/tables/IORT");
	FILE *f = fopen(path, "rb");
	uint8_t *buf = malloc(4096);

	ck_assert_ptr_nonnull(f);
	*len = fread(buf, 1, 4096, f);
	fclose(f);
	ck_assert_uint_gt(*len, 48);
	return buf;
}

static const struct sb_iort_node *find(const struct sb_iort *t, uint8_t type, int nth)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->nodes[i].type == type && nth-- == 0)
			return &t->nodes[i];
	return NULL;
}

START_TEST(iort_fixture)
{
	size_t len;
	uint8_t *buf = load_iort(&len);
	const struct sb_iort_node *rc, *smmu, *nc;
	struct sb_iort t;
	uint32_t sid, sids[4];

	ck_assert_int_eq(sb_iort_parse(buf, len, &t), 0);
	ck_assert_uint_eq(t.n, 5);
	ck_assert_uint_eq(t.skipped, 0);
	ck_assert_uint_eq(find(&t, SB_IORT_SMMU_V3, 1)->base, 0x200000000000ull);
	rc = find(&t, SB_IORT_ROOT_COMPLEX, 1);
	ck_assert_uint_eq(rc->segment, 2);
	/* 0002:01:00.1: requester ID 0x101 -> 0x10101 at the second SMMU */
	ck_assert_int_eq(sb_iort_map_id(&t, rc, 0x101, &smmu, &sid), 0);
	ck_assert_uint_eq(sid, 0x10101);
	ck_assert_uint_eq(smmu->base, 0x200000000000ull);
	ck_assert_int_eq(sb_iort_map_id(&t, rc, 0x10000, &smmu, &sid), -ENOENT);
	nc = find(&t, SB_IORT_NAMED_COMPONENT, 0);
	ck_assert_str_eq(nc->name, "\\_SB_.DMA0");
	ck_assert_uint_eq(sb_iort_nc_sids(&t, nc, &smmu, sids, 4), 1);
	ck_assert_uint_eq(sids[0], 0x20000);
	ck_assert_uint_eq(smmu->base, 0x100000000000ull);
	sb_iort_free(&t);
	free(buf);
}
END_TEST

/* Hostile copies: cut anywhere, lengths and offsets pointing outside, a mapping loop. */
START_TEST(iort_hostile)
{
	size_t len;
	uint8_t *buf = load_iort(&len), *b = malloc(len);
	const struct sb_iort_node *smmu;
	struct sb_iort t;
	uint32_t sid;

	for (size_t cut = 0; cut <= len; cut++) {
		int rc = sb_iort_parse(buf, cut, &t);

		ck_assert(cut < 48 ? rc == -EINVAL : rc == 0);
		for (size_t i = 0; !rc && i < t.n; i++)
			sb_iort_map_id(&t, &t.nodes[i], 0x101, &smmu, &sid);
		sb_iort_free(&t);
	}
	/* every byte of the node area flipped to 0xff, one at a time */
	for (size_t at = 36; at < len; at++) {
		memcpy(b, buf, len);
		b[at] = 0xff;
		ck_assert_int_eq(sb_iort_parse(b, len, &t), 0);
		for (size_t i = 0; i < t.n; i++) {
			uint32_t sids[4];

			sb_iort_map_id(&t, &t.nodes[i], 0x101, &smmu, &sid);
			if (t.nodes[i].type == SB_IORT_NAMED_COMPONENT)
				sb_iort_nc_sids(&t, &t.nodes[i], &smmu, sids, 4);
		}
		sb_iort_free(&t);
	}
	/* a root complex mapping to itself: the walk stops */
	memcpy(b, buf, len);
	ck_assert_int_eq(sb_iort_parse(b, len, &t), 0);
	{
		uint32_t self = find(&t, SB_IORT_ROOT_COMPLEX, 0)->offset, map_at = self + 16 + 24;

		sb_iort_free(&t);
		put_le32(b + map_at + 12, self);
		ck_assert_int_eq(sb_iort_parse(b, len, &t), 0);
		ck_assert_int_eq(sb_iort_map_id(&t, find(&t, SB_IORT_ROOT_COMPLEX, 0), 0x1, &smmu,
						&sid),
				 -ENOENT);
		sb_iort_free(&t);
	}
	/* not an IORT */
	memcpy(b, buf, len);
	b[0] = 'X';
	ck_assert_int_eq(sb_iort_parse(b, len, &t), -EINVAL);
	free(b);
	free(buf);
}
END_TEST

/* The walk over the fixtures: IORT on the server, the device tree on the SoC. */
START_TEST(stream_ids_of_devices)
{
	struct sb_root *r;
	struct sb_iommu *inst;
	struct sb_sid_fw *fw;
	struct sb_dev_sids s;
	char dev[96];
	size_t n;

	ck_assert_int_eq(sb_root_open(&r, tu_fixture("arm64-server-smmuv3"), NULL), 0);
	ck_assert_int_eq(sb_iommu_list(r, &inst, &n, NULL), 0);
	ck_assert_int_eq(sb_sid_fw_open(r, inst, n, NULL, NULL, &fw), 0);
	ck_assert_str_eq(sb_sid_fw_source(fw), "iort");
	ck_assert_int_eq(sb_sid_device(fw, "/sys/kernel/iommu_groups/5/devices/0002:01:00.1", &s),
			 0);
	ck_assert_str_eq(inst[s.inst].name, "smmu3.0x0000200000000000");
	ck_assert_uint_eq(s.n, 1);
	ck_assert_uint_eq(s.sids[0], 0x10101);
	ck_assert_int_eq(sb_sid_device(fw, "/sys/bus/platform/devices/ARMH0330:00", &s), 0);
	ck_assert_uint_eq(s.sids[0], 0x20000);
	ck_assert_int_eq(sb_sid_owner(fw, 0, 0x20000, dev, sizeof(dev)), 0);
	ck_assert_str_eq(dev, "ARMH0330:00");
	ck_assert_int_eq(sb_sid_owner(fw, 1, 0x10100, dev, sizeof(dev)), 0);
	ck_assert_str_eq(dev, "0002:01:00.0");
	ck_assert_int_eq(sb_sid_owner(fw, 1, 0x20000, dev, sizeof(dev)), -ENOENT);
	sb_sid_fw_close(fw);
	free(inst);
	sb_root_close(r);

	ck_assert_int_eq(sb_root_open(&r, tu_fixture("arm64-soc"), NULL), 0);
	ck_assert_int_eq(sb_iommu_list(r, &inst, &n, NULL), 0);
	ck_assert_int_eq(sb_sid_fw_open(r, inst, n, NULL, NULL, &fw), 0);
	ck_assert_str_eq(sb_sid_fw_source(fw), "dt");
	ck_assert_int_eq(sb_sid_device(fw, "/sys/kernel/iommu_groups/3/devices/4d800000.npu", &s),
			 0);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_uint_eq(s.sids[1], 0x7);
	ck_assert_int_eq(sb_sid_owner(fw, 0, 0x5, dev, sizeof(dev)), 0);
	ck_assert_str_eq(dev, "4ad00000.vpu");
	sb_sid_fw_close(fw);
	free(inst);
	sb_root_close(r);
}
END_TEST

/* interrupts of a node under a GIC: SPI n is hwirq n + 32, PPI n is n + 16 */
START_TEST(gic_interrupts)
{
	static const uint8_t prop[] = { 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0,
					0, 9, 0, 0, 0, 4, 0, 0,	  0, 7, 0, 0, 0, 1, 0, 0, 0, 4 };
	uint32_t irq[4];

	ck_assert_uint_eq(sb_dt_gic_hwirqs(prop, sizeof(prop), irq, 4), 2);
	ck_assert_uint_eq(irq[0], 132);
	ck_assert_uint_eq(irq[1], 25);
	ck_assert_uint_eq(sb_dt_gic_hwirqs(prop, sizeof(prop), irq, 1), 1);
	ck_assert_uint_eq(sb_dt_gic_hwirqs(prop, 8, irq, 4), 0); /* not 3 cells each */
}
END_TEST

/* No firmware at all (x86): nothing mapped, nothing read per device. */
START_TEST(no_firmware)
{
	struct sb_root *r;
	struct sb_iommu *inst;
	struct sb_sid_fw *fw;
	struct sb_dev_sids s;
	struct sb_sid_namer *nm;
	struct sb_iommu_event ev = { .has_sid = true, .sid = 3 };
	size_t n;

	ck_assert_int_eq(sb_root_open(&r, tu_fixture("x86-vtd-server"), NULL), 0);
	ck_assert_int_eq(sb_iommu_list(r, &inst, &n, NULL), 0);
	ck_assert_int_eq(sb_sid_fw_open(r, inst, n, NULL, NULL, &fw), 0);
	ck_assert(!sb_sid_fw_any(fw));
	ck_assert_str_eq(sb_sid_fw_source(fw), "none");
	ck_assert_int_eq(sb_sid_device(fw, "/sys/kernel/iommu_groups/0/devices/0000:00:00.0", &s),
			 -ENOENT);
	sb_sid_fw_close(fw);
	free(inst);
	ck_assert_int_eq(sb_sid_namer_open(r, &nm), 0);
	snprintf(ev.source, sizeof(ev.source), "dmar0");
	snprintf(ev.device, sizeof(ev.device), "sid 0x3");
	sb_sid_namer_name(nm, &ev);
	ck_assert_str_eq(ev.device, "sid 0x3");
	ck_assert(!ev.named_by_firmware);
	/* a VT-d fault names its device without the domain and its unit not at all */
	memset(&ev, 0, sizeof(ev));
	snprintf(ev.source, sizeof(ev.source), "DMAR");
	snprintf(ev.device, sizeof(ev.device), "17:00.0");
	ev.client_known = true;
	sb_sid_namer_name(nm, &ev);
	ck_assert_str_eq(ev.device, "0000:17:00.0");
	ck_assert_str_eq(ev.instance, "dmar0");
	ck_assert_str_eq(ev.instance_dev, "");
	snprintf(ev.device, sizeof(ev.device), "f0:1f.0"); /* in no group */
	ev.instance[0] = '\0';
	sb_sid_namer_name(nm, &ev);
	ck_assert_str_eq(ev.device, "0000:f0:1f.0");
	ck_assert_str_eq(ev.instance, "");
	sb_sid_namer_close(nm);
	sb_root_close(r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("iommu_fw");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, dt_iommu_map);
	tcase_add_test(tc, dt_iommus);
	tcase_add_test(tc, iort_fixture);
	tcase_add_test(tc, iort_hostile);
	tcase_add_test(tc, stream_ids_of_devices);
	tcase_add_test(tc, no_firmware);
	tcase_add_test(tc, gic_interrupts);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
