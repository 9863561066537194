#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian package, as a user gets it: dpkg-buildpackage -us -uc -b from the source tree
# (tracked and new files, no build directories), lintian clean, then installed with dpkg in
# a clean bookworm root (tests/pkg/debroot, an overlay on top so every run starts clean):
# socbox doctor runs, man -w finds the applets' pages, the links, completions and systemd
# units are where Debian puts them; purged, it leaves nothing behind. Then the arm64 and
# armhf cross builds (dpkg-buildpackage -a), whose binaries run under qemu-user.
. "$SOCBOX_TESTLIB"
src=$(cd "$SOCBOX_FIXTURES/../.." && pwd)
[ "$(id -u)" -eq 0 ] || { t_fail "needs root (chroot, mounts)"; t_done; }
for tool in dpkg-buildpackage:dpkg-dev dh:debhelper lintian:lintian debootstrap:debootstrap git:git; do
	t_need "${tool%%:*}" "${tool#*:}" || t_done
done

# the source as a tarball would have it
mkdir "$T_TMP/src"
(cd "$src" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -xf - -C "$T_TMP/src"
t_run "source tree copied" 0 test -f "$T_TMP/src/debian/rules"

build() { # ARCH: build in a copy of its own, keep the log
	rm -rf "$T_TMP/b-$1"
	cp -a "$T_TMP/src" "$T_TMP/b-$1"
	_a=
	[ "$1" = "$(dpkg --print-architecture)" ] || _a="-a $1"
	# shellcheck disable=SC2086
	(cd "$T_TMP/b-$1" && dpkg-buildpackage -us -uc -b -j2 $_a >"$T_TMP/build-$1.log" 2>&1)
}
native=$(dpkg --print-architecture)
start=$(date +%s)
if build "$native"; then
	t_ok "dpkg-buildpackage -us -uc -b ($native, $(($(date +%s) - start)) s)"
else
	t_fail "dpkg-buildpackage ($native): $(tail -5 "$T_TMP/build-$native.log")"
	t_done
fi
deb=$(ls "$T_TMP"/socbox_*_"$native".deb)
t_run "lintian is clean (pedantic included)" 0 lintian --fail-on error,warning,info,pedantic \
	--pedantic --color never "$T_TMP"/socbox_*_"$native".changes
[ -s "$T_TMP/out" ] && t_fail "lintian said: $(head -c 600 "$T_TMP/out")"
dpkg-deb -c "$deb" >"$T_TMP/contents"
for f in ./usr/bin/socbox ./usr/share/man/man1/smmustat.1.gz ./usr/share/bash-completion/completions/rpmsgctl \
	./lib/systemd/system/socbox-metrics.timer ./lib/systemd/system/socbox-metrics.service \
	./usr/share/socbox/prometheus/socbox.rules.yml; do
	t_grep "the package has $f" " $f( |$)" "$T_TMP/contents"
done
dpkg-deb -f "$deb" Description >"$T_TMP/description"
for a in $("$SOCBOX" --list); do
	t_grep "applet link $a -> socbox" " \./usr/bin/$a -> socbox$" "$T_TMP/contents"
	# the description's applet lines come from cmd/applets.def (debian/applets-substvar)
	t_grep "the description names $a" "^  - $a: " "$T_TMP/description"
done

# a clean root: the cached debootstrap, an overlay on top, /proc and /sys for doctor
pristine=$("$src/tests/pkg/debroot" 2>"$T_TMP/debroot.log") || { t_fail "clean root: $(tail -3 "$T_TMP/debroot.log")"; t_done; }
mkdir "$T_TMP/upper" "$T_TMP/work" "$T_TMP/root"
R=$T_TMP/root
cleanup_mounts() {
	for m in "$R/sys" "$R/proc" "$R"; do
		mountpoint -q "$m" 2>/dev/null && umount "$m"
	done
}
trap 'cleanup_mounts; t_cleanup' EXIT
trap 'exit 1' INT TERM HUP
t_run "overlay on the clean root" 0 mount -t overlay overlay -o "lowerdir=$pristine,upperdir=$T_TMP/upper,workdir=$T_TMP/work" "$R"
mount -t proc proc "$R/proc" && mount -o bind,ro /sys "$R/sys"
t_run "/proc and /sys in the root" 0 test -r "$R/proc/self/stat" -a -d "$R/sys/class"
cp "$deb" "$R/tmp/socbox.deb"
t_run "dpkg -i" 0 chroot "$R" dpkg -i /tmp/socbox.deb
rm "$R/tmp/socbox.deb"
t_run "socbox doctor in the root" 0 chroot "$R" socbox doctor
t_grep "doctor looked at the running kernel" "^kernel: $(uname -r)\$" "$T_TMP/out"
t_grep "doctor's table" '^netdev +(ok|partial|missing) ' "$T_TMP/out"
t_run "man -w smmustat" 0 chroot "$R" man -w smmustat
t_eq "the page Debian's way" "$(cat "$T_TMP/out")" /usr/share/man/man1/smmustat.1.gz
t_run "man -w socbox" 0 chroot "$R" man -w socbox
t_run "an applet through its link" 0 chroot "$R" rpmsgctl --version
t_grep "it is socbox" '^rpmsgctl \(socbox\) ' "$T_TMP/out"
t_run "bash completion where bash-completion looks" 0 test -f "$R/usr/share/bash-completion/completions/smmustat"
t_run "the timer where systemd looks" 0 test -f "$R/lib/systemd/system/socbox-metrics.timer"
t_run "and not enabled by the installation" 1 test -e "$R/etc/systemd/system/timers.target.wants/socbox-metrics.timer"
t_run "dpkg --purge" 0 chroot "$R" dpkg --purge socbox
t_run "gone" 1 test -e "$R/usr/bin/socbox"
# what the install and purge changed in the root, apart from dpkg's and man-db's books
(cd "$T_TMP/upper" && find . ! -type d) | grep -Ev '^\./var/(lib/dpkg|log|cache/man|cache/debconf)/' >"$T_TMP/left" || true
t_eq "nothing left behind" "$(cat "$T_TMP/left")" ""
t_run "no package file left in dpkg's books" 1 test -e "$R/var/lib/dpkg/info/socbox.list"
cleanup_mounts

# the boards: cross builds (skipped tests, as debhelper does when cross building), and the
# packaged binary runs under qemu-user
for arch in arm64:aarch64 armhf:arm; do
	start=$(date +%s)
	if build "${arch%%:*}"; then
		t_ok "dpkg-buildpackage -a ${arch%%:*} ($(($(date +%s) - start)) s)"
	else
		t_fail "dpkg-buildpackage -a ${arch%%:*}: $(tail -5 "$T_TMP/build-${arch%%:*}.log")"
		continue
	fi
	mkdir -p "$T_TMP/x-${arch%%:*}"
	dpkg-deb -x "$T_TMP"/socbox_*_"${arch%%:*}".deb "$T_TMP/x-${arch%%:*}"
	t_need "qemu-${arch#*:}" qemu-user || continue
	t_run "the ${arch%%:*} binary runs (qemu-${arch#*:})" 0 "qemu-${arch#*:}" "$T_TMP/x-${arch%%:*}/usr/bin/socbox" \
		doctor --sysroot "$SOCBOX_FIXTURES/am62x"
	t_grep "and reads the AM62x dump" '^rpmsg +ok +3 remoteprocs' "$T_TMP/out"
done
t_done
