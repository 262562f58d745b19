#!/bin/sh
# fleetd package: create the service user and state, start the service.
set -e

if ! getent group fleetd >/dev/null; then
	groupadd --system fleetd
fi
if ! getent passwd fleetd >/dev/null; then
	useradd --system --gid fleetd --home-dir /var/lib/fleetd --no-create-home \
		--shell /usr/sbin/nologin --comment "fleetd GPS tracking server" fleetd
fi
install -d -m 0700 -o fleetd -g fleetd /var/lib/fleetd
# The config may hold secrets (admin password, metrics token).
chgrp fleetd /etc/fleetd/fleetd.yaml
chmod 0640 /etc/fleetd/fleetd.yaml

if [ -d /run/systemd/system ]; then
	systemctl daemon-reload
	systemctl enable fleetd.service >/dev/null
	# An upgrade restarts the new binary; the store is migrated, with a
	# backup copy first, on its start.
	systemctl restart fleetd.service
fi
