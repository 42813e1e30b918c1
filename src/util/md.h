/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* md.h - the framing SHA-1 and SHA-256 share (FIPS 180-4 5.1.1, 6.1.2, 6.2.2):
 * 64-byte blocks, a partial one kept between calls, then 0x80, zeros and
 * the message length in bits, big-endian; the state words out big-endian */
#ifndef SBAT_UTIL_MD_H
#define SBAT_UTIL_MD_H

#include <stddef.h>
#include <stdint.h>

#define MD_BLOCK_SIZE 64

/* Compress n whole blocks at p into the state h. */
typedef void md_blocks_fn(uint32_t *h, const uint8_t *p, size_t n);

/* Feed len bytes: whole blocks straight from p, the rest kept in buf (*fill bytes). */
void md_update(uint32_t *h, uint8_t buf[MD_BLOCK_SIZE], size_t *fill, const uint8_t *p, size_t len,
               md_blocks_fn *blocks);

/* Pad the message of `bytes` bytes (buf holds its last fill) and write the n_words state words to out. */
void md_final(uint32_t *h, uint8_t buf[MD_BLOCK_SIZE], size_t fill, uint64_t bytes, md_blocks_fn *blocks,
              size_t n_words, uint8_t *out);

#endif
