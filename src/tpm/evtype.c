/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* evtype.c - the names of the event types of the TCG PC Client Platform Firmware Profile (10.4.1) */
#include <stddef.h>

#include "sbat/eventlog.h"

SBAT_API const char *
sbat_eventlog_type_name(uint32_t type)
{
	static const char *const base[] = {
		"EV_PREBOOT_CERT",
		"EV_POST_CODE",
		"EV_UNUSED",
		"EV_NO_ACTION",
		"EV_SEPARATOR",
		"EV_ACTION",
		"EV_EVENT_TAG",
		"EV_S_CRTM_CONTENTS",
		"EV_S_CRTM_VERSION",
		"EV_CPU_MICROCODE",
		"EV_PLATFORM_CONFIG_FLAGS",
		"EV_TABLE_OF_DEVICES",
		"EV_COMPACT_HASH",
		"EV_IPL",
		"EV_IPL_PARTITION_DATA",
		"EV_NONHOST_CODE",
		"EV_NONHOST_CONFIG",
		"EV_NONHOST_INFO",
		"EV_OMIT_BOOT_DEVICE_EVENTS",
		"EV_POST_CODE2",
	};
	static const char *const efi[] = {
		"EV_EFI_EVENT_BASE",
		"EV_EFI_VARIABLE_DRIVER_CONFIG",
		"EV_EFI_VARIABLE_BOOT",
		"EV_EFI_BOOT_SERVICES_APPLICATION",
		"EV_EFI_BOOT_SERVICES_DRIVER",
		"EV_EFI_RUNTIME_SERVICES_DRIVER",
		"EV_EFI_GPT_EVENT",
		"EV_EFI_ACTION",
		"EV_EFI_PLATFORM_FIRMWARE_BLOB",
		"EV_EFI_HANDOFF_TABLES",
		"EV_EFI_PLATFORM_FIRMWARE_BLOB2",
		"EV_EFI_HANDOFF_TABLES2",
		"EV_EFI_VARIABLE_BOOT2",
	};
	static const char *const authority[] = {
		"EV_EFI_VARIABLE_AUTHORITY", "EV_EFI_SPDM_FIRMWARE_BLOB",    "EV_EFI_SPDM_FIRMWARE_CONFIG",
		"EV_EFI_SPDM_DEVICE_POLICY", "EV_EFI_SPDM_DEVICE_AUTHORITY",
	};

	if (type < sizeof(base) / sizeof(base[0]))
		return base[type];
	if (type >= 0x80000000u && type - 0x80000000u < sizeof(efi) / sizeof(efi[0]))
		return efi[type - 0x80000000u];
	if (type == 0x80000010u)
		return "EV_EFI_HCRTM_EVENT";
	if (type >= 0x800000e0u && type - 0x800000e0u < sizeof(authority) / sizeof(authority[0]))
		return authority[type - 0x800000e0u];
	return NULL;
}
