/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rpmsg: the sysfs view (bus channels, control devices, endpoint devices) and the char/ctrl
 * uAPI (endpoints by the legacy /dev/rpmsgN path or by the fd ioctl, devices, flow control,
 * messages). Nothing here prints or exits. */
#ifndef SOCBOX_RPMSG_H
#define SOCBOX_RPMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "socbox/error.h"
#include "socbox/probe.h"
#include "socbox/sys.h"
#include "socbox/uapi/rpmsg.h"

/* Largest payload on virtio rpmsg: 512-byte buffers minus the 16-byte header. No uAPI
 * reports the MTU, so this is the default limit for sends. */
#define SB_RPMSG_VIRTIO_MTU 496

/* A device on the rpmsg bus (/sys/bus/rpmsg/devices/<dev>). Bus attributes are hex. */
struct sb_rpmsg_channel {
	char dev[128]; /* "virtio0.rpmsg-raw.1024.-1" */
	char name[40]; /* channel (service) name */
	uint32_t src, dst;
	bool have_src, have_dst;
	int announce;	     /* 1 true, 0 false, -1 unknown */
	char driver[64];     /* bound driver, "" when none */
	char remoteproc[32]; /* "remoteproc0" when below one, else "" */
};

/* /sys/class/rpmsg/rpmsg_ctrlN */
struct sb_rpmsg_ctrl {
	char name[32]; /* "rpmsg_ctrl0" */
	unsigned index;
	char devnode[64];  /* "/dev/rpmsg_ctrl0" */
	char channel[128]; /* the rpmsg bus device it belongs to */
	char remoteproc[32];
};

/* /sys/class/rpmsg/rpmsgN: an endpoint device. Its src/dst are signed decimal. */
struct sb_rpmsg_eptdev {
	char name[32]; /* "rpmsg3" */
	unsigned index;
	char ept_name[40];
	int64_t src, dst; /* -1 is RPMSG_ADDR_ANY */
	bool have_src, have_dst;
	char devnode[64];
	char parent[128]; /* ctrl device or the channel of a default endpoint */
	char remoteproc[32];
};

struct sb_rpmsg_state {
	bool bus_present;   /* /sys/bus/rpmsg exists (rpmsg core in the kernel) */
	bool class_present; /* /sys/class/rpmsg exists */
	struct sb_rpmsg_channel *channels;
	size_t nchannels;
	struct sb_rpmsg_ctrl *ctrls;
	size_t nctrls;
	struct sb_rpmsg_eptdev *epts;
	size_t nepts;
};

int sb_rpmsg_scan(const struct sb_root *r, struct sb_rpmsg_state *st, struct sb_err *e);
void sb_rpmsg_state_free(struct sb_rpmsg_state *st);

/* Parsers, exposed for tests. "virtio0.rpmsg-raw.1024.-1" -> parent, name, src, dst
 * (the name may itself contain dots). Returns 0 or -EINVAL. */
int sb_rpmsg_parse_devname(const char *dev, char *parent, size_t plen, char *name, size_t nlen,
			   int64_t *src, int64_t *dst);
/* From a sysfs link text ("../../devices/.../remoteproc0/.../rpmsg/rpmsg_ctrl0"): the parent
 * device of the last component (skipping the "rpmsg" class glue directory) and the last
 * "remoteprocN" component. Missing parts are "". */
void sb_rpmsg_link_parts(const char *link, char *parent, size_t plen, char *rproc, size_t rlen);
/* "rpmsg_ctrl3" with prefix "rpmsg_ctrl" -> 3; -EINVAL when not prefix+digits. */
int sb_rpmsg_index(const char *name, const char *prefix, unsigned *index);

/* --- uAPI --- */

enum sb_rpmsg_method { SB_RPMSG_AUTO, SB_RPMSG_LEGACY, SB_RPMSG_FD };
/* their names, in the enum's order, NULL-terminated (the options' words: --method) */
extern const char *const sb_rpmsg_method_names[];
const char *sb_rpmsg_method_name(enum sb_rpmsg_method m);
int sb_rpmsg_method_parse(const char *s, enum sb_rpmsg_method *m);

/* The path for an endpoint that must outlive the process (ept create): only legacy makes
 * one, an fd endpoint dies with its fd. AUTO and LEGACY give LEGACY; FD gives -EINVAL with
 * the reason in e. */
