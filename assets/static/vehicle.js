// fleetd vehicle page: the vehicle's live position and state (from the
// shared live feed, fleetdLive), its route over the range shown (JSON from
// the page's /route) and the route's replay. The page shows its facts and
// tables without this; the map and the replay need it.
// window.fleetdVehicle tells where the markers are (the browser tests read it).
(function () {
	"use strict";

	var page = null; // { data, map, live, line, replay, points, index, timer, el }

	function readData() {
		var el = document.getElementById("vehicle-data");
		if (!el) return null;
		try { return JSON.parse(el.textContent); } catch (err) { return null; }
	}

	function dotIcon(kind) {
		var safe = String(kind).replace(/[^a-z]/g, "");
		return L.divIcon({ className: "", html: '<div class="dot dot-' + safe + '"></div>', iconSize: [14, 14], iconAnchor: [7, 7] });
	}

	// ---- formatting in the viewer's units and zone ---------------------------

	function timeText(iso) {
		var t = new Date(iso);
		if (!iso || isNaN(t)) return "–";
		var opts = { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit",
			hour12: page.data.twelveHour, timeZoneName: "short" }, parts = {};
		var fmt;
		try { fmt = new Intl.DateTimeFormat("en-GB", Object.assign({ timeZone: page.data.zone }, opts)); }
		catch (err) { fmt = new Intl.DateTimeFormat("en-GB", Object.assign({ timeZone: "UTC" }, opts)); }
		fmt.formatToParts(t).forEach(function (p) { parts[p.type] = p.value; });
		var clock = parts.hour + ":" + parts.minute + (parts.dayPeriod ? " " + parts.dayPeriod.toUpperCase() : "");
		return parts.year + "-" + parts.month + "-" + parts.day + " " + clock + " " + parts.timeZoneName;
	}

	function speedText(knots) { return (knots * page.data.speedFactor).toFixed(0) + " " + page.data.speedUnit; }

	function attrText(kind, v) {
		if (typeof v === "boolean") return v ? "on" : "off";
		if (typeof v !== "number") return String(v);
		switch (kind) {
		case "percent": return v.toFixed(0) + " %";
		case "volts": return v.toFixed(1) + " V";
		case "distance": return (v * page.data.distanceFactor).toFixed(1) + " " + page.data.distanceUnit;
		}
		return String(v);
	}

	function words(name) { return String(name || "").replace(/([A-Z])/g, " $1").toLowerCase(); }

	function setLive(field, text) {
		var el = document.querySelector('[data-live="' + field + '"]');
		if (el) { el.textContent = text; el.classList.remove("muted"); }
	}

	// ---- live ----------------------------------------------------------------

	function showPosition(p) {
		var at = [p.latitude, p.longitude];
		if (!page.live) page.live = L.marker(at, { icon: dotIcon(page.status), title: "Now", zIndexOffset: 1000 }).addTo(page.map);
		else page.live.setLatLng(at);
		setLive("speed", speedText(p.speed));
		setLive("time", timeText(p.fixTime));
		setLive("coords", p.latitude.toFixed(5) + ", " + p.longitude.toFixed(5));
		setLive("address", p.address || "–");
		var attrs = p.attributes || {};
		page.data.attributes.forEach(function (spec) {
			var el = document.querySelector('[data-attr="' + spec.key + '"]');
			if (el && attrs[spec.key] !== undefined && attrs[spec.key] !== null) el.textContent = attrText(spec.kind, attrs[spec.key]);
		});
	}

	function showDevice(d) {
		page.status = d.status;
		var el = document.querySelector('[data-live="status"]');
		if (el) {
			var badge = document.createElement("span");
			badge.className = "badge status-" + String(d.status).replace(/[^a-z]/g, "");
			badge.textContent = d.status;
			el.replaceChildren(badge);
		}
		if (d.lastUpdate) setLive("lastUpdate", timeText(d.lastUpdate));
		if (page.live) page.live.setIcon(dotIcon(d.status));
	}

	function addEvent(e) {
		var rows = document.getElementById("event-rows");
		if (!rows) return;
		var tr = document.createElement("tr"), alarm = e.attributes && e.attributes.alarm;
		[["Time", timeText(e.eventTime)], ["Event", words(e.type)], ["Detail", words(alarm)]].forEach(function (cell) {
			var td = document.createElement("td"), text = td;
			td.dataset.label = cell[0];
			if (cell[0] === "Event" && e.type === "alarm") { // as the page marks alarms
				text = document.createElement("span");
				text.className = "badge status-offline";
				td.appendChild(text);
			}
			text.textContent = cell[1];
			tr.appendChild(td);
		});
		rows.insertBefore(tr, rows.firstChild);
		var none = document.getElementById("no-events");
		if (none) none.remove();
	}

	function onLive(msg) {
		if (!page) return;
		var id = page.data.id;
		(msg.devices || []).forEach(function (d) { if (d.id === id) showDevice(d); });
		(msg.positions || []).forEach(function (p) { if (p.deviceId === id) showPosition(p); });
		(msg.events || []).forEach(function (e) { if (e.deviceId === id && page.data.liveEvents) addEvent(e); });
	}

	// ---- route and replay ----------------------------------------------------

	function control(name) { return document.querySelector('[data-replay="' + name + '"]'); }

	function readout(text) {
		var el = control("readout");
		if (el) el.textContent = text;
	}

	function loadRoute() {
		var mine = page;
		fetch(page.data.routeUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
			.then(function (r) {
				return r.json().then(function (body) {
					if (!r.ok) throw new Error(body.description || body.message || "HTTP " + r.status);
					return body;
				});
			})
			.then(function (ans) { if (page === mine) showRoute(ans); })
			.catch(function (err) { if (page === mine) readout("The route could not be loaded: " + err.message); });
	}

	function showRoute(ans) {
		var box = document.getElementById("replay");
		if (box) box.hidden = false;
		page.points = ans.points || [];
		if (!page.points.length) { readout("No positions in this range."); return; }
		var lls = page.points.map(function (p) { return [p.lat, p.lon]; });
		page.line = L.polyline(lls, { className: "route-line", weight: 4, opacity: 0.85 }).addTo(page.map);
		page.map.fitBounds(page.line.getBounds(), { padding: [30, 30], maxZoom: 16, animate: false });
		page.replay = L.marker(lls[0], { icon: dotIcon("replay"), title: "Replay", zIndexOffset: 500 }).addTo(page.map);
		var scrub = control("scrub");
		scrub.max = String(page.points.length - 1);
		scrub.disabled = false;
		control("play").disabled = false;
		page.truncated = ans.truncated;
		seek(0);
	}

	function seek(i) {
		var p = page.points[i];
		page.index = i;
		page.replay.setLatLng([p.lat, p.lon]);
		control("scrub").value = String(i);
		readout(p.label + " · " + p.speed + " · " + (i + 1) + " of " + page.points.length +
			(page.truncated ? " (the first " + page.points.length + " positions of the range)" : ""));
	}

	// Replay steps through the positions, two a second at 1×.
	function tick() {
		if (!page) return;
		if (page.index >= page.points.length - 1) { pause(); return; }
		seek(page.index + 1);
		page.timer = setTimeout(tick, 500 / Number(control("speed").value || 1));
	}

	function play() {
		if (page.index >= page.points.length - 1) seek(0);
		control("play").textContent = "Pause";
		page.timer = setTimeout(tick, 500 / Number(control("speed").value || 1));
	}

	function pause() {
		clearTimeout(page.timer);
		page.timer = null;
		control("play").textContent = "Play";
	}

	function wireReplay() {
		control("play").addEventListener("click", function () { if (page.timer) pause(); else play(); });
		control("scrub").addEventListener("input", function (e) { if (page.points.length) seek(Number(e.target.value)); });
	}

	// ---- set-up ----------------------------------------------------------------

	function init(el) {
		var data = readData();
		if (typeof L === "undefined" || !data) return;
		var map = window.fleetdMap.create(el);
		page = { data: data, map: map, status: data.status, live: null, line: null, replay: null, points: [], index: 0, timer: null };
		el.dataset.ready = "true";
		if (data.position) {
			page.live = L.marker([data.position.lat, data.position.lon], { icon: dotIcon(data.status), title: "Now", zIndexOffset: 1000 }).addTo(map);
			map.setView([data.position.lat, data.position.lon], 14);
		} else {
			map.setView([20, 0], 2);
		}
		wireReplay();
		if (window.fleetdLive) window.fleetdLive.on(onLive);
		loadRoute();
	}

	function at(marker) {
		if (!marker) return null;
		var ll = marker.getLatLng();
		return [ll.lat, ll.lng];
	}

	window.fleetdVehicle = {
		liveAt: function () { return page && at(page.live); },
		replayAt: function () { return page && at(page.replay); },
		routePoints: function () { return page && page.line ? page.line.getLatLngs().length : 0; },
		playing: function () { return !!(page && page.timer); },
	};

	htmx.onLoad(function () {
		var el = document.getElementById("vehicle-map");
		if (el && !el.dataset.ready) init(el);
	});
	// A boosted navigation replaces the page (live.js drops its subscriber).
	document.addEventListener("htmx:beforeSwap", function (e) {
		if (page && e.detail.target === document.body) {
			clearTimeout(page.timer);
			page.map.remove();
			page = null;
		}
	});
})();
