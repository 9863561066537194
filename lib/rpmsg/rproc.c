// SPDX-License-Identifier: GPL-2.0-or-later
/* remoteproc sysfs and debugfs. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/kmsg.h"
#include "socbox/kmsg_said.h"
#include "socbox/macro.h"
#include "socbox/rpmsg.h"
#include "socbox/rproc.h"
#include "socbox/platform.h"

#define CLASS "/sys/class/remoteproc"
#define DEBUGFS "/sys/kernel/debug/remoteproc"

static void read_one(const struct sb_root *r, const char *id, struct sb_rproc *p)
{
	char link[512];

	memset(p, 0, sizeof(*p));
	snprintf(p->id, sizeof(p->id), "%s", id);
	sb_rpmsg_index(id, "remoteproc", &p->index);
	if (sb_attr_str(r, p->name, sizeof(p->name), CLASS "/%s/name", id) < 0)
		p->name[0] = '\0';
	if (sb_attr_str(r, p->state, sizeof(p->state), CLASS "/%s/state", id) < 0)
		p->state[0] = '\0';
	if (sb_attr_str(r, p->firmware, sizeof(p->firmware), CLASS "/%s/firmware", id) < 0)
		p->firmware[0] = '\0';
	if (sb_attr_str(r, p->recovery, sizeof(p->recovery), CLASS "/%s/recovery", id) < 0)
		p->recovery[0] = '\0';
	if (sb_attr_str(r, p->coredump, sizeof(p->coredump), CLASS "/%s/coredump", id) < 0)
		p->coredump[0] = '\0';
	/* ../../devices/platform/5000000.m4fss/remoteproc/remoteproc0: the parent device is
	 * the component before the "remoteproc" class glue directory */
	if (sb_readlink(r, link, sizeof(link), CLASS "/%s", id) >= 0) {
		char *glue = strstr(link, "/remoteproc/remoteproc");

		if (glue) {
			*glue = '\0';
			const char *base = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
			size_t len = strnlen(base, sizeof(p->device) - 1);

			memcpy(p->device, base, len);
			p->device[len] = '\0';
		}
	}
	while (p->ntraces < 16 && sb_exists(r, DEBUGFS "/%s/trace%u", id, p->ntraces))
		p->ntraces++;
}

const char *const sb_rproc_states[] = {
	"offline",  "suspended", "running", "crashed", "deleted",
	"attached", "detached",	 "invalid", NULL,
};

struct crashes {
	struct sb_rproc *p;
	size_t n;
};

/* TI K3 drivers do not report a crash to the core (ti_k3_common.c k3_rproc_mbox_callback():
 * dev_err "K3 rproc %s crashed" on the platform device): the state stays "running" and
 * nothing recovers it. The crash stands until the core says the processor is up again
 * (remoteproc_core.c rproc_start(): "remote processor %s is now up"). */
static void unreported_crash(struct sb_rproc *p, const char *text, const char *msg)
{
	char dead[160], up[160];
	size_t tl = strlen(text), dl;

	dl = (size_t)snprintf(dead, sizeof(dead), "K3 rproc %s crashed", p->name);
	snprintf(up, sizeof(up), "remote processor %s is now up", p->name);
	if (p->name[0] && dl < sizeof(dead) && tl >= dl && !strcmp(text + tl - dl, dead) &&
	    (tl == dl || text[tl - dl - 1] == ' ')) {
		p->crash_unreported = true;
		p->crashes++; /* the core counts none of these: the driver's lines are the count */
		snprintf(p->crash_line, sizeof(p->crash_line), "%s", text);
	} else if (msg && !strcmp(msg, up)) {
		p->crash_unreported = false;
		p->crash_line[0] = '\0';
	}
}

static int crash_line(void *arg, const struct sb_kmsg_line *l)
{
	struct crashes *c = arg;
	unsigned n;

	for (size_t j = 0; j < c->n; j++) {
		const char *msg = sb_rproc_log_msg(l->text, c->p[j].id);

		if (msg && sb_rproc_crash_msg(msg, &n, NULL) && n > c->p[j].crashes)
			c->p[j].crashes = n;
		unreported_crash(&c->p[j], l->text, msg);
	}
	return 0;
}

/* One pass over the kernel log for all processors, a line at a time (the log is not held);
 * best effort (the log may be unreadable). */
