// SPDX-License-Identifier: GPL-2.0-or-later
/* The capture of the netdev state that socbox snapshot keeps (SB_ND_SNAP_MSGS and
 * SB_ND_SNAP_PARTS): taken from the live kernel, loaded from a sysroot; and interface names. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netdev_priv.h"
#include "socbox/netdev.h"

void sb_nd_capture_free(struct sb_nd_capture *cap)
{
	free(cap->msgs);
	free(cap->parts);
	memset(cap, 0, sizeof(*cap));
}

int sb_nd_capture_live(struct sb_nd_capture *cap, struct sb_err *e)
{
	struct sb_nd_state st = { 0 };
	struct sb_genl g;
	FILE *fp;
	int rc;

	memset(cap, 0, sizeof(*cap));
	rc = sb_nd_open(&g, e);
	if (rc)
		return rc;
	fp = open_memstream(&cap->msgs, &cap->msgs_len);
	if (!fp) {
		sb_genl_close(&g);
		return sb_err_set(e, errno, "netdev capture", "allocate", NULL);
	}
	sb_nd_set_capture(fp);
	rc = sb_nd_collect(&g, SB_ND_ALL_PARTS, 0, &st, e);
	sb_nd_set_capture(NULL);
	sb_genl_close(&g);
	if (fclose(fp) && !rc)
		rc = sb_err_set(e, ENOMEM, "netdev capture", "write", NULL);
	if (rc) {
		sb_nd_state_free(&st);
		sb_nd_capture_free(cap);
		return rc;
	}
	fp = open_memstream(&cap->parts, &cap->parts_len);
	if (!fp) {
		sb_nd_state_free(&st);
		sb_nd_capture_free(cap);
		return sb_err_set(e, errno, "netdev capture", "allocate", NULL);
	}
	fprintf(fp, "# socbox snapshot: netdev generic netlink state, replies in netdev.nlmsg\n");
	fprintf(fp,
		"family_version=%" PRIu32 "\nboottime_s=%" PRIu64 "\nhave=0x%x\nunsupported=0x%x\n",
		st.family_version, st.boottime_s, st.have, st.unsupported);
	for (unsigned bit = 0; bit < 8; bit++) {
		char reason[sizeof(st.part_err[0].reason)];

		if (!(st.unsupported & (1u << bit)))
			continue;
		snprintf(reason, sizeof(reason), "%s", st.part_err[bit].reason);
		for (char *p = reason; *p; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
		fprintf(fp, "unsupported.%u=%d %s\n", bit, st.part_err[bit].errnum, reason);
	}
	sb_nd_state_free(&st);
	if (fclose(fp)) {
		sb_nd_capture_free(cap);
		return sb_err_set(e, ENOMEM, "netdev capture", "write", NULL);
	}
	return 0;
}

struct meta {
	uint64_t version, boottime, have, unsupported;
	unsigned seen; /* 1 version, 2 boottime, 4 have, 8 unsupported */
};

/* Parse the parts file; the unsupported.BIT lines go to st through sb_nd_mark_unsupported. */
static int parse_meta(char *text, struct meta *m, unsigned parts, struct sb_nd_state *st)
{
	char *save = NULL;

	memset(m, 0, sizeof(*m));
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');
		unsigned long bit;
		struct sb_err pe;
		char *end;
		long err;

		if (line[0] == '#' || !eq)
			continue;
		*eq++ = '\0';
		if (!strcmp(line, "family_version")) {
			if (sb_parse_u64(eq, 10, &m->version))
				return -EINVAL;
			m->seen |= 1;
		} else if (!strcmp(line, "boottime_s")) {
			if (sb_parse_u64(eq, 10, &m->boottime))
				return -EINVAL;
			m->seen |= 2;
		} else if (!strcmp(line, "have")) {
			if (sb_parse_u64(eq, 16, &m->have))
				return -EINVAL;
			m->seen |= 4;
		} else if (!strcmp(line, "unsupported")) {
			if (sb_parse_u64(eq, 16, &m->unsupported))
				return -EINVAL;
			m->seen |= 8;
		} else if (!strncmp(line, "unsupported.", 12)) {
			bit = strtoul(line + 12, &end, 10);
			if (*end || bit >= 8)
				return -EINVAL;
			err = strtol(eq, &end, 10);
			if (end == eq || err < 0 || err > 4095)
				return -EINVAL;
			if (!((parts >> bit) & 1))
				continue;
			sb_err_clear(&pe);
			pe.errnum = (int)err;
			if (*end == ' ' && end[1])
				snprintf(pe.reason, sizeof(pe.reason), "%s", end + 1);
			sb_nd_mark_unsupported(st, 1u << bit, &pe);
		}
	}
	return m->seen == 15 ? 0 : -EINVAL;
}

/* Drop what was not asked for, so a view sees what a live dump of its parts gives. */
static void keep_parts(struct sb_nd_state *st, unsigned parts)
{
	for (size_t i = 0; i < SB_ND_NPARTS; i++)
		if (!(parts & sb_nd_parts[i].part))
			sb_nd_part_drop(st, &sb_nd_parts[i]);
}

