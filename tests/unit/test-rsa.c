/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* test-rsa.c - RSA verification: signatures made by OpenSSL (moduli of 2047,
 * 2048, 2049 and 4096 bits, e = 3 and 65537, each digest), each damaged in
 * turn, and hostile keys and signatures, each refused with its reason */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sig/rsa.h"
#include "util/sha1.h"
#include "util/sha256.h"
#include "util/sha512.h"

#define MAX_BYTES 1100

static const char msg[] = "sbat-add rsa test message";

/*
 * Made with OpenSSL 3.0: `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:N` (with
 * rsa_keygen_pubexp:3 for the e = 3 key), the 2049-bit key from two 1025-bit primes (OpenSSL
 * makes no key of 2049 bits); then `openssl dgst -HASH -sign KEY` over msg, with
 * `-sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:SALT -sigopt rsa_mgf1_md:MGF` for PSS,
 * each checked with `openssl dgst -verify`.
 */
static const struct vec {
	unsigned bits;
	int pss;
	sbat_digest_alg alg, mgf1;
	size_t salt;
	const char *n, *e, *sig;
} vecs[] = {
	{ 2048, 0, SBAT_DIGEST_SHA256, SBAT_DIGEST_UNKNOWN, 0,
	  "9ee3ed87630d7952bc98e9e6d14d8400204da9ab21e1206942fb1754f26aa95e5f278228e15fd3c87a4932e11106032d"
	  "414e587842ac9c11b5be91b719a2f010e74e7b02b7d73f4270934fcc3f2cc22639aff2abe56927c7bdd911a31ff57d63"
	  "2a68f588d27f1b81825acbccf91d98c354c1ca4c7735a3c1b8f56db3dc0dce0899e755a48a23f7e8e03798c586a56555"
	  "5a08f4de2b9bb98205763433533a0d19264017ce0080e04cc1fe547b191b55b62ee174c660c76c0bd5acfe6bd98f39ed"
	  "754e228d3f6d98439a0d9be1b87cc70bb43eb9afa1c8fedb324265dc0085010f25e08462d13671ea43e77a26467b51ec"
	  "f725816d0bc2d48afa529e103523bda9",
	  "010001",
	  "97cd81c265ec83f7fb958cefb52b9f4fb771c1a1163d5bfda3a99301f8a65b0392dac2119e216010b449e690525d9b92"
	  "ae11c3ce3a7a414755fa7e706b3f87439db86f5297077b52f3063c30a24f1385b5ff4ea77d95847873235778a284005c"
	  "475a28b9c5a27a9a0c739d27e2f95f2fdbb740e8f734996c2612b1f3dec52528f5086510665fd6324da209e22cb07c12"
	  "36e6cb0be4ec3ee2e3c7228799f6376e0fdcfb099e775c10c977cc4c45d5e9a27bbdb896970540d4c3973d7a13d178c4"
	  "36da24ef1e6f9c753f3b98cf72a0e0c1821db6435788479df7cbe9a865e25eae9ef2269610c729a3ad3ad287e28c0cbe"
	  "453a2c8eed87b42269ab4fc74ea09d51" },
	{ 2048, 0, SBAT_DIGEST_SHA1, SBAT_DIGEST_UNKNOWN, 0,
	  "9ee3ed87630d7952bc98e9e6d14d8400204da9ab21e1206942fb1754f26aa95e5f278228e15fd3c87a4932e11106032d"
	  "414e587842ac9c11b5be91b719a2f010e74e7b02b7d73f4270934fcc3f2cc22639aff2abe56927c7bdd911a31ff57d63"
	  "2a68f588d27f1b81825acbccf91d98c354c1ca4c7735a3c1b8f56db3dc0dce0899e755a48a23f7e8e03798c586a56555"
	  "5a08f4de2b9bb98205763433533a0d19264017ce0080e04cc1fe547b191b55b62ee174c660c76c0bd5acfe6bd98f39ed"
	  "754e228d3f6d98439a0d9be1b87cc70bb43eb9afa1c8fedb324265dc0085010f25e08462d13671ea43e77a26467b51ec"
	  "f725816d0bc2d48afa529e103523bda9",
	  "010001",
	  "832c306139dac0c4c54476468881316147b4c67505edc1cafe53d67a276a5f783eb050d460058e99f7fde033c0057958"
	  "4ff5f8e797fdf17e4d5986782d2e2135ed313cd8b4b7a53f5ae41305cbe1b2154e5cada8a2000013061dda593c977fd6"
	  "fa7798fb204edfb65b01fe1fa6bf31cb1c286befc538a0298ba3a44aaf7b092a5e4fe82333d3fce8ee62c0d3ae1f84e8"
	  "17520fe97a931270422d59da9621ea0c990987d02fefa05633d6866085604acc41b6f652800fddc58f0041fc98a8550b"
	  "457dc86dd60d61e2c41410163739386c4dc57ae2a96730f64f597ef137edf3e5f77392428045c1085978b78e4f5faa99"
	  "be4232989eaf3b3067cecfb8c41466ce" },
	{ 2048, 0, SBAT_DIGEST_SHA384, SBAT_DIGEST_UNKNOWN, 0,
	  "9ee3ed87630d7952bc98e9e6d14d8400204da9ab21e1206942fb1754f26aa95e5f278228e15fd3c87a4932e11106032d"
	  "414e587842ac9c11b5be91b719a2f010e74e7b02b7d73f4270934fcc3f2cc22639aff2abe56927c7bdd911a31ff57d63"
	  "2a68f588d27f1b81825acbccf91d98c354c1ca4c7735a3c1b8f56db3dc0dce0899e755a48a23f7e8e03798c586a56555"
	  "5a08f4de2b9bb98205763433533a0d19264017ce0080e04cc1fe547b191b55b62ee174c660c76c0bd5acfe6bd98f39ed"
	  "754e228d3f6d98439a0d9be1b87cc70bb43eb9afa1c8fedb324265dc0085010f25e08462d13671ea43e77a26467b51ec"
	  "f725816d0bc2d48afa529e103523bda9",
	  "010001",
	  "4cd88319b77347db4019dd3f557b35dda75eea205e42cf08f39a591bef37ae8734293892139ffee73ffe7f5e93137e86"
	  "e4dfa307094492896c3d00cc0ffb895274373c7c2dbeeeb66863da84db0c80105aad0606f504cfa7704f70be6ac5147c"
	  "048fdfec2bc51a0ae2ff771a605b2573a93fda7097c58e8191ab6e9f634c1c5b4a78e9562ac3ed70ae7dae2b0fd32d6b"
	  "f1c9aaee6338034e0cf72830b212509dc154cff2e61efffed32798da4661d385a12b1692a92f3b53bee22be307685691"
	  "ba6119bcb30afa972bcb48e4640f503c27d6e622fad82f2ca21f9c89fb6706f8d4815c308e76b013a63b655455e0d8fd"
	  "e7329649269de0813e3f8d385dc71b63" },
	{ 2048, 0, SBAT_DIGEST_SHA512, SBAT_DIGEST_UNKNOWN, 0,
	  "9ee3ed87630d7952bc98e9e6d14d8400204da9ab21e1206942fb1754f26aa95e5f278228e15fd3c87a4932e11106032d"
	  "414e587842ac9c11b5be91b719a2f010e74e7b02b7d73f4270934fcc3f2cc22639aff2abe56927c7bdd911a31ff57d63"
	  "2a68f588d27f1b81825acbccf91d98c354c1ca4c7735a3c1b8f56db3dc0dce0899e755a48a23f7e8e03798c586a56555"
	  "5a08f4de2b9bb98205763433533a0d19264017ce0080e04cc1fe547b191b55b62ee174c660c76c0bd5acfe6bd98f39ed"
	  "754e228d3f6d98439a0d9be1b87cc70bb43eb9afa1c8fedb324265dc0085010f25e08462d13671ea43e77a26467b51ec"
	  "f725816d0bc2d48afa529e103523bda9",
	  "010001",
	  "385900559a3a4e4be89ba8e77b8e1b88728cdfae99713e26abd7b45bf86551e36222ad95942ef7c9a64169697e433aad"
	  "86cf8e0b19366b12ca2e74a56748e4b8298adb8e40cdcf433b1af5d860af6e9d34fee6798169676da58f1e04f41a9679"
	  "6b60804de28235e213eec7d44e9b13f2e70123c51e831a4ee3d9673c000102e374d7a635a578c99fa4915ab876246ce1"
	  "f15f611029b4b38795272855538ebdfeeaaf6dd04bf073338096fe1325e03550116e4d1397c7320e76eb41329c6e0fad"
	  "925827e96ad5969e0dd0fa041b4080630e4d48f099f3d8a232bd77ae62362fa3b14c5362d56a690beafe0807dd64003c"
	  "2b29d31c5dd73eb57b399b11e8965593" },
	{ 2048, 1, SBAT_DIGEST_SHA256, SBAT_DIGEST_SHA256, 32,
	  "9ee3ed87630d7952bc98e9e6d14d8400204da9ab21e1206942fb1754f26aa95e5f278228e15fd3c87a4932e11106032d"
	  "414e587842ac9c11b5be91b719a2f010e74e7b02b7d73f4270934fcc3f2cc22639aff2abe56927c7bdd911a31ff57d63"
	  "2a68f588d27f1b81825acbccf91d98c354c1ca4c7735a3c1b8f56db3dc0dce0899e755a48a23f7e8e03798c586a56555"
	  "5a08f4de2b9bb98205763433533a0d19264017ce0080e04cc1fe547b191b55b62ee174c660c76c0bd5acfe6bd98f39ed"
	  "754e228d3f6d98439a0d9be1b87cc70bb43eb9afa1c8fedb324265dc0085010f25e08462d13671ea43e77a26467b51ec"
	  "f725816d0bc2d48afa529e103523bda9",
	  "010001",
	  "2296b934c436845263fe8f769eb1fe3f127c908fb278b66a4d8893d6089bd7b452bc42558b7b7fe5ec4d0d16985ac968"
	  "2475f307d89687f92438f642936e05abb71fe93bedb1e5e122e4e29fe48bc3ad20c2031197634f763e4c24ef4094800e"
	  "e97bb85ae74eec681a1c4cd9fadd44fa5cce35a44fde9172001ffb838404d622935efe260a5dcd8e9c841c1fefb8b237"
	  "1a99e83bc92ee42d6d001675cc58e92cc4d4e77d249acc3645fa43ece6bc3bdf05abbf5a3bcd4933c2937ef469138c38"
	  "a66aee36bde54a761579ac56b32f52a9bb38f8a04f682d4770b9dcfe42cd0fbeace3a7c905009931307d9e7e8c70de8b"
	  "bda32d60bc2f4672124598658274cd29" },
	{ 2048, 1, SBAT_DIGEST_SHA1, SBAT_DIGEST_SHA1, 20,
	  "9ee3ed87630d7952bc98e9e6d14d8400204da9ab21e1206942fb1754f26aa95e5f278228e15fd3c87a4932e11106032d"
	  "414e587842ac9c11b5be91b719a2f010e74e7b02b7d73f4270934fcc3f2cc22639aff2abe56927c7bdd911a31ff57d63"
	  "2a68f588d27f1b81825acbccf91d98c354c1ca4c7735a3c1b8f56db3dc0dce0899e755a48a23f7e8e03798c586a56555"
	  "5a08f4de2b9bb98205763433533a0d19264017ce0080e04cc1fe547b191b55b62ee174c660c76c0bd5acfe6bd98f39ed"
	  "754e228d3f6d98439a0d9be1b87cc70bb43eb9afa1c8fedb324265dc0085010f25e08462d13671ea43e77a26467b51ec"
	  "f725816d0bc2d48afa529e103523bda9",
	  "010001",
	  "34737e39d6ef2d52f16a71957c0cac8d9a7d1c23dfe502d44fc03dac0d9cc0d08efd5a2fd40d8519f1e00e7fa98246a0"
	  "00d92cac959a1daf23421271cd3eac0479861ff7f3daac2c50364c6c7958ac4bcdc2aa8c8c738fa7c80f8be342399278"
	  "ecdc3439b3b06a6a478b01d8d612ef39d18605e970e8e7c237b3dd84638debb21b48af93804ebd9f438fcdc140484eff"
	  "6ac7b0b4a3d5a672138630b184e4c3cc2fe59e568a5dddcd33f832afb06870edf025035ea832d9291588b1caf5976bc6"
	  "1c2615ad187e8129696ff291d73d552d2bd00adb796c6a4eaf4a5a6525d7b1015ca8019f43d4c43cf40394fd27434f57"
	  "e970b25802c58491ec449579b64912ef" },
	{ 2047, 0, SBAT_DIGEST_SHA256, SBAT_DIGEST_UNKNOWN, 0,
	  "4a42f037b9a2d3bdf614d12dbb031f3ceabf14f6a933eaf1e266f9ef3be9e67498d87e0229b1bf63120bc6ff29994d6f"
	  "786b0fd81276b713d304ca77eeb08340b19f391944b96ebcfc3e691e52319436e476dcb9521c7ad126a9f974fd256dbf"
	  "42256ee7fb30d4ef04c4871719b09d13a19e4c61caff2ce7eca18d45dab248364dcd07dda4658fb71b1fe5ef57de4891"
	  "9825031074973020d7a75d72414a9e20663c94ba861fbacc69f3459eb1259a08d5b4289e3f39318e0b4821dd74d2732e"
	  "f7bf509d5ab165f2da9274c3339261893c4e16a621ddf2a8bf7dde613846f727c26705410a61d5dbbccac750b40915cb"
	  "c9cc0a9b14c76972b7d0bba71759af5f",
	  "010001",
	  "1800396516336b574f6bb1611b7086f535674c5f88a3c9a214af61639bce36f7f34dea6a178099b82c6248ffcb86b79a"
	  "1f611f95b5e26bf2ba58fc6f4f224eb7125c43740887c07067c37f550c9be6cc4c703b465fa8f1ee507e8127c68506e4"
	  "095db56525e19a7955ad237dc438d7bc01f5a0991e03cf5f1e8dee1bb2cb3ef4640b3a1de15bada2139b905689fbe332"
	  "6cd2e33075629bf282cb8a1d38f2384f37cb72fec2b2e02bf79b4f63b676d5802a217ccc8a8ac7373ba1794218fb6ac1"
	  "ba124f3b4b756f39fc0e7d63436b5bd89ae51f88730b8f37b7efb9e2b7060ae704860511cf63f8e57e75f0ba3e36e039"
	  "5c28ebe5a60c2384f69c98da37788068" },
	{ 2047, 1, SBAT_DIGEST_SHA256, SBAT_DIGEST_SHA256, 32,
	  "4a42f037b9a2d3bdf614d12dbb031f3ceabf14f6a933eaf1e266f9ef3be9e67498d87e0229b1bf63120bc6ff29994d6f"
	  "786b0fd81276b713d304ca77eeb08340b19f391944b96ebcfc3e691e52319436e476dcb9521c7ad126a9f974fd256dbf"
	  "42256ee7fb30d4ef04c4871719b09d13a19e4c61caff2ce7eca18d45dab248364dcd07dda4658fb71b1fe5ef57de4891"
	  "9825031074973020d7a75d72414a9e20663c94ba861fbacc69f3459eb1259a08d5b4289e3f39318e0b4821dd74d2732e"
	  "f7bf509d5ab165f2da9274c3339261893c4e16a621ddf2a8bf7dde613846f727c26705410a61d5dbbccac750b40915cb"
	  "c9cc0a9b14c76972b7d0bba71759af5f",
	  "010001",
	  "085862b2709f6b866e0a018b712c9287d022c4c9e0d74891f9061704e97b015e61556422fe4dae8276d258b2ce6601ff"
	  "da4c32d5505792119f9382d19eb93378b2d15ca5bef7102ed29ece917533e9a87aa73ec8bfdd9b160695955117d4a840"
	  "e7c70f2794e59bb0d1ef0a7be14a2fe5c867dac126c63392281f180aed69b27518427a861102ffab98b899a7cfbe2710"
	  "e51f77088d8552903f663b7a7097f8a8a6fecd0d417ea19427a6193cf686992fc142062235cd22a415b30d5f5237a34a"
	  "c27b7194aebe6ff4612f97097e743164e20d2bcffdd4575ef366aaec86303ab92accdc14c81a10ffa1fbeab43438656c"
	  "cda308e8d60e63368eb42656d111eff8" },
	{ 2049, 0, SBAT_DIGEST_SHA384, SBAT_DIGEST_UNKNOWN, 0,
	  "019dd278d352cf327bd0cde377f7fd241ac488809cca86cd55cc3df50767549fde27fde9d5ee40b7468d3e6e36f251ea"
	  "fe4b27f41f8816f59e85a1f73d8ea4658016d46c8f956f9742b57380582598652281f254ae824cc67b1347d563061cc7"
	  "6c62668e61f4fac90e02d690a21a882ac47ee188b9e8eb2a40b3fc4267cab932f02c18e520fb794db9a0d255275dad21"
	  "c938b481ab564658a213875b4ad04b26c87b0cae9fef30c5c9a0856841c3528d96361bd883e5a618afc35d343544ebab"
	  "8cc78b720f68a6696538cb9553e6c81d1ef4e27b1a409f2d6c63d5a819795cc1b3cf6266c483a1c2774aadaabdaa9721"
	  "d38aac8961039e29d722e4a4eace2e15c7",
	  "010001",
	  "0187b2db805a0e55f34453f0ed6f50f04eef0c10e3c8f32f7965b9d6eea629e900bde6ebad6139d9ad006cc983a8ce02"
	  "94ff8b51c146e4c58ac335a2e1da4a3dc3ce598f48448ef04136da02ae46635275bc036433c7fbaceb7bf54aa21e002d"
	  "3d16a7a7a38b1257e4c9725eca6b7a2207aa2d931b4365f857f35d2e35e7f74c21eb0a0ebffa41ef5ada4da31f483682"
	  "6fe32bb8746c8718d177367b227b706b13b68e4db34be4e4eedae59abaedce21880447a6e05f50bdde57a52bd0910ac1"
	  "aaf4b4b50144d0595c31578805a2a383bb5577d3f81ab72f8efe03c6313704047e35481c6929557d7bff2ae9f7df560b"
	  "614c358e101fe8202d63d7eb034a655fc8" },
	{ 2049, 1, SBAT_DIGEST_SHA256, SBAT_DIGEST_SHA256, 32,
	  "019dd278d352cf327bd0cde377f7fd241ac488809cca86cd55cc3df50767549fde27fde9d5ee40b7468d3e6e36f251ea"
	  "fe4b27f41f8816f59e85a1f73d8ea4658016d46c8f956f9742b57380582598652281f254ae824cc67b1347d563061cc7"
	  "6c62668e61f4fac90e02d690a21a882ac47ee188b9e8eb2a40b3fc4267cab932f02c18e520fb794db9a0d255275dad21"
	  "c938b481ab564658a213875b4ad04b26c87b0cae9fef30c5c9a0856841c3528d96361bd883e5a618afc35d343544ebab"
	  "8cc78b720f68a6696538cb9553e6c81d1ef4e27b1a409f2d6c63d5a819795cc1b3cf6266c483a1c2774aadaabdaa9721"
	  "d38aac8961039e29d722e4a4eace2e15c7",
	  "010001",
	  "0082659b18ba0032799023182cc250c3ac68910e2ca816a18f96037dcc9288a95f327a1954b37ca791032394b0bbf164"
	  "5a1eae69f7d25d921494aa9161f76580dce759609cc34002203adef1fa9e3ca9bab3865da7ee4e51c8f76fb130ec798b"
	  "83de44b5e94c5b15298135a18b567523826df6a63280a5500d18617d47331fdbf3b0e8542c7d37a221afcf51253e00c4"
	  "1c41528dba4040b3a9aab514d725f5dee018860c824090357f8f2a5685786712c0d2bf3e616fecf7b3bf0967d48ac783"
	  "21530e60da5044c2d09a0cf922ef94130a6db80b53b4b4811040d92a98b99c3c36fef40c8768afce26363c5c78a92f30"
	  "36b1e849856fc465281c0826601d9d830b" },
	{ 2049, 1, SBAT_DIGEST_SHA512, SBAT_DIGEST_SHA1, 0,
	  "019dd278d352cf327bd0cde377f7fd241ac488809cca86cd55cc3df50767549fde27fde9d5ee40b7468d3e6e36f251ea"
	  "fe4b27f41f8816f59e85a1f73d8ea4658016d46c8f956f9742b57380582598652281f254ae824cc67b1347d563061cc7"
	  "6c62668e61f4fac90e02d690a21a882ac47ee188b9e8eb2a40b3fc4267cab932f02c18e520fb794db9a0d255275dad21"
	  "c938b481ab564658a213875b4ad04b26c87b0cae9fef30c5c9a0856841c3528d96361bd883e5a618afc35d343544ebab"
	  "8cc78b720f68a6696538cb9553e6c81d1ef4e27b1a409f2d6c63d5a819795cc1b3cf6266c483a1c2774aadaabdaa9721"
	  "d38aac8961039e29d722e4a4eace2e15c7",
	  "010001",
	  "00cebce2205bac6d4356b568920f2a573337c8f9dececbf000454b963ea13447a6609f18ee57984ddfe2335d12cb5b9b"
	  "4cef084415356e00331f2048d969831fb70413d197ebcc34c22a8b0e457caf4522822a17b1833cd5cd4e2626249d688d"
	  "cd9debd41cbd1e5375fbd63ae2a52718785a1e4dd2f4406b6cb8a46d5659792dbce0839e4378a3d47b7316aacc869434"
	  "8cd23b10a5a0e36745979d7e6fa9c3955216eca531024a59708e83483812ad1fc89784a164f9d65a933371266652a860"
	  "c94f5d63cccc9e90c82e41a6fe63600dcc639b7c7be8da192133551b10e5ef717e08b48675138dee06f53bb7c2ade475"
	  "ba550615d935998ab7c0d25d4251cb7790" },
	{ 4096, 0, SBAT_DIGEST_SHA256, SBAT_DIGEST_UNKNOWN, 0,
	  "eabeabb2f7c0d80680d26bc0b6954cc252b9118924fe61891b11233345dcbfe19f10c22c6895c4c7c3564114f280280d"
	  "082b02398178e6648e6b29bb063de458312e1c83f9604331fb351808034832405a7a737800176b6433e853d771a20b2a"
	  "b62b1ac7883e5f33887334a7b2485ed9ffb82e14fdfa6eff7507693b5be3563679ffa0a1fb24c523df0404504bae9e2d"
	  "293de337055784a108e35e336997b05869bd8df8abb23a0a370a7e4dc8baaadf9db2173fffa40f45cbf31464b194f8b5"
	  "bedb97cc5ab46b7229b5f47d6ee302c6ace1920dbc731a4a45968caeac8a7a624151ccb4ac7031858357e1077974f9db"
	  "951568d7ef1ff733ddd9ad5a3d9731181294e9a4509146326055978898fdbafa12b85e546bb6ca7302aacd3f0d6d4f35"
	  "55f13b5f70c9f19db80ab0763cba15b5d7f7ab91c07a7e91a9b49dcf390b986499caaa107b0537a32582f4dde5b7616e"
	  "9e36426b858a693b5aed6c4b8702ea0cd4e1cf1b5ca41eeec1f9c66a732cd6b77a45633ccd95a4b501db68b3dd8b4168"
	  "cf2847c00644c0fd54383a88cb733d7bc77dd6ee1e955d9c32e9ea526fa8f1780b6ef775479ea9d3dcb62766cea45890"
	  "bf39fc6581afa791fe7ca28f652744f17e10dcb84ff73a9b17f319dbeb96b680ef23204b4410544fe550da8ef86a45e4"
	  "f014913deadab4f2690d37b6590a73ef997d8e451686bf02cc1a2b7bf3232071",
	  "010001",
	  "c1effc631bbb4abb6ef8b62e57a3f390e344b9058c28c8b15beeef64d5b1d7257c3e5b0b3307bd1e9a6d5580dcb92519"
	  "65f21b9f99c25d192d11011db1fe6dd147d2259fa5e9221db3ba1d47fb98379a6ebd0b6b3f5b8a7df19805872415724e"
	  "f1921bfcaf54e760059fa872b93bf30397a9309f35b2b1c06e01ab98f34419a238ccef3727c8727215b4884c1fed8a0f"
	  "631652cb960bfcfc3b5f47fe37acad0dff447de4e072b6453afa07d4210024ba5f95a0f585b920b079f9b90817816b10"
	  "6c0dc5137516495100bf0213d113e3aa8b37b9e8536e4069a9e96f1f28da7cc13dd4dab9cfda6ebb5de66c40d09f51a0"
	  "f070339f0d01cea9aa05711b40e9c586aeec62b524d0f933c9c32b1c5f635f3e1e0272df94b045719d393ddbc9bccff0"
	  "1440c9068fb72c8ea246df02256db6f8000521a8dea0dee261586f22dc32f1526cc0d89c77132bffe51d9aef82d6b0a5"
	  "310fc7cceb78b582be8e7c7ded2c25c88b3950ec49bc91d2189d24044200a65494b26eaa92d075b6fdefdfdc58795e11"
	  "ca7632ae3d953dcd3ef3c88093be16c57f346c9d4f885fcac11721a6455e9cc46269ca4e50c51bd25e494064358d7f5f"
	  "516fde7337e7bd6946898ed2e13cc9f6be3dcfb773aa23e141bfb710de530f3cbdd5a4b9b8d79945131236ebfeebaf0d"
	  "336c244d4cc32214a1ef45c52b4a887e7e73b0d0def74354ae29c121b36f9085" },
	{ 4096, 1, SBAT_DIGEST_SHA512, SBAT_DIGEST_SHA512, 64,
	  "eabeabb2f7c0d80680d26bc0b6954cc252b9118924fe61891b11233345dcbfe19f10c22c6895c4c7c3564114f280280d"
	  "082b02398178e6648e6b29bb063de458312e1c83f9604331fb351808034832405a7a737800176b6433e853d771a20b2a"
	  "b62b1ac7883e5f33887334a7b2485ed9ffb82e14fdfa6eff7507693b5be3563679ffa0a1fb24c523df0404504bae9e2d"
	  "293de337055784a108e35e336997b05869bd8df8abb23a0a370a7e4dc8baaadf9db2173fffa40f45cbf31464b194f8b5"
	  "bedb97cc5ab46b7229b5f47d6ee302c6ace1920dbc731a4a45968caeac8a7a624151ccb4ac7031858357e1077974f9db"
	  "951568d7ef1ff733ddd9ad5a3d9731181294e9a4509146326055978898fdbafa12b85e546bb6ca7302aacd3f0d6d4f35"
	  "55f13b5f70c9f19db80ab0763cba15b5d7f7ab91c07a7e91a9b49dcf390b986499caaa107b0537a32582f4dde5b7616e"
	  "9e36426b858a693b5aed6c4b8702ea0cd4e1cf1b5ca41eeec1f9c66a732cd6b77a45633ccd95a4b501db68b3dd8b4168"
	  "cf2847c00644c0fd54383a88cb733d7bc77dd6ee1e955d9c32e9ea526fa8f1780b6ef775479ea9d3dcb62766cea45890"
	  "bf39fc6581afa791fe7ca28f652744f17e10dcb84ff73a9b17f319dbeb96b680ef23204b4410544fe550da8ef86a45e4"
	  "f014913deadab4f2690d37b6590a73ef997d8e451686bf02cc1a2b7bf3232071",
	  "010001",
	  "386c05ece580531044a73bb661f0e4d288626cfef35e55074674f9a411cd34a9cafa92e1c927a6bc35f4a9fcdbb3458f"
	  "3c94afbca11685a171586c0afcac1478df2b0e4aac51e3cd0723d87411619f8a78cbc79bb34ac4f7564d2adbe3f826cf"
	  "930b4e678bfd8b69429a34d04cb75a28ad27e56cb2093b5c8a9bd0030a5513d8450723e1bb8b96c141c621d58b24e641"
	  "cb8211617a3510e13623d9e30ff70c572451aa1dae3b6e9d506750c9e39c23b9bec23c1f954c461296471bb21f74eb00"
	  "fbf9a6a6eeda1cb7fff3b7ccc710a8ee29ffb1da4bbf76bc4c94c2d7fc48f56f712c98bd46996783476b18e4db138d72"
	  "4745f8022f8b50c77343786f052ffa6b227a6bc6368c3e1bd584e3595094fc8423ca2d439c57085c4c18564d63d2dde2"
	  "7fa96e7bb5a93d06c3c406aee014749308a352b60bc0f873b1fc6732a252185bc6633dcd65079121388f06b7bb38d4b0"
	  "0a878f389268b30035c852d2c09b4d968bd3d579096bed2548a937059cfc5390d60e1ec07bac38af3e2f8417d6d79a60"
	  "006aae8e102d9e69faefa6b4f761bb9c242c5229e5fe4f2a04f1c66f5881f18fb99ed7b1e40868d0eef476d70ce99cbc"
	  "1351cf16e50d9007d15efd8677df6bad403f589ad80a06fa21ac323ff92475f82685494b709e6260ed0c4bbab922e83b"
	  "af6fb0b8a64e6f7f83fb57ea231174262132f60182e8433fae8b2b2f58074fcf" },
	{ 2048, 0, SBAT_DIGEST_SHA256, SBAT_DIGEST_UNKNOWN, 0,
	  "c1d29e6728faa9e34d28cc2e3bd07c47bb5377b77ec116eedb92d648e4b14a97ae50e4e7d4ef0fbd8da1f971ce0ea399"
	  "f284079fda42d695a495334350709ca70ad1118b349095be3ddbc0f43d5b6ada67c4fc24843498a27244085b699b6e4a"
	  "d5540527a0dfae810189d46bb4283550683a0293ad35ec145dc6b85a6f8c6014b3f40431d85f81dfabf6f0c638321772"
	  "9d72419b831022a1d5d549c2e92f9bc33ae7759c46e18a7e5b3c77eeb8620adc85db442df0179ac33f58f1c0dfca4d43"
	  "d203dfda945b63e1095c1aeee7117b4458e816922bac6f5ddae703a9f9874472f290ab7285275b6ba14c4f4ce2599778"
	  "c217428f9b4ff3e5665b16aeec277d83",
	  "03",
	  "91331364658f02da611eb63ef263545fb303ff602258081afe32f3fca6bb466139fa3eabf6498cf7bade4106a3c48a13"
	  "49b4c8e200a521837a3821f9d44a5cecf8f32eac457f5703870d459e35510a8a1c0660cb09ea5570821787e46c92c864"
	  "1e4d7b229ed826d62a9a6eb1d54a629718e9fa6c6f1c963a1b0fff034aa0db613898ec12da0b3da3a95b567d31c531bf"
	  "b30e4a4f0340807b58e7a0151e23eed9199693d4e9f3265d78c321b855008b4ccf2340860699e856f1e01f0bfb443552"
	  "c863aa7829619414cf0f89cf9146a6267abb5a6f05b5f9bb1c70df4da19f11a1b7156b58b96c91f6726b6094e8c64cc2"
	  "c6cff03b2ede316c33485d266b77ca07" },
};

