/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SOCBOX_CMD_BUILTINS_H
#define SOCBOX_CMD_BUILTINS_H
int doctor_main(int argc, const char **argv);
int snapshot_main(int argc, const char **argv);
#endif
