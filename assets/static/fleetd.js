// fleetd dashboard: htmx settings, error toasts and the fleet map.
// Everything here is progressive: pages work without it, only less smoothly.
(function () {
	"use strict";

	// Forms answer 4xx with the form and its problem: swap those in too.
	htmx.config.responseHandling = [
		{ code: "204", swap: false },
		{ code: "[23]..", swap: true },
		{ code: "4..", swap: true },
		{ code: "...", swap: false, error: true },
	];

	function toast(text) {
		var t = document.getElementById("toast");
		if (!t) return;
		t.textContent = text;
		clearTimeout(toast.timer);
		toast.timer = setTimeout(function () { t.textContent = ""; }, 5000);
	}
	document.addEventListener("htmx:responseError", function (e) {
		toast("The server could not complete the request (HTTP " + e.detail.xhr.status + ").");
	});
	document.addEventListener("htmx:sendError", function () {
		toast("The server cannot be reached. Check the connection and try again.");
	});

	// On a phone the navigation bar scrolls sideways: bring the current
	// page's entry into view.
	htmx.onLoad(function () {
		var active = document.querySelector(".nav a.active");
		if (active && active.scrollIntoView) active.scrollIntoView({ block: "nearest", inline: "center" });
	});

	// ---- fleet map --------------------------------------------------------

	var fleetMap = null; // { map, markers: {id: marker}, el }

	function readPoints() {
		var el = document.getElementById("fleet-data");
		if (!el) return [];
		try { return JSON.parse(el.textContent) || []; } catch (err) { return []; }
	}

	function dotIcon(status) {
		return L.divIcon({ className: "", html: '<div class="dot dot-' + status + '"></div>', iconSize: [14, 14], iconAnchor: [7, 7] });
	}

	function popup(p) {
		var box = document.createElement("div");
		var name = document.createElement("strong");
		name.textContent = p.name;
		var line = document.createElement("div");
		line.textContent = p.status + " · " + p.speed + " · " + p.time;
		box.appendChild(name);
		box.appendChild(line);
		return box;
	}

	function showPoints(fit) {
		if (!fleetMap) return;
		var points = readPoints(), seen = {}, bounds = [];
		points.forEach(function (p) {
			seen[p.id] = true;
			bounds.push([p.lat, p.lon]);
			var m = fleetMap.markers[p.id];
			if (!m) {
				m = L.marker([p.lat, p.lon], { title: p.name, alt: p.name }).addTo(fleetMap.map);
				fleetMap.markers[p.id] = m;
			}
			m.setLatLng([p.lat, p.lon]).setIcon(dotIcon(p.status)).bindPopup(popup(p));
		});
		Object.keys(fleetMap.markers).forEach(function (id) {
			if (!seen[id]) { fleetMap.markers[id].remove(); delete fleetMap.markers[id]; }
		});
		if (fit && bounds.length) fleetMap.map.fitBounds(bounds, { padding: [30, 30], maxZoom: 15 });
	}

	function initMap(el) {
		if (typeof L === "undefined") return;
		var map = L.map(el, { worldCopyJump: true }).setView([20, 0], 2);
		L.tileLayer(el.dataset.tiles, { maxZoom: 19, attribution: el.dataset.attribution }).addTo(map);
		fleetMap = { map: map, markers: {}, el: el };
		el.dataset.ready = "true";
		showPoints(true);
	}

	htmx.onLoad(function () {
		var el = document.getElementById("map");
		if (el && !el.dataset.ready) initMap(el);
	});
	document.addEventListener("htmx:afterSwap", function (e) {
		if (e.detail.target && e.detail.target.id === "fleet-list") showPoints(false);
	});
	document.addEventListener("click", function (e) {
		var b = e.target.closest("[data-focus]");
		if (!b || !fleetMap) return;
		var m = fleetMap.markers[b.dataset.focus];
		if (m) {
			fleetMap.map.setView(m.getLatLng(), Math.max(fleetMap.map.getZoom(), 14));
			m.openPopup();
			fleetMap.el.scrollIntoView({ behavior: "smooth", block: "center" });
		}
	});
	// A boosted navigation replaces the map element: start afresh there.
	document.addEventListener("htmx:beforeSwap", function (e) {
		if (fleetMap && e.detail.target === document.body) { fleetMap.map.remove(); fleetMap = null; }
	});
})();
