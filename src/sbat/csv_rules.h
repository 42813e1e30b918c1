/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* csv_rules.h - the one table of SBAT CSV rules: what each says, and whether shim itself enforces it */
#ifndef SBAT_SBAT_CSV_RULES_H
#define SBAT_SBAT_CSV_RULES_H

/*
 * Every rule the strict parser (sbat_csv_parse) applies. The rules shim
 * enforces are the ones sbat_csv_parse_shim applies, and so the ones that
 * decide whether shim refuses an image (lint's sbat-unparsable, the
 * invalid-sbat verdict of --check-level); the others only warn.
 */
typedef enum sbat_csv_rule_id {
	CSV_RULE_FIELDS,       /* shim: a row has at least 6 fields */
	CSV_RULE_EMPTY_FIELD,  /* shim: none of the 6 fields it keeps is empty */
	CSV_RULE_EMPTY_LINE,   /* shim skips blank lines */
	CSV_RULE_BYTES,        /* printable ASCII, LF or CRLF line ends, no BOM (text.c says which byte) */
	CSV_RULE_SPACE,        /* no blank at either end of a field */
	CSV_RULE_GENERATION,   /* decimal 1..65535 (text.c says why not); shim reads any text as a number */
	CSV_RULE_HEADER,       /* the first row is sbat,1 */
	CSV_RULE_HEADER_TWICE, /* no second sbat row */
	CSV_RULE_DUPLICATE,    /* no component twice */
	CSV_RULE__COUNT
} sbat_csv_rule_id;

typedef struct sbat_csv_rule {
	const char *id;   /* a short stable name */
	const char *what; /* the diagnostic's text; NULL where text.c words it */
	int shim;         /* 1 when shim's own parser refuses a .sbat breaking it */
} sbat_csv_rule;

extern const sbat_csv_rule csv_rules[CSV_RULE__COUNT];

#endif
