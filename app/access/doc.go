// Package access holds fleetd's visibility rules, Traccar's permission
// model: who may see and change which object, decided inside the caller's
// transaction so the answer cannot go stale before the write it guards.
package access
