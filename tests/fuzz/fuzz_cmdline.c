// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel command line: the parameters doctor and smmustat look up (quoted values,
 * bare words, repeats), the option lists inside them, and the IOMMU policy they set. */
#include "fuzz.h"
#include "socbox/cmdline.h"
#include "socbox/iommu.h"
#include "socbox/macro.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = {
		"iommu.strict", "iommu.passthrough",	      "iommu", "intel_iommu",
		"amd_iommu",	"arm-smmu-v3.disable_bypass", ""
	};
	char *text = fuzz_text(data, size), val[64], tiny[1], mode[16];

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		if (sb_cmdline_param(text, keys[i], val, sizeof(val))) {
			FUZZ_ASSERT(strlen(val) < sizeof(val));
			sb_cmdline_has_option(val, "strict");
			sb_cmdline_has_option(val, "");
		}
		if (sb_cmdline_param(text, keys[i], tiny, sizeof(tiny)))
			FUZZ_ASSERT(tiny[0] == '\0');
	}
	sb_cmdline_has_option(text, "fullflush");
	if (sb_iommu_cmdline_policy(text, mode, sizeof(mode)))
		FUZZ_ASSERT(!strcmp(mode, "strict") || !strcmp(mode, "lazy") ||
			    !strcmp(mode, "passthrough"));
	free(text);
	return 0;
}
