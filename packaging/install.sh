#!/bin/sh
# Install fleetd on a bare Debian/Ubuntu/Raspberry Pi OS machine as a
# systemd service, from a release binary or a .deb built with
# packaging/build.sh:
#
#   sudo sh install.sh fleetd_1.0.0_arm64.deb
#   sudo sh install.sh fleetd-linux-armv7
#
# Without an argument it picks dist/fleetd_*_<this machine's arch>.deb or
# dist/fleetd-linux-<arch>. Run it again to upgrade; the config is kept.
set -eu

die() { echo "install.sh: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "run as root (sudo sh install.sh ...)"
command -v systemctl >/dev/null || die "systemd is required"

case $(uname -m) in
x86_64) arch=amd64 deb_arch=amd64 ;;
aarch64 | arm64) arch=arm64 deb_arch=arm64 ;;
armv7l | armv8l) arch=armv7 deb_arch=armhf ;;
*) die "unsupported machine $(uname -m): build from source" ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
src=${1:-}
if [ -z "$src" ]; then
	for f in "$here"/dist/fleetd_*_"$deb_arch".deb "$here"/../dist/fleetd_*_"$deb_arch".deb \
		"$here"/dist/fleetd-linux-"$arch" "$here"/../dist/fleetd-linux-"$arch"; do
		[ -e "$f" ] && src=$f && break
	done
	[ -n "$src" ] || die "no package or binary for $arch found; give its path"
fi
[ -f "$src" ] || die "$src: no such file"

case $src in
*.deb)
	# dpkg runs the package's scripts: user, state directory, service.
	dpkg -i "$src"
	;;
*)
	install -m 0755 "$src" /usr/bin/fleetd
	/usr/bin/fleetd version >/dev/null || die "$src does not run on this machine"
	getent group fleetd >/dev/null || groupadd --system fleetd
	getent passwd fleetd >/dev/null || useradd --system --gid fleetd --home-dir /var/lib/fleetd \
		--no-create-home --shell /usr/sbin/nologin fleetd
	install -d -m 0700 -o fleetd -g fleetd /var/lib/fleetd
	install -d -m 0755 /etc/fleetd
	if [ ! -e /etc/fleetd/fleetd.yaml ]; then
		install -m 0640 -g fleetd "$here/deb/fleetd.yaml" /etc/fleetd/fleetd.yaml
	fi
	install -m 0644 "$here/systemd/fleetd.service" /etc/systemd/system/fleetd.service
	systemctl daemon-reload
	systemctl enable fleetd.service
	systemctl restart fleetd.service
	;;
esac

systemctl is-active --quiet fleetd.service || die "fleetd did not start: journalctl -u fleetd"
echo "fleetd is running. Web and API: http://$(hostname -I 2>/dev/null | cut -d' ' -f1):8082/"
echo "First administrator password (first start only): journalctl -u fleetd | grep password"
