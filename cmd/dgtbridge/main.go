// Command dgtbridge reads electronic chess boards and clocks, turns what
// their sensors report into games, judges them by the event's rule set
// and publishes them over NATS. README.md and docs/ describe it;
// "dgtbridge help" lists the commands.
package main

import (
	"os"
)

func main() {
	os.Exit(mainExit(os.Args[1:], os.Stdout, os.Stderr))
}
