/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IDLESIM_HEAP_H
#define IDLESIM_HEAP_H

#include <stddef.h>
#include <glib.h>

/*
 * A binary min-heap of T in a growing array (*a, *n elements, *cap
 * allocated; g_free() it), ordered by LESS: defines NAME_push() and
 * NAME_pop().  Used by the capture importer and the rt-app engine.
 */
#define DEFINE_HEAP(NAME, T, LESS)						\
static void NAME##_push(T **a, size_t *n, size_t *cap, const T *x)		\
{										\
	size_t i;								\
										\
	if (*n == *cap) {							\
		*cap = *cap ? *cap * 2 : 256;					\
		*a = g_renew(T, *a, *cap);					\
	}									\
	for (i = (*n)++; i && LESS(x, &(*a)[(i - 1) / 2]); i = (i - 1) / 2)	\
		(*a)[i] = (*a)[(i - 1) / 2];					\
	(*a)[i] = *x;								\
}										\
										\
static T NAME##_pop(T *a, size_t *n)						\
{										\
	T top = a[0], last = a[--*n];						\
	size_t i = 0;								\
										\
	for (;;) {								\
		size_t l = 2 * i + 1, m = l;					\
										\
		if (l >= *n)							\
			break;							\
		if (l + 1 < *n && LESS(&a[l + 1], &a[l]))			\
			m = l + 1;						\
		if (!LESS(&a[m], &last))					\
			break;							\
		a[i] = a[m];							\
		i = m;								\
	}									\
	if (*n)									\
		a[i] = last;							\
	return top;								\
}

#endif
