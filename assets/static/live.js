// fleetd live feed: one WebSocket to /api/socket (Traccar's live updates,
// signed in by the dashboard's session cookie) shared by every part of a
// page that shows live data. Parts subscribe with fleetdLive.on(fn); fn gets
// each message ({"devices": [...]}, {"positions": [...]}, {"events": [...]}
// or {} as keep-alive). A boosted navigation drops the old page's
// subscribers and the socket closes when none remain. A lost socket is
// reopened with growing pauses; elements with data-live-state show whether
// the page is live.
(function () {
	"use strict";

	var subscribers = [], ws = null, pause = 1000, timer = null;

	function showState(state) {
		document.querySelectorAll("[data-live-state]").forEach(function (el) {
			el.dataset.liveState = state;
			el.textContent = state === "live" ? "Live" : "Reconnecting…";
		});
	}

	function connect() {
		timer = null;
		var scheme = location.protocol === "https:" ? "wss:" : "ws:";
		ws = new WebSocket(scheme + "//" + location.host + "/api/socket");
		ws.onopen = function () { pause = 1000; showState("live"); };
		ws.onmessage = function (e) {
			var msg;
			try { msg = JSON.parse(e.data); } catch (err) { return; }
			subscribers.slice().forEach(function (fn) { fn(msg); });
		};
		ws.onclose = function () {
			ws = null;
			if (!subscribers.length) return;
			showState("offline");
			timer = setTimeout(connect, pause);
			pause = Math.min(pause * 2, 30000);
		};
	}

	function close() {
		if (timer) { clearTimeout(timer); timer = null; }
		if (ws) { var old = ws; ws = null; old.onclose = null; old.close(); }
	}

	window.fleetdLive = {
		// on subscribes fn and returns the function that unsubscribes it.
		on: function (fn) {
			subscribers.push(fn);
			if (!ws && !timer) connect();
			return function () {
				subscribers = subscribers.filter(function (s) { return s !== fn; });
				if (!subscribers.length) close();
			};
		},
	};

	document.addEventListener("htmx:beforeSwap", function (e) {
		if (e.detail.target === document.body) { subscribers = []; close(); }
	});
})();
