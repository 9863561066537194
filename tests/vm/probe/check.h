/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reporting for the vm probe: each failed expectation prints one line and counts. */
#ifndef SOCBOX_VMPROBE_CHECK_H
#define SOCBOX_VMPROBE_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* Print "probe: FAIL <what>: <strerror(errno)>" (or without errno when err == 0). */
bool vp_fail(const char *what, int err);
/* Print "probe: <what>" as progress information. */
void vp_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Fill and compare a deterministic byte pattern seeded by seed. */
void vp_pattern(unsigned char *buf, unsigned long len, unsigned seed);
bool vp_pattern_ok(const unsigned char *buf, unsigned long len, unsigned seed);
/* One echo through an rpmsg endpoint, node or fd (probe/rpmsg.c). */
bool vp_echo(int fd, size_t len, unsigned seed);

int vp_dmaheap(int argc, char **argv);
int vp_udmabuf(int argc, char **argv);
int vp_rpmsg(int argc, char **argv);
int vp_rpmsg_echo(int argc, char **argv);
int vp_rpmsg_fd(int argc, char **argv);
int vp_rpmsg_fd_gone(int argc, char **argv);
int vp_dmabuf_rw(int argc, char **argv);
int vp_iommufd(int argc, char **argv);

#endif