static void count_crashes(const struct sb_root *r, struct sb_rproc *p, size_t n)
{
	struct crashes c = { p, n };

	if (!n)
		return;
	for (size_t j = 0; j < n; j++)
		p[j].crashes = 0;
	if (sb_kmsg_each(r, crash_line, &c, NULL, NULL) < 0) {
		for (size_t j = 0; j < n; j++) {
			p[j].crashes = 0;
			p[j].crash_unreported = false;
			p[j].crash_line[0] = '\0';
		}
		return;
	}
	for (size_t j = 0; j < n; j++)
		p[j].have_crashes = true;
}

int sb_rproc_list(const struct sb_root *r, struct sb_rproc **out, size_t *n, struct sb_err *e)
{
	struct sb_dirlist l = { 0 };
	int rc = sb_dir_list(r, &l, CLASS);
	size_t k = 0;
	unsigned idx;

	*out = NULL;
	*n = 0;
	if (rc == -ENOENT)
		return 0;
	if (rc < 0)
		return sb_err_set(e, -rc, CLASS, "list remote processors", NULL);
	if (l.n) {
		*out = calloc(l.n, sizeof(**out));
		if (!*out) {
			sb_dirlist_free(&l);
			return sb_err_set(e, ENOMEM, CLASS, "list remote processors", NULL);
		}
	}
	for (size_t i = 0; i < l.n; i++)
		if (!sb_rpmsg_index(l.names[i], "remoteproc", &idx))
			read_one(r, l.names[i], &(*out)[k++]);
	*n = k;
	sb_dirlist_free(&l);
	count_crashes(r, *out, k);
	sb_rproc_devcd_scan(r, *out, k);
	return 0;
}

const char *sb_rproc_state_shown(const struct sb_rproc *p)
{
	return p->crash_unreported ? "crashed" : p->state;
}

void sb_rproc_state_note(const struct sb_rproc *p, char *buf, size_t len)
{
	if (!p->crash_unreported) {
		if (len)
			buf[0] = '\0';
		return;
	}
	snprintf(buf, len,
		 "%s (%s) crashed though its state file says %s: its driver does not report "
		 "crashes to the remoteproc core (kernel log: %s)",
		 p->id, p->name, p->state[0] ? p->state : "nothing", p->crash_line);
}

int sb_rproc_find(const struct sb_root *r, const char *spec, struct sb_rproc *out, struct sb_err *e)
{
	struct sb_rproc *all;
	size_t n;
	unsigned idx;
	bool numeric = !sb_rpmsg_index(spec, "", &idx);
	int rc = sb_rproc_list(r, &all, &n, e);

	if (rc < 0)
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(all[i].id, spec) || (numeric && all[i].index == idx) ||
		    !strcmp(all[i].name, spec) ||
		    (all[i].device[0] && !strcmp(all[i].device, spec))) {
			*out = all[i];
			free(all);
			return 0;
		}
	}
	free(all);
	if (n) {
		sb_err_set(e, ENOENT, spec, "find remote processor",
			   "see 'rpmsgctl list' for the remote processors");
	} else {
		struct sb_platform plat;
		char hint[256];

		sb_platform_read(r, &plat);
		sb_rproc_missing_hint(&plat, hint, sizeof(hint));
		sb_err_set(e, ENOENT, spec, "find remote processor", "%s", hint);
		sb_err_reason(e, "no remote processor registered");
	}
	sb_err_exit(e, SB_EXIT_UNSUPPORTED); /* named, not here: as a device absent */
	return -ENOENT;
}

static int write_attr(const struct sb_root *r, const struct sb_rproc *p, const char *attr,
		      const char *value, const char *what, struct sb_err *e)
{
	char object[sizeof(p->id) + sizeof(p->name) + 4];
	int rc = sb_attr_write(r, value, CLASS "/%s/%s", p->id, attr);

	if (rc >= 0)
		return 0;
	snprintf(object, sizeof(object), "%s (%s)", p->id, p->name);
	sb_err_set(e, -rc, object, what, NULL);
	if (rc == -EROFS) {
		sb_err_reason(e, "needs the live kernel (not possible with --sysroot)");
		sb_err_exit(e, SB_EXIT_UNSUPPORTED);
	} else if (rc == -EACCES || rc == -EPERM) {
		sb_err_hint(e, "writing remoteproc sysfs attributes needs root");
	}
	return rc;
}

