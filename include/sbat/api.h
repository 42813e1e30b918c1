/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* api.h - which declarations the library exports */
#ifndef SBAT_API_H
#define SBAT_API_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The shared library is built with -fvisibility=hidden: only declarations
 * marked SBAT_API are exported, and every one of them starts with sbat_.
 */
#if defined(SBAT_BUILDING_LIBRARY) && defined(__GNUC__)
#define SBAT_API __attribute__((visibility("default")))
#else
#define SBAT_API
#endif

#ifdef __cplusplus
}
#endif

#endif
