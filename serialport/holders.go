package serialport

// Holder is a process that has a serial port open ([Holders]).
type Holder struct {
	PID     int
	Command string // the program's name, "?" when it cannot be read
}
