#!/bin/sh
# fleetd package: stop the service before its files go (not on upgrade:
# postinstall of the new version restarts it).
set -e
if [ "$1" = remove ] && [ -d /run/systemd/system ]; then
	systemctl disable --now fleetd.service >/dev/null || true
fi
