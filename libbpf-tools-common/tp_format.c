// SPDX-License-Identifier: GPL-2.0
/* tracefs event formats: see tp_format.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe.h"
#include "tp_format.h"

#define TP_FORMAT_MAX_BYTES (256 * 1024)

static void set_error(struct tp_format *fmt, const char *f, ...)
{
	va_list ap;
	char *nl;

	va_start(ap, f);
	vsnprintf(fmt->error, sizeof(fmt->error), f, ap);
	va_end(ap);
	/* One line, whatever the kernel's text held. */
	while ((nl = strpbrk(fmt->error, "\r\n")))
		*nl = ' ';
}

/* "gpu_scheduler/drm_run_job", or the event alone when parsed from text. */
static const char *event_name(const struct tp_format *fmt, char *buf, size_t size)
{
	if (fmt->system[0])
		snprintf(buf, size, "%s/%s", fmt->system, fmt->event[0] ? fmt->event : "?");
	else
		snprintf(buf, size, "%s", fmt->event[0] ? fmt->event : "?");
	return buf;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static bool parse_uint(const char *s, unsigned int max, unsigned int *out)
{
	unsigned long v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return false;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > max)
			return false;
	}
	*out = (unsigned int)v;
	return true;
}

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Strip a leading word (and the spaces after it) if `s` starts with it. */
static bool strip_prefix(char **s, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(*s, word, n) || !isspace((unsigned char)(*s)[n]))
		return false;
	*s = trim(*s + n);
	return true;
}

static bool is_char_type(const char *t)
{
	return !strcmp(t, "char") || !strcmp(t, "const char") || !strcmp(t, "signed char");
}

/*
 * "TYPE NAME" or "TYPE NAME[LEN]" (the text between "field:" and ';'):
 * fills name, type, array_len and the flags the declaration implies.
 */
static const char *parse_decl(char *decl, struct tp_format_field *f)
{
	char *end, *name, *type, *br;

	decl = trim(decl);
	end = decl + strlen(decl);
	if (end > decl && end[-1] == ']') {
		br = strrchr(decl, '[');
		if (!br)
			return "unbalanced [";
		end[-1] = '\0';
		f->flags |= TP_FIELD_ARRAY;
		if (!parse_uint(trim(br + 1), 1U << 20, &f->array_len))
			f->array_len = 0;	/* a macro the kernel did not expand: size says it all */
		*br = '\0';
		end = br;
		while (end > decl && isspace((unsigned char)end[-1]))
			*--end = '\0';
	}
	name = end;
	while (name > decl && is_ident_char(name[-1]))
		name--;
	if (name == end)
		return "no field name";
	if (name == decl)
		return "no type before the field name";
	if ((size_t)(end - name) >= sizeof(f->name))
		return "field name too long";
	memcpy(f->name, name, (size_t)(end - name));
	f->name[end - name] = '\0';
	*name = '\0';
	type = trim(decl);
	if (!*type)
		return "no type before the field name";
	snprintf(f->type, sizeof(f->type), "%s", type);
	if (strip_prefix(&type, "__data_loc"))
		f->flags |= TP_FIELD_DATA_LOC;
	else if (strip_prefix(&type, "__rel_loc"))
		f->flags |= TP_FIELD_REL_LOC;
	if (f->flags & (TP_FIELD_DATA_LOC | TP_FIELD_REL_LOC)) {
		/* "char[]": the element type, dynamic length */
		size_t n = strlen(type);

		if (n >= 2 && !strcmp(type + n - 2, "[]"))
			type[n - 2] = '\0';
		type = trim(type);
		if (f->flags & TP_FIELD_ARRAY)
			return "__data_loc field with a fixed length";
		if (is_char_type(type))
			f->flags |= TP_FIELD_CHAR;
	} else if ((f->flags & TP_FIELD_ARRAY) && is_char_type(type)) {
		f->flags |= TP_FIELD_CHAR;
	} else if (type[strlen(type) - 1] == '*') {
		f->flags |= TP_FIELD_PTR;
		/* "const char *": a string the record points at */
		type[strlen(type) - 1] = '\0';
		if (is_char_type(trim(type)))
			f->flags |= TP_FIELD_CHAR;
	}
	return NULL;
}

