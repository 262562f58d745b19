// Package traccarweb holds a browser check of fleetd's Traccar API: its
// test runs the real Traccar web app (traccar-web, built from its own
// checkout, which this repository does not contain) in headless Chromium
// against a real fleetd, walks every page and action a user takes, and
// writes a report of every failure. The test skips unless TRACCAR_WEB
// names the checkout or its build; README.md says how to run it.
package traccarweb
