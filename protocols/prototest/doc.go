// Package prototest holds the test support the device protocol packages
// share: hex fixtures, running Split the way the listener does, the fuzz
// split-and-decode loop, position and result expectations, and encode
// tables. It is imported from _test.go files only.
package prototest
