/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* lint_internal.h - what the loader rules (lint.c) and the profiles (lint_*.c) share: the linter and the rule table */
#ifndef SBAT_SBAT_LINT_INTERNAL_H
#define SBAT_SBAT_LINT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/lint.h"

#include "pe/model.h"

/* One lint run: the image, where findings go, what was found so far. */
typedef struct linter {
	const sbat_pe *pe;
	const uint8_t *buf;
	size_t len;
	sbat_lint_fn fn;          /* sbat_lint's callback, or NULL */
	sbat_lint_subject_fn sfn; /* sbat_lint_profiles' callback, or NULL */
	void *ctx;
	sbat_lint_counts counts;
	int stopped;
} linter;

/* The profile rules, in the order of the table in lint_rules.c (and of the manual). */
typedef enum lint_rule_id {
	RULE_REVIEW_SBAT_MISSING,
	RULE_REVIEW_HEADER,
	RULE_REVIEW_DUPLICATE,
	RULE_REVIEW_VENDOR_ROW,
	RULE_REVIEW_UPSTREAM_ROW,
	RULE_REVIEW_VENDOR_VERSION,
	RULE_REVIEW_URL,
	RULE_REVIEW_COMPONENT_NAME,
	RULE_REVIEW_SYSTEMD_SHARED,
	RULE_REVIEW_UKI_ROW,
	RULE_REVIEW_REVOKED,
	RULE_REVIEW_GENERATION_LOWER,
	RULE_REVIEW_GENERATION_JUMP,
	RULE_REVIEW_COMPONENT_GONE,
	RULE_REVIEW_GENERATION_SAME,
	RULE_UEFI_CA_SECTION_ALIGNMENT,
	RULE_UEFI_CA_VA_PAGE_ALIGNED,
	RULE_UEFI_CA_WRITE_EXECUTE,
	RULE_UEFI_CA_NX_COMPAT,
	RULE_UEFI_CA_HEADERS_EXECUTABLE,
	RULE_UEFI_CA_ENTRY_POINT,
	RULE_UEFI_CA_RELOCATIONS,
	RULE_UEFI_CA_RAW_PAGE_ALIGNED,
	RULE__COUNT
} lint_rule_id;

/* Hand finding f (and its subject, NULL for a loader rule) to the caller and count it. */
void lint_report(linter *l, const sbat_lint_finding *f, const sbat_lint_subject *subject);

/* A finding of profile rule id: severity, name and loaders from the table; subject may be NULL. */
void lint_rule_report(linter *l, lint_rule_id id, const char *what, int section, uint64_t offset,
                      const sbat_lint_subject *subject);

/* An empty subject of rule id (size and profile set). */
sbat_lint_subject lint_subject(lint_rule_id id);

/* The loader rules of sbat_lint, in image order. */
void lint_loader_rules(linter *l);

/* A linter over img with nothing found yet; the caller sets its callback. */
void lint_start(linter *l, const sbat_image *img, void *ctx);

/* The profiles' own rules. */
void lint_uefi_ca(linter *l);
void lint_shim_review(linter *l, const sbat_lint_opts *opts);

/* The page size the memory rules speak of: 4 KiB, whatever the architecture's own. */
#define LINT_PAGE_SIZE 4096u

#endif
