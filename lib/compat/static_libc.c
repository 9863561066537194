// SPDX-License-Identifier: GPL-2.0-or-later
/* The static build (SOCBOX_STATIC) must not load anything from the board at run time, and a
 * static glibc would: NSS modules for getpwuid()/getgrgid() and gconv modules for iconv(),
 * dlopen()ed from the board's own glibc, of another version. So here:
 * - getpwuid()/getgrgid() read /etc/passwd and /etc/group only, as "files" in nsswitch;
 * - iconv_open() fails (EINVAL), so popt prints its help text as written (UTF-8, ASCII in
 *   practice) instead of converting it to the locale's charset.
 * - glibc's internal __fxprintf() (assert messages) prints with vfprintf() alone: socbox
 *   never makes a stream wide-oriented, so glibc would take that path too, and its wide
 *   printf stays out;
 * - the gettext functions return the message as written: socbox never calls setlocale(), so
 *   it runs in the "C" locale, where glibc's gettext returns every message untranslated
 *   (LANGUAGE is ignored there); only popt and glibc's strerror() ask.
 * - glibc's gconv database (gconv_db.o) is replaced: socbox never makes a stream
 *   wide-oriented nor calls setlocale(), so its streams and mbrtowc() only ever use the C
 *   locale's built-in ASCII steps, which need no database. fclose() would otherwise bring
 *   it for the wide streams it never sees (__gconv_release_step) and, through the
 *   database's clean-up at exit, the loading of locales and message catalogues and
 *   dlopen(): about 51 KiB on aarch64;
 * - glibc's wcsmbsload.c is replaced by the C locale's two ASCII steps, which glibc links
 *   with all its other built-in ones (gconv_simple.o): 32 KiB on aarch64.
 * The linker then leaves glibc's NSS, gconv and dlopen machinery out: about 190 KiB, and
 * most of its message catalogue code (catalogue loading, plural expressions, locale
 * aliases, charset conversion of translations) and its wide-character printf: about 44 KiB.
 * Further down, sscanf() is socbox's own sb_sscanf() (strtod() is sb_strtod(), in
 * lib/compat/strtod.c), and what pthread_create() asks for thread cancellation, the
 * resolver and (on aarch64) the unwinder is answered here.
 * A glibc whose objects define one of these next to something else socbox needs fails the
 * link (a duplicate definition), never silently. */
#define _GNU_SOURCE
#include "socbox/config.h"

#if SOCBOX_STATIC
#include <errno.h>
#include <gconv.h>
#include <grp.h>
#include <iconv.h>
#include <limits.h>
#include <libintl.h>
#include <pthread.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "socbox/scan.h"

struct passwd *getpwuid(uid_t uid)
{
	FILE *f = fopen("/etc/passwd", "re");
	struct passwd *pw = NULL;

	if (!f)
		return NULL;
	while ((pw = fgetpwent(f)) && pw->pw_uid != uid)
		;
	fclose(f);
	return pw;
}

struct group *getgrgid(gid_t gid)
{
	FILE *f = fopen("/etc/group", "re");
	struct group *gr = NULL;

	if (!f)
		return NULL;
	while ((gr = fgetgrent(f)) && gr->gr_gid != gid)
		;
	fclose(f);
	return gr;
}

iconv_t iconv_open(const char *tocode, const char *fromcode)
{
	errno = EINVAL;
	return (iconv_t)-1;
}

size_t iconv(iconv_t cd, char **in, size_t *inleft, char **out, size_t *outleft)
{
	errno = EBADF;
	return (size_t)-1;
}

int iconv_close(iconv_t cd)
{
	errno = EBADF;
	return -1;
}

/* glibc's gconv database (gconv_db.c), for a program that only has the C locale's
 * built-in steps: no step is ever looked up (the C locale's are static in wcsmbsload.c),
 * so none is released, and a named charset (fopen's ",ccs=", a locale's codeset) has no
 * conversion, as for a static glibc without its gconv modules. */
int __gconv_lock;

void __gconv_release_step(struct __gconv_step *step);

void __gconv_release_step(struct __gconv_step *step)
{
}

int __gconv_find_transform(const char *toset, const char *fromset, struct __gconv_step **handle,
			   size_t *nsteps, int flags);

int __gconv_find_transform(const char *toset, const char *fromset, struct __gconv_step **handle,
			   size_t *nsteps, int flags)
{
	return __GCONV_NOCONV;
}

int __gconv_close_transform(struct __gconv_step *steps, size_t nsteps);

int __gconv_close_transform(struct __gconv_step *steps, size_t nsteps)
{
	return __GCONV_OK;
}

/* names are compared without the alias table (gconv-modules is never read) */
int __gconv_compare_alias(const char *name1, const char *name2);

