#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# static-check: it runs with the static binary under qemu-user too (no applet link needed)
# dmabufcp's command line: what is a usage error (2), what needs the live kernel (3).
# shellcheck disable=SC2086 # $D is "$SOCBOX dmabufcp": split into words on purpose
. "$SOCBOX_TESTLIB"
B=$SOCBOX_FIXTURES/am62x-dmabuf
D="$SOCBOX dmabufcp"
echo data >"$T_TMP/f"

t_run "--help lists the commands" 0 $D --help
t_grep "... copy is the default" 'copy .*\(default\)' "$T_TMP/out"
t_grep "... bench, heaps, ls" '^  bench' "$T_TMP/out"
t_run "no arguments" 2 $D
t_run "one argument" 2 $D "$T_TMP/f"
t_run "four arguments" 2 $D "$T_TMP/f" heap:system "$T_TMP/o" "$T_TMP/p"
t_run "two files, no buffer" 2 $D "$T_TMP/f" "$T_TMP/o"
t_grep "... says what is expected" 'heap:NAME, udmabuf or PID:FD' "$T_TMP/err"
t_run "a new buffer as the source" 2 $D heap:system "$T_TMP/o"
t_grep "... explains" 'holds no data' "$T_TMP/err"
t_run "two buffers" 2 $D heap:system udmabuf
t_run "unknown method" 2 $D -m fast "$T_TMP/f" udmabuf
t_grep "... names it and the methods" "--method: 'fast' is not one of auto, read, direct," "$T_TMP/err"
t_run "bad chunk size" 2 $D -s 0 "$T_TMP/f" udmabuf
t_run "bad chunk size suffix" 2 $D -s 3X "$T_TMP/f" udmabuf
t_run "negative hold" 2 $D --hold -1 "$T_TMP/f" udmabuf
t_run "unknown option" 2 $D --frobnicate "$T_TMP/f" udmabuf
t_run "copy on a sysroot" 3 $D --sysroot "$B" "$T_TMP/f" heap:system
t_grep "... needs the live kernel" 'needs the live kernel' "$T_TMP/err"
t_run "bench without FILE" 2 $D bench
t_run "bench --runs 0" 2 $D bench --runs 0 "$T_TMP/f"
t_grep "... names the bounds" "--runs: '0' is out of range \(1 to 1000\)" "$T_TMP/err"
t_run "bench --runs 1001" 2 $D bench --runs 1001 "$T_TMP/f"
t_run "chunk size clustered with -v" 2 $D -vs 3X "$T_TMP/f" udmabuf
t_grep "... names the value" "--chunk-size: '3X' is not a size" "$T_TMP/err"
t_run "copy --help" 0 $D copy --help
t_grep "... the methods and the default" 'rw-file-direct or copy-range \(default auto\)' "$T_TMP/out"
t_run "bench --help" 0 $D bench --help
tr -s ' \n' '  ' <"$T_TMP/out" >"$T_TMP/flat" # popt wraps the help at 79 columns
t_grep "... the default chunk size" 'as in the seed \(default 32M\)' "$T_TMP/flat"
t_grep "... the default runs" 'the median is shown \(default 5\)' "$T_TMP/flat"
t_run "bench with an unknown method" 2 $D bench -m auto "$T_TMP/f"
t_run "bench with a PID:FD buffer kind" 2 $D bench -b 1:2 "$T_TMP/f"
t_run "bench on a sysroot" 3 $D bench --sysroot "$B" "$T_TMP/f"
t_run "copy -H lists the transfer columns" 0 $D copy -H -r -n
t_grep "... METHOD" '^METHOD ' "$T_TMP/out"
t_grep "... FALLBACK" '^FALLBACK ' "$T_TMP/out"
t_run "bench -H lists the result columns" 0 $D bench -H -r -n
t_grep "... PCT_OF_FASTEST" '^PCT_OF_FASTEST ' "$T_TMP/out"
t_run "heaps takes no arguments" 2 $D heaps extra
t_run "ls takes no arguments" 2 $D ls extra --sysroot "$B"
t_run "--version" 0 $D --version
t_grep "... names socbox" 'dmabufcp \(socbox\)' "$T_TMP/out"
t_done
