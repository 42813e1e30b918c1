/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* luksjson.h - a bounded JSON reader (RFC 8259) for the LUKS2 JSON area: one array of nodes, no recursion */
#ifndef SBAT_LUKS_LUKSJSON_H
#define SBAT_LUKS_LUKSJSON_H

#include <stddef.h>
#include <stdint.h>

#include "sbat/error.h"

typedef enum luksjson_type {
	LUKSJSON_OBJECT = 1,
	LUKSJSON_ARRAY,
	LUKSJSON_STRING,
	LUKSJSON_NUMBER,
	LUKSJSON_TRUE,
	LUKSJSON_FALSE,
	LUKSJSON_NULL,
} luksjson_type;

/*
 * A value. An object's children are its members, key (a string) then value,
 * in the text's order; an array's its elements. Children follow their parent
 * in the array; `end` is the index past a node's last descendant, so the next
 * sibling of node i is node end.
 */
typedef struct luksjson_node {
	uint8_t type;
	size_t off;        /* of its first byte in the text (a string's: its opening quote) */
	size_t len;        /* a string's bytes between its quotes (escapes undecoded), a number's text */
	size_t n_children; /* an object's: twice its members */
	size_t end;
} luksjson_node;

typedef struct luksjson {
	const char *text;
	luksjson_node *nodes;
	size_t n_nodes;
} luksjson;

/*
 * Parse text[0..len): one value, then white space, then nothing but NUL
 * bytes (at least one: the LUKS2 JSON area ends in NUL). On failure
 * SBAT_E_LUKS (or SBAT_E_NOMEM), the diagnostic's offset base + the byte
 * where the check fired. The nodes point into text, which must outlive them.
 */
sbat_err luksjson_parse(const char *text, size_t len, uint64_t base, luksjson *ret, sbat_diag *d);

void luksjson_free(luksjson *j);

/* The value of object node obj's member key (the last, as json-c keeps it), or 0 (no node 0 is a member). */
size_t luksjson_get(const luksjson *j, size_t obj, const char *key);

/* 1 if node i is a string whose decoded bytes are s. */
int luksjson_str_is(const luksjson *j, size_t i, const char *s);

/* Decode string node i into out[0..size) with a NUL; 1, or 0 when it does not fit (or holds a NUL). */
int luksjson_str(const luksjson *j, size_t i, char *out, size_t size);

/* 1 and *ret for a number node that is a non-negative integer up to UINT32_MAX, else 0. */
int luksjson_uint(const luksjson *j, size_t i, uint32_t *ret);

#endif
