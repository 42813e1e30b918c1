/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* x509.h - what an X.509 certificate says about itself: names, serial, key identifiers */
#ifndef SBAT_SIG_X509_H
#define SBAT_SIG_X509_H

#include <stddef.h>

#include "sbat/authenticode.h"

#include "sig/der.h"

/* Fill *c from the Certificate `cert` (a SEQUENCE read from the image). */
sbat_err x509_read(const der *cert, sbat_authenticode_cert *c, sbat_diag *d);

/* The Name `name` as "CN=..., O=..., OU=..., C=..." (those attributes, in order) in out[0..size). */
sbat_err x509_name(const der *name, char *out, size_t size, sbat_diag *d);

#endif