static void current_state(const struct sb_root *r, const struct sb_rproc *p, char *buf, size_t len)
{
	if (sb_attr_str(r, buf, len, CLASS "/%s/state", p->id) < 0)
		snprintf(buf, len, "unknown");
}

/* A state write the kernel refused: what it logged about the processor (or its platform
 * device) meanwhile is the reason, or the error says it gave none; nothing when the log
 * could not be read (not root, a sysroot). */
static void quote_log(struct sb_kmsg_said *said, const struct sb_rproc *p, int rc, struct sb_err *e)
{
	const char *names[] = { p->id, p->device[0] ? p->device : NULL };

	sb_kmsg_said_reason(said, names, ARRAY_SIZE(names), -rc, p->id, e);
}

int sb_rproc_state_write(const struct sb_root *r, const struct sb_rproc *p, enum sb_rproc_action a,
			 struct sb_err *e)
{
	static const char *const words[] = { "start", "stop", "detach" };
	char object[sizeof(p->id) + sizeof(p->name) + 4], state[24];
	struct sb_kmsg_said said = { .open = false };
	int rc;

	snprintf(object, sizeof(object), "%s (%s)", p->id, p->name);
	current_state(r, p, state, sizeof(state));
	/* Since 5.x "start" on a running processor only takes another power reference (no
	 * EBUSY), and the next "stop" just drops it: refuse instead of unbalancing it. */
	if (a == SB_RPROC_START && (!strcmp(state, "running") || !strcmp(state, "attached"))) {
		sb_err_set(e, EBUSY, object, "start", "it is already %s", state);
		sb_err_exit(e, SB_EXIT_FAIL);
		return -EBUSY;
	}
	if (sb_root_is_live(r))
		sb_kmsg_said_mark(&said);
	rc = write_attr(r, p, "state", words[a], words[a], e);
	if (rc < 0)
		quote_log(&said, p, rc, e);
	sb_kmsg_said_drop(&said);
	if (rc == 0 && a == SB_RPROC_STOP) {
		current_state(r, p, state, sizeof(state));
		if (!strcmp(state, "running")) {
			sb_err_set(e, EBUSY, object, "stop",
				   "another user (a kernel driver, or an earlier start) holds a power reference");
			sb_err_reason(e,
				      "still running: the kernel only dropped one power reference");
			sb_err_exit(e, SB_EXIT_FAIL);
			return -EBUSY;
		}
	}

	if (rc == -EBUSY && a == SB_RPROC_START)
		sb_err_hint(e, "it is already %s", p->state[0] ? p->state : "running");
	else if (rc == -EINVAL && a == SB_RPROC_STOP)
		sb_err_hint(e, "only a running processor can be stopped (state: %s)", p->state);
	else if (rc == -EINVAL && a == SB_RPROC_DETACH)
		sb_err_hint(e, "only an attached processor can be detached (state: %s)", p->state);
	else if (rc == -ENOENT && a == SB_RPROC_START)
		sb_err_hint(e,
			    "firmware '%s' not found under /lib/firmware; 'rpmsgctl rproc firmware %s FILE' picks another",
			    p->firmware, p->id);
	return rc;
}

int sb_rproc_firmware_write(const struct sb_root *r, const struct sb_rproc *p, const char *fw,
			    struct sb_err *e)
{
	int rc;

	if (!fw[0] || strchr(fw, '\n'))
		return sb_err_set(e, EINVAL, fw, "set firmware",
				  "give a file name below /lib/firmware");
	rc = write_attr(r, p, "firmware", fw, "set firmware", e);
	if (rc == -EBUSY)
		sb_err_hint(e,
			    "firmware can only change while offline (state: %s): 'rpmsgctl rproc stop %s' first",
			    p->state, p->id);
	return rc;
}

int sb_rproc_recovery_write(const struct sb_root *r, const struct sb_rproc *p, bool on,
			    struct sb_err *e)
{
	return write_attr(r, p, "recovery", on ? "enabled" : "disabled", "set recovery", e);
}

int sb_rproc_trace(const struct sb_root *r, const struct sb_rproc *p, unsigned idx, char **text,
		   struct sb_err *e)
{
	char path[128];
	ssize_t n;

