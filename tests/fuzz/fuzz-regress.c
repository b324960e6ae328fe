// SPDX-License-Identifier: GPL-2.0-only
/* Fuzz target: the corpus of idlesim regress (a key file of cases). */
#include "fuzz.h"
#include "idlesim/regress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GError *err = NULL;
	struct is_regress_corpus *c =
		is_regress_corpus_load(fuzz_file("corpus.ini", data, size), &err);

	if (c)
		is_regress_corpus_free(c);
	else
		g_error_free(err);
	return 0;
}