/* hex into out[0..*len) */
static void
unhex(const char *hex, uint8_t *out, size_t *len)
{
	size_t n = strlen(hex) / 2, i;
	unsigned v;

	assert_true(n <= MAX_BYTES);
	for (i = 0; i < n; i++) {
		assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
	*len = n;
}

/* the digest of msg by alg into out; its length */
static size_t
hash(sbat_digest_alg alg, const void *data, size_t len, uint8_t *out)
{
	struct sha1_ctx c1;
	struct sha512_ctx c5;
	size_t n;

	switch (alg) {
	case SBAT_DIGEST_SHA1:
		sha1_init(&c1);
		sha1_update(&c1, data, len);
		sha1_final(&c1, out);
		return 20;
	case SBAT_DIGEST_SHA256: sha256(data, len, out); return 32;
	case SBAT_DIGEST_SHA384:
	case SBAT_DIGEST_SHA512:
		if (alg == SBAT_DIGEST_SHA384)
			sha512_init_384(&c5);
		else
			sha512_init(&c5);
		n = c5.out_len;
		sha512_update(&c5, data, len);
		sha512_final(&c5, out);
		return n;
	default: fail(); return 0;
	}
}

/* One vector's key, signature and message digest. */
typedef struct loaded {
	uint8_t n[MAX_BYTES + 1], e[MAX_BYTES + 1], sig[MAX_BYTES + 1], digest[64];
	size_t n_len, e_len, sig_len, digest_len;
} loaded;

static void
load(const struct vec *v, loaded *l)
{
	unhex(v->n, l->n, &l->n_len);
	unhex(v->e, l->e, &l->e_len);
	unhex(v->sig, l->sig, &l->sig_len);
	l->digest_len = hash(v->alg, msg, strlen(msg), l->digest);
}

static sbat_err
verify(const struct vec *v, const loaded *l, sbat_diag *d)
{
	return rsa_verify_pkcs1(l->n, l->n_len, l->e, l->e_len, v->alg, l->digest, l->digest_len, l->sig, l->sig_len,
	                        d);
}

/* verify fails with SBAT_E_SIGNATURE and the reason what */
static void
refused(const struct vec *v, const loaded *l, const char *what)
{
	sbat_diag d;

	memset(&d, 0, sizeof(d));
	assert_int_equal(verify(v, l, &d), SBAT_E_SIGNATURE);
	assert_int_equal(d.code, SBAT_E_SIGNATURE);
	assert_string_equal(d.what, what);
}

/* each OpenSSL signature verifies; a changed digest, signature or algorithm does not */
static void
pkcs1_openssl(void **state)
{
	static loaded l;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
		const struct vec *v = &vecs[i];

		if (v->pss)
			continue;
		load(v, &l);
		assert_int_equal(verify(v, &l, NULL), SBAT_OK);
		l.digest[l.digest_len - 1] ^= 1;
		refused(v, &l, "RSA PKCS#1 v1.5 signature does not verify");
		l.digest[l.digest_len - 1] ^= 1;
		l.sig[l.sig_len / 2] ^= 0x10;
		refused(v, &l, "RSA PKCS#1 v1.5 signature does not verify");
		l.sig[l.sig_len / 2] ^= 0x10;
		/* the same digest bytes named as another algorithm of the same length: none, so a shorter one */
		assert_int_equal(rsa_verify_pkcs1(l.n, l.n_len, l.e, l.e_len, SBAT_DIGEST_SHA1, l.digest, 20, l.sig,
		                                  l.sig_len, NULL),
		                 v->alg == SBAT_DIGEST_SHA1 ? SBAT_OK : SBAT_E_SIGNATURE);
		/* the modulus and exponent as DER INTEGERs carry them: a leading zero byte is no change */
		memmove(l.n + 1, l.n, l.n_len);
		l.n[0] = 0;
		l.n_len++;
		memmove(l.e + 1, l.e, l.e_len);
		l.e[0] = 0;
		l.e_len++;
		assert_int_equal(verify(v, &l, NULL), SBAT_OK);
	}
}