int sb_rpmsg_method_lasting(enum sb_rpmsg_method m, enum sb_rpmsg_method *out, struct sb_err *e);

struct sb_devmon;

/* How a legacy create learns which /dev/rpmsgN it made (the ioctl does not say). */
enum sb_rpmsg_lookup {
	SB_RPMSG_LOOKUP_UNDECIDED,
	SB_RPMSG_LOOKUP_SYSFS,	/* the new child of the ctrl device in sysfs; node by devtmpfs */
	SB_RPMSG_LOOKUP_UEVENT, /* wait for the "add" uevent (udev's, or the kernel's) */
};

/* An open /dev/rpmsg_ctrlN. fd_probe remembers what the kernel answered to the fd ioctl for
 * the rest of the run: ran 0, not asked yet; SB_RPMSG_FD, it has it; SB_RPMSG_LEGACY instead
 * of SB_RPMSG_FD, it lacks it (err: the errno it answered). */
struct sb_rpmsg_ctl {
	int fd;
	unsigned index;
	char path[64];
	struct sb_probe fd_probe;
	struct sb_devmon *mon; /* kept open across legacy creates */
	int timeout_ms;	       /* wait for /dev/rpmsgN (default 5000) */
	const struct sb_root *root;
	enum sb_rpmsg_lookup lookup; /* decided at the first legacy create */
	void *children;		     /* SYSFS: the ctrl device's sysfs directory, its children */
};

int sb_rpmsg_ctl_open(const struct sb_root *r, unsigned index, struct sb_rpmsg_ctl *ctl,
		      struct sb_err *e);
void sb_rpmsg_ctl_close(struct sb_rpmsg_ctl *ctl);
/* Decide how legacy creates learn their device, and start listening for uevents now when
 * that is the way (legacy creates do it on first use). */
int sb_rpmsg_ctl_watch(struct sb_rpmsg_ctl *ctl, struct sb_err *e);
/* "inotify", "sysfs" or "uevent" once decided, "" before. */
const char *sb_rpmsg_ctl_lookup_name(const struct sb_rpmsg_ctl *ctl);
/* How many legacy creates learnt their device from the inotify queue and how many by
 * listing the ctrl device's children (both 0 with the uevent wait). */
void sb_rpmsg_ctl_lookup_counts(const struct sb_rpmsg_ctl *ctl, uint64_t *by_inotify,
				uint64_t *by_listing);

struct sb_rpmsg_ept {
	int fd;
	/* ran: the enum sb_rpmsg_method that made it (never AUTO); instead_of: SB_RPMSG_FD when
	 * auto took legacy because the kernel lacks the fd ioctl (the control device's fd_probe) */
	struct sb_probe path;
	char devnode[64]; /* legacy: "/dev/rpmsg3"; fd: "" */
};

/* Create an endpoint on ctl. flags: O_CLOEXEC and O_NONBLOCK (honoured by both paths).
 * legacy: CREATE_EPT, find the new rpmsgN under this ctrl device (sysfs, or its "add"
 * uevent; see sb_rpmsg_ctl_watch), open it. fd: CREATE_EPT_FD; -EOPNOTSUPP (exit 3) when the
 * kernel lacks it (sb_kernel_lacks(), EINVAL only when it comes twice). auto: fd, legacy where
 * the kernel lacks fd. */
int sb_rpmsg_ept_create(struct sb_rpmsg_ctl *ctl, const char *name, uint32_t src, uint32_t dst,
			int flags, enum sb_rpmsg_method m, struct sb_rpmsg_ept *ept,
			struct sb_err *e);
/* Legacy create without opening: the name of the new device ("rpmsg3"). */
int sb_rpmsg_ept_create_node(struct sb_rpmsg_ctl *ctl, const char *name, uint32_t src, uint32_t dst,
			     char *devname, size_t len, struct sb_err *e);
/* After a failed open of a just-created endpoint device: open it and DESTROY it, so it is
 * not left behind. When that fails too, the hint of e (if given) names the node left
 * behind and how to remove it; returns 0 or -errno. */
