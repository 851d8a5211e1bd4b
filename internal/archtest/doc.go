// Package archtest holds the module's architecture test: which packages
// each finished package may import (conventions.md §0.1 and G1, design.md
// "Data flow": rules knows no hardware, dgt knows no games, nothing below
// cmd/dgtbridge knows NATS, serial ports or configuration). It has no
// code of its own; the table is in deps_test.go.
package archtest