	snprintf(path, sizeof(path), DEBUGFS "/%s/trace%u", p->id, idx);
	n = sb_read_file(r, text, SB_READ_TEXT_MAX, "%s", path);
	if (n >= 0)
		return 0;
	sb_err_set(e, (int)-n, path, "read trace", NULL);
	if (n == -ENOENT) {
		if (!sb_is_dir(r, "/sys/kernel/debug/remoteproc"))
			sb_err_hint(
				e,
				"mount debugfs: mount -t debugfs none /sys/kernel/debug (CONFIG_DEBUG_FS)");
		else
			sb_err_hint(e,
				    "the firmware has no trace%u resource (running firmware only)",
				    idx);
		sb_err_exit(e, SB_EXIT_UNSUPPORTED);
	} else if (n == -EACCES || n == -EPERM) {
		sb_err_hint(e, "debugfs needs root");
	}
	return (int)n;
}

int sb_rproc_crash_type_parse(const char *s, enum sb_rproc_crash_type *t)
{
	static const char *const names[] = { "mmufault", "watchdog", "fatal" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i])) {
			*t = (enum sb_rproc_crash_type)i;
			return 0;
		}
	return -EINVAL;
}

int sb_rproc_crash(const struct sb_root *r, const struct sb_rproc *p, enum sb_rproc_crash_type t,
		   struct sb_err *e)
{
	char value[8];
	int rc;

	snprintf(value, sizeof(value), "%d", (int)t);
	rc = sb_attr_write(r, value, DEBUGFS "/%s/crash", p->id);
	if (rc >= 0)
		return 0;
	sb_err_set(e, -rc, p->id, "report a crash (debugfs crash)", NULL);
	if (rc == -ENOENT) {
		sb_err_hint(e,
			    "mount debugfs: mount -t debugfs none /sys/kernel/debug (CONFIG_DEBUG_FS)");
		sb_err_exit(e, SB_EXIT_UNSUPPORTED);
	} else if (rc == -EROFS) {
		sb_err_reason(e, "needs the live kernel (not possible with --sysroot)");
		sb_err_exit(e, SB_EXIT_UNSUPPORTED);
	} else if (rc == -EACCES || rc == -EPERM) {
		sb_err_hint(e, "debugfs needs root");
	}
	return rc;
}

const char *sb_rproc_log_msg(const char *text, const char *id)
{
	char dev[64];
	const char *msg = sb_kmsg_dev_msg(text, "remoteproc", dev, sizeof(dev));

	return msg && !strcmp(dev, id) ? msg : NULL;
}

bool sb_rproc_crash_msg(const char *msg, unsigned *n, const char **name)
{
	static const char key[] = "handling crash #";
	const char *p = msg + sizeof(key) - 1;
	unsigned long v;
	char *end;

	if (strncmp(msg, key, sizeof(key) - 1) || !isdigit((unsigned char)*p))
		return false;
	errno = 0;
	v = strtoul(p, &end, 10);
	if (errno || v > UINT_MAX || strncmp(end, " in ", 4))
		return false;
	*n = (unsigned)v;
	if (name)
		*name = end + 4;
	return true;
}

void sb_rproc_missing_hint(const struct sb_platform *p, char *buf, size_t len)
{
	static const struct {
		const char *vendor, *drivers;
	} socs[] = {
		{ "ti,", "CONFIG_TI_K3_M4_REMOTEPROC, CONFIG_TI_K3_R5_REMOTEPROC" },
		{ "fsl,", "CONFIG_IMX_REMOTEPROC" },
		{ "st,", "CONFIG_STM32_RPROC" },
		{ "qcom,", "CONFIG_QCOM_Q6V5_PAS" },
	};
	const char *drivers = "the SoC's remoteproc driver";

	if (sb_arch_is_x86(p->arch) || p->fw == SB_FW_ACPI) {
		snprintf(buf, len,
			 "this %s system%s has no remote processor: remoteproc and rpmsg serve the "
			 "co-processors of SoCs",
			 sb_arch_name(p->arch), p->fw == SB_FW_ACPI ? " (ACPI)" : "");
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(socs); i++)
		if (!strncmp(p->compatible, socs[i].vendor, strlen(socs[i].vendor)))
			drivers = socs[i].drivers;
	snprintf(buf, len, "CONFIG_REMOTEPROC with %s, and the core's device-tree node", drivers);
}
