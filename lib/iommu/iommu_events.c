// SPDX-License-Identifier: GPL-2.0-or-later
/* IOMMU faults and events in the kernel log: SMMUv3 event dumps (raw "event 0x10 received:"
 * with four dword lines, and the decoded "event: F_TRANSLATION client: ..." form), SMMUv3
 * global errors and CMD_SYNC timeouts, arm-smmu context faults, VT-d DMAR fault lines and
 * AMD-Vi event lines. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iommu_events_line.h"
#include "socbox/iommu_events.h"
#include "socbox/macro.h"
#include "socbox/sys.h"

/* SMMUv3 architecture event numbers. */
enum sb_iommu_class sb_iommu_event_class(const struct sb_iommu_event *ev)
{
	/* arm-smmu-v3.c event_str[]: configuration errors and fetch faults of the stream
	 * table and context descriptors */
	static const char *const stream[] = {
		"C_BAD_STREAMID", "C_BAD_STE",	"C_BAD_SUBSTREAMID", "C_BAD_CD",
		"F_STE_FETCH",	  "F_CD_FETCH", "F_STREAM_DISABLED", "C_STE_S1CDMAX"
	};

	if (!strcmp(ev->kind, "cmd-sync-timeout") || !strcmp(ev->kind, "gerror") ||
	    !strcmp(ev->kind, "global-fault"))
		return SB_IOMMU_SMMU_ERROR;
	if (!strcmp(ev->kind, "INTR-REMAP"))
		return SB_IOMMU_INTR_REMAP;
	if (!strcmp(ev->kind, "evtq-overflow"))
		return SB_IOMMU_RECORDS_LOST;
	for (size_t i = 0; i < sizeof(stream) / sizeof(stream[0]); i++)
		if (!strcmp(ev->kind, stream[i]))
			return SB_IOMMU_STREAM_CONFIG;
	return SB_IOMMU_DMA_FAULT;
}

const char *sb_iommu_class_name(enum sb_iommu_class c)
{
	switch (c) {
	case SB_IOMMU_STREAM_CONFIG:
		return "stream-config";
	case SB_IOMMU_SMMU_ERROR:
		return "smmu-error";
	case SB_IOMMU_INTR_REMAP:
		return "intr-remap-fault";
	case SB_IOMMU_RECORDS_LOST:
		return "records-lost";
	case SB_IOMMU_DMA_FAULT:
	default:
		return "dma-fault";
	}
}

const char *sb_smmu_event_name(unsigned id)
{
	static const struct {
		unsigned id;
		const char *name;
	} ev[] = {
		{ 0x01, "F_UUT" },
		{ 0x02, "C_BAD_STREAMID" },
		{ 0x03, "F_STE_FETCH" },
		{ 0x04, "C_BAD_STE" },
		{ 0x05, "F_BAD_ATS_TREQ" },
		{ 0x06, "F_STREAM_DISABLED" },
		{ 0x07, "F_TRANSL_FORBIDDEN" },
		{ 0x08, "C_BAD_SUBSTREAMID" },
		{ 0x09, "F_CD_FETCH" },
		{ 0x0a, "C_BAD_CD" },
		{ 0x0b, "F_WALK_EABT" },
		{ 0x10, "F_TRANSLATION" },
		{ 0x11, "F_ADDR_SIZE" },
		{ 0x12, "F_ACCESS" },
		{ 0x13, "F_PERMISSION" },
		{ 0x20, "F_TLB_CONFLICT" },
		{ 0x21, "F_CFG_CONFLICT" },
		{ 0x24, "E_PAGE_REQUEST" },
		{ 0x25, "F_VMS_FETCH" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(ev); i++)
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

/* The number at p up to a space (base 16 or 10); false when it is not one or is too long. */
static bool token_u64(const char *p, int base, uint64_t *v)
{
	char buf[24];
	size_t len = strcspn(p, " ");

	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, p, len);
	buf[len] = '\0';
	return sb_parse_u64(buf, base, v) == 0;
}

static bool field_hex(const char *t, const char *key, uint64_t *v)
{
	char buf[40];

	if (!field(t, key, " ,]\t", buf, sizeof(buf)))
		return false;
	return sb_parse_u64(buf, 16, v) == 0;
}

bool sb_smmu_event_qualifier(unsigned id, uint64_t dw1, char *buf, size_t len)
{
	static const char *const class_str[] = { "CD fetch", "Stage 1 translation table fetch",
						 "Input address caused fault", "Reserved" };
	unsigned class = (unsigned)(dw1 >> 40) & 3;
	bool class_tt = id == 0x13 && class == 1;

	if (!is_translation_class(id))
		return false;
	/* the kernel's "%#x" prints 0 as "0x0", hence "0x%x" */
	snprintf(buf, len, "%s %s %s %s \"%s\"%s%s stag: 0x%x",
		 dw1 & (1ull << 33) ? "priv" : "unpriv", dw1 & (1ull << 34) ? "inst" : "data",
		 dw1 & (1ull << 35) ? "read" : "write", dw1 & (1ull << 39) ? "s2" : "s1",
		 class_str[class],
		 class_tt ? (dw1 & (1ull << 44) ? " ttd_read" : " ttd_write") : "",
		 dw1 & (1ull << 31) ? " stall" : "", (unsigned)(dw1 & 0xffff));
	return true;
}

/* The name of an event id, or "event 0x7f" for one the table does not know. */
static void event_kind(unsigned id, char *buf, size_t len)
{
	const char *name = sb_smmu_event_name(id);

	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "event 0x%02x", id);
}

