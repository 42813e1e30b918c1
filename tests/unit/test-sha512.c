/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-sha512.c - SHA-512 and SHA-384 against the FIPS 180-4 examples, lengths
 * around the 128-byte block and its 16-byte length field, a generated input,
 * and uneven pieces agreeing with one call. The digests past the FIPS examples
 * were made with `openssl dgst -sha384 -r` and `openssl dgst -sha512 -r`. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/sha512.h"

static void
digest(int is384, const void *data, size_t len, size_t piece, char out[2 * SHA512_DIGEST_SIZE + 1])
{
	const uint8_t *p = data;
	struct sha512_ctx ctx;
	uint8_t d[SHA512_DIGEST_SIZE];
	size_t done = 0, n, i, size = is384 ? SHA384_DIGEST_SIZE : SHA512_DIGEST_SIZE;

	if (is384)
		sha512_init_384(&ctx);
	else
		sha512_init(&ctx);
	while (done < len) {
		n = piece && piece < len - done ? piece : len - done;
		sha512_update(&ctx, p + done, n);
		done += n;
	}
	memset(d, 0xee, sizeof(d));
	sha512_final(&ctx, d);
	for (i = 0; i < size; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
	/* SHA-384 writes 48 bytes, no more */
	for (; i < SHA512_DIGEST_SIZE; i++)
		assert_int_equal(d[i], 0xee);
}

static void
check(const void *data, size_t len, const char *want384, const char *want512)
{
	static const size_t pieces[] = { 0, 1, 7, 111, 112, 127, 128, 129, 1000 };
	char h[2 * SHA512_DIGEST_SIZE + 1];
	size_t i;

	for (i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		digest(1, data, len, pieces[i], h);
		assert_string_equal(h, want384);
		digest(0, data, len, pieces[i], h);
		assert_string_equal(h, want512);
	}
}

/* FIPS 180-4's examples (NIST's SHA384.pdf and SHA512.pdf): one block, two blocks, and the empty message */
static void
vectors(void **state)
{
	(void)state;
	check("", 0, "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b",
	      "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f"
	      "63b931bd47417a81a538327af927da3e");
	check("abc", 3,
	      "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
	      "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd"
	      "454d4423643ce80e2a9ac94fa54ca49f");
	check("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
	      "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
	      112, "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039",
	      "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433a"
	      "c7d329eeb6dd26545e96e55b874be909");
}

/* 'a' repeated N times, N around the block and length-field boundaries, and a million */
static void
boundaries(void **state)
{
	static const struct {
		size_t n;
		const char *want384, *want512;
	} t[] = {
		{ 111,
		  "3c37955051cb5c3026f94d551d5b5e2ac38d572ae4e07172085fed81f8466b8f90dc23a8ffcdea0b8d8e58e8fdacc80a",
		  "fa9121c7b32b9e01733d034cfc78cbf67f926c7ed83e82200ef86818196921760b4beff48404df811b953828274461673c68d04e"
		  "297b0eb7b2b4d60fc6b566a2" },
		{ 112,
		  "187d4e07cb306103c69967bf544d0dfbe9042577599c73c330abc0cb64c61236d5ed565ee19119d8c31779a38f791fcd",
		  "c01d080efd492776a1c43bd23dd99d0a2e626d481e16782e75d54c2503b5dc32bd05f0f1ba33e568b88fd2d970929b719ecbb152"
		  "f58f130a407c8830604b70ca" },
		{ 113,
		  "1d6bed01626682961b50da078a6b1da707c1da0c8a0a3226f159235bd45ed724a0622fa6f39fd70007a6c72a5cda43ae",
		  "55ddd8ac210a6e18ba1ee055af84c966e0dbff091c43580ae1be703bdb85da31acf6948cf5bd90c55a20e5450f22fb89bd8d0085"
		  "e39f85a86cc46abbca75e24d" },
		{ 127,
		  "9bd06b1763c2cf7aef40e795dc65bc96d59c41b537f3ad72ebdefd485476b5717c1aeb37c327fe9c1831b12b9efd08ae",
		  "828613968b501dc00a97e08c73b118aa8876c26b8aac93df128502ab360f91bab50a51e088769a5c1eff4782ace147dce3642554"
		  "199876374291f5d921629502" },
		{ 128,
		  "edb12730a366098b3b2beac75a3bef1b0969b15c48e2163c23d96994f8d1bef760c7e27f3c464d3829f56c0d53808b0b",
		  "b73d1929aa615934e61a871596b3f3b33359f42b8175602e89f7e06e5f658a243667807ed300314b95cacdd579f3e33abdfbe351"
		  "909519a846d465c59582f321" },
		{ 129,
		  "39b6f5a7b0e781dbc419f72e49b30eaac10f2c98c4403bc610da31067fd1b48f324138c8615d2b496d08d73d5e865326",
		  "4f681e0bd53cda4b5a2041cc8a06f2eabde44fb16c951fbd5b87702f07aeab611565b19c47fde30587177ebb852e3971bbd8d3fd"
		  "30da18d71037dfbd98420429" },
		{ 239,
		  "e247c35f4bc1aa38026f8880c8c97305545d00d3f859e00c57d1c1f0a176b3c6b749c4eb081f08bd0fba500969cd056a",
		  "52c853cb8d907f3d4d6b889beb027985d7c273486d75f8baf26f80d24e90c74c6c3de3e22131582380a7d14d43f2941a31385439"
		  "cd6ddc469f628015e50bf286" },
		{ 240,
		  "4d86957beab348a29180f02d02564ac1d32f5b4c217ece2b038f7c184f0cafc8c8e438eb82aa03796170e0a7ce8c0675",
		  "4c296d90c61052a62ffb1dd196f1b7b09373b1f93e71836baebf89690546b7595684dbe9467a8e484fa0d1094272b4344a7c24f5"
		  "fee8daedeb0bf549c985ab5f" },
		{ 255,
		  "c4f7cca9698ddde4fb9947aebd9da1bda11e9413958d1a5d26f32fbec24bf34cb95f7c7eb84445cbaf84a63d3c705aa6",
		  "d8b5a659e365f704ab114ae7079a8da24fb9997b3052a4a63b37d654652bad6fbdd2b52d737e20a9d5ac3c5831d6afdd32ff737a"
		  "3dd95269d2793bc2aa850aab" },
		{ 256,
		  "ee89d91a5f594f72052c561e5c2458280439eaa77cc1352e27893931c6d9ce5d869fb8a024358c460adc1af9f4fe5b4a",
		  "6a9169eb662f136d87374070e8828b3e615a7eca32a89446e9225b02832709be095e635c824a2bb70213ba2ea0ababac08098278"
		  "43992c851903b7ac0c136699" },
		{ 257,
		  "2b18aee790b03d49f71d4c036bdc8dc3216660f29f92978768f7b7844a36986a400b98186a294af656dc54985dd77e87",
		  "17fa1d01865805f9e657c5f5088754d19913eb418577b03cd040b99e5e1354fd31d0d7f24b5474c62b49e3271860859510909685"
		  "c5811eba23b06e1e3369899d" },
	};
	char *a = malloc(1000000);
	size_t i;

	(void)state;
	assert_non_null(a);
	memset(a, 'a', 1000000);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		check(a, t[i].n, t[i].want384, t[i].want512);
	check(a, 1000000,
	      "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985",
	      "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31b"
	      "eb009c5c2c49aa2e4eadb217ad8cc09b");
	free(a);
}

/* 100003 bytes of (31 i^2 + 7 i + 3) mod 256: every byte value, no block-aligned length */
static void
generated(void **state)
{
	uint8_t *p = malloc(100003);
	size_t i;

	(void)state;
	assert_non_null(p);
	for (i = 0; i < 100003; i++)
		p[i] = (uint8_t)(i * i * 31 + i * 7 + 3);
	check(p, 100003,
	      "ed254c4e2424233ec9bcf138f072ccdf589c9af1c48c273a882360828e95c37ffed9ac06c29ca30116449f13ab6e4e1c",
	      "8ada7d3d73f583458106db25e7e624d18bf8192a39848d76e4ff61ceed9e7754b18b8e8a10ac1b19bc9df4bc28f9c222"
	      "69f6fc0c20d62e5e85d4a2300e7993e1");
	free(p);
}

/*
 * sha512_update2 (one schedule, two states) gives what two sha512_update
 * calls give: a SHA-384 and a SHA-512 of random data fed in random pieces,
 * and two states fed different bytes before (taken one after the other).
 */
static void
update2_agrees(void **state)
{
	uint8_t buf[1200], one[2][SHA512_DIGEST_SIZE], two[2][SHA512_DIGEST_SIZE];
	struct sha512_ctx a, b, c, d;
	unsigned seed = 384, round, i, at, n;

	(void)state;
	for (round = 0; round < 200; round++) {
		for (i = 0; i < sizeof(buf); i++)
			buf[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
		sha512_init_384(&a);
		sha512_init(&b);
		sha512_init_384(&c);
		sha512_init(&d);
		if (round % 5 == 0) { /* different bytes first: update2 must not take them as one */
			sha512_update(&b, "x", 1);
			sha512_update(&d, "x", 1);
		}
		for (at = 0; at < sizeof(buf); at += n) {
			n = ((seed = seed * 1103515245u + 12345u) >> 16) % 300u;
			n = n < sizeof(buf) - at ? n : (unsigned)sizeof(buf) - at;
			sha512_update2(&a, &b, buf + at, n);
			sha512_update(&c, buf + at, n);
			sha512_update(&d, buf + at, n);
		}
		sha512_final(&a, two[0]);
		sha512_final(&b, two[1]);
		sha512_final(&c, one[0]);
		sha512_final(&d, one[1]);
		assert_memory_equal(one[0], two[0], SHA384_DIGEST_SIZE);
		assert_memory_equal(one[1], two[1], SHA512_DIGEST_SIZE);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(vectors),
		cmocka_unit_test(boundaries),
		cmocka_unit_test(generated),
		cmocka_unit_test(update2_agrees),
	};

	return run_group(tests, NULL, NULL);
}
