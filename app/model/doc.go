// Package model is fleetd's shared kernel: the entity types every domain
// and adapter speaks (users, devices, positions, events...), the one error
// type with its classes, and the store interfaces with their transaction.
// It depends on nothing else of fleetd, so every package may import it.
package model
