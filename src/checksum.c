/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* checksum.c - the PE optional header CheckSum */
#include "sbat/pe.h"

/*
 * Sum of little-endian 16-bit words with end-around carry, the 4-byte
 * CheckSum field counted as zero, an odd final byte zero-extended (as
 * sbsign does), plus the file length. Firmware ignores the value; signing
 * tools and Windows-style verifiers recompute it the same way.
 */
uint32_t
sbat_pe_checksum(const uint8_t *buf, size_t len, uint64_t checksum_offset)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < len; i += 2) {
		uint32_t word = buf[i];

		if (i + 1 < len)
			word |= (uint32_t)buf[i + 1] << 8;
		/* the field is 4-byte aligned in practice, but mask per byte to be exact */
		if (i >= checksum_offset && i < checksum_offset + 4)
			word &= 0xff00u;
		if (i + 1 >= checksum_offset && i + 1 < checksum_offset + 4)
			word &= 0x00ffu;
		sum += word;
		sum = (sum & 0xffffu) + (sum >> 16);
	}
	sum = (sum & 0xffffu) + (sum >> 16);
	return (uint32_t)(sum + (uint64_t)len);
}
