// fleetd dashboard: htmx settings and error toasts (maps: map.js).
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
	window.fleetdToast = toast; // for the live pages' event notices

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
})();