int __gconv_compare_alias(const char *name1, const char *name2)
{
	return strcmp(name1, name2);
}

/* glibc's wcsmbsload.c, for the C locale alone: the conversions between char and wchar_t
 * that mbrtowc(), mbsrtowcs(), wcrtomb() and btowc() use (popt measures its help text with
 * mbsrtowcs()), as glibc's built-in ASCII steps do them (gconv_simple.c: a byte over 0x7f,
 * or a wide character over 0x7f, is an illegal sequence), without the 26 KiB of every
 * other built-in step that glibc's table links with them. A locale other than "C" is never
 * loaded (socbox never calls setlocale()), and fopen()'s ",ccs=" has no conversion. */
struct gconv_fcts {
	struct __gconv_step *towc;
	size_t towc_nsteps;
	struct __gconv_step *tomb;
	size_t tomb_nsteps;
};

static int ascii_step(
	struct __gconv_step *step, struct __gconv_step_data *data, const unsigned char **inptrp,
	const unsigned char *inend, unsigned char **outbufstart, size_t *irreversible, int do_flush,
	int consume_incomplete)
{
	int towc = step->__min_needed_to == 4;
	int status = __GCONV_EMPTY_INPUT;
	const unsigned char *in;
	unsigned char *out;

	if (do_flush) { /* stateless: nothing is pending (no input given either) */
		memset(data->__statep, 0, sizeof(*data->__statep));
		return __GCONV_OK;
	}
	in = *inptrp;
	out = outbufstart ? *outbufstart : data->__outbuf;
	while (in < inend) {
		uint32_t wc;

		if (!towc && inend - in < 4) {
			status = __GCONV_INCOMPLETE_INPUT;
			break;
		}
		if (data->__outbufend - out < (towc ? 4 : 1)) {
			status = __GCONV_FULL_OUTPUT;
			break;
		}
		if (towc)
			wc = *in;
		else
			memcpy(&wc, in, 4);
		if (wc > 0x7f) {
			if (!(data->__flags & __GCONV_IGNORE_ERRORS)) {
				status = __GCONV_ILLEGAL_INPUT;
				break;
			}
			++*irreversible;
		} else if (towc) {
			memcpy(out, &wc, 4);
			out += 4;
		} else {
			*out++ = (unsigned char)wc;
		}
		in += towc ? 1 : 4;
	}
	*inptrp = in;
	if (outbufstart)
		*outbufstart = out;
	else
		data->__outbuf = out;
	++data->__invocation_counter;
	return status;
}

static wint_t ascii_btowc(struct __gconv_step *step, unsigned char c)
{
	return c > 0x7f ? WEOF : c;
}

static struct __gconv_step c_towc = {
	.__counter = INT_MAX,
	.__from_name = (char *)"ANSI_X3.4-1968//TRANSLIT",
	.__to_name = (char *)"INTERNAL",
	.__fct = ascii_step,
	.__btowc_fct = ascii_btowc,
	.__min_needed_from = 1,
	.__max_needed_from = 1,
	.__min_needed_to = 4,
	.__max_needed_to = 4,
};

static struct __gconv_step c_tomb = {
	.__counter = INT_MAX,
	.__from_name = (char *)"INTERNAL",
	.__to_name = (char *)"ANSI_X3.4-1968//TRANSLIT",
	.__fct = ascii_step,
	.__min_needed_from = 4,
	.__max_needed_from = 4,
	.__min_needed_to = 1,
	.__max_needed_to = 1,
};

extern const struct gconv_fcts __wcsmbs_gconv_fcts_c;
const struct gconv_fcts __wcsmbs_gconv_fcts_c = { &c_towc, 1, &c_tomb, 1 };

struct __locale_data;
void __wcsmbs_load_conv(struct __locale_data *new_category);
void __wcsmbs_clone_conv(struct gconv_fcts *copy);
int __wcsmbs_named_conv(struct gconv_fcts *copy, const char *name);

/* only for a locale other than "C", whose LC_CTYPE has no conversions yet: never */
void __wcsmbs_load_conv(struct __locale_data *new_category)
{
}

void __wcsmbs_clone_conv(struct gconv_fcts *copy)
{
	*copy = __wcsmbs_gconv_fcts_c;
}

int __wcsmbs_named_conv(struct gconv_fcts *copy, const char *name)
{
	return 1;
}

