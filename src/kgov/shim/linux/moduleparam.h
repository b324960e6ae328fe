/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * module_param() and module_param_named() of include/linux/moduleparam.h:
 * each becomes an entry of the kgov_param section, which idlesim reads to
 * offer the variable as a governor param (name, type, default, perm).  A
 * type this does not know (e.g. charp) is a build error on
 * KGOV_PTYPE_<type>.
 */
#ifndef KGOV_SHIM_MODULEPARAM_H
#define KGOV_SHIM_MODULEPARAM_H

#include <linux/kernel.h>

#define KGOV_PTYPE_bool IS_KGOV_PT_BOOL
#define KGOV_PTYPE_invbool IS_KGOV_PT_INVBOOL
#define KGOV_PTYPE_byte IS_KGOV_PT_BYTE
#define KGOV_PTYPE_short IS_KGOV_PT_SHORT
#define KGOV_PTYPE_ushort IS_KGOV_PT_USHORT
#define KGOV_PTYPE_int IS_KGOV_PT_INT
#define KGOV_PTYPE_uint IS_KGOV_PT_UINT
#define KGOV_PTYPE_hexint IS_KGOV_PT_HEXINT
#define KGOV_PTYPE_long IS_KGOV_PT_LONG
#define KGOV_PTYPE_ulong IS_KGOV_PT_ULONG
#define KGOV_PTYPE_ullong IS_KGOV_PT_ULLONG

/* @ptype pasted before any expansion: "bool" is a macro of stdbool.h */
#define KGOV_PARAM(name, value, ptype, perm) \
	static const struct is_kgov_param kgov_param_##name \
	__attribute__((used, section("kgov_param"), aligned(sizeof(void *)))) = \
	{ #name, ptype, (perm), &(value), sizeof(value), __LINE__ }
#define module_param_named(name, value, type, perm) \
	KGOV_PARAM(name, value, KGOV_PTYPE_##type, perm)
#define module_param(name, type, perm) KGOV_PARAM(name, name, KGOV_PTYPE_##type, perm)
#define MODULE_PARM_DESC(name, text) \
	static const struct is_kgov_param_desc kgov_pdesc_##name \
	__attribute__((used, section("kgov_pdesc"), aligned(sizeof(void *)))) = { #name, text }

#endif
