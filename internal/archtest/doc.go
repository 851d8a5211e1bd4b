// Package archtest holds the module's architecture test: which packages
// each finished package may import (docs/architecture.md, "Import layers" and
// "Data flow": rules knows no hardware, dgt knows no games, nothing below
// cmd/dgtbridge knows NATS, serial ports or configuration). It has no
// code of its own; the table is in deps_test.go.
package archtest
