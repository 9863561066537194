// SPDX-License-Identifier: GPL-2.0-or-later
/* IOMMU faults and events in the kernel log: SMMUv3 event dumps (raw "event 0x10 received:"
 * with four dword lines, and the decoded "event: F_TRANSLATION client: ..." form), SMMUv3
 * global errors and CMD_SYNC timeouts, arm-smmu context faults, VT-d DMAR fault lines and
 * AMD-Vi event lines. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/iommu.h"

/* SMMUv3 architecture event numbers. */
const char *sb_smmu_event_name(unsigned id)
{
	static const struct { unsigned id; const char *name; } ev[] = {
		{ 0x01, "F_UUT" },           { 0x02, "C_BAD_STREAMID" },   { 0x03, "F_STE_FETCH" },
		{ 0x04, "C_BAD_STE" },       { 0x05, "F_BAD_ATS_TREQ" },   { 0x06, "F_STREAM_DISABLED" },
		{ 0x07, "F_TRANSL_FORBIDDEN" }, { 0x08, "C_BAD_SUBSTREAMID" }, { 0x09, "F_CD_FETCH" },
		{ 0x0a, "C_BAD_CD" },        { 0x0b, "F_WALK_EABT" },      { 0x10, "F_TRANSLATION" },
		{ 0x11, "F_ADDR_SIZE" },     { 0x12, "F_ACCESS" },         { 0x13, "F_PERMISSION" },
		{ 0x20, "F_TLB_CONFLICT" },  { 0x21, "F_CFG_CONFLICT" },   { 0x24, "E_PAGE_REQUEST" },
		{ 0x25, "F_VMS_FETCH" },
	};
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		if (ev[i].id == id)
			return ev[i].name;
	return NULL;
}

/* "arm-smmu-v3 arm-smmu-v3.0.auto: rest" -> source "arm-smmu-v3.0.auto", returns rest. */
static const char *split_device_prefix(const char *t, char *source, size_t len)
{
	const char *sp = strchr(t, ' '), *colon;

	source[0] = '\0';
	if (!sp)
		return t;
	colon = strstr(sp + 1, ": ");
	if (!colon || memchr(sp + 1, ' ', (size_t)(colon - sp - 1)))
		return t;
	snprintf(source, len, "%.*s", (int)(colon - sp - 1), sp + 1);
	return colon + 2;
}

/* Copy the value after "key" up to a delimiter. */
static bool field(const char *t, const char *key, const char *delims, char *out, size_t len)
{
	const char *p = strstr(t, key);

	if (!p)
		return false;
	p += strlen(key);
	while (*p == ' ')
		p++;
	snprintf(out, len, "%.*s", (int)strcspn(p, delims), p);
	return out[0] != '\0';
}

static bool field_hex(const char *t, const char *key, uint64_t *v)
{
	char buf[40];

	if (!field(t, key, " ,]\t", buf, sizeof(buf)))
		return false;
	return sb_parse_u64(buf, 16, v) == 0;
}

static int parse_smmuv3(const char *rest, struct sb_iommu_event *ev)
{
	const char *p;
	char sid[24];

	if ((p = strstr(rest, "event 0x")) && strstr(p, "received")) {
		unsigned id = (unsigned)strtoul(p + 6, NULL, 16);
		const char *name = sb_smmu_event_name(id);

		if (name)
			snprintf(ev->kind, sizeof(ev->kind), "%s", name);
		else
			snprintf(ev->kind, sizeof(ev->kind), "event 0x%02x", id);
		snprintf(ev->device, sizeof(ev->device), "-");
		return 1;
	}
	if (!strncmp(rest, "event: ", 7) || !strncmp(rest, "EVENT_", 6)) {
		const char *k = rest[0] == 'e' ? rest + 7 : rest + 6;

		snprintf(ev->kind, sizeof(ev->kind), "%.*s", (int)strcspn(k, " "), k);
		if (!field(rest, "client: ", " ", ev->device, sizeof(ev->device)) || !strcmp(ev->device, "(unassigned"))
			snprintf(ev->device, sizeof(ev->device), "-");
		if (!strcmp(ev->device, "-") && field(rest, "sid: ", " ", sid, sizeof(sid)))
			snprintf(ev->device, sizeof(ev->device), "sid %s", sid);
		ev->has_addr = field_hex(rest, "iova: ", &ev->addr);
		return 1;
	}
	if (strstr(rest, "global error reported")) {
		snprintf(ev->kind, sizeof(ev->kind), "gerror");
		snprintf(ev->device, sizeof(ev->device), "-");
		field(rest, "reported ", ",", ev->reason, sizeof(ev->reason));
		return 1;
	}
	if (strstr(rest, "CMD_SYNC timeout")) {
		snprintf(ev->kind, sizeof(ev->kind), "cmd-sync-timeout");
		snprintf(ev->device, sizeof(ev->device), "-");
		return 1;
	}
	return 0;
}

static int parse_arm_smmu(const char *rest, struct sb_iommu_event *ev)
{
	char v[24];

	if (strstr(rest, "Unhandled context fault")) {
		snprintf(ev->kind, sizeof(ev->kind), "context-fault");
		if (field(rest, "cbfrsynra=", ", ", v, sizeof(v)))
			snprintf(ev->device, sizeof(ev->device), "sid %s", v);
		else
			snprintf(ev->device, sizeof(ev->device), "-");
		ev->has_addr = field_hex(rest, "iova=", &ev->addr);
		field(rest, "fsr=", ",", ev->reason, sizeof(ev->reason));
		return 1;
	}
	if (strstr(rest, "Unexpected global fault")) {
		snprintf(ev->kind, sizeof(ev->kind), "global-fault");
		snprintf(ev->device, sizeof(ev->device), "-");
		return 1;
	}
	return 0;
}