/* glibc's own: stderr when fp is NULL; the wide path only for a wide-oriented stream */
int __fxprintf(FILE *fp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int __fxprintf(FILE *fp, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(fp ? fp : stderr, fmt, ap);
	va_end(ap);
	return n;
}

/* pthread_create() (lib/iommu's stress, lib/rpmsg's throughput) asks for two parts of glibc
 * that socbox never uses (16 KiB on aarch64, 24 KiB more with the unwinder below):
 * - __pthread_cancel: pthread_create.o asks for it only so that libgcc_eh and libsupc++
 *   find it (PTHREAD_STATIC_FN_REQUIRE); it brings glibc's cancellation and unwinding
 *   (pthread_cancel.o, unwind.o). socbox never cancels a thread (nor calls pthread_exit(),
 *   which size-check refuses), so the request is answered here; a call would fail: ENOSYS.
 * - __libc_resp: the resolver's state pointer, which each new thread points at its own
 *   state. socbox resolves no host names (inet_pton() keeps no state), so nothing reads it,
 *   and glibc's res_libc.o would bring the resolver's set-up (res_init, resolv_conf,
 *   /etc/host.conf parsing).
 * (pthread_create()'s other large request, dl-load.o, is linked by the static start-up
 * anyway.) As above, a glibc that defines one of these beside something socbox needs
 * fails the link. */
int __pthread_cancel(pthread_t th);
extern __thread void *__libc_resp __attribute__((tls_model("initial-exec")));

int __pthread_cancel(pthread_t th)
{
	return ENOSYS;
}

__thread void *__libc_resp __attribute__((tls_model("initial-exec")));

/* glibc's objects built with cleanups (fclose(), puts(), getdelim(), ...: the stream locks)
 * refer to libgcc_eh's _Unwind_Resume() and C personality routine, for a thread that
 * unwinds through them. None can here: the static build discards every unwind table
 * (cmake/static-no-eh-frame.ld) and socbox never cancels nor exits a thread, so the
 * unwinder they would bring (libgcc_eh's unwind-dw2*.o, unwind-c.o: 24 KiB on aarch64)
 * could never find a frame. Were unwinding started, the program stops as it would there.
 * On 32-bit Arm glibc's start-up code names EHABI's personality routines in its own unwind
 * index (__aeabi_unwind_cpp_pr0..2), which would bring the unwinder (5 KiB on armhf): they
 * are answered the same way. */
#ifdef __ARM_EABI__
int __aeabi_unwind_cpp_pr0(int state, void *ucbp, void *context);
int __aeabi_unwind_cpp_pr1(int state, void *ucbp, void *context);
int __aeabi_unwind_cpp_pr2(int state, void *ucbp, void *context);

int __aeabi_unwind_cpp_pr0(int state, void *ucbp, void *context)
{
	return 9; /* _URC_FAILURE: no frame to unwind */
}

int __aeabi_unwind_cpp_pr1(int state, void *ucbp, void *context)
{
	return 9;
}

int __aeabi_unwind_cpp_pr2(int state, void *ucbp, void *context)
{
	return 9;
}
#endif
void _Unwind_Resume(void *exception);
int __gcc_personality_v0(int version, int actions, unsigned long long exception_class,
			 void *exception, void *context);

void _Unwind_Resume(void *exception)
{
	abort();
}

int __gcc_personality_v0(int version, int actions, unsigned long long exception_class,
			 void *exception, void *context)
{
	return 3; /* _URC_FATAL_PHASE1_ERROR: no handler, no frame to clean up */
}

/* sscanf() (glibc's ISO C99 entry point, which every call compiles to) is sb_sscanf()
 * (lib/compat/scan.c): glibc's engine brings its floating-point conversions (strtold and
 * strtof, with 128-bit arithmetic on aarch64: 60 KiB there) for formats of integers and
 * strings. The callers left: glibc's TZ parsing (tzset.c, for localtime_r()),
 * whose formats ("%hu%n:%hu%n:%hu%n", "M%hu.%hu.%hu%n") tests/unit/test_scan.c compares
 * with glibc's sscanf(), as it does every format of socbox's own sources. */
int __isoc99_sscanf(const char *s, const char *fmt, ...);

int __isoc99_sscanf(const char *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = sb_vsscanf(s, fmt, ap);
	va_end(ap);
	return n;
}

/* glibc's own callers (strerror) use the internal name */
char *__dcgettext(const char *domain, const char *msgid, int category);

char *__dcgettext(const char *domain, const char *msgid, int category)
{
	return (char *)msgid;
}

char *dcgettext(const char *domain, const char *msgid, int category)
{
	return (char *)msgid;
}

/* what glibc answers before any textdomain() call */
char *textdomain(const char *domain)
{
	return (char *)"messages";
}

char *bindtextdomain(const char *domain, const char *dir)
{
	return NULL;
}

/* no codeset was ever bound: glibc's answer */
char *bind_textdomain_codeset(const char *domain, const char *codeset)
{
	return NULL;
}
#endif