/* the first vector of `bits` bits and scheme pss */
static const struct vec *
find(unsigned bits, int pss)
{
	size_t i;

	for (i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++)
		if (vecs[i].bits == bits && vecs[i].pss == pss)
			return &vecs[i];
	fail();
	return NULL;
}

/* moduli: empty, zero, even, too short, of 8193 bits, an odd byte size with the signature of the whole */
static void
hostile_modulus(void **state)
{
	const struct vec *v = find(2048, 0);
	static loaded l;
	sbat_diag d;

	(void)state;
	load(v, &l);
	assert_int_equal(rsa_verify_pkcs1(NULL, 0, l.e, l.e_len, v->alg, l.digest, l.digest_len, l.sig, l.sig_len, &d),
	                 SBAT_E_SIGNATURE);
	assert_string_equal(d.what, "RSA modulus is empty or zero");
	memset(l.n, 0, l.n_len);
	refused(v, &l, "RSA modulus is empty or zero");
	load(v, &l);
	l.n[l.n_len - 1] ^= 1;
	refused(v, &l, "RSA modulus is even");
	/* 1016 bits: the signature is cut to its size so that only the modulus is wrong */
	load(v, &l);
	l.n_len = l.sig_len = 127;
	refused(v, &l, "RSA modulus under 1024 bits");
	/* 1025 bytes without a leading zero: over 8192 bits */
	memset(l.n, 0xff, MAX_BYTES);
	l.n_len = 1025;
	memset(&d, 0, sizeof(d));
	assert_int_equal(verify(v, &l, &d), SBAT_E_TOO_BIG);
	assert_int_equal(d.code, SBAT_E_TOO_BIG);
	assert_string_equal(d.what, "RSA modulus over 8192 bits");
	/* 1024 bytes behind a zero byte are 8192 bits: read, then the signature does not verify */
	l.n[0] = 0;
	assert_int_equal(verify(v, &l, NULL), SBAT_E_SIGNATURE);
	/* a 255-byte modulus (the real one less its last byte) with the 256-byte signature */
	load(v, &l);
	l.n_len = 255;
	l.n[254] |= 1;
	refused(v, &l, "RSA signature longer than the modulus");
}