static bool parse_dword(const char *rest, uint64_t *v)
{
	while (*rest == '\t' || *rest == ' ')
		rest++;
	return !strncmp(rest, "0x", 2) && strlen(rest) == 18 && !sb_parse_u64(rest, 16, v);
}

/* 'unpriv data read s1 "CD fetch" stag: 0x0', with " ttd_read" / " stall" before stag. */
static bool is_qualifier(const char *rest)
{
	const char *p = rest;

	if (!strncmp(p, "priv ", 5))
		p += 5;
	else if (!strncmp(p, "unpriv ", 7))
		p += 7;
	else
		return false;
	if (strncmp(p, "inst ", 5) && strncmp(p, "data ", 5))
		return false;
	return strstr(p, " \"") && strstr(p, " stag: ");
}

static enum line_kind parse_smmuv3(const char *rest, struct sb_iommu_event *ev, uint64_t *val)
{
	const char *p;
	uint64_t v;

	if (!strncmp(rest, "event 0x", 8) && strstr(rest, " received")) {
		if (!token_u64(rest + 6, 16, &v) || v > 0xff)
			return L_NONE;
		*val = v;
		event_kind((unsigned)v, ev->kind, sizeof(ev->kind));
		snprintf(ev->device, sizeof(ev->device), "-");
		return L_RAW_HEADER;
	}
	if (parse_dword(rest, val))
		return L_DWORD;
	if (!strncmp(rest, "event: ", 7) || !strncmp(rest, "EVENT_", 6)) {
		const char *k = rest[0] == 'e' ? rest + 7 : rest + 6;

		snprintf(ev->kind, sizeof(ev->kind), "%.*s", (int)strcspn(k, " "), k);
		if ((p = strstr(rest, " sid: ")) && token_u64(p + 6, 16, &v) && v <= UINT32_MAX) {
			ev->sid = (uint32_t)v;
			ev->has_sid = true;
		}
		if (field(rest, "client: ", " ", ev->device, sizeof(ev->device)) &&
		    ev->device[0] != '(')
			ev->client_known = true;
		else if (ev->has_sid)
			snprintf(ev->device, sizeof(ev->device), "sid 0x%x", ev->sid);
		else
			snprintf(ev->device, sizeof(ev->device), "-");
		ev->has_addr = field_hex(rest, "iova: ", &ev->addr) ||
			       field_hex(rest, "fetch_addr: ", &ev->addr);
		return L_DECODED;
	}
	if (is_qualifier(rest)) {
		snprintf(ev->reason, sizeof(ev->reason), "%s", rest);
		return L_QUALIFIER;
	}
	if (strstr(rest, "global error reported")) {
		snprintf(ev->kind, sizeof(ev->kind), "gerror");
		snprintf(ev->device, sizeof(ev->device), "-");
		field(rest, "reported ", ",", ev->reason, sizeof(ev->reason));
		return L_RECORD;
	}
	if (strstr(rest, "CMD_SYNC timeout")) {
		snprintf(ev->kind, sizeof(ev->kind), "cmd-sync-timeout");
		snprintf(ev->device, sizeof(ev->device), "-");
		return L_RECORD;
	}
	if (strstr(rest, "EVTQ overflow detected")) {
		snprintf(ev->kind, sizeof(ev->kind), "evtq-overflow");
		snprintf(ev->device, sizeof(ev->device), "-");
		snprintf(ev->reason, sizeof(ev->reason), "events lost");
		return L_RECORD;
	}
	return L_NONE;
}

