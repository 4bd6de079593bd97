/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strings a traced process or a driver chooses - a comm (any process can
 * set its own, or name its executable so), a CUDA kernel's symbol, a
 * library path, an Xid message, a cgroup's name - printed so that they can
 * neither drive the reader's terminal nor forge or split rows that grep and
 * awk count.
 *
 * In text output such a string shows:
 *   - every control byte (0x00-0x1f, 0x7f), every C1 control (U+0080 to
 *     U+009F) and every byte that is not part of valid UTF-8 as \xNN;
 *   - a backslash as \\, so an escape in the output is always ours;
 *   - a space as \x20, except where the string ends the line (the last
 *     column, a message), so a row always has its number of columns;
 *   - valid printable UTF-8 as is.
 * JSON output (table.c) escapes by JSON's rules instead; metrics by
 * Prometheus' (metrics.c).
 */
#ifndef GPU_BPF_UNTRUSTED_H
#define GPU_BPF_UNTRUSTED_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (n bytes left, n > 0); 0: not valid UTF-8. */
size_t utf8_len(const unsigned char *s, size_t n);

/*
 * `s` (up to `max` bytes) as text output shows it, in out (size bytes,
 * cut at a whole escape when it does not fit). `keep_spaces`: the string
 * ends its line. Returns out.
 */
char *text_escape(char *out, size_t size, const char *s, size_t max, bool keep_spaces);

/*
 * text_escape() of a whole string into one of a few rotating static
 * buffers, for printf's arguments (several per call; the tools are
 * single-threaded): text_safe() keeps spaces (a message, a title, the end
 * of a line), text_safe_word() escapes them (a column among others).
 */
const char *text_safe(const char *s);
const char *text_safe_word(const char *s);

/*
 * Process pid's name from /proc/PID/comm into buf (size bytes), whole: the
 * kernel ends it with one newline, and that alone is dropped - a name can
 * hold newlines of its own. false (buf "") when there is no such process.
 */
bool proc_comm_read(unsigned int pid, char *buf, size_t size);

#endif /* GPU_BPF_UNTRUSTED_H */
