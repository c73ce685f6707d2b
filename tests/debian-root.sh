# SPDX-License-Identifier: Zlib
# tests/debian-root.sh: minimal Debian 12 roots to run commands in, as root
# in a chroot with its own mount and pid namespaces.  Sourced (bash) by
# tests/fresh-debian and tests/package-debian, which say how they use it.
#
# The caller sets PROG (its name, for messages) before sourcing this file.
# Environment:
#   FRESH_DEBIAN_CACHE   directory kept between runs (default
#                        /var/cache/rc-fresh-debian; empty: keep nothing):
#                        the debootstrap result as minbase-bookworm.tar.gz, and
#                        the packages apt downloads in the roots (apt's
#                        archive directory, bind-mounted), so a rerun
#                        downloads less
#   FRESH_DEBIAN_MIRROR  Debian mirror (default http://deb.debian.org/debian)
#
# droot_make ROOT LOG    makes ROOT (a new directory) a minimal Debian 12:
#                        debootstrap --variant=minbase bookworm, or the
#                        cached copy of its result
# droot_copy_tree TOP DEST WORKTREE
#                        copies the project at TOP into DEST as a fresh clone
#                        has it: HEAD (git archive), or with WORKTREE=1 the
#                        working tree (tracked and untracked files that git
#                        does not ignore)
# droot_enter ARGS...    runs "$0 --inside ARGS..." in new mount and pid
#                        namespaces: every process left behind is killed when
#                        it ends
# droot_mount ROOT       (inside) mounts /proc, /sys, a private /dev/pts and
#                        /dev/shm and the apt cache in ROOT, all unmounted
#                        when the script exits
# droot_sh ROOT SCRIPT [ARG...]
#                        runs SCRIPT with bash in ROOT as a fresh root login
#                        would (bash -l, the distribution's PATH, no locale)

droot_cache=${FRESH_DEBIAN_CACHE-/var/cache/rc-fresh-debian}
droot_mirror=${FRESH_DEBIAN_MIRROR:-http://deb.debian.org/debian}
droot_apt_cache=
[ -n "$droot_cache" ] && droot_apt_cache=$droot_cache/apt-archives

droot_make() {
	local root=$1 log=$2 tarball=
	if [ -n "$droot_cache" ]; then
		mkdir -p "$droot_apt_cache/partial" || return 1
		tarball=$droot_cache/minbase-bookworm.tar.gz
	fi
	mkdir "$root" || return 1
	if [ -n "$tarball" ] && [ -s "$tarball" ]; then
		echo "$PROG: minimal Debian 12 root from $tarball"
		tar -C "$root" -xzf "$tarball" || { echo "$PROG: cannot unpack $tarball"; return 1; }
	else
		echo "$PROG: debootstrap --variant=minbase bookworm $root $droot_mirror"
		debootstrap --variant=minbase bookworm "$root" "$droot_mirror" >"$log" 2>&1 ||
			{ tail -n 20 "$log"; echo "$PROG: debootstrap failed (log: $log)"; return 1; }
		if [ -n "$tarball" ]; then
			tar -C "$root" -czf "$tarball.tmp.$$" . && mv "$tarball.tmp.$$" "$tarball" &&
				echo "$PROG: cached the root in $tarball"
		fi
	fi
	# What an installed Debian 12 has beside debootstrap's one line: updates
	# and security; and a name server.
	cat >"$root/etc/apt/sources.list" <<EOF
deb $droot_mirror bookworm main
deb $droot_mirror bookworm-updates main
deb http://security.debian.org/debian-security bookworm-security main
EOF
	cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
	return 0
}

droot_copy_tree() {
	local top=$1 dest=$2 worktree=$3
	mkdir -p "$dest" || return 1
	if [ "$worktree" = 1 ]; then
		echo "$PROG: copying the working tree of $top"
		(cd "$top" && git ls-files -z --cached --others --exclude-standard |
			xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
			tar --null -T - -cf -) | tar -C "$dest" -xf -
	else
		echo "$PROG: copying $(git -C "$top" rev-parse --short HEAD) (git archive HEAD)"
		git -C "$top" archive HEAD | tar -C "$dest" -xf -
	fi
}

droot_enter() {
	unshare --mount --pid --fork --kill-child "$0" --inside "$@"
}

# The root is bind-mounted on itself first, so that / in the chroot is a
# mount point: unshare -m there (tests/constrained) fails without it.
droot_mount() {
	local root=$1
	mount --make-rprivate / || { echo "$PROG: cannot make the mounts private"; return 1; }
	droot_mounted=$root
	trap droot_unmount EXIT
	if ! { mount --bind "$root" "$root" &&
		mount -t proc proc "$root/proc" &&
		mount -t sysfs sysfs "$root/sys" &&
		mount -t devpts -o newinstance,ptmxmode=0666,mode=0620,gid=5 devpts "$root/dev/pts" &&
		mount --bind "$root/dev/pts/ptmx" "$root/dev/ptmx" &&
		mount -t tmpfs -o mode=1777 tmpfs "$root/dev/shm"; }; then
		echo "$PROG: cannot mount /proc, /sys, /dev/pts or /dev/shm in $root"
		return 1
	fi
	if [ -n "$droot_apt_cache" ] && ! mount --bind "$droot_apt_cache" "$root/var/cache/apt/archives"; then
		echo "$PROG: cannot mount $droot_apt_cache on $root/var/cache/apt/archives"
		return 1
	fi
}

# Unmount everything under the root, deepest first.
droot_unmount() {
	local m
	awk -v r="$droot_mounted" '$5 == r || index($5, r "/") == 1 { print $5 }' /proc/self/mountinfo |
		sort -r | while read -r m; do umount -l "$m" || echo "$PROG: cannot unmount $m"; done
}

droot_sh() {
	local root=$1 script=$2 chroot
	shift 2
	chroot=$(command -v chroot)
	env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash TERM="${TERM:-dumb}" \
		"$chroot" "$root" /bin/bash -l -c "$script" bash "$@"
}
