/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* x509name.h - X.509 Names compared as OpenSSL compares them (X509_NAME_cmp over the canonical encoding) */
#ifndef SBAT_SIG_X509NAME_H
#define SBAT_SIG_X509NAME_H

#include <stddef.h>
#include <stdint.h>

/*
 * 1 when the DER Names a[0..a_len) and b[0..b_len) (tag and length
 * included) are one name to OpenSSL: the same RDNs in the same order, each
 * the same set of attributes, whose string values (UTF8String, BMPString,
 * UniversalString, PrintableString, T61String, IA5String, VisibleString)
 * are compared as UTF-8 with ASCII letters lower-cased, leading and
 * trailing whitespace dropped and inner runs of it made one space, and
 * other values byte for byte with their tag. 0 otherwise, and for a Name
 * that does not read unless the bytes are the same.
 */
int x509name_equal(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len);

#endif
