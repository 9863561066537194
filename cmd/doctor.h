/* SPDX-License-Identifier: GPL-2.0-or-later */
/* socbox doctor's views beyond the report table. */
#ifndef SOCBOX_CMD_DOCTOR_H
#define SOCBOX_CMD_DOCTOR_H

#include "socbox/cli.h"
#include "socbox/doctor.h"

/* --format ktap: a suite per subsystem (and "devices" for the causes of a device's own),
 * each with its status and one test per cause of the catalogue, so a lab sees the same
 * test names on every board. require: the --require list, NULL when none. */
int doctor_print_ktap(const struct sb_ctx *c, const struct sb_doctor_report *rep,
		      const struct sb_doctor_opts *opts, const char *require);

#endif
