// SPDX-License-Identifier: GPL-2.0-or-later
/* What a device the firmware describes is for: the subsystem a missing or waiting device
 * breaks, and the driver it needs. Exact compatibles of the SoCs socbox is used on first,
 * then parts of compatibles and device-tree node names ("5000000.m4fss", "29000000.mailbox"). */
#include <string.h>

#include "doctor_probe.h"
#include "socbox/macro.h"

static const struct doctor_role roles[] = {
	/* remote processors */
	{ "ti,am64-m4fss", SB_DOCTOR_RPMSG, "M4F remote processor", "CONFIG_TI_K3_M4_REMOTEPROC",
	  "ti_k3_m4_remoteproc" },
	{ "ti,am62-r5fss", SB_DOCTOR_RPMSG, "R5F remote processor", "CONFIG_TI_K3_R5_REMOTEPROC",
	  "ti_k3_r5_remoteproc" },
	{ "ti,am64-r5fss", SB_DOCTOR_RPMSG, "R5F remote processor", "CONFIG_TI_K3_R5_REMOTEPROC",
	  "ti_k3_r5_remoteproc" },
	{ "ti,am625-pru", SB_DOCTOR_RPMSG, "PRU remote processor", "CONFIG_PRU_REMOTEPROC",
	  "pru_rproc" },
	{ "fsl,imx8mp-cm7", SB_DOCTOR_RPMSG, "Cortex-M7 remote processor", "CONFIG_IMX_REMOTEPROC",
	  "imx_rproc" },
	{ "fsl,imx8mq-cm4", SB_DOCTOR_RPMSG, "Cortex-M4 remote processor", "CONFIG_IMX_REMOTEPROC",
	  "imx_rproc" },
	{ "fsl,imx8mm-cm4", SB_DOCTOR_RPMSG, "Cortex-M4 remote processor", "CONFIG_IMX_REMOTEPROC",
	  "imx_rproc" },
	{ "fsl,imx93-cm33", SB_DOCTOR_RPMSG, "Cortex-M33 remote processor", "CONFIG_IMX_REMOTEPROC",
	  "imx_rproc" },
	{ "fsl,imx8mp-hifi4", SB_DOCTOR_RPMSG, "HiFi4 DSP", "CONFIG_IMX_DSP_REMOTEPROC",
	  "imx_dsp_rproc" },
	{ "st,stm32mp1-m4", SB_DOCTOR_RPMSG, "Cortex-M4 remote processor", "CONFIG_STM32_RPROC",
	  "stm32_rproc" },
	/* the mailboxes that carry their interrupts */
	{ "ti,am64-mailbox", SB_DOCTOR_RPMSG, "mailbox", "CONFIG_OMAP2PLUS_MBOX", "omap-mailbox" },
	{ "ti,am654-mailbox", SB_DOCTOR_RPMSG, "mailbox", "CONFIG_OMAP2PLUS_MBOX", "omap-mailbox" },
	{ "fsl,imx8mp-mu", SB_DOCTOR_RPMSG, "messaging unit (mailbox)", "CONFIG_IMX_MBOX",
	  "imx-mailbox" },
	{ "fsl,imx6sx-mu", SB_DOCTOR_RPMSG, "messaging unit (mailbox)", "CONFIG_IMX_MBOX",
	  "imx-mailbox" },
	{ "st,stm32mp1-ipcc", SB_DOCTOR_RPMSG, "IPCC mailbox", "CONFIG_STM32_IPCC", "stm32-ipcc" },
	/* IOMMUs */
	{ "arm,smmu-v3", SB_DOCTOR_IOMMU, "SMMUv3", "CONFIG_ARM_SMMU_V3", "arm_smmu_v3" },
	{ "arm,mmu-500", SB_DOCTOR_IOMMU, "SMMU (MMU-500)", "CONFIG_ARM_SMMU", "arm_smmu" },
	{ "arm,smmu-v2", SB_DOCTOR_IOMMU, "SMMUv2", "CONFIG_ARM_SMMU", "arm_smmu" },
	/* network controllers */
	{ "ti,am642-cpsw-nuss", SB_DOCTOR_NETDEV, "Ethernet switch (CPSW)",
	  "CONFIG_TI_K3_AM65_CPSW_NUSS", "ti-am65-cpsw-nuss" },
	{ "fsl,imx8mp-fec", SB_DOCTOR_NETDEV, "Ethernet controller (FEC)", "CONFIG_FEC", "fec" },
	{ "nxp,imx8mp-dwmac-eqos", SB_DOCTOR_NETDEV, "Ethernet controller (EQoS)",
	  "CONFIG_DWMAC_IMX8", "dwmac-imx" },
	{ "st,stm32mp1-dwmac", SB_DOCTOR_NETDEV, "Ethernet controller", "CONFIG_DWMAC_STM32",
	  "dwmac-stm32" },
	/* by a part of the compatible or the node name */
	{ "*m4fss", SB_DOCTOR_RPMSG, "remote processor", NULL, NULL },
	{ "*r5f", SB_DOCTOR_RPMSG, "remote processor", NULL, NULL },
	{ "*rproc", SB_DOCTOR_RPMSG, "remote processor", NULL, NULL },
	{ "*remoteproc", SB_DOCTOR_RPMSG, "remote processor", NULL, NULL },
	{ "*-cm7", SB_DOCTOR_RPMSG, "remote processor", NULL, NULL },
	{ "*-cm4", SB_DOCTOR_RPMSG, "remote processor", NULL, NULL },
	{ "*-cm33", SB_DOCTOR_RPMSG, "remote processor", NULL, NULL },
	{ "*-m4", SB_DOCTOR_RPMSG, "remote processor", NULL, NULL },
	{ "*:m4@", SB_DOCTOR_RPMSG, "remote processor", NULL, NULL },
	{ "*dsp", SB_DOCTOR_RPMSG, "DSP", NULL, NULL },
	{ "*mailbox", SB_DOCTOR_RPMSG, "mailbox", NULL, NULL },
	{ "*ipcc", SB_DOCTOR_RPMSG, "mailbox", NULL, NULL },
	{ "*smmu", SB_DOCTOR_IOMMU, "IOMMU", NULL, NULL },
	{ "*iommu", SB_DOCTOR_IOMMU, "IOMMU", NULL, NULL },
	{ "*ethernet", SB_DOCTOR_NETDEV, "Ethernet controller", NULL, NULL },
	{ "*dwmac", SB_DOCTOR_NETDEV, "Ethernet controller", NULL, NULL },
	{ "*cpsw", SB_DOCTOR_NETDEV, "Ethernet controller", NULL, NULL },
	{ "*-fec", SB_DOCTOR_NETDEV, "Ethernet controller", NULL, NULL },
	{ "*dma-heap", SB_DOCTOR_DMABUF, "dma-heap", NULL, NULL },
};

const struct doctor_role *doctor_role_of(const char *compatible, const char *name)
{
	const size_t n = ARRAY_SIZE(roles);

	for (size_t i = 0; compatible && compatible[0] && i < n; i++)
		if (!strcmp(roles[i].match, compatible))
			return &roles[i];
	for (size_t i = 0; i < n; i++) {
		const char *part = roles[i].match + 1;

		if (roles[i].match[0] != '*')
			continue;
		if ((compatible && strstr(compatible, part)) || (name && strstr(name, part)))
			return &roles[i];
	}
	return NULL;
}