/* exponents: 1, even, zero, empty, not below n, over 64 bits with a 4096-bit modulus */
static void
hostile_exponent(void **state)
{
	const struct vec *v = find(2048, 0);
	static loaded l;
	static const uint8_t big_e[9] = { 0x02, 0, 0, 0, 0, 0, 0, 0, 0x01 }; /* 2^65 + 1 */

	(void)state;
	load(v, &l);
	l.e_len = 1;
	l.e[0] = 1;
	refused(v, &l, "RSA public exponent is 1");
	l.e[0] = 2;
	refused(v, &l, "RSA public exponent is even (or zero)");
	l.e[0] = 0;
	refused(v, &l, "RSA public exponent is even (or zero)");
	l.e_len = 0;
	refused(v, &l, "RSA public exponent is even (or zero)");
	l.e_len = 3;
	l.e[0] = 0x01;
	l.e[1] = 0x00;
	l.e[2] = 0x00; /* 65536 */
	refused(v, &l, "RSA public exponent is even (or zero)");
	/* e = n, and an e one byte longer than n */
	memcpy(l.e, l.n, l.n_len);
	l.e_len = l.n_len;
	refused(v, &l, "RSA public exponent is not below the modulus");
	memset(l.e, 0, l.n_len + 1);
	l.e[0] = 1;
	l.e[l.n_len] = 1;
	l.e_len = l.n_len + 1;
	refused(v, &l, "RSA public exponent is not below the modulus");
	/* 2^65 + 1: fine with 2048 bits (verified, and wrong), refused with 4096 as OpenSSL does */
	load(v, &l);
	memcpy(l.e, big_e, sizeof(big_e));
	l.e_len = sizeof(big_e);
	refused(v, &l, "RSA PKCS#1 v1.5 signature does not verify");
	v = find(4096, 0);
	load(v, &l);
	memcpy(l.e, big_e, sizeof(big_e));
	l.e_len = sizeof(big_e);
	refused(v, &l, "RSA public exponent over 64 bits with a modulus over 3072 bits");
}

