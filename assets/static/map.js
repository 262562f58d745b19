// fleetd maps. fleetdMap.create(el) is the base of every map a page shows:
// Leaflet with the configured tiles (the element's data-tiles and
// data-attribution). The fleet page's map (#map with #fleet-data) is live:
// markers clustered by Leaflet.markercluster, moved and recoloured by the
// live socket (live.js), the list's cells and the status counts kept
// current, and a vehicle can be followed.
(function () {
	"use strict";

	// Worst last: a cluster takes the colour of its worst device.
	var severity = { online: 0, unknown: 1, offline: 2 };

	function statusOf(s) { return severity.hasOwnProperty(s) ? s : "unknown"; }

	function create(el, options) {
		var map = L.map(el, Object.assign({ worldCopyJump: true }, options)).setView([20, 0], 2);
		var credit = document.createElement("span"); // plain text, though Leaflet takes HTML
		credit.textContent = el.dataset.attribution || "";
		L.tileLayer(el.dataset.tiles, { maxZoom: 19, attribution: credit.innerHTML }).addTo(map);
		return map;
	}

	// text is s as a DOM node: Leaflet puts a string given to a tooltip or
	// popup in as HTML, and names are whatever their users typed.
	function text(s) {
		var span = document.createElement("span");
		span.textContent = s;
		return span;
	}

	function dotIcon(status, followed) {
		return L.divIcon({ className: "", iconSize: [14, 14], iconAnchor: [7, 7],
			html: '<div class="dot dot-' + statusOf(status) + (followed ? " dot-followed" : "") + '"></div>' });
	}

	function clusterIcon(cluster) {
		var worst = "online";
		cluster.getAllChildMarkers().forEach(function (m) {
			if (severity[m.options.status] > severity[worst]) worst = m.options.status;
		});
		return L.divIcon({ className: "cluster cluster-" + worst, iconSize: [36, 36],
			html: "<span>" + cluster.getChildCount() + "</span>" });
	}

	// ---- the fleet page's live map -----------------------------------------

	// fleet: { map, clusters, el, devices: {id: device}, rows: {id: tr},
	// follow: id or null, skew, speedFactor, speedUnit, stop, timer, watch }.
	// A device: { id, name, status, lastUpdate (ms), listed, position, marker }.
	var fleet = null;

	function readJSON(id) {
		var el = document.getElementById(id);
		if (!el) return [];
		try { return JSON.parse(el.textContent) || []; } catch (err) { return []; }
	}

	function ms(t) { return t ? Date.parse(t) || 0 : 0; }

	// ago matches the server's wording ("3 min ago"), on the server's clock.
	function ago(at) {
		if (!at) return "never";
		var s = Math.floor((Date.now() + fleet.skew - at) / 1000);
		if (s < 0) return "just now";
		if (s < 60) return s + " s ago";
		if (s < 3600) return Math.floor(s / 60) + " min ago";
		if (s < 48 * 3600) return Math.floor(s / 3600) + " h ago";
		return Math.floor(s / 86400) + " days ago";
	}

	function speedText(knots) { return Math.round(knots * fleet.speedFactor) + " " + fleet.speedUnit; }

	function latLng(p) { return [p.latitude, p.longitude]; }

	function popup(dev) {
		var box = document.createElement("div");
		var name = document.createElement("strong");
		name.textContent = dev.name;
		var line = document.createElement("div");
		line.textContent = dev.status + " · " + speedText(dev.position.speed) + " · " + ago(ms(dev.position.fixTime));
		var follow = document.createElement("button");
		follow.type = "button";
		follow.className = "link";
		follow.dataset.follow = dev.id;
		follow.textContent = fleet.follow === dev.id ? "Stop following" : "Follow";
		box.append(name, line, follow);
		return box;
	}

	function newMarker(dev) {
		var m = L.marker(latLng(dev.position), { title: dev.name, status: dev.status, icon: dotIcon(dev.status) });
		m.bindPopup(function () { return popup(dev); });
		return m;
	}

	// showRow brings the device's list row up to date.
	function showRow(dev) {
		var tr = fleet.rows[dev.id];
		if (!tr) return;
		var cell = function (name) { return tr.querySelector('[data-cell="' + name + '"]'); };
		var badge = cell("status").querySelector(".badge");
		badge.className = "badge status-" + dev.status;
		badge.textContent = dev.status;
		cell("updated").textContent = ago(dev.lastUpdate);
		if (!dev.position) return;
		var pos = cell("position"), p = dev.position;
		var focus = pos.querySelector("[data-focus]");
		focus.textContent = p.latitude.toFixed(5) + ", " + p.longitude.toFixed(5);
		focus.hidden = false;
		pos.querySelector("[data-follow]").hidden = false;
		pos.querySelector(".muted").hidden = true;
		cell("speed").textContent = speedText(p.speed);
	}

	function showCounts() {
		var counts = { total: 0 };
		Object.keys(fleet.devices).forEach(function (id) {
			var s = fleet.devices[id].status;
			counts[s] = (counts[s] || 0) + 1;
			counts.total++;
		});
		// A card counts the devices its link filters for; the one without a link, all.
		document.querySelectorAll("[data-live-counts] .stat").forEach(function (card) {
			var href = card.getAttribute("href");
			var key = href ? new URL(href, location.href).searchParams.get("status") : "total";
			card.querySelector(".stat-value").textContent = counts[key] || 0;
		});
	}

	function showFollow() {
		var dev = fleet.follow && fleet.devices[fleet.follow];
		var bar = document.getElementById("follow-bar");
		if (bar) {
			bar.hidden = !dev;
			bar.querySelector("strong").textContent = dev ? dev.name : "";
		}
		Object.keys(fleet.rows).forEach(function (id) {
			var on = dev && String(dev.id) === id;
			var b = fleet.rows[id].querySelector("[data-follow]");
			fleet.rows[id].classList.toggle("following", !!on);
			b.setAttribute("aria-pressed", on ? "true" : "false");
			b.textContent = on ? "Following" : "Follow";
		});
	}

	// The followed vehicle leaves its cluster: always on the map, marked and named.
	function follow(id) {
		var dev = fleet.devices[id];
		unfollow();
		if (!dev || !dev.marker) return;
		fleet.follow = dev.id;
		fleet.clusters.removeLayer(dev.marker);
		dev.marker.setIcon(dotIcon(dev.status, true)).setZIndexOffset(1000).addTo(fleet.map);
		dev.marker.bindTooltip(text(dev.name), { permanent: true, direction: "right", offset: [10, 0], className: "follow-label" });
		fleet.map.setView(dev.marker.getLatLng(), Math.max(fleet.map.getZoom(), 15));
		showFollow();
	}

	function unfollow() {
		var dev = fleet.follow && fleet.devices[fleet.follow];
		fleet.follow = null;
		if (dev && dev.marker) {
			dev.marker.unbindTooltip().remove();
			dev.marker.setIcon(dotIcon(dev.status)).setZIndexOffset(0);
			fleet.clusters.addLayer(dev.marker);
		}
		showFollow();
	}

	// sync starts the map afresh from #fleet-data: at load, and when the
	// filters (or a reconnection) swapped the list in.
	function sync(fit) {
		var followed = fleet.follow;
		if (followed) unfollow();
		fleet.clusters.clearLayers();
		fleet.devices = {};
		fleet.rows = {};
		document.querySelectorAll("#fleet-list tr[data-device]").forEach(function (tr) { fleet.rows[tr.dataset.device] = tr; });
		var markers = [];
		readJSON("fleet-data").forEach(function (d) {
			var dev = { id: d.id, name: d.name, status: statusOf(d.status), lastUpdate: ms(d.lastUpdate),
				listed: d.listed, position: d.position || null, marker: null };
			fleet.devices[d.id] = dev;
			if (dev.listed && dev.position) {
				dev.marker = newMarker(dev);
				markers.push(dev.marker);
			}
		});
		fleet.clusters.addLayers(markers);
		if (fit && markers.length) {
			fleet.map.fitBounds(L.latLngBounds(markers.map(function (m) { return m.getLatLng(); })), { padding: [30, 30], maxZoom: 15 });
		}
		if (followed) follow(followed);
		showCounts();
	}

	function applyDevice(d, changed) {
		var dev = fleet.devices[d.id];
		if (!dev) dev = fleet.devices[d.id] = { id: d.id, listed: false, position: null, marker: null };
		dev.name = d.name;
		dev.status = statusOf(d.status);
		dev.lastUpdate = Math.max(dev.lastUpdate || 0, ms(d.lastUpdate));
		if (dev.marker) {
			dev.marker.options.status = dev.status;
			dev.marker.setIcon(dotIcon(dev.status, fleet.follow === dev.id));
			changed.push(dev);
		}
		showRow(dev);
	}

	function applyPosition(p, changed) {
		var dev = fleet.devices[p.deviceId];
		// Devices the page does not know, and fixes older than the shown one
		// (a tracker sending what it stored offline), leave the map as it is.
		if (!dev || (dev.position && ms(p.fixTime) < ms(dev.position.fixTime))) return;
		dev.position = p;
		dev.lastUpdate = Math.max(dev.lastUpdate || 0, ms(p.serverTime));
		if (!dev.listed) return;
		if (dev.marker) {
			dev.marker.setLatLng(latLng(p));
		} else {
			dev.marker = newMarker(dev);
			fleet.clusters.addLayer(dev.marker);
		}
		changed.push(dev);
		showRow(dev);
		if (fleet.follow === dev.id) fleet.map.panTo(latLng(p));
	}

	// announce tells of an event one of the viewer's alerts sends to the web
	// (the socket carries only those): "Truck One: alarm (sos)".
	function announce(e) {
		var dev = fleet.devices[e.deviceId];
		if (!dev || !window.fleetdToast) return;
		var what = e.type.replace(/[A-Z]/g, function (c) { return " " + c.toLowerCase(); });
		if (e.attributes && e.attributes.alarm) what += " (" + e.attributes.alarm + ")";
		window.fleetdToast(dev.name + ": " + what);
	}

	function onMessage(msg) {
		if (!fleet) return;
		(msg.events || []).forEach(announce);
		var changed = [];
		(msg.devices || []).forEach(function (d) { applyDevice(d, changed); });
		(msg.positions || []).forEach(function (p) { applyPosition(p, changed); });
		changed.forEach(function (dev) { if (dev.marker.isPopupOpen()) dev.marker.getPopup().update(); });
		var clustered = changed.filter(function (dev) { return dev.id !== fleet.follow; });
		if (clustered.length) fleet.clusters.refreshClusters(clustered.map(function (dev) { return dev.marker; }));
		if (msg.devices) showCounts();
	}

	// tick keeps the "… ago" texts true between messages.
	function tick() {
		Object.keys(fleet.rows).forEach(function (id) {
			var dev = fleet.devices[id];
			if (dev) fleet.rows[id].querySelector('[data-cell="updated"]').textContent = ago(dev.lastUpdate);
		});
	}

	function initFleet(el) {
		if (typeof L === "undefined" || !L.markerClusterGroup) return;
		var map = create(el);
		var clusters = L.markerClusterGroup({ iconCreateFunction: clusterIcon, showCoverageOnHover: false, maxClusterRadius: 50 });
		map.addLayer(clusters);
		fleet = { map: map, clusters: clusters, el: el, devices: {}, rows: {}, follow: null,
			skew: (Number(el.dataset.now) || Date.now()) - Date.now(),
			speedFactor: Number(el.dataset.speedFactor) || 1, speedUnit: el.dataset.speedUnit || "" };
		el.dataset.ready = "true";
		document.getElementById("fleet-list").classList.add("live");
		sync(true);
		// Panning by hand (dragging, the arrow keys) ends following.
		map.on("dragstart", unfollow);
		map.on("keydown", function (e) { if (/^Arrow/.test(e.originalEvent.key)) unfollow(); });
		var state = document.querySelector(".map-wrap [data-live-state]");
		if (state) {
			state.hidden = false;
			state.textContent = "Connecting…";
			// Back from a lost connection: the statuses may have changed
			// meanwhile (positions come again on their own), so the list
			// is fetched anew.
			var was = state.dataset.liveState;
			fleet.watch = new MutationObserver(function () {
				var now = state.dataset.liveState;
				if (was === "offline" && now === "live") {
					htmx.ajax("GET", location.pathname + location.search, { target: "#fleet-list" });
				}
				was = now;
			});
			fleet.watch.observe(state, { attributes: true, attributeFilter: ["data-live-state"] });
		}
		fleet.stop = fleetdLive.on(onMessage);
		fleet.timer = setInterval(tick, 10000);
	}

	function dropFleet() {
		if (!fleet) return;
		fleet.stop();
		clearInterval(fleet.timer);
		if (fleet.watch) fleet.watch.disconnect();
		fleet.map.remove();
		fleet = null;
	}

	htmx.onLoad(function () {
		var el = document.getElementById("map");
		if (el && !el.dataset.ready && document.getElementById("fleet-data")) initFleet(el);
	});
	document.addEventListener("htmx:afterSwap", function (e) {
		if (fleet && e.detail.target && e.detail.target.id === "fleet-list") sync(false);
	});
	// A boosted navigation replaces the map element: start afresh there.
	document.addEventListener("htmx:beforeSwap", function (e) {
		if (e.detail.target === document.body) dropFleet();
	});
	document.addEventListener("click", function (e) {
		if (!fleet) return;
		var b = e.target.closest("[data-focus], [data-follow], [data-unfollow]");
		if (!b) return;
		if (b.dataset.unfollow !== undefined) return unfollow();
		var id = Number(b.dataset.focus || b.dataset.follow), dev = fleet.devices[id];
		if (!dev || !dev.marker) return;
		if (b.dataset.follow) {
			if (fleet.follow === id) unfollow(); else follow(id);
			fleet.map.closePopup();
		} else if (fleet.follow === id) {
			fleet.map.setView(dev.marker.getLatLng(), Math.max(fleet.map.getZoom(), 14));
			dev.marker.openPopup();
		} else {
			fleet.clusters.zoomToShowLayer(dev.marker, function () { dev.marker.openPopup(); });
		}
		if (b.closest("#fleet-list")) fleet.el.scrollIntoView({ behavior: "smooth", block: "center" });
	});

	// fleet() is the fleet page's live map while it is open (for other
	// scripts on the page, and the browser tests), else null.
	window.fleetdMap = { create: create, dotIcon: dotIcon, text: text, fleet: function () { return fleet; } };
})();
