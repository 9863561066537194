/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel modules. The state query reads files only (sysfs and /lib/modules of the root), so
 * it works on sysroot snapshots; loading uses libkmod, dlopen()ed on first use because it
 * pulls in libcrypto, libzstd and liblzma and would triple start-up time if linked. */
#ifndef SOCBOX_KMOD_H
#define SOCBOX_KMOD_H

#include <stdbool.h>
#include <stddef.h>

#include "socbox/error.h"
#include "socbox/sys.h"

enum sb_mod_state {
	SB_MOD_UNKNOWN,	  /* could not tell (no modules.* files) */
	SB_MOD_LOADED,	  /* /sys/module/NAME with initstate "live" */
	SB_MOD_BUILTIN,	  /* listed in modules.builtin, or in sysfs without initstate */
	SB_MOD_AVAILABLE, /* found in modules.dep, not loaded */
	SB_MOD_MISSING,	  /* not built for this kernel at all */
};

/* name may use '-' or '_'. */
int sb_kmod_state(const struct sb_root *r, const char *name, enum sb_mod_state *st);
const char *sb_kmod_state_name(enum sb_mod_state st);
/* True when the module's code is in the running kernel (loaded or built in). */
static inline int sb_kmod_present(enum sb_mod_state st)
{
	return st == SB_MOD_LOADED || st == SB_MOD_BUILTIN;
}
/* The one hint for a module whose code is not in the kernel, into buf: "module M is not
 * loaded[, so EFFECT]: modprobe M", "... is not built for this kernel...: enable CONFIG",
 * "... not loaded and no module list found...: enable CONFIG (=m or =y)". Returns false
 * (buf empty) when the module is loaded or built in. effect may be NULL. */
bool sb_kmod_hint(char *buf, size_t len, enum sb_mod_state st, const char *module,
		  const char *config, const char *effect);
/* Load a module and its dependencies (live system only). -ENOTSUP with exit code 3 when
 * socbox was built without libkmod or libkmod cannot be loaded. */
int sb_kmod_load(const char *name, struct sb_err *e);

#endif
