// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/config.h"
#include "socbox/kmod.h"

static void normalize(char *dst, size_t len, const char *name)
{
	size_t i;
	for (i = 0; name[i] && i + 1 < len; i++)
		dst[i] = name[i] == '-' ? '_' : name[i];
	dst[i] = '\0';
}

/* Does a modules.* list mention NAME.ko (any directory, any compression suffix)? */
static int list_has(const char *text, const char *name)
{
	size_t nlen = strlen(name);

	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		const char *colon = memchr(line, ':', end ? (size_t)(end - line) : strlen(line));
		const char *stop = colon ? colon : end ? end : line + strlen(line);
		const char *base = line;

		for (const char *p = line; p < stop; p++)
			if (*p == '/')
				base = p + 1;
		if ((size_t)(stop - base) > nlen + 2) {
			bool same = true;
			for (size_t i = 0; i < nlen; i++) {
				char a = base[i] == '-' ? '_' : base[i];
				if (a != name[i]) {
					same = false;
					break;
				}
			}
			if (same && !strncmp(base + nlen, ".ko", 3))
				return 1;
		}
		line = end ? end + 1 : NULL;
	}
	return 0;
}

static int in_modules_file(const struct sb_root *r, const char *release, const char *file,
			   const char *name)
{
	const char *text;
	ssize_t n = sb_read_file_once(r, &text, SB_READ_LOG_MAX, "/lib/modules/%s/%s", release,
				      file);

	if (n < 0)
		return (int)n;
	/* Empty says nothing: a kernel linked with LD_DEAD_CODE_DATA_ELIMINATION (tinyconfig on
	 * 32-bit Arm) drops .modinfo, so its modules.builtin is empty whatever is built in. */
	if (n == 0)
		return -ENODATA;
	return list_has(text, name);
}

int sb_kmod_state(const struct sb_root *r, const char *module, enum sb_mod_state *st)
{
	char name[64], state[32], release[128];
	int rc, builtin;

	normalize(name, sizeof(name), module);
	*st = SB_MOD_UNKNOWN;
	rc = sb_attr_str(r, state, sizeof(state), "/sys/module/%s/initstate", name);
	if (rc >= 0) {
		*st = strcmp(state, "live") == 0 ? SB_MOD_LOADED : SB_MOD_AVAILABLE;
		return 0;
	}
	if (sb_is_dir(r, "/sys/module/%s", name)) {
		/* built-in modules appear in sysfs (parameters, version) without initstate */
		*st = SB_MOD_BUILTIN;
		return 0;
	}
	if (sb_kernel_release(r, release, sizeof(release)) < 0)
		return 0;
	builtin = in_modules_file(r, release, "modules.builtin", name);
	if (builtin > 0) {
		*st = SB_MOD_BUILTIN;
		return 0;
	}
	rc = in_modules_file(r, release, "modules.dep", name);
	if (rc > 0)
		*st = SB_MOD_AVAILABLE;
	else if (rc == 0 && builtin == 0) /* missing only when both lists say so */
		*st = SB_MOD_MISSING;
	return 0;
}

const char *sb_kmod_state_name(enum sb_mod_state st)
{
	switch (st) {
	case SB_MOD_LOADED:
		return "loaded";
	case SB_MOD_BUILTIN:
		return "built-in";
	case SB_MOD_AVAILABLE:
		return "available";
	case SB_MOD_MISSING:
		return "missing";
	default:
		return "unknown";
	}
}

#if SOCBOX_WITH_KMOD
#include <libkmod.h>

/* The few libkmod entry points socbox needs, resolved at run time. */
struct kmod_api {
	struct kmod_ctx *(*new)(const char *, const char *const *);
	struct kmod_ctx *(*unref)(struct kmod_ctx *);
	int (*new_from_lookup)(struct kmod_ctx *, const char *, struct kmod_list **);
	struct kmod_module *(*get_module)(const struct kmod_list *);
	struct kmod_list *(*list_next)(const struct kmod_list *, const struct kmod_list *);
	int (*probe)(struct kmod_module *, unsigned, const char *,
		     int (*)(struct kmod_module *, const char *, void *), const void *,
		     void (*)(struct kmod_module *, bool, void *));
	struct kmod_module *(*mod_unref)(struct kmod_module *);
	int (*list_unref)(struct kmod_list *);
};