/* signatures: longer (a zero in front), shorter, equal to n, above n, 0 and 1; digests of the wrong size or kind */
static void
hostile_signature(void **state)
{
	const struct vec *v = find(2048, 0);
	static loaded l;
	sbat_diag d;

	(void)state;
	load(v, &l);
	memmove(l.sig + 1, l.sig, l.sig_len);
	l.sig[0] = 0;
	l.sig_len++;
	refused(v, &l, "RSA signature longer than the modulus");
	load(v, &l);
	l.sig_len--;
	refused(v, &l, "RSA signature shorter than the modulus");
	l.sig_len = 0;
	refused(v, &l, "RSA signature shorter than the modulus");
	assert_int_equal(rsa_verify_pkcs1(l.n, l.n_len, l.e, l.e_len, v->alg, l.digest, l.digest_len, NULL, 0, NULL),
	                 SBAT_E_SIGNATURE);
	memcpy(l.sig, l.n, l.n_len);
	l.sig_len = l.n_len;
	refused(v, &l, "RSA signature is not below the modulus");
	memset(l.sig, 0xff, l.sig_len);
	refused(v, &l, "RSA signature is not below the modulus");
	/* 0 and 1 are their own powers: computed, and they do not verify */
	memset(l.sig, 0, l.sig_len);
	refused(v, &l, "RSA PKCS#1 v1.5 signature does not verify");
	l.sig[l.sig_len - 1] = 1;
	refused(v, &l, "RSA PKCS#1 v1.5 signature does not verify");
	load(v, &l);
	assert_int_equal(rsa_verify_pkcs1(l.n, l.n_len, l.e, l.e_len, v->alg, l.digest, 31, l.sig, l.sig_len, &d),
	                 SBAT_E_SIGNATURE);
	assert_string_equal(d.what, "RSA signature: digest length is not its algorithm's");
	assert_int_equal(rsa_verify_pkcs1(l.n, l.n_len, l.e, l.e_len, v->alg, NULL, 0, l.sig, l.sig_len, NULL),
	                 SBAT_E_SIGNATURE);
	assert_int_equal(rsa_verify_pkcs1(l.n, l.n_len, l.e, l.e_len, SBAT_DIGEST_UNKNOWN, l.digest, l.digest_len,
	                                  l.sig, l.sig_len, &d),
	                 SBAT_E_SIGNATURE);
	assert_string_equal(d.what, "RSA signature: digest algorithm unknown");
	assert_int_equal(rsa_verify_pkcs1(l.n, l.n_len, l.e, l.e_len, (sbat_digest_alg)99, l.digest, l.digest_len,
	                                  l.sig, l.sig_len, NULL),
	                 SBAT_E_SIGNATURE);
	assert_int_equal(rsa_digest_size((sbat_digest_alg)99), 0);
	assert_int_equal(rsa_digest_size(SBAT_DIGEST_SHA384), 48);
}

