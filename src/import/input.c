// SPDX-License-Identifier: GPL-2.0-only
/*
 * Input files, decompressed by content: gzip (zlib) and xz (liblzma), each
 * when the build has the library (meson finds them when installed).  The
 * decompressor sits behind a stdio FILE (fopencookie), so the parsers
 * stream compressed captures exactly like plain ones.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "idlesim/import.h"
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_LZMA
#include <lzma.h>
#endif

enum kind { K_PLAIN, K_GZ, K_XZ };

struct dec {
	FILE *src;
	enum kind kind;
	unsigned char in[65536];
	size_t pre;             /* magic bytes already read into in[] */
	bool eof, error;
	bool mid;               /* inside a gzip member */
#ifdef HAVE_ZLIB
	z_stream z;
#endif
#ifdef HAVE_LZMA
	lzma_stream x;
#endif
};

static size_t refill(struct dec *d)
{
	size_t n;

	if (d->pre) {
		n = d->pre;
		d->pre = 0;
		return n;
	}
	n = fread(d->in, 1, sizeof(d->in), d->src);
	if (n == 0) {
		if (ferror(d->src))
			d->error = true;
		d->eof = true;
	}
	return n;
}

static ssize_t dec_read(void *cookie, char *buf, size_t size)
{
	struct dec *d = cookie;

	if (d->kind == K_PLAIN) {
		if (d->pre) {
			size_t n = MIN(size, d->pre);

			memcpy(buf, d->in, n);
			memmove(d->in, d->in + n, d->pre - n);
			d->pre -= n;
			return (ssize_t)n;
		}
		size = fread(buf, 1, size, d->src);
		if (!size && ferror(d->src)) {
			errno = EIO;
			return -1;
		}
		return (ssize_t)size;
	}
#ifdef HAVE_ZLIB
	if (d->kind == K_GZ) {
		d->z.next_out = (unsigned char *)buf;
		d->z.avail_out = (uInt)MIN(size, (size_t)UINT32_MAX);
		while (d->z.avail_out == size) {
			int r;

			if (d->z.avail_in == 0) {
				if (d->eof && d->mid) {
					errno = EILSEQ; /* truncated member */
					return -1;
				}
				if (d->eof)
					break;
				d->z.avail_in = (uInt)refill(d);
				d->z.next_in = d->in;
				if (d->error) {
					errno = EIO;
					return -1;
				}
				if (!d->z.avail_in)
					continue;
			}
			d->mid = true;
			r = inflate(&d->z, Z_NO_FLUSH);
			if (r == Z_STREAM_END) {
				d->mid = false;
				/* concatenated members (gzip -c a b) */
				if (inflateReset(&d->z) != Z_OK) {
					errno = EIO;
					return -1;
				}
			} else if (r != Z_OK && r != Z_BUF_ERROR) {
				errno = EILSEQ;
				return -1;
			}
		}
		return (ssize_t)(size - d->z.avail_out);
	}
#endif
#ifdef HAVE_LZMA
	if (d->kind == K_XZ) {
		d->x.next_out = (uint8_t *)buf;
		d->x.avail_out = size;
		while (d->x.avail_out == size) {
			lzma_ret r;

			if (d->x.avail_in == 0 && !d->eof) {
				d->x.avail_in = refill(d);
				d->x.next_in = d->in;
				if (d->error) {
					errno = EIO;
					return -1;
				}
			}
			r = lzma_code(&d->x, d->eof && !d->x.avail_in ? LZMA_FINISH : LZMA_RUN);
			if (r == LZMA_STREAM_END)
				break;
			if (r != LZMA_OK && r != LZMA_BUF_ERROR) {
				errno = EILSEQ;
				return -1;
			}
			if (r == LZMA_BUF_ERROR && d->eof) {
				errno = EILSEQ; /* truncated */
				return -1;
			}
		}
		return (ssize_t)(size - d->x.avail_out);
	}
#endif
	(void)buf;
	(void)size;
	errno = EINVAL;
	return -1;
}

static int dec_close(void *cookie)
{
	struct dec *d = cookie;
	int r = d->src != stdin ? fclose(d->src) : 0;

#ifdef HAVE_ZLIB
	if (d->kind == K_GZ)
		inflateEnd(&d->z);
#endif
#ifdef HAVE_LZMA
	if (d->kind == K_XZ)
		lzma_end(&d->x);
#endif
	g_free(d);
	return r;
}

const char *is_input_strerror(int err)
{
	return err == EILSEQ ? "compressed data corrupt or cut short" : g_strerror(err);
}

FILE *is_open_input(const char *path, GError **error)
{
	static const unsigned char gz[2] = { 0x1f, 0x8b };
	static const unsigned char xz[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	bool is_stdin = strcmp(path, "-") == 0;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	unsigned char m[6];
	size_t n;
	struct dec *d;
	cookie_io_functions_t io = { .read = dec_read, .close = dec_close };
	FILE *out;

	if (!f) {
		g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: %s", path, g_strerror(errno));
		return NULL;
	}
	if (!is_stdin) {
		n = fread(m, 1, sizeof(m), f);
		if (!(n >= 2 && !memcmp(m, gz, 2)) && !(n == 6 && !memcmp(m, xz, 6))) {
			rewind(f);
			return f;
		}
	} else {
		/* stdin cannot rewind: the magic goes through the decoder's buffer */
		n = fread(m, 1, sizeof(m), f);
	}
	d = g_new0(struct dec, 1);
	d->src = f;
	d->kind = n >= 2 && !memcmp(m, gz, 2) ? K_GZ : n == 6 && !memcmp(m, xz, 6) ? K_XZ :
		  K_PLAIN;
	if (is_stdin) {
		memcpy(d->in, m, n);
		d->pre = n;
	} else {
		rewind(f);
	}
#ifdef HAVE_ZLIB
	if (d->kind == K_GZ && inflateInit2(&d->z, 15 + 16) != Z_OK)
		goto nolib;
#else
	if (d->kind == K_GZ) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: gzip input, and this build has no zlib: gunzip it first", path);
		goto fail;
	}
#endif
#ifdef HAVE_LZMA
	if (d->kind == K_XZ &&
	    lzma_stream_decoder(&d->x, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		goto nolib;
#else
	if (d->kind == K_XZ) {
		g_set_error(error, IS_ERROR, IS_ERROR_INVALID,
			    "%s: xz input, and this build has no liblzma: unxz it first", path);
		goto fail;
	}
#endif
	out = fopencookie(d, "r", io);
	if (!out)
		goto nolib;
	return out;
#if defined(HAVE_ZLIB) || defined(HAVE_LZMA)
nolib:
	g_set_error(error, IS_ERROR, IS_ERROR_IO, "%s: cannot start the decompressor", path);
#endif
#if !defined(HAVE_ZLIB) || !defined(HAVE_LZMA)
fail:
#endif
	if (!is_stdin)
		fclose(f);
	g_free(d);
	return NULL;
}
