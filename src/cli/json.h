/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* json.h - the JSON writers the command's reports share: strings escaped, hex */
#ifndef SBAT_CLI_JSON_H
#define SBAT_CLI_JSON_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

/* s[0..n) as a JSON string: valid UTF-8 as it is, control characters escaped, invalid bytes as \ufffd. */
void cli_json_string(FILE *out, const char *s, size_t n);
void cli_json_cstr(FILE *out, const char *s);

/* s as cli_json_cstr does, or null when s is NULL. */
void cli_json_cstr_or_null(FILE *out, const char *s);

/* p[0..n) as lower-case hex digits; cli_json_hex the same as a JSON string. */
void cli_hex(FILE *out, const uint8_t *p, size_t n);
void cli_json_hex(FILE *out, const uint8_t *p, size_t n);

#endif