static sbat_err
verify_pss(const struct vec *v, const loaded *l, sbat_digest_alg mgf1, size_t salt, sbat_diag *d)
{
	rsa_pss_params pss;

	pss.mgf1_alg = mgf1;
	pss.salt_len = salt;
	return rsa_verify_pss(l->n, l->n_len, l->e, l->e_len, v->alg, l->digest, l->digest_len, l->sig, l->sig_len,
	                      &pss, d);
}

/* verify_pss fails with SBAT_E_SIGNATURE, for a reason that starts with what */
static void
pss_refused(const struct vec *v, const loaded *l, sbat_digest_alg mgf1, size_t salt, const char *what)
{
	sbat_diag d;

	memset(&d, 0, sizeof(d));
	assert_int_equal(verify_pss(v, l, mgf1, salt, &d), SBAT_E_SIGNATURE);
	assert_int_equal(d.code, SBAT_E_SIGNATURE);
	assert_non_null(d.what);
	assert_memory_equal(d.what, what, strlen(what));
}

/* each OpenSSL PSS signature verifies with its parameters; other parameters, a changed digest or signature, and
 * the other scheme do not */
static void
pss_openssl(void **state)
{
	static loaded l;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(vecs) / sizeof(vecs[0]); i++) {
		const struct vec *v = &vecs[i];
		sbat_digest_alg other = v->mgf1 == SBAT_DIGEST_SHA1 ? SBAT_DIGEST_SHA256 : SBAT_DIGEST_SHA1;

		load(v, &l);
		if (!v->pss) {
			/* a PKCS#1 v1.5 signature is no PSS one */
			pss_refused(v, &l, v->alg, rsa_digest_size(v->alg), "RSA-PSS signature does not verify");
			continue;
		}
		assert_int_equal(verify_pss(v, &l, v->mgf1, v->salt, NULL), SBAT_OK);
		pss_refused(v, &l, v->mgf1, v->salt + 1, "RSA-PSS signature does not verify");
		if (v->salt > 0)
			pss_refused(v, &l, v->mgf1, v->salt - 1, "RSA-PSS signature does not verify");
		pss_refused(v, &l, other, v->salt, "RSA-PSS signature does not verify");
		refused(v, &l, "RSA PKCS#1 v1.5 signature does not verify");
		l.digest[0] ^= 0x80;
		pss_refused(v, &l, v->mgf1, v->salt, "RSA-PSS signature does not verify");
		l.digest[0] ^= 0x80;
		l.sig[l.sig_len - 1] ^= 0x01;
		pss_refused(v, &l, v->mgf1, v->salt, "RSA-PSS signature does not verify");
	}
}

