// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "untrusted.h"

size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, UTF-16 surrogates and beyond U+10FFFF are not UTF-8. */
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/* Is the sequence at s (len bytes, valid UTF-8) a C1 control, U+0080..U+009F? */
static bool is_c1(const unsigned char *s, size_t len)
{
	return len == 2 && s[0] == 0xc2 && s[1] < 0xa0;
}

char *text_escape(char *out, size_t size, const char *str, size_t max, bool keep_spaces)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strnlen(str, max), i = 0, o = 0, len, k;
	char esc[16];

	if (!size)
		return out;
	while (i < n) {
		unsigned char c = s[i];

		len = utf8_len(s + i, n - i);
		esc[0] = '\0';
		if (c == '\\') {
			snprintf(esc, sizeof(esc), "\\\\");
			len = 1;
		} else if (c < 0x20 || c == 0x7f || (c == ' ' && !keep_spaces)) {
			snprintf(esc, sizeof(esc), "\\x%02x", c);
			len = 1;
		} else if (!len || is_c1(s + i, len)) {
			/* Each byte of it: an invalid one stands alone, a C1 control is two. */
			if (!len)
				len = 1;
			for (k = 0; k < len; k++)
				snprintf(esc + 4 * k, sizeof(esc) - 4 * k, "\\x%02x", s[i + k]);
		}
		if (esc[0]) {
			if (o + strlen(esc) >= size)
				break;
			memcpy(out + o, esc, strlen(esc));
			o += strlen(esc);
		} else {
			if (o + len >= size)
				break;
			memcpy(out + o, s + i, len);
			o += len;
		}
		i += len;
	}
	out[o] = '\0';
	return out;
}

#define NR_BUFS 8

static const char *rotate(const char *s, bool keep_spaces)
{
	/* A comm escaped whole is 4 x 15 bytes; paths and symbols are longer. */
	static char bufs[NR_BUFS][1024];
	static unsigned int next;
	char *buf = bufs[next++ % NR_BUFS];

	return text_escape(buf, sizeof(bufs[0]), s, sizeof(bufs[0]), keep_spaces);
}

const char *text_safe(const char *s)
{
	return rotate(s, true);
}

const char *text_safe_word(const char *s)
{
	return rotate(s, false);
}

bool proc_comm_read(unsigned int pid, char *buf, size_t size)
{
	char path[32];
	ssize_t n;
	int fd;

	if (!size)
		return false;
	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0) {
		buf[0] = '\0';
		return false;
	}
	if (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return true;
}