static int parse_arm_smmu(const char *rest, struct sb_iommu_event *ev)
{
	char v[24];

	if (strstr(rest, "Unhandled context fault")) {
		snprintf(ev->kind, sizeof(ev->kind), "context-fault");
		if (field(rest, "cbfrsynra=", ", ", v, sizeof(v))) {
			uint64_t sid;

			snprintf(ev->device, sizeof(ev->device), "sid %s", v);
			if (!sb_parse_u64(v, 16, &sid) && sid <= UINT32_MAX) {
				ev->sid = (uint32_t)sid;
				ev->has_sid = true;
			}
		} else
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
	ev->client_known = field(t, "Request device [", "]", ev->device, sizeof(ev->device));
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
	ev->client_known = strcmp(ev->device, "-") != 0;
	ev->has_addr = field_hex(p, "address=", &ev->addr);
	field(p, "flags=", " ]", ev->reason, sizeof(ev->reason));
	if (ev->reason[0]) {
		char tmp[sizeof(ev->reason)];

		snprintf(tmp, sizeof(tmp), "flags=%.80s", ev->reason);
		snprintf(ev->reason, sizeof(ev->reason), "%s", tmp);
	}
	return 1;
}

/* "arm_smmu_dump_event: 3 callbacks suppressed" (7.x) or "arm_smmu_evtq_thread: ..." (older):
 * lib/ratelimit.c, when the SMMUv3 event dump's rate limit dropped some. */
static bool parse_suppressed(const char *t, uint64_t *n)
{
	const char *p;

	if (strncmp(t, "arm_smmu_dump_event: ", 21) && strncmp(t, "arm_smmu_evtq_thread: ", 22))
		return false;
	p = strchr(t, ' ') + 1;
	if (!strstr(p, " callbacks suppressed"))
		return false;
	return token_u64(p, 10, n);
}

enum line_kind iommu_event_line(const struct sb_kmsg_line *l, struct sb_iommu_event *ev,
				uint64_t *val)
{
	char prefix_dev[96];
	const char *rest;
	enum line_kind k = L_NONE;

	memset(ev, 0, sizeof(*ev));
	*val = 0;
	ev->ts_us = l->ts_us;
	ev->has_ts = l->has_ts;
	rest = split_device_prefix(l->text, prefix_dev, sizeof(prefix_dev));
	if (!strncmp(l->text, "arm-smmu-v3 ", 12)) {
		snprintf(ev->source, sizeof(ev->source), "%s", prefix_dev);
		k = parse_smmuv3(rest, ev, val);
	} else if (!strncmp(l->text, "arm-smmu ", 9)) {
		snprintf(ev->source, sizeof(ev->source), "%s", prefix_dev);
		k = parse_arm_smmu(rest, ev) ? L_RECORD : L_NONE;
	} else if (strstr(l->text, "DMAR: [")) {
		k = parse_dmar(l->text, ev) ? L_RECORD : L_NONE;
	} else if (strstr(l->text, "AMD-Vi: Event logged")) {
		k = parse_amd(l->text, prefix_dev, ev) ? L_RECORD : L_NONE;
	} else if (parse_suppressed(l->text, val)) {
		k = L_SUPPRESSED;
	}
	return k;
}

int sb_iommu_event_parse(const struct sb_kmsg_line *l, struct sb_iommu_event *ev)
{
	uint64_t v;
	enum line_kind k = iommu_event_line(l, ev, &v);

	return k == L_RECORD || k == L_RAW_HEADER || k == L_DECODED;
}
