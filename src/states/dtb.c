// SPDX-License-Identifier: GPL-2.0-only
/*
 * State tables from a flattened device tree (a .dtb, or a .dts compiled by
 * the caller): the arm64 idle states as the kernel's cpuidle-psci and
 * cpuidle-arm drivers build them, Linux 6.12:
 *  - state 0 is WFI, added by the driver (cpuidle-psci.c
 *    psci_dt_cpu_init_idle() / cpuidle-arm.c arm_idle_driver):
 *    exit latency 1 us, target residency 1 us, not polling;
 *  - states 1.. are the CPU's idle-state nodes in order, found as
 *    drivers/of/cpu.c of_get_cpu_state_node() does: index i of the
 *    "domain-idle-states" of the CPU's first power domain, else of its
 *    "cpu-idle-states";
 *  - each as dt_idle_states.c init_state_node(): exit latency =
 *    wakeup-latency-us, else entry-latency-us + exit-latency-us; target
 *    residency = min-residency-us; local-timer-stop sets TIMER_STOP; the
 *    name is the node's name (before '@'), cut to 15 characters
 *    (strscpy into CPUIDLE_NAME_LEN);
 *  - a node with status other than "okay" is skipped; one that is not
 *    compatible with "arm,idle-state" ends the list with an error there,
 *    as dt_init_idle_driver() fails.
 * Power figures are the documented default model (docs/states.md).
 */
#include <string.h>
#include <glib/gstdio.h>

#include "idlesim/states.h"
#include "states_internal.h"

/*
 * A .dts compiled as the kernel's build does (scripts/Makefile.lib
 * cmd_dtc): the C preprocessor with the tree's include paths, then dtc.
 */
char *is_states_dts_compile(const char *dts, const char *tree, gsize *len, GError **error)
{
	g_autofree char *dir = g_dir_make_tmp("idlesim-dts-XXXXXX", error);
	g_autofree char *pre = NULL, *dtb = NULL, *src_dir = NULL;
	g_autoptr(GPtrArray) cpp = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *cpp_err = NULL, *dtc_err = NULL;
	char *blob = NULL;
	gint st = 0;

	if (!dir)
		return NULL;
	pre = g_build_filename(dir, "pre.dts", NULL);
	dtb = g_build_filename(dir, "out.dtb", NULL);
	src_dir = g_path_get_dirname(dts);
	static const char *const cpp_args[] = {
		"cpp", "-nostdinc", "-undef", "-D__DTS__", "-x", "assembler-with-cpp", "-P",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(cpp_args); i++)
		g_ptr_array_add(cpp, g_strdup(cpp_args[i]));
	g_ptr_array_add(cpp, g_strdup_printf("-I%s", src_dir));
	if (tree) {
		static const char *const sub[] = {
			"include", "scripts/dtc/include-prefixes", "arch/arm64/boot/dts",
			"arch/arm/boot/dts", "arch/powerpc/boot/dts",
		};

		for (size_t i = 0; i < G_N_ELEMENTS(sub); i++)
			g_ptr_array_add(cpp, g_strdup_printf("-I%s/%s", tree, sub[i]));
	}
	g_ptr_array_add(cpp, g_strdup(dts));
	g_ptr_array_add(cpp, g_strdup("-o"));
	g_ptr_array_add(cpp, g_strdup(pre));
	g_ptr_array_add(cpp, NULL);
	if (!g_spawn_sync(NULL, (char **)cpp->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
			  &cpp_err, &st, error) ||
	    !g_spawn_check_wait_status(st, NULL)) {
		if (error && !*error)
			g_set_error(error, IS_ERROR, IS_ERROR_PARSE, "%s: the C preprocessor failed "
				    "(--tree gives the kernel tree for its includes): %s", dts,
				    cpp_err ? g_strstrip(cpp_err) : "");
		goto out;
	}
	{
		const char *dtc[] = { "dtc", "-q", "-I", "dts", "-O", "dtb", "-o", dtb, pre, NULL };

		if (!g_spawn_sync(NULL, (char **)dtc, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
				  &dtc_err, &st, error) ||
		    !g_spawn_check_wait_status(st, NULL)) {
			if (error && !*error)
				g_set_error(error, IS_ERROR, IS_ERROR_PARSE, "%s: dtc failed: %s", dts,
					    dtc_err ? g_strstrip(dtc_err) : "");
			else
				g_prefix_error(error, "%s: dtc (Debian device-tree-compiler): ", dts);
			goto out;
		}
	}
	if (!g_file_get_contents(dtb, &blob, len, error))
		blob = NULL;
out:
	g_unlink(pre);
	g_unlink(dtb);
	g_rmdir(dir);
	return blob;
}

#ifndef HAVE_FDT
bool is_states_dtb_supported(void)
{
	return false;
}

struct is_state_table *is_states_load_dtb(const void *blob, size_t len, int cpu,
					  const char *where, GError **error)
{
	(void)blob, (void)len, (void)cpu;
	g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
		    "%s: reading a device tree needs a build with libfdt (Debian libfdt-dev)",
		    where);
	return NULL;
}
#else
#include <libfdt.h>

bool is_states_dtb_supported(void)
{
	return true;
}

static bool dt_err(GError **error, const char *where, const void *fdt, int node,
		   const char *field, const char *msg)
{
	char path[256] = "?";

	if (node >= 0)
		fdt_get_path(fdt, node, path, sizeof(path));
	g_set_error(error, IS_ERROR, IS_ERROR_PARSE, "%s: %s: field '%s': %s", where, path, field,
		    msg);
	return false;
}

