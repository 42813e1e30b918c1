/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Copyright 2026 The sbat-add authors */
/* layout.h - PE/COFF field offsets, named as in the Microsoft PE format specification */
#ifndef SBAT_PE_LAYOUT_H
#define SBAT_PE_LAYOUT_H

#define DOS_E_LFANEW 0x3c
#define DOS_HEADER_SIZE 0x40

/* COFF file header, from the "PE\0\0" signature */
#define PE_SIGNATURE_SIZE 4
#define COFF_MACHINE 0
#define COFF_NUMBER_OF_SECTIONS 2
#define COFF_POINTER_TO_SYMBOL_TABLE 8
#define COFF_NUMBER_OF_SYMBOLS 12
#define COFF_SIZE_OF_OPTIONAL_HEADER 16
#define COFF_CHARACTERISTICS 18
#define COFF_HEADER_SIZE 20

/* optional header */
#define OPT_MAGIC 0x00
#define OPT_SIZE_OF_INITIALIZED_DATA 0x08
#define OPT_ADDRESS_OF_ENTRY_POINT 0x10
#define OPT_SECTION_ALIGNMENT 0x20
#define OPT_FILE_ALIGNMENT 0x24
#define OPT_SIZE_OF_IMAGE 0x38
#define OPT_SIZE_OF_HEADERS 0x3c
#define OPT_CHECKSUM 0x40
#define OPT_DLL_CHARACTERISTICS 0x46
#define OPT_PE32_NUMBER_OF_RVA_AND_SIZES 0x5c
#define OPT_PE32PLUS_NUMBER_OF_RVA_AND_SIZES 0x6c
#define OPT_PE32_FIXED_SIZE 0x60
#define OPT_PE32PLUS_FIXED_SIZE 0x70
#define OPT_MAGIC_PE32 0x10b
#define OPT_MAGIC_PE32PLUS 0x20b
#define OPT_MAX_DATA_DIRECTORIES 16

#define DATA_DIR_SIZE 8
#define DIR_RESOURCE 2
#define DIR_CERTIFICATE_TABLE 4
#define DIR_BASE_RELOCATION 5
#define DIR_DEBUG 6

/* section header */
#define SH_NAME 0
#define SH_VIRTUAL_SIZE 8
#define SH_VIRTUAL_ADDRESS 12
#define SH_SIZE_OF_RAW_DATA 16
#define SH_POINTER_TO_RAW_DATA 20
#define SH_POINTER_TO_RELOCATIONS 24
#define SH_POINTER_TO_LINENUMBERS 28
#define SH_NUMBER_OF_RELOCATIONS 32
#define SH_NUMBER_OF_LINENUMBERS 34
#define SH_CHARACTERISTICS 36
#define SH_SIZE 40

/* COFF symbol table entry; the string table follows the last one */
#define COFF_SYMBOL_SIZE 18

/* COFF Machine values (IMAGE_FILE_MACHINE_*): named here once */
#define MACHINE_I386 0x014c
#define MACHINE_ARM 0x01c0
#define MACHINE_THUMB 0x01c2
#define MACHINE_ARMNT 0x01c4
#define MACHINE_EBC 0x0ebc
#define MACHINE_RISCV32 0x5032
#define MACHINE_RISCV64 0x5064
#define MACHINE_LOONGARCH32 0x6232
#define MACHINE_LOONGARCH64 0x6264
#define MACHINE_AMD64 0x8664
#define MACHINE_ARM64 0xaa64

/* COFF and section Characteristics bits */
#define IMAGE_FILE_RELOCS_STRIPPED 0x0001u
#define IMAGE_DLLCHARACTERISTICS_NX_COMPAT 0x0100u
#define IMAGE_SCN_CNT_CODE 0x00000020u
#define IMAGE_SCN_CNT_UNINITIALIZED_DATA 0x00000080u
#define IMAGE_SCN_MEM_DISCARDABLE 0x02000000u
#define IMAGE_SCN_MEM_EXECUTE 0x20000000u
#define IMAGE_SCN_MEM_READ 0x40000000u
#define IMAGE_SCN_MEM_WRITE 0x80000000u

/* Linux kernels put this at 0x38 of the DOS header (include/linux/pe.h) */
#define LINUX_PE_MAGIC 0x818223cdu
#define LINUX_PE_MAGIC_OFFSET 0x38

/* debug directory entry */
#define DEBUG_ENTRY_SIZE 28
#define DEBUG_SIZE_OF_DATA 16
#define DEBUG_ADDRESS_OF_RAW_DATA 20
#define DEBUG_POINTER_TO_RAW_DATA 24

/* resource directory (the .rsrc section): offsets from the directory's start */
#define RSRC_DIR_SIZE 16 /* Characteristics, TimeDateStamp, Major/MinorVersion, then: */
#define RSRC_DIR_NAMED 12
#define RSRC_DIR_IDS 14
#define RSRC_ENTRY_SIZE 8         /* Name (or ID), OffsetToData */
#define RSRC_HIGH_BIT 0x80000000u /* a name string, or a subdirectory */
#define RSRC_DATA_ENTRY_SIZE 16   /* OffsetToData (an RVA), Size, CodePage, Reserved */
#define RT_RCDATA 10

/* x86 boot protocol (Documentation/arch/x86/boot.rst) */
#define BZ_SETUP_HEADER_START 0x1f1
#define BZ_BOOT_FLAG 0x1fe    /* 0xAA55 */
#define BZ_JUMP 0x200         /* 2-byte jump; its offset byte gives the header length */
#define BZ_HEADER_MAGIC 0x202 /* "HdrS" */
/* A new section header must end at or before this: 0x1EF is the sentinel byte before setup_sects. */
#define BZ_HEADER_ROOM_LIMIT 0x1ef

#endif