/* "\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" (the text after "field:"). */
static const char *parse_field(char *line, struct tp_format_field *f)
{
	char *semi, *item, *save = NULL, *colon;
	bool have_offset = false, have_size = false;
	unsigned int v;
	const char *err;

	memset(f, 0, sizeof(*f));
	semi = strchr(line, ';');
	if (!semi)
		return "no ';' after the declaration";
	*semi = '\0';
	err = parse_decl(line, f);
	if (err)
		return err;
	for (item = strtok_r(semi + 1, ";", &save); item; item = strtok_r(NULL, ";", &save)) {
		item = trim(item);
		if (!*item)
			continue;
		colon = strchr(item, ':');
		if (!colon)
			return "an attribute without ':'";
		*colon = '\0';
		if (!parse_uint(trim(colon + 1), 0xffff, &v))
			return "an attribute that is not a number up to 65535";
		if (!strcmp(item, "offset")) {
			f->offset = v;
			have_offset = true;
		} else if (!strcmp(item, "size")) {
			f->size = v;
			have_size = true;
		} else if (!strcmp(item, "signed")) {
			if (v > 1)
				return "signed is neither 0 nor 1";
			if (v)
				f->flags |= TP_FIELD_SIGNED;
		}
		/* other attributes (none today): ignored */
	}
	if (!have_offset)
		return "no offset";
	if (!have_size)
		return "no size";
	if (!f->size)
		return "size 0";
	if (f->offset + f->size > 0xffff)
		return "offset + size beyond 65535";
	if ((f->flags & TP_FIELD_PTR) && f->size != 8 && f->size != 4)
		return "a pointer neither 4 nor 8 bytes";
	if (f->flags & (TP_FIELD_DATA_LOC | TP_FIELD_REL_LOC)) {
		if (f->size != 4)
			return "a __data_loc field not 4 bytes";
		/* 6.1 prints signed:1 for them: meaningless for a location */
		f->flags &= ~TP_FIELD_SIGNED;
	}
	f->common = !strncmp(f->name, "common_", 7);
	return NULL;
}

int tp_format_parse(const char *text, const char *path, struct tp_format *fmt)
{
	char *copy, *line, *next, *t;
	bool in_format = false, done = false;
	unsigned int lineno = 0, id;
	const char *err;
	char where[TP_NAME_LEN * 2 + 2];
	int ret = 0;

	fmt->id = -1;
	fmt->nr_fields = 0;
	fmt->error[0] = '\0';
	if (path != fmt->path) {
		/* text from elsewhere: nothing of an earlier load applies */
		fmt->system[0] = fmt->event[0] = '\0';
		snprintf(fmt->path, sizeof(fmt->path), "%s", path ? path : "(format)");
	}
	copy = strdup(text);
	if (!copy) {
		set_error(fmt, "%s: out of memory", fmt->path);
		return -ENOMEM;
	}
	for (line = copy; line && !done; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		t = trim(line);
		if (!*t)
			continue;
		if (!in_format) {
			if (!strncmp(t, "name:", 5)) {
				snprintf(fmt->event, sizeof(fmt->event), "%s", trim(t + 5));
			} else if (!strncmp(t, "ID:", 3)) {
				if (!parse_uint(trim(t + 3), INT32_MAX, &id)) {
					set_error(fmt, "%s:%u: ID is not a number: \"%.60s\"", fmt->path, lineno, t);
					ret = -EINVAL;
					break;
				}
				fmt->id = (int)id;
			} else if (!strcmp(t, "format:")) {
				in_format = true;
			} else {
				set_error(fmt, "%s:%u: not a tracepoint format (expected name:, ID:, format:): \"%.60s\"",
					  fmt->path, lineno, t);
				ret = -EINVAL;
				break;
			}
			continue;
		}
		if (!strncmp(t, "print fmt:", 10)) {
			done = true;
			continue;
		}
		if (strncmp(t, "field:", 6)) {
			set_error(fmt, "%s:%u: expected a field: \"%.60s\"", fmt->path, lineno, t);
			ret = -EINVAL;
			break;
		}
		if (fmt->nr_fields == TP_FORMAT_MAX_FIELDS) {
			set_error(fmt, "%s:%u: more than %d fields", fmt->path, lineno, TP_FORMAT_MAX_FIELDS);
			ret = -EINVAL;
			break;
		}
		/* the message quotes the line: parse a copy */
		{
			char quoted[64];

			snprintf(quoted, sizeof(quoted), "%s", t);
			err = parse_field(t + 6, &fmt->fields[fmt->nr_fields]);
			if (err) {
				set_error(fmt, "%s:%u: cannot parse field (%s): \"%s\"", fmt->path, lineno, err,
					  quoted);
				ret = -EINVAL;
				break;
			}
		}
		fmt->nr_fields++;
	}
	free(copy);
	if (!ret && !in_format) {
		set_error(fmt, "%s: not a tracepoint format: no \"format:\" line", fmt->path);
		ret = -EINVAL;
	} else if (!ret && !fmt->nr_fields) {
		set_error(fmt, "%s: %s has no fields", fmt->path, event_name(fmt, where, sizeof(where)));
		ret = -EINVAL;
	}
	if (ret)
		fmt->nr_fields = 0;
	return ret;
}

