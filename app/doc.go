// Package app is the facade of fleetd's core: Core builds the domain
// services (accounts, live, notify, office, fleet, ingest, ops) on one
// store, wires what they tell each other, and is what the adapters (web,
// protocols, the command line) hold. The rules live in the services'
// packages; docs/architecture.md draws them.
package app
