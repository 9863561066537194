// SPDX-License-Identifier: GPL-2.0-or-later
/* The architecture and the firmware description of a root (socbox/platform.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "socbox/limits.h"
#include "socbox/platform.h"
#include "socbox/macro.h"

const char *sb_arch_name(enum sb_arch a)
{
	static const char *const names[] = {
		[SB_ARCH_UNKNOWN] = "unknown", [SB_ARCH_ARM64] = "arm64", [SB_ARCH_ARM] = "arm",
		[SB_ARCH_X86_64] = "x86_64",   [SB_ARCH_X86] = "x86",	  [SB_ARCH_RISCV] = "riscv",
		[SB_ARCH_OTHER] = "other",
	};
	return (unsigned)a < ARRAY_SIZE(names) ? names[a] : "unknown";
}

const char *sb_fwdesc_name(enum sb_fwdesc f)
{
	return f == SB_FW_DT ? "devicetree" : f == SB_FW_ACPI ? "acpi" : "unknown";
}

bool sb_arch_is_arm(enum sb_arch a)
{
	return a == SB_ARCH_ARM64 || a == SB_ARCH_ARM;
}

bool sb_arch_is_x86(enum sb_arch a)
{
	return a == SB_ARCH_X86_64 || a == SB_ARCH_X86;
}

/* Words that name an architecture in uname's machine, a compiler triple or a Debian
 * release ("6.1.0-28-amd64", "6.12.0-armmp"), most specific first. */
static const struct {
	const char *word;
	enum sb_arch arch;
} arch_words[] = {
	{ "aarch64", SB_ARCH_ARM64 }, { "arm64", SB_ARCH_ARM64 }, { "x86_64", SB_ARCH_X86_64 },
	{ "amd64", SB_ARCH_X86_64 },  { "armmp", SB_ARCH_ARM },	  { "armv7", SB_ARCH_ARM },
	{ "armv6", SB_ARCH_ARM },     { "armhf", SB_ARCH_ARM },	  { "gnueabi", SB_ARCH_ARM },
	{ "arm-", SB_ARCH_ARM },      { "riscv", SB_ARCH_RISCV }, { "i686", SB_ARCH_X86 },
	{ "i386", SB_ARCH_X86 },      { "i586", SB_ARCH_X86 },
};

enum sb_arch sb_arch_from_text(const char *text)
{
	/* the earliest word in the text decides: the compiler triple comes before the date */
	const char *best = NULL;
	enum sb_arch arch = SB_ARCH_UNKNOWN;

	for (size_t i = 0; text && i < ARRAY_SIZE(arch_words); i++) {
		const char *at = strstr(text, arch_words[i].word);

		if (at && (!best || at < best)) {
			best = at;
			arch = arch_words[i].arch;
		}
	}
	if (arch == SB_ARCH_UNKNOWN && text && !strcmp(text, "arm"))
		arch = SB_ARCH_ARM;
	return arch;
}

static enum sb_arch root_arch(const struct sb_root *r)
{
	char buf[64];
	char *version = NULL;
	enum sb_arch a;

	if (sb_root_is_live(r)) {
		struct utsname u;

		if (uname(&u) == 0 && (a = sb_arch_from_text(u.machine)) != SB_ARCH_UNKNOWN)
			return a;
		return SB_ARCH_OTHER;
	}
	if (sb_attr_str(r, buf, sizeof(buf), "/proc/sys/kernel/arch") > 0 &&
	    (a = sb_arch_from_text(buf)) != SB_ARCH_UNKNOWN)
		return a;
	if (sb_read_file(r, &version, SB_READ_ATTR_MAX, "/proc/version") < 0)
		return SB_ARCH_UNKNOWN;
	/* the release and the compiler, not the builder's user and host names */
	a = sb_arch_from_text(strchr(version, '(') ? strchr(version, '(') : version);
	if (a == SB_ARCH_UNKNOWN)
		a = sb_arch_from_text(version);
	free(version);
	return a;
}

/* The first string of a device tree property (a list of NUL-separated strings). */
static void dt_first_string(const struct sb_root *r, const char *prop, char *out, size_t len)
{
	char *buf = NULL;

	out[0] = '\0';
	if (sb_read_file(r, &buf, SB_READ_ATTR_MAX, "/sys/firmware/devicetree/base/%s", prop) > 0)
		snprintf(out, len, "%s", buf);
	free(buf);
}

void sb_platform_read(const struct sb_root *r, struct sb_platform *p)
{
	memset(p, 0, sizeof(*p));
	p->arch = root_arch(r);
	p->acpi_iort = sb_exists(r, "/sys/firmware/acpi/tables/IORT");
	p->acpi_dmar = sb_exists(r, "/sys/firmware/acpi/tables/DMAR");
	p->acpi_ivrs = sb_exists(r, "/sys/firmware/acpi/tables/IVRS");
	if (sb_is_dir(r, "/sys/firmware/devicetree/base")) {
		p->fw = SB_FW_DT;
		dt_first_string(r, "compatible", p->compatible, sizeof(p->compatible));
		dt_first_string(r, "model", p->model, sizeof(p->model));
	}
	/* an arm64 server booted with ACPI has no populated device tree; x86 is always ACPI */
	if (p->fw == SB_FW_UNKNOWN &&
	    (sb_is_dir(r, "/sys/firmware/acpi") || sb_arch_is_x86(p->arch)))
		p->fw = SB_FW_ACPI;
}