/* "DMAR: [DMA Read NO_PASID] Request device [00:02.0] fault addr 0xfffff000 [fault reason
 * 0x06] PTE Read access is not set" and the older "[DMA Read] ... PASID ffffffff fault addr
 * fffff000 [fault reason 06] ...". */
static int parse_dmar(const char *t, struct sb_iommu_event *ev)
{
	const char *p = strstr(t, "DMAR: ["), *q;
	char reason[16] = "";
	size_t len;

	if (!p || !strstr(p, "Request device ["))
		return 0;
	p += 7;
	len = strcspn(p, "]");
	for (q = p; q < p + len; q++) /* drop " NO_PASID" / " PASID x" */
		if (!strncmp(q, " NO_PASID", 9) || !strncmp(q, " PASID", 6)) {
			len = (size_t)(q - p);
			break;
		}
	snprintf(ev->kind, sizeof(ev->kind), "%.*s", (int)len, p);
	snprintf(ev->source, sizeof(ev->source), "DMAR");
	field(t, "Request device [", "]", ev->device, sizeof(ev->device));
	ev->has_addr = field_hex(t, "fault addr ", &ev->addr);
	if (field(t, "[fault reason ", "]", reason, sizeof(reason))) {
		q = strstr(t, "[fault reason ");
		q = strchr(q, ']');
		snprintf(ev->reason, sizeof(ev->reason), "%s%s", reason, q ? q + 1 : "");
	}
	return 1;
}

/* "AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x000e address=0xfffff000 flags=0x0020]",
 * the device either in the line prefix or as "device=05:00.0" (older kernels). */
static int parse_amd(const char *t, const char *prefix_dev, struct sb_iommu_event *ev)
{
	const char *p = strstr(t, "AMD-Vi: Event logged [");

	if (!p)
		return 0;
	p += strlen("AMD-Vi: Event logged [");
	snprintf(ev->kind, sizeof(ev->kind), "%.*s", (int)strcspn(p, " ]"), p);
	snprintf(ev->source, sizeof(ev->source), "AMD-Vi");
	if (!field(p, "device=", " ]", ev->device, sizeof(ev->device)))
		snprintf(ev->device, sizeof(ev->device), "%s", *prefix_dev ? prefix_dev : "-");
	ev->has_addr = field_hex(p, "address=", &ev->addr);
	field(p, "flags=", " ]", ev->reason, sizeof(ev->reason));
	if (ev->reason[0]) {
		char tmp[sizeof(ev->reason)];

		snprintf(tmp, sizeof(tmp), "flags=%.80s", ev->reason);
		snprintf(ev->reason, sizeof(ev->reason), "%s", tmp);
	}
	return 1;
}

int sb_iommu_event_parse(const struct sb_kmsg_line *l, struct sb_iommu_event *ev)
{
	char prefix_dev[96];
	const char *rest;
	int rc = 0;

	memset(ev, 0, sizeof(*ev));
	ev->ts_us = l->ts_us;
	ev->has_ts = l->has_ts;
	rest = split_device_prefix(l->text, prefix_dev, sizeof(prefix_dev));
	if (!strncmp(l->text, "arm-smmu-v3 ", 12)) {
		snprintf(ev->source, sizeof(ev->source), "%s", prefix_dev);
		rc = parse_smmuv3(rest, ev);
	} else if (!strncmp(l->text, "arm-smmu ", 9)) {
		snprintf(ev->source, sizeof(ev->source), "%s", prefix_dev);
		rc = parse_arm_smmu(rest, ev);
	} else if (strstr(l->text, "DMAR: [")) {
		rc = parse_dmar(l->text, ev);
	} else if (strstr(l->text, "AMD-Vi: Event logged")) {
		rc = parse_amd(l->text, prefix_dev, ev);
	}
	return rc;
}

bool sb_iommu_event_cont(const struct sb_kmsg_line *l, struct sb_iommu_event *ev, int *dword)
{
	char src[96];
	const char *rest = split_device_prefix(l->text, src, sizeof(src));
	uint64_t v;

	while (*rest == '\t' || *rest == ' ')
		rest++;
	if (strncmp(l->text, "arm-smmu-v3 ", 12) || strcmp(src, ev->source) || strncmp(rest, "0x", 2) ||
	    strlen(rest) != 18 || sb_parse_u64(rest, 16, &v))
		return false;
	if (*dword == 0)
		snprintf(ev->device, sizeof(ev->device), "sid 0x%x", (unsigned)(v >> 32));
	else if (*dword == 2) {
		ev->addr = v;
		ev->has_addr = true;
	}
	(*dword)++;
	return true;
}

int sb_iommu_events(const struct sb_kmsg *log, struct sb_iommu_event **out, size_t *n)
{
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < log->n; i++) {
		struct sb_iommu_event ev;
		int dword = 0;

		if (sb_iommu_event_parse(&log->lines[i], &ev) != 1)
			continue;
		while (i + 1 < log->n && dword < 4 && sb_iommu_event_cont(&log->lines[i + 1], &ev, &dword))
			i++;
		if (*n == cap) {
			struct sb_iommu_event *ne;

			cap = cap ? cap * 2 : 32;
			ne = realloc(*out, cap * sizeof(*ne));
			if (!ne)
				return -ENOMEM;
			*out = ne;
		}
		(*out)[(*n)++] = ev;
	}
	return 0;
}
