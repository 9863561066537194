/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to doctor: one probe per subsystem and the helpers they share. */
#ifndef SOCBOX_DOCTOR_PROBE_H
#define SOCBOX_DOCTOR_PROBE_H

#include "socbox/doctor.h"
#include "socbox/kmod.h"

void doctor_num(struct sb_doctor_sub *s, const char *key, int64_t v, bool live);
void doctor_bool(struct sb_doctor_sub *s, const char *key, bool v, bool live);
void doctor_str(struct sb_doctor_sub *s, const char *key, const char *v, bool live);
void doctor_hint(struct sb_doctor_sub *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void doctor_summary(struct sb_doctor_sub *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void doctor_module(const struct sb_root *r, struct sb_doctor_sub *s, const char *module,
		   const char *key, const char *config);

void doctor_probe_rpmsg(const struct sb_root *r, struct sb_doctor_sub *s);
void doctor_probe_dmabuf(const struct sb_root *r, struct sb_doctor_sub *s);
void doctor_probe_iommu(const struct sb_root *r, struct sb_doctor_sub *s);
void doctor_probe_netdev(const struct sb_root *r, struct sb_doctor_sub *s);

#endif
