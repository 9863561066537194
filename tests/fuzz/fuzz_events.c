// SPDX-License-Identifier: GPL-2.0-or-later
/* The event timeline's readers (lib/events): a kernel log as a snapshot's dev/kmsg holds it,
 * every line through sb_ev_parse_kmsg(), and the input's lines as uevent fields. Every
 * string of an event stays inside its array, NUL-terminated; kinds are short words. */
#include "fuzz.h"
#include "socbox/events.h"
#include "socbox/kmsg.h"

static void check(const struct sb_event *ev)
{
	FUZZ_ASSERT(memchr(ev->kind, 0, sizeof(ev->kind)) &&
		    memchr(ev->object, 0, sizeof(ev->object)) &&
		    memchr(ev->detail, 0, sizeof(ev->detail)));
	FUZZ_ASSERT((unsigned)ev->subsys < SB_EV_NSUBSYS && ev->kind[0] && ev->source);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_kmsg log = { 0 };
	struct sb_ev_list l = { 0 };
	struct sb_event ev;

	if (sb_kmsg_parse(fuzz_text(data, size), &log))
		return 0;
	for (size_t i = 0; i < log.n; i++) {
		if (sb_ev_parse_kmsg(&log.lines[i], &ev)) {
			check(&ev);
			FUZZ_ASSERT(sb_ev_add(&l, &ev) == 0);
		}
		/* a line as a uevent's fields: action, devpath, devname */
		if (sb_ev_from_uevent(i % 2 ? "add" : "remove", log.lines[i].text,
				      i % 3 ? log.lines[i].text : "", log.lines[i].ts_us, &ev))
			check(&ev);
	}
	sb_ev_sort(&l);
	/* the order sb_ev_add documents: by place, arrival for equal places; a kernel log
	 * event's place is never before its own time nor before an event the log holds earlier
	 * (its time may be: printk clocks step back across CPUs) */
	for (size_t i = 0; i < l.n; i++) {
		if (l.v[i].has_ts)
			FUZZ_ASSERT(l.v[i].key_us >= l.v[i].ts_us);
		if (i)
			FUZZ_ASSERT(l.v[i - 1].key_us < l.v[i].key_us ||
				    (l.v[i - 1].key_us == l.v[i].key_us &&
				     l.v[i - 1].seq < l.v[i].seq));
	}
	sb_ev_list_free(&l);
	sb_kmsg_free(&log);
	return 0;
}
