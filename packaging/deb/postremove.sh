#!/bin/sh
# fleetd package: on purge remove the service user. The store in
# /var/lib/fleetd is kept: it is the fleet's history.
set -e
if [ -d /run/systemd/system ]; then
	systemctl daemon-reload || true
fi
if [ "$1" = purge ]; then
	if getent passwd fleetd >/dev/null; then
		userdel fleetd || true
	fi
	if getent group fleetd >/dev/null; then
		groupdel fleetd || true
	fi
	if [ -d /var/lib/fleetd ]; then
		echo "fleetd: kept /var/lib/fleetd (the store); delete it yourself if it is no longer needed"
	fi
fi