static bool prop_u32(const void *fdt, int node, const char *name, uint32_t *v)
{
	int len;
	const fdt32_t *p = fdt_getprop(fdt, node, name, &len);

	if (!p || len != 4)
		return false;
	*v = fdt32_to_cpu(*p);
	return true;
}

/* Phandle number @index of property @name (cells of 1), or -1. */
static int phandle_at(const void *fdt, int node, const char *name, int index)
{
	int len;
	const fdt32_t *p = fdt_getprop(fdt, node, name, &len);

	if (!p || index < 0 || (index + 1) * 4 > len)
		return -1;
	return fdt_node_offset_by_phandle(fdt, fdt32_to_cpu(p[index]));
}

/* The @cpu-th node of /cpus with device_type "cpu", in tree order. */
static int cpu_node(const void *fdt, int cpu)
{
	int cpus = fdt_path_offset(fdt, "/cpus"), n = 0, node;

	if (cpus < 0)
		return -1;
	fdt_for_each_subnode(node, fdt, cpus) {
		const char *type = fdt_getprop(fdt, node, "device_type", NULL);

		if (type && strcmp(type, "cpu") == 0 && n++ == cpu)
			return node;
	}
	return -1;
}

/* drivers/of/cpu.c of_get_cpu_state_node(), Linux 6.12. */
static int state_node(const void *fdt, int cpu, int index)
{
	int len;
	const fdt32_t *pd = fdt_getprop(fdt, cpu, "power-domains", &len);

	if (pd && len >= 4) {
		int dom = fdt_node_offset_by_phandle(fdt, fdt32_to_cpu(pd[0]));
		int s = dom >= 0 ? phandle_at(fdt, dom, "domain-idle-states", index) : -1;

		if (s >= 0)
			return s;
	}
	return phandle_at(fdt, cpu, "cpu-idle-states", index);
}

struct is_state_table *is_states_load_dtb(const void *blob, size_t len, int cpu,
					  const char *where, GError **error)
{
	struct is_state_table *t;
	int cn, err;

	/* the whole blob checked first: libfdt's accessors trust a checked one */
	err = len < sizeof(struct fdt_header) ? -FDT_ERR_TRUNCATED : fdt_check_full(blob, len);
	if (err) {
		g_set_error(error, IS_ERROR, IS_ERROR_PARSE, "%s: not a device tree blob (%s)",
			    where, fdt_strerror(err));
		return NULL;
	}
	cn = cpu_node(blob, cpu);
	if (cn < 0) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: no CPU %d under /cpus (device_type \"cpu\")", where, cpu);
		return NULL;
	}
	t = g_new0(struct is_state_table, 1);
	g_snprintf(t->name, sizeof(t->name), "%s", where);
	/* the driver's WFI */
	g_strlcpy(t->s[0].name, "WFI", IS_NAME_LEN);
	t->s[0].exit_latency_ns = 1000;
	t->s[0].target_residency_ns = 1000;
	t->count = 1;
	for (int i = 0;; i++) {
		int sn = state_node(blob, cn, i);
		struct is_state *s;
		const char *status, *name;
		uint32_t wake, entry, exit, res;
		size_t nlen;

		if (sn < 0)
			break;
		if (fdt_node_check_compatible(blob, sn, "arm,idle-state") != 0) {
			dt_err(error, where, blob, sn, "compatible", "not \"arm,idle-state\": the "
			       "kernel's dt_init_idle_driver() fails here");
			goto fail;
		}
		status = fdt_getprop(blob, sn, "status", NULL);
		if (status && strcmp(status, "okay") && strcmp(status, "ok"))
			continue;
		if (t->count == IS_STATE_MAX) {
			dt_err(error, where, blob, sn, "cpu-idle-states", "more than 10 states");
			goto fail;
		}
		s = &t->s[t->count];
		if (prop_u32(blob, sn, "wakeup-latency-us", &wake)) {
			s->exit_latency_ns = (int64_t)wake * 1000;
		} else if (prop_u32(blob, sn, "entry-latency-us", &entry) &&
			   prop_u32(blob, sn, "exit-latency-us", &exit)) {
			/* u32 sum, as the kernel's */
			s->exit_latency_ns = (int64_t)(uint32_t)(entry + exit) * 1000;
		} else {
			dt_err(error, where, blob, sn, "entry-latency-us",
			       "missing (and no wakeup-latency-us)");
			goto fail;
		}
		if (!prop_u32(blob, sn, "min-residency-us", &res)) {
			dt_err(error, where, blob, sn, "min-residency-us", "missing");
			goto fail;
		}
		s->target_residency_ns = (int64_t)res * 1000;
		if (fdt_getprop(blob, sn, "local-timer-stop", NULL))
			s->flags |= IS_STATE_TIMER_STOP;
		name = fdt_get_name(blob, sn, NULL);
		nlen = strcspn(name, "@");
		g_strlcpy(s->name, name, MIN(nlen + 1, (size_t)IS_NAME_LEN));
		t->count++;
	}
	for (int i = 0; i < t->count; i++) {
		t->s[i].power = is_states_default_power(i, t->s[i].flags);
		t->s[i].transition_energy = -1;
	}
	is_states_derive_energy(t);
	if (!is_states_validate(t, where, error))
		goto fail;
	return t;
fail:
	g_free(t);
	return NULL;
}
#endif