static int kmod_api_load(struct kmod_api *api, struct sb_err *e)
{
	void *h = dlopen("libkmod.so.2", RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return sb_err_set(e, EOPNOTSUPP, "libkmod.so.2", "load", "install package libkmod2");
#define SYM(field, name) \
	do { \
		*(void **)&api->field = dlsym(h, name); \
		if (!api->field) \
			return sb_err_set(e, EOPNOTSUPP, "libkmod.so.2", "find " name, NULL); \
	} while (0)
	SYM(new, "kmod_new");
	SYM(unref, "kmod_unref");
	SYM(new_from_lookup, "kmod_module_new_from_lookup");
	SYM(get_module, "kmod_module_get_module");
	SYM(list_next, "kmod_list_next");
	SYM(probe, "kmod_module_probe_insert_module");
	SYM(mod_unref, "kmod_module_unref");
	SYM(list_unref, "kmod_module_unref_list");
#undef SYM
	return 0;
}

int sb_kmod_load(const char *name, struct sb_err *e)
{
	struct kmod_list *list = NULL, *it;
	struct kmod_api api = { 0 };
	struct kmod_ctx *ctx;
	int rc;

	rc = kmod_api_load(&api, e);
	if (rc)
		return rc;
	ctx = api.new(NULL, NULL);
	if (!ctx)
		return sb_err_set(e, ENOMEM, name, "load module", NULL);
	rc = api.new_from_lookup(ctx, name, &list);
	if (rc < 0 || !list) {
		api.unref(ctx);
		return sb_err_set(
			e, ENOENT, name, "load module",
			"no such module for this kernel; build it (CONFIG option) or install the modules package");
	}
	for (it = list; it; it = api.list_next(list, it)) {
		struct kmod_module *m = api.get_module(it);
		rc = api.probe(m, 0, NULL, NULL, NULL, NULL);
		api.mod_unref(m);
		if (rc < 0) {
			sb_err_set(e, -rc, name, "load module",
				   rc == -EPERM ? "needs root (CAP_SYS_MODULE)" : NULL);
			break;
		}
	}
	api.list_unref(list);
	api.unref(ctx);
	/* an empty lookup returned above, so the loop ran: rc is the last probe's */
	return rc < 0 ? rc : 0;
}
#else
int sb_kmod_load(const char *name, struct sb_err *e)
{
	sb_err_set(e, EOPNOTSUPP, name, "load module",
		   "socbox was built without libkmod (%s); use modprobe",
		   SOCBOX_STATIC ? "a static build" : "SOCBOX_WITH_KMOD=OFF");
	sb_err_reason(e, "not built in");
	sb_err_exit(e, SB_EXIT_UNSUPPORTED);
	return -EOPNOTSUPP;
}
#endif

bool sb_kmod_hint(char *buf, size_t len, enum sb_mod_state st, const char *module,
		  const char *config, const char *effect)
{
	const char *so = effect ? ", so " : "", *eff = effect ? effect : "";

	if (st == SB_MOD_AVAILABLE)
		snprintf(buf, len, "module %s is not loaded%s%s: modprobe %s", module, so, eff,
			 module);
	else if (st == SB_MOD_MISSING)
		snprintf(buf, len, "module %s is not built for this kernel%s%s: enable %s", module,
			 so, eff, config);
	else if (st == SB_MOD_UNKNOWN)
		snprintf(buf, len,
			 "module %s not loaded and no module list found%s%s: enable %s (=m or =y)",
			 module, so, eff, config);
	else if (len)
		buf[0] = '\0';
	return !sb_kmod_present(st);
}