int tp_format_load(const char *system, const char *event, struct tp_format *fmt)
{
	const char *tracefs;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd, ret, err;

	memset(fmt, 0, sizeof(*fmt));
	fmt->id = -1;
	snprintf(fmt->system, sizeof(fmt->system), "%s", system);
	snprintf(fmt->event, sizeof(fmt->event), "%s", event);
	errno = 0;
	tracefs = tracefs_path();
	if (!tracefs) {
		err = errno ? errno : ENOENT;
		set_error(fmt, "tracefs is not mounted (/sys/kernel/tracing) and could not be mounted: %s",
			  strerror(err));
		return -err;
	}
	snprintf(fmt->path, sizeof(fmt->path), "%s/events/%s/%s/format", tracefs, system, event);
	fd = open(fmt->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		if (err == ENOENT)
			set_error(fmt, "no tracepoint %s/%s: %s does not exist", system, event, fmt->path);
		else
			set_error(fmt, "cannot open %s: %s", fmt->path, strerror(err));
		return -err;
	}
	/* tracefs files say size 0: read until EOF */
	for (;;) {
		if (cap - len < 4096) {
			char *nb;

			if (cap >= TP_FORMAT_MAX_BYTES) {
				set_error(fmt, "%s: larger than %d bytes", fmt->path, TP_FORMAT_MAX_BYTES);
				ret = -EFBIG;
				goto out;
			}
			cap = cap ? cap * 2 : 8192;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				set_error(fmt, "%s: out of memory", fmt->path);
				ret = -ENOMEM;
				goto out;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			set_error(fmt, "cannot read %s: %s", fmt->path, strerror(err));
			ret = -err;
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (!buf || !len) {
		set_error(fmt, "%s is empty", fmt->path);
		ret = -EINVAL;
		goto out;
	}
	buf[len] = '\0';
	if (memchr(buf, '\0', len)) {
		set_error(fmt, "%s: not a text file", fmt->path);
		ret = -EINVAL;
		goto out;
	}
	ret = tp_format_parse(buf, fmt->path, fmt);
	if (!ret && strcmp(fmt->event, event)) {
		set_error(fmt, "%s names event \"%s\", not %s", fmt->path, fmt->event, event);
		ret = -EINVAL;
	}
	/* parse took the event's name from the file */
	snprintf(fmt->event, sizeof(fmt->event), "%s", event);
out:
	free(buf);
	close(fd);
	return ret;
}

const struct tp_format_field *tp_field_find(const struct tp_format *fmt, const char *name)
{
	unsigned int i;

	for (i = 0; i < fmt->nr_fields; i++)
		if (!strcmp(fmt->fields[i].name, name))
			return &fmt->fields[i];
	return NULL;
}

void tp_field_from(const struct tp_format_field *f, struct tp_field *out)
{
	memset(out, 0, sizeof(*out));
	out->offset = (__u16)f->offset;
	out->size = (__u16)f->size;
	out->flags = (__u8)(TP_FIELD_PRESENT | (f->flags & ~TP_FIELD_PRESENT));
}

int tp_field_get(struct tp_format *fmt, const char *names, enum tp_want want, struct tp_field *out)
{
	const struct tp_format_field *f = NULL;
	char alt[TP_NAME_LEN], where[TP_NAME_LEN * 2 + 2];
	const char *p = names, *bar;
	size_t n;

	memset(out, 0, sizeof(*out));
	while (!f && *p) {
		bar = strchr(p, '|');
		n = bar ? (size_t)(bar - p) : strlen(p);
		if (n < sizeof(alt)) {
			memcpy(alt, p, n);
			alt[n] = '\0';
			f = tp_field_find(fmt, alt);
		}
		p += n + (bar ? 1 : 0);
	}
	event_name(fmt, where, sizeof(where));
	if (!f) {
		if (strchr(names, '|')) {
			char list[256], *c;

			snprintf(list, sizeof(list), "%s", names);
			for (c = list; (c = strchr(c, '|'));)
				*c = '/';
			set_error(fmt, "%s has none of the fields %s (%s)", where, list, fmt->path);
		} else {
			set_error(fmt, "%s has no field %s (%s)", where, names, fmt->path);
		}
		return -ENOENT;
	}
	if (f->offset < TP_RECORD_FIRST) {
		set_error(fmt, "%s: field %s is in the record's first %d bytes, which BPF programs cannot read (%s)",
			  where, f->name, TP_RECORD_FIRST, fmt->path);
		return -EINVAL;
	}
	switch (want) {
	case TP_WANT_INT:
		if ((f->flags & (TP_FIELD_DATA_LOC | TP_FIELD_REL_LOC | TP_FIELD_ARRAY)) ||
		    (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)) {
			set_error(fmt, "%s: field %s is \"%s\" (%u bytes), not an integer (%s)", where, f->name,
				  f->type, f->size, fmt->path);
			return -EINVAL;
		}
		break;
	case TP_WANT_STR:
		if (!(f->flags & TP_FIELD_CHAR)) {
			set_error(fmt, "%s: field %s is \"%s\", not a string (%s)", where, f->name, f->type,
				  fmt->path);
			return -EINVAL;
		}
		break;
	case TP_WANT_ANY:
		break;
	}
	tp_field_from(f, out);
	return 0;
}

unsigned int tp_format_fixed_size(const struct tp_format *fmt)
{
	unsigned int i, end = 0;

	for (i = 0; i < fmt->nr_fields; i++)
		if (fmt->fields[i].offset + fmt->fields[i].size > end)
			end = fmt->fields[i].offset + fmt->fields[i].size;
	return end;
}
