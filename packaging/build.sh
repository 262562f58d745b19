#!/usr/bin/env bash
# Static release builds (CGO_ENABLED=0) and .deb packages, from the
# repository:
#
#   packaging/build.sh [VERSION]
#
# VERSION defaults to `git describe --tags --always --dirty`. Writes
# dist/fleetd-linux-{amd64,arm64,armv7} and dist/fleetd_<version>_<arch>.deb.
# Environment: OUT (dist), TARGETS ("amd64 arm64 arm/7"), DEB=0 skips the
# packages.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

version=${1:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
# Debian versions must start with a digit: v1.2.3 -> 1.2.3, abc123 -> 0.0.0+git.abc123.
deb_version=${version#v}
case $deb_version in
[0-9]*) ;;
*) deb_version="0.0.0+git.${deb_version}" ;;
esac
out=${OUT:-dist}
mkdir -p "$out"

for target in ${TARGETS:-amd64 arm64 arm/7}; do
	goarch=${target%/*}
	goarm=
	name=$goarch
	nfpm_arch=$goarch
	if [[ $target == arm/* ]]; then
		goarm=${target#arm/}
		name=armv$goarm
		nfpm_arch=arm$goarm
	fi
	bin="$out/fleetd-linux-$name"
	CGO_ENABLED=0 GOOS=linux GOARCH=$goarch GOARM=$goarm \
		go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$bin" .
	echo "built $bin ($(stat -c %s "$bin") bytes)"
	if [ "${DEB:-1}" = 1 ]; then
		BINARY=$bin ARCH=$nfpm_arch VERSION=$deb_version \
			go tool nfpm package --config packaging/nfpm.yaml --packager deb --target "$out/"
	fi
done