bool sb_nd_snapshot_family_absent(const struct sb_root *r)
{
	char *text = NULL;
	bool absent = false;

	if (!sb_root_is_live(r) && sb_read_file(r, &text, SB_READ_ATTR_MAX, SB_ND_SNAP_PARTS) > 0)
		for (char *line = strtok(text, "\n"); line && !absent; line = strtok(NULL, "\n"))
			absent = !strcmp(line, SB_ND_SNAP_ABSENT);
	free(text);
	return absent;
}

int sb_nd_snapshot_load(const struct sb_root *r, unsigned parts, struct sb_nd_state *st,
			struct sb_err *e)
{
	char *meta_text = NULL, *msgs = NULL;
	struct meta m;
	ssize_t n;
	int rc;

	memset(st, 0, sizeof(*st));
	n = sb_read_file(r, &meta_text, SB_READ_ATTR_MAX, SB_ND_SNAP_PARTS);
	if (n == -ENOENT) {
		sb_err_set(e, ENOENT, sb_root_path(r), "read the netdev state",
			   "take the snapshot again with this socbox, or run devmemstat --save-netlink FILE "
			   "on the board and --load-netlink FILE here");
		sb_err_reason(e,
			      "this snapshot has no netdev capture (taken by an older socbox or a "
			      "kernel without the netdev family)");
		sb_err_exit(e, SB_EXIT_UNSUPPORTED);
		return -ENOENT;
	}
	if (n < 0)
		return sb_err_set(e, (int)-n, SB_ND_SNAP_PARTS, "read netdev capture", NULL);
	if (sb_nd_snapshot_family_absent(r)) {
		free(meta_text);
		sb_err_set(e, ENOENT, sb_root_path(r), "read the netdev state",
			   "the netdev family needs Linux 6.3+ (queues and NAPIs 6.9+, devmem TCP 6.12+)");
		sb_err_reason(e, "the snapshot's kernel had no netdev generic netlink family");
		sb_err_exit(e, SB_EXIT_UNSUPPORTED);
		return -ENOENT;
	}
	rc = parse_meta(meta_text, &m, parts, st);
	free(meta_text);
	if (rc) {
		sb_nd_state_free(st);
		return sb_err_set(e, EINVAL, SB_ND_SNAP_PARTS, "read netdev capture",
				  "the snapshot is damaged: take it again");
	}
	n = sb_read_file(r, &msgs, SB_READ_CAPTURE_MAX, SB_ND_SNAP_MSGS);
	if (n < 0) {
		sb_nd_state_free(st);
		rc = sb_err_set(e, n == -ENOENT ? EINVAL : (int)-n, SB_ND_SNAP_MSGS,
				"read netdev capture", "the snapshot is damaged: take it again");
		if (n == -ENOENT)
			sb_err_reason(e, "missing beside %s", SB_ND_SNAP_PARTS);
		return rc;
	}
	rc = sb_nd_state_from_buf(msgs, (size_t)n, st);
	free(msgs);
	if (rc == -ENOMEM) {
		sb_nd_state_free(st);
		return sb_err_set(e, ENOMEM, SB_ND_SNAP_MSGS, "load netdev capture", NULL);
	}
	if (rc < 0)
		st->malformed++; /* cut short: what parsed is kept, the views say so */
	keep_parts(st, parts);
	st->have = (unsigned)m.have & parts;
	st->unsupported &= parts;
	st->family_version = (uint32_t)m.version;
	st->boottime_s = m.boottime;
	return 0;
}

int sb_nd_read_ifnames(const struct sb_root *r, struct sb_nd_ifname **v, size_t *n)
{
	struct sb_dirlist dl;
	int rc;

	*v = NULL;
	*n = 0;
	rc = sb_dir_list(r, &dl, "/sys/class/net");
	if (rc < 0)
		return rc;
	*v = calloc(dl.n ? dl.n : 1, sizeof(**v));
	if (!*v) {
		sb_dirlist_free(&dl);
		return -ENOMEM;
	}
	for (size_t i = 0; i < dl.n; i++) {
		uint64_t idx;

		if (strlen(dl.names[i]) >= IF_NAMESIZE ||
		    sb_attr_u64(r, &idx, "/sys/class/net/%s/ifindex", dl.names[i]) || !idx ||
		    idx > UINT32_MAX)
			continue;
		(*v)[*n].ifindex = (uint32_t)idx;
		snprintf((*v)[*n].name, IF_NAMESIZE, "%s", dl.names[i]);
		(*n)++;
	}
	sb_dirlist_free(&dl);
	return 0;
}

const char *sb_nd_ifname_of(const struct sb_nd_ifname *v, size_t n, uint32_t ifindex)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].ifindex == ifindex)
			return v[i].name;
	return NULL;
}

uint32_t sb_nd_ifindex_of(const struct sb_nd_ifname *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return v[i].ifindex;
	return 0;
}
