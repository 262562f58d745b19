// fleetd dashboard: the geofence map. The list page shows every geofence;
// the form shows its area and lets the user draw a polygon or a circle
// with Leaflet.draw (loaded only there), written to the area field as
// Traccar's WKT, latitude before longitude. Without JS the field is typed.
(function () {
	"use strict";

	var current = null; // { map, el }

	// parse reads Traccar's WKT: CIRCLE (lat lon, r), POLYGON ((lat lon, ...))
	// or LINESTRING (lat lon, ...); null when it is none of them.
	function parse(wkt) {
		var m = /^\s*(CIRCLE|POLYGON|LINESTRING)\s*\(+([^()]*)\)+\s*$/i.exec(wkt || "");
		if (!m) return null;
		var kind = m[1].toUpperCase(), parts = m[2].split(","), points = [];
		if (kind === "CIRCLE") {
			var c = parts[0].trim().split(/\s+/).map(Number), r = Number(parts[1]);
			if (parts.length !== 2 || c.length !== 2 || !(r > 0) || c.some(isNaN)) return null;
			return L.circle(c, { radius: r });
		}
		for (var i = 0; i < parts.length; i++) {
			var p = parts[i].trim().split(/\s+/).map(Number);
			if (p.length !== 2 || p.some(isNaN)) return null;
			points.push(p);
		}
		if (kind === "LINESTRING") return points.length > 1 ? L.polyline(points) : null;
		return points.length > 2 ? L.polygon(points) : null;
	}

	function coord(ll) {
		ll = ll.wrap();
		return +ll.lat.toFixed(6) + " " + +ll.lng.toFixed(6);
	}

	// wkt writes a drawn layer as Traccar's WKT.
	function wkt(layer) {
		if (layer instanceof L.Circle) {
			return "CIRCLE (" + coord(layer.getLatLng()) + ", " + +layer.getRadius().toFixed(1) + ")";
		}
		var points = layer.getLatLngs();
		if (layer instanceof L.Polygon) {
			points = points[0].concat([points[0][0]]); // one ring, closed
			return "POLYGON ((" + points.map(coord).join(", ") + "))";
		}
		return "LINESTRING (" + points.map(coord).join(", ") + ")";
	}

	function readData() {
		var el = document.getElementById("geofence-data");
		try { return JSON.parse(el.textContent) || {}; } catch (err) { return {}; }
	}

	// newMap starts the map with the viewer's vehicles on it, to draw
	// around; it shows them all until fit is given something to show.
	function newMap(el, data) {
		var map = window.fleetdMap.create(el);
		var dots = (data.vehicles || []).map(function (v) {
			return L.circleMarker([v.lat, v.lon], { radius: 5, weight: 2, className: "vehicle-dot" }).bindTooltip(window.fleetdMap.text(v.name)).addTo(map);
		});
		if (dots.length) map.fitBounds(L.featureGroup(dots).getBounds(), { padding: [30, 30], maxZoom: 13 });
		el.fleetdMap = map; // for the browser tests and the console
		el.dataset.ready = "true";
		current = { map: map, el: el };
		return map;
	}

	function fit(map, layers) {
		var bounds = L.latLngBounds([]);
		layers.forEach(function (l) { bounds.extend(l.getBounds()); });
		if (bounds.isValid()) map.fitBounds(bounds, { padding: [20, 20], maxZoom: 16 });
	}

	// showAll draws the list page's geofences, each linking to its form.
	function showAll(el, data) {
		var map = newMap(el, data), layers = [];
		(data.shapes || []).forEach(function (s) {
			var layer = parse(s.area);
			if (!layer) return;
			var link = document.createElement("a");
			link.href = s.url;
			link.textContent = s.name;
			layers.push(layer.bindPopup(link).addTo(map));
		});
		fit(map, layers);
	}

	// loadDraw brings in Leaflet.draw once, from the map's data attributes.
	function loadDraw(el, done) {
		if (L.Control.Draw) { done(); return; }
		var css = document.createElement("link");
		css.rel = "stylesheet";
		css.href = el.dataset.drawStyle;
		document.head.appendChild(css);
		var js = document.createElement("script");
		js.src = el.dataset.drawScript;
		js.onload = done;
		document.head.appendChild(js);
	}

	// editArea lets the user draw the form's area: a new drawing replaces
	// the old one, and the field follows every change.
	function editArea(el, field, data) {
		var map = newMap(el, data), drawn = new L.FeatureGroup().addTo(map);
		function show() {
			drawn.clearLayers();
			var layer = parse(field.value);
			if (layer) { drawn.addLayer(layer); fit(map, [layer]); }
		}
		function write() {
			var layers = drawn.getLayers();
			field.value = layers.length ? wkt(layers[0]) : "";
		}
		show();
		field.addEventListener("change", show);
		loadDraw(el, function () {
			if (current === null || current.map !== map) return; // the page went away meanwhile
			show(); // afresh: only shapes made after the plugin loaded are editable
			map.addControl(new L.Control.Draw({
				position: "topleft",
				draw: {
					polygon: { allowIntersection: false, showArea: false },
					rectangle: { showArea: false }, // its area tooltip fails on Leaflet 1.9
					circle: { showRadius: true },
					polyline: false, marker: false, circlemarker: false,
				},
				edit: { featureGroup: drawn },
			}));
			map.on(L.Draw.Event.CREATED, function (e) {
				drawn.clearLayers();
				drawn.addLayer(e.layer);
				write();
			});
			map.on([L.Draw.Event.EDITED, L.Draw.Event.DELETED, L.Draw.Event.EDITVERTEX,
				L.Draw.Event.EDITMOVE, L.Draw.Event.EDITRESIZE].join(" "), write);
			el.dataset.drawing = "true";
		});
	}

	htmx.onLoad(function () {
		var el = document.getElementById("geofence-map");
		if (!el || el.dataset.ready || typeof L === "undefined") return;
		var field = document.getElementById("geofence-area");
		if (field) editArea(el, field, readData());
		else showAll(el, readData());
	});
	// A boosted navigation replaces the map element: start afresh there.
	document.addEventListener("htmx:beforeSwap", function (e) {
		if (current && e.detail.target === document.body) { current.map.remove(); current = null; }
	});
})();
