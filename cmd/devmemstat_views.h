/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stat views of devmemstat (cmd/devmemstat_views.c, cmd/devmemstat_bindings.c). */
#ifndef SOCBOX_CMD_DEVMEMSTAT_VIEWS_H
#define SOCBOX_CMD_DEVMEMSTAT_VIEWS_H

#include "devmemstat.h"

/* The page-pool table (primary: honours -o). */
struct sb_table *dm_add_pools_table(struct sb_out *o, const struct sb_nd_state *st, bool primary);
extern const struct sb_col dm_pool_cols[];
extern const size_t dm_npool_cols;

int dm_queues(struct sb_ctx *c, int argc, const char **argv);
int dm_napi(struct sb_ctx *c, int argc, const char **argv);
int dm_pools(struct sb_ctx *c, int argc, const char **argv);
int dm_qstats(struct sb_ctx *c, int argc, const char **argv);
int dm_bindings(struct sb_ctx *c, int argc, const char **argv);

#endif