/* parameters that cannot fit, unknown hashes, and the key and signature checks PKCS#1 v1.5 has */
static void
pss_hostile(void **state)
{
	const struct vec *v = find(2048, 1);
	static loaded l;
	sbat_diag d;

	(void)state;
	load(v, &l);
	pss_refused(v, &l, v->mgf1, 256 - 32 - 1, "RSA-PSS: the digest and salt do not fit the modulus");
	assert_int_equal(verify_pss(v, &l, v->mgf1, 256 - 32 - 2, NULL), SBAT_E_SIGNATURE);
	pss_refused(v, &l, v->mgf1, (size_t)-1, "RSA-PSS: the digest and salt do not fit the modulus");
	pss_refused(v, &l, SBAT_DIGEST_UNKNOWN, v->salt, "RSA-PSS signature: digest algorithm unknown");
	pss_refused(v, &l, (sbat_digest_alg)99, v->salt, "RSA-PSS signature: digest algorithm unknown");
	assert_int_equal(
	    rsa_verify_pss(l.n, l.n_len, l.e, l.e_len, v->alg, l.digest, l.digest_len, l.sig, l.sig_len, NULL, &d),
	    SBAT_E_SIGNATURE);
	l.digest_len--;
	pss_refused(v, &l, v->mgf1, v->salt, "RSA signature: digest length is not its algorithm's");
	l.digest_len++;
	l.e[l.e_len - 1] = 0x00;
	pss_refused(v, &l, v->mgf1, v->salt, "RSA public exponent is even (or zero)");
	load(v, &l);
	l.sig_len++;
	pss_refused(v, &l, v->mgf1, v->salt, "RSA signature longer than the modulus");
	memcpy(l.sig, l.n, l.n_len);
	l.sig_len = l.n_len;
	pss_refused(v, &l, v->mgf1, v->salt, "RSA signature is not below the modulus");
	/* 0: its encoded message has no 0xBC trailer */
	memset(l.sig, 0, l.sig_len);
	pss_refused(v, &l, v->mgf1, v->salt, "RSA-PSS signature does not verify: no 0xBC trailer");
}

/* Not a timed test: what one verification costs, printed for the record. */
static void
speed(void **state)
{
	static const unsigned sizes[] = { 2048, 4096 };
	static loaded l;
	size_t i, j, runs = 20;
	clock_t t0;

	(void)state;
	for (i = 0; i < 2; i++) {
		const struct vec *v = find(sizes[i], 0);

		load(v, &l);
		t0 = clock();
		for (j = 0; j < runs; j++)
			assert_int_equal(verify(v, &l, NULL), SBAT_OK);
		print_message("RSA-%u PKCS#1 v1.5 verification (e = 65537): %.0f us each\n", sizes[i],
		              (double)(clock() - t0) * 1e6 / CLOCKS_PER_SEC / (double)runs);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pkcs1_openssl),
		cmocka_unit_test(hostile_modulus),
		cmocka_unit_test(hostile_exponent),
		cmocka_unit_test(hostile_signature),
		cmocka_unit_test(pss_openssl),
		cmocka_unit_test(pss_hostile),
		cmocka_unit_test(speed),
	};

	return run_group(tests, NULL, NULL);
}