int sb_rpmsg_ept_discard(const char *devnode, struct sb_err *e);
/* Open an existing endpoint device ("/dev/rpmsg3"). */
int sb_rpmsg_ept_open(const char *devnode, int flags, struct sb_rpmsg_ept *ept, struct sb_err *e);
/* DESTROY_EPT, then close. The fd is closed even when the ioctl fails. */
int sb_rpmsg_ept_destroy(struct sb_rpmsg_ept *ept, struct sb_err *e);
void sb_rpmsg_ept_close(struct sb_rpmsg_ept *ept);
/* DESTROY_EPT only, the fd stays open (for timing destroy and close apart). */
int sb_rpmsg_ept_destroy_keep_fd(struct sb_rpmsg_ept *ept, struct sb_err *e);

int sb_rpmsg_dev_create(struct sb_rpmsg_ctl *ctl, const char *name, uint32_t src, uint32_t dst,
			struct sb_err *e);
int sb_rpmsg_dev_release(struct sb_rpmsg_ctl *ctl, const char *name, uint32_t src, uint32_t dst,
			 struct sb_err *e);

/* Flow control on an endpoint fd. */
int sb_rpmsg_get_outgoing_flow(int fd, bool *paused, struct sb_err *e);
int sb_rpmsg_set_incoming_flow(int fd, bool pause, struct sb_err *e);

/* One message per call. send: -EMSGSIZE before writing when len > mtu. recv: waits up to
 * timeout_ms (-1 forever); returns the length, -ETIMEDOUT, or -errno. Both return -EINTR
 * once a stop signal (socbox/stop.h) arrived, other signals do not end them. */
ssize_t sb_rpmsg_send(int fd, const void *buf, size_t len, size_t mtu, struct sb_err *e);
ssize_t sb_rpmsg_recv(int fd, void *buf, size_t len, int timeout_ms, struct sb_err *e);

/* ping: one request at a time, echoed by the remote. A payload of SB_RPMSG_PING_HDR bytes
 * or more starts with a run cookie and the sequence number (both 32-bit little-endian);
 * shorter payloads carry only the low 1-4 bytes of the sequence number (no cookie), so an
 * echo late by 2^(8*size)/2 requests or more, or one from another run, cannot be told
 * from a corrupt one. The rest is a pattern of the sequence number. */
#define SB_RPMSG_PING_HDR 8
enum sb_rpmsg_echo { SB_ECHO_OK, SB_ECHO_CORRUPT, SB_ECHO_LATE };
struct sb_rpmsg_ping {
	size_t size;
	uint32_t cookie;
	unsigned char *out, *in;
	unsigned late; /* echoes of earlier requests skipped while waiting */
};
int sb_rpmsg_ping_init(struct sb_rpmsg_ping *p, size_t size, uint32_t cookie, struct sb_err *e);
void sb_rpmsg_ping_free(struct sb_rpmsg_ping *p);
void sb_rpmsg_ping_fill(unsigned char *b, size_t size, uint32_t cookie, uint32_t seq);
/* OK: the echo of seq, byte for byte; LATE: an echo of an earlier request of this run;
 * CORRUPT: anything else. */
enum sb_rpmsg_echo sb_rpmsg_ping_check(const unsigned char *b, size_t got, size_t size,
				       uint32_t cookie, uint32_t seq);
/* Send request seq, then read until its echo or timeout_ms, skipping (and counting in
 * p->late) late echoes of earlier requests. Returns SB_ECHO_OK (*rtt_ns set) or
 * SB_ECHO_CORRUPT, -ETIMEDOUT when no echo of seq came, or -errno. */
int sb_rpmsg_ping_one(int fd, struct sb_rpmsg_ping *p, uint32_t seq, int timeout_ms,
		      uint64_t *rtt_ns, struct sb_err *e);

/* Every rpmsg ioctl goes through one function so a unit test can stand in for the kernel.
 * NULL restores ioctl(2). */
typedef int (*sb_rpmsg_ioctl_fn)(int fd, unsigned long request, void *arg);
void sb_rpmsg_set_ioctl(sb_rpmsg_ioctl_fn fn);

/* Split [0,len) into messages of at most mtu bytes: the number of messages. */
static inline size_t sb_rpmsg_chunks(size_t len, size_t mtu)
{
	return len == 0 ? 1 : (len + mtu - 1) / mtu;
}

#endif
